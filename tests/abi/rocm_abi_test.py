"""ROCm's binary interface: programs built against ROCm's libraries run on ours.

A stand-in for ROCm's libroctracer64.so.4 / libroctx64.so.4 (every exported
name, ROCm's version nodes, ROCm's SONAMEs) is built from rocm_*.map with the
system compiler; programs are linked against it with the system g++ and its
default flags, exactly as against ROCm, then run on our libraries.
"""

import os
import re
import subprocess
import sys
import tempfile
import unittest

(TRACER, ROCTX, ROCM_TRACER_MAP, ROCM_ROCTX_MAP, CLIENT, HEADER,
 ROCM_5_2_3_EXPORTS, CLIENT_5_2_3) = sys.argv[1:9]
del sys.argv[1:9]
INCLUDE = os.path.dirname(os.path.abspath(HEADER))


def nodes(map_path):
  """{version node: [names]} of a version script."""
  with open(map_path) as f:
    text = re.sub(r"/\*.*?\*/", "", f.read(), flags=re.S)
  result = {}
  for node, body in re.findall(r"([A-Za-z_][\w.]*)\s*\{(.*?)\}", text, re.S):
    global_part = body.split("local:")[0]
    result[node] = re.findall(r"^\s*([A-Za-z_]\w*)\s*;", global_part, re.M)
  return result


def exports(lib):
  """{name: [version strings as readelf prints them, e.g. '@@ROCTRACER_4.0']}"""
  out = subprocess.run(["readelf", "--dyn-syms", "-W", lib],
                       stdout=subprocess.PIPE, universal_newlines=True,
                       check=True).stdout
  result = {}
  for line in out.splitlines():
    f = line.split()
    if len(f) < 8 or f[6] == "UND" or f[4] not in ("GLOBAL", "WEAK"):
      continue
    m = re.match(r"([^@]+)(@@?.*)?$", f[7])
    result.setdefault(m.group(1), []).append(m.group(2) or "")
  return result


def run(cmd, **kw):
  p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                     universal_newlines=True, timeout=120, **kw)
  return p


def stand_in(map_path, soname, out_dir):
  """Builds a library that exports every name of map_path like ROCm's."""
  src = os.path.join(out_dir, soname + ".c")
  with open(src, "w") as f:
    for names in nodes(map_path).values():
      for n in names:
        if n == "HSA_AMD_TOOL_PRIORITY":
          f.write("const unsigned %s = 0;\n" % n)
        else:
          f.write("int %s(void) { return 0; }\n" % n)
  lib = os.path.join(out_dir, soname)
  p = run(["gcc", "-shared", "-fPIC", "-o", lib, src,
           "-Wl,-soname," + soname, "-Wl,--version-script=" + map_path])
  assert p.returncode == 0, p.stdout
  os.symlink(soname, os.path.join(out_dir, soname.rsplit(".", 1)[0]))


class RocmAbiTest(unittest.TestCase):

  @classmethod
  def setUpClass(cls):
    cls.tmp = tempfile.mkdtemp(dir=os.environ.get("TEST_TMPDIR"))
    cls.standin = os.path.join(cls.tmp, "standin")
    cls.ours = os.path.join(cls.tmp, "ours")
    os.mkdir(cls.standin)
    os.mkdir(cls.ours)
    stand_in(ROCM_TRACER_MAP, "libroctracer64.so.4", cls.standin)
    stand_in(ROCM_ROCTX_MAP, "libroctx64.so.4", cls.standin)
    # Our libraries under the names the programs' DT_NEEDED ask for.
    os.symlink(os.path.abspath(TRACER),
               os.path.join(cls.ours, "libroctracer64.so.4"))
    os.symlink(os.path.abspath(ROCTX), os.path.join(cls.ours, "libroctx64.so.4"))

  def link(self, src, out):
    # Default flags: Debian's g++ links --as-needed, as users get.
    p = run(["g++", src, "-I" + INCLUDE, "-L" + self.standin, "-lroctracer64",
             "-lroctx64", "-o", out])
    self.assertEqual(p.returncode, 0, p.stdout)
    return out

  def run_on_ours(self, binary):
    env = dict(os.environ, LD_LIBRARY_PATH=self.ours, LD_BIND_NOW="1")
    return run([binary], env=env)

  def check_versions(self, lib, rocm_map):
    have = exports(lib)
    rocm = nodes(rocm_map)
    for node, names in rocm.items():
      for n in names:
        self.assertEqual(have.get(n), ["@@" + node], n)
    # What ROCm does not export sits in nodes ROCm does not have.
    listed = {n for names in rocm.values() for n in names}
    for n, versions in have.items():
      if n in listed:
        continue
      for v in versions:
        self.assertNotIn(v.lstrip("@"), rocm, "%s%s" % (n, v))
    return have

  def test_tracer_symbol_versions_are_rocms(self):
    have = self.check_versions(TRACER, ROCM_TRACER_MAP)
    self.assertEqual(have.get("roctracer_get_dropped_records_expl"),
                     ["@@ROCTRACER_EXT_1"])
    # The private exports (the rocTX link, roctrace's GPU observer, tool
    # slot, exit finalizer and last words at a fatal signal) only in the
    # private node.
    private = sorted(n for n, v in have.items() if "@@ROCTRACER_PRIVATE" in v)
    self.assertEqual(private, [
        "roctracer_internal_created_stream",
        "roctracer_internal_gpu_add_observer",
        "roctracer_internal_gpu_remove_observer",
        "roctracer_internal_on_fatal_signal",
        "roctracer_internal_roctx_attach", "roctracer_internal_roctx_detach",
        "roctracer_internal_stream_ops",
        "roctracer_internal_tool_disable_op_callback",
        "roctracer_internal_tool_enable_domain_activity",
        "roctracer_internal_tool_enable_op_activity",
        "roctracer_internal_tool_enable_op_callback",
        "roctracer_internal_tool_finalize_at_exit",
        "roctracer_internal_tool_set_paused"
    ])

  def test_roctx_symbol_versions_are_rocms(self):
    self.check_versions(ROCTX, ROCM_ROCTX_MAP)

  def test_sonames_are_rocms(self):
    for lib, soname in ((TRACER, "libroctracer64.so.4"),
                        (ROCTX, "libroctx64.so.4")):
      out = run(["readelf", "-d", lib]).stdout
      self.assertEqual(re.findall(r"Library soname: \[(.*)\]", out), [soname])

  def test_program_built_against_rocm_runs_on_ours(self):
    client = self.link(CLIENT, os.path.join(self.tmp, "abi_client"))
    needed = run(["readelf", "-d", client]).stdout
    self.assertIn("Shared library: [libroctracer64.so.4]", needed)
    self.assertIn("Shared library: [libroctx64.so.4]", needed)
    # It recorded ROCm's versions, from both tracer nodes.
    dyn = run(["objdump", "-T", client]).stdout
    self.assertRegex(dyn, r"\(ROCTRACER_4\.0\)\s+roctracer_version_minor\b")
    self.assertRegex(dyn, r"\(ROCTRACER_4\.1\)\s+roctracer_open_pool\b")
    self.assertRegex(dyn, r"\(ROCTX_4\.1\)\s+roctxMarkA\b")
    p = self.run_on_ours(client)
    self.assertEqual(p.returncode, 0, p.stdout)
    self.assertIn("abi_client: 0 failures", p.stdout)

  def test_every_rocm_symbol_binds_on_ours(self):
    names = [n for m in (ROCM_TRACER_MAP, ROCM_ROCTX_MAP)
             for ns in nodes(m).values() for n in ns]
    src = os.path.join(self.tmp, "all_symbols.c")
    with open(src, "w") as f:
      f.write("#include <stdio.h>\n")
      for n in names:
        f.write("extern char %s[];\n" % n)
      f.write("static void* const kAll[] = {%s};\n" % ", ".join(names))
      f.write("int main(void) {\n  int missing = 0;\n"
              "  for (unsigned i = 0; i < sizeof kAll / sizeof *kAll; ++i)\n"
              "    missing += kAll[i] == 0;\n"
              "  printf(\"%d symbols, %d missing\\n\", "
              "(int)(sizeof kAll / sizeof *kAll), missing);\n"
              "  return missing != 0;\n}\n")
    binary = self.link(src, os.path.join(self.tmp, "all_symbols"))
    p = self.run_on_ours(binary)
    self.assertEqual(p.returncode, 0, p.stdout)
    self.assertIn("%d symbols, 0 missing" % len(names), p.stdout)


class Rocm523AbiTest(unittest.TestCase):
  """ROCm 5.2.3's libraries (SONAME .so.1, every name unversioned): a
  program built against them runs on ours under those names."""

  @classmethod
  def setUpClass(cls):
    cls.tmp = tempfile.mkdtemp(dir=os.environ.get("TEST_TMPDIR"))
    cls.standin = os.path.join(cls.tmp, "standin")
    cls.ours = os.path.join(cls.tmp, "ours")
    os.mkdir(cls.standin)
    os.mkdir(cls.ours)
    cls.exports = {}
    with open(ROCM_5_2_3_EXPORTS) as f:
      for line in f:
        if line.strip() and not line.startswith("#"):
          soname, name = line.split()
          cls.exports.setdefault(soname, []).append(name)
    for soname, names in cls.exports.items():
      src = os.path.join(cls.standin, soname + ".c")
      with open(src, "w") as f:
        for n in names:
          f.write("int %s(void) { return 0; }\n" % n)
      p = run(["gcc", "-shared", "-fPIC", "-o",
               os.path.join(cls.standin, soname), src, "-Wl,-soname," + soname])
      assert p.returncode == 0, p.stdout
      os.symlink(soname, os.path.join(cls.standin, soname.rsplit(".", 1)[0]))
    # Ours under 5.2.3's SONAMEs, as a compatibility link would name them.
    os.symlink(os.path.abspath(TRACER),
               os.path.join(cls.ours, "libroctracer64.so.1"))
    os.symlink(os.path.abspath(ROCTX), os.path.join(cls.ours, "libroctx64.so.1"))

  def link_and_run(self, src, name):
    binary = os.path.join(self.tmp, name)
    p = run(["g++", src, "-I" + INCLUDE, "-L" + self.standin, "-lroctracer64",
             "-lroctx64", "-o", binary])
    self.assertEqual(p.returncode, 0, p.stdout)
    env = dict(os.environ, LD_LIBRARY_PATH=self.ours, LD_BIND_NOW="1")
    return run([binary], env=env)

  def test_every_export_of_5_2_3_is_ours(self):
    for soname, lib in (("libroctracer64.so.1", TRACER),
                        ("libroctx64.so.1", ROCTX)):
      have = exports(lib)
      for n in self.exports[soname]:
        self.assertIn(n, have, "%s of %s" % (n, soname))

  def test_program_built_against_5_2_3_runs_on_ours(self):
    p = self.link_and_run(CLIENT_5_2_3, "abi_client_5_2_3")
    self.assertEqual(p.returncode, 0, p.stdout)
    self.assertIn("abi_client_5_2_3: 0 failures", p.stdout)

  def test_every_5_2_3_symbol_binds_on_ours(self):
    names = sorted({n for ns in self.exports.values() for n in ns})
    src = os.path.join(self.tmp, "all_5_2_3.c")
    with open(src, "w") as f:
      f.write("#include <stdio.h>\n")
      for n in names:
        f.write("extern char %s[];\n" % n)
      f.write("static void* const kAll[] = {%s};\n" % ", ".join(names))
      f.write("int main(void) {\n  printf(\"%d symbols\\n\", "
              "(int)(sizeof kAll / sizeof *kAll));\n  return 0;\n}\n")
    p = self.link_and_run(src, "all_5_2_3")
    self.assertEqual(p.returncode, 0, p.stdout)
    self.assertIn("%d symbols" % len(names), p.stdout)


if __name__ == "__main__":
  unittest.main()
