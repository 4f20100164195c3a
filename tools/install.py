"""Installs the libraries, headers, pkg-config and CMake files in ROCm's layout.

  bazel run //:install -- --prefix DIR

DIR/lib: libroctracer64.so.4.1.0 with the links libroctracer64.so.4 (the
SONAME, what programs load), libroctracer64.so (what -lroctracer64 finds)
and libroctracer64.so.1 (the name up to ROCm 5.2), the same for libroctx64; librocprofiler-sdk.so.1.0.0 with its links (the
rocprofiler-sdk name of the same tracer, sdk/BUILD.bazel) and
librocprofiler-sdk-roctx.so.1.0.0 with its links (the same rocTX);
lib/pkgconfig/{roctracer,roctx,rocprofiler-sdk,rocprofiler-sdk-roctx}.pc;
lib/cmake/roctracer/ (find_package(roctracer)), lib/cmake/rocprofiler-sdk/
(find_package(rocprofiler-sdk), with Modules/Findlibdw.cmake) and lib/cmake/rocprofiler-sdk-roctx/
(find_package(rocprofiler-sdk-roctx)); bin/roctrace with its tool
library lib/libroctrace_tool.so (roctrace finds it, and libroctracer64.so.4,
in ../lib).
DIR/include/roctracer: the roctracer and rocTX headers with the generated
headers they include; DIR/include/rocprofiler-sdk*: the rocprofiler-sdk ones.

The files come from //:install_manifest (their paths in this program's
runfiles); where each goes is decided here from that path.
"""

import argparse
import os
import shutil
import sys

VERSION = "4.1.0"
# rocprofiler-sdk's release, for its library and package.
SDK_VERSION = "1.0.0"


def runfiles_root():
  # tools/install.py inside <runfiles>/<workspace>/.
  return os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def header_destination(path):
  """Install path of a header under include/, or None for a non-header."""
  if not path.endswith((".h", ".hpp")):
    return None
  for source_root in ("codegen/sdk/", "codegen/", "include/"):
    if path.startswith(source_root):
      rel = path[len(source_root):]
      break
  else:
    raise SystemExit("install: no rule for " + path)
  # rocprofiler-sdk and rocprofiler-sdk-roctx sit beside roctracer/, as in
  # ROCm; everything else is roctracer's.
  if rel.split("/", 1)[0].startswith("rocprofiler-sdk"):
    return rel
  return os.path.join("roctracer", rel)


def copy(src, dst, mode):
  os.makedirs(os.path.dirname(dst), exist_ok=True)
  if os.path.lexists(dst):
    os.remove(dst)
  shutil.copyfile(src, dst)
  os.chmod(dst, mode)


def link(target, name):
  if os.path.lexists(name):
    os.remove(name)
  os.symlink(target, name)


def install_library(src, libdir):
  """lib.so.4 -> lib.so.4.1.0 (file), lib.so.4 and lib.so (links)."""
  soname = os.path.basename(src)
  devname = soname.rsplit(".", 1)[0]
  version = SDK_VERSION if soname.startswith("librocprofiler-sdk") else VERSION
  real = devname + "." + version
  copy(src, os.path.join(libdir, real), 0o755)
  link(real, os.path.join(libdir, soname))
  link(soname, os.path.join(libdir, devname))
  # ROCm up to 5.2 named them libroctracer64.so.1 and libroctx64.so.1: what
  # programs and wheels built against those releases load.
  if devname in ("libroctracer64.so", "libroctx64.so"):
    link(soname, os.path.join(libdir, devname + ".1"))


def install_template(root, name, dst, version=VERSION):
  with open(os.path.join(root, "tools", "install", name + ".in")) as f:
    text = f.read()
  text = text.replace("@VERSION_MAJOR@", version.split(".")[0])
  text = text.replace("@VERSION@", version)
  os.makedirs(os.path.dirname(dst), exist_ok=True)
  with open(dst, "w") as f:
    f.write(text)


def main():
  parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
  parser.add_argument("--prefix", required=True, help="installation root")
  args = parser.parse_args()
  # `bazel run` starts us in the runfiles tree: a relative prefix means the
  # user's directory.
  prefix = os.path.join(os.environ.get("BUILD_WORKING_DIRECTORY", os.getcwd()),
                        args.prefix)
  prefix = os.path.abspath(prefix)
  root = runfiles_root()
  libdir = os.path.join(prefix, "lib")
  count = 0
  with open(os.path.join(root, "install_manifest.txt")) as f:
    for path in f.read().split():
      src = os.path.join(root, path)
      name = os.path.basename(path)
      if name == "roctrace":
        copy(src, os.path.join(prefix, "bin", name), 0o755)
      elif name in ("libroctrace_tool.so", "libroctrace_mpi.so"):
        copy(src, os.path.join(libdir, name), 0o755)
      elif name.startswith("lib") and ".so." in path:
        install_library(src, libdir)
      else:
        rel = header_destination(path)
        if rel is None:
          continue
        copy(src, os.path.join(prefix, "include", rel), 0o644)
      count += 1
  install_template(root, "roctracer.pc", os.path.join(libdir, "pkgconfig",
                                                      "roctracer.pc"))
  install_template(root, "roctx.pc", os.path.join(libdir, "pkgconfig",
                                                  "roctx.pc"))
  cmake_dir = os.path.join(libdir, "cmake", "roctracer")
  install_template(root, "roctracer-config.cmake",
                   os.path.join(cmake_dir, "roctracer-config.cmake"))
  install_template(root, "roctracer-config-version.cmake",
                   os.path.join(cmake_dir, "roctracer-config-version.cmake"))
  install_template(root, "rocprofiler-sdk.pc",
                   os.path.join(libdir, "pkgconfig", "rocprofiler-sdk.pc"),
                   SDK_VERSION)
  sdk_cmake_dir = os.path.join(libdir, "cmake", "rocprofiler-sdk")
  install_template(root, "rocprofiler-sdk-config.cmake",
                   os.path.join(sdk_cmake_dir, "rocprofiler-sdk-config.cmake"),
                   SDK_VERSION)
  # find_package(libdw) for tools using cxx/codeobj, as 1.0.0's package
  # offers it.
  install_template(root, "Findlibdw.cmake",
                   os.path.join(sdk_cmake_dir, "Modules", "Findlibdw.cmake"))
  # The version check is roctracer's, with the SDK's version.
  install_template(
      root, "roctracer-config-version.cmake",
      os.path.join(sdk_cmake_dir, "rocprofiler-sdk-config-version.cmake"),
      SDK_VERSION)
  install_template(root, "rocprofiler-sdk-roctx.pc",
                   os.path.join(libdir, "pkgconfig", "rocprofiler-sdk-roctx.pc"),
                   SDK_VERSION)
  roctx_cmake_dir = os.path.join(libdir, "cmake", "rocprofiler-sdk-roctx")
  install_template(
      root, "rocprofiler-sdk-roctx-config.cmake",
      os.path.join(roctx_cmake_dir, "rocprofiler-sdk-roctx-config.cmake"),
      SDK_VERSION)
  install_template(
      root, "roctracer-config-version.cmake",
      os.path.join(roctx_cmake_dir,
                   "rocprofiler-sdk-roctx-config-version.cmake"), SDK_VERSION)
  print("install: %d files into %s" % (count, prefix))
  return 0


if __name__ == "__main__":
  try:
    sys.exit(main())
  except OSError as e:
    sys.exit("install: %s" % e)
