"""`rocm_repository`: the ROCm headers and libraries the generator reads.

Defaults to the Debian-installed ROCm under /usr. Point the build at another
ROCm with one flag:
    bazel build --repo_env=ROCM_INCLUDE_DIR=/opt/rocm-5.7.0/include \
                --repo_env=ROCM_LIB_DIR=/opt/rocm-5.7.0/lib //...
The hsa/ and hip/ include directories and the two runtime libraries are
symlinked into the repository, so Bazel tracks every header file: editing or
upgrading a header regenerates the code.
"""

_BUILD = """
package(default_visibility = ["//visibility:public"])

filegroup(
    name = "hsa_header_files",
    srcs = glob(["include/hsa/**/*.h"]),
)

filegroup(
    name = "hip_header_files",
    srcs = glob(["include/hip/**/*.h", "include/hip/**/*.hpp"]),
)

# `includes` is safe here (unlike for /usr/include): the directory holds only
# hsa/ and hip/, so libstdc++'s #include_next is unaffected.
cc_library(
    name = "hsa_headers",
    hdrs = [":hsa_header_files"],
    includes = ["include"],
)

cc_library(
    name = "hip_headers",
    hdrs = [":hip_header_files"],
    defines = ["__HIP_PLATFORM_AMD__"],
    includes = ["include"],
)

filegroup(
    name = "hsa_library",
    srcs = ["lib/libhsa-runtime64.so"],
)

filegroup(
    name = "hip_library",
    srcs = ["lib/libamdhip64.so"],
)
"""

def _find_library(rctx, lib_dir, stem):
    for name in [stem + ".so", stem + ".so.1", stem + ".so.5", stem + ".so.6"]:
        path = rctx.path(lib_dir + "/" + name)
        if path.exists:
            return path
    fail("rocm_repository: no %s.so* in %s (set ROCM_LIB_DIR)" % (stem, lib_dir))

def _rocm_repository_impl(rctx):
    include_dir = rctx.os.environ.get("ROCM_INCLUDE_DIR", rctx.attr.default_include_dir)
    lib_dir = rctx.os.environ.get("ROCM_LIB_DIR", rctx.attr.default_lib_dir)
    for sub in ["hsa", "hip"]:
        src = rctx.path(include_dir + "/" + sub)
        if not src.exists:
            fail("rocm_repository: %s does not exist (set ROCM_INCLUDE_DIR)" % src)
        rctx.symlink(src, "include/" + sub)
    rctx.symlink(_find_library(rctx, lib_dir, "libhsa-runtime64"), "lib/libhsa-runtime64.so")
    rctx.symlink(_find_library(rctx, lib_dir, "libamdhip64"), "lib/libamdhip64.so")
    rctx.file("BUILD.bazel", _BUILD)
    rctx.file("WORKSPACE", "workspace(name = \"%s\")\n" % rctx.name)

rocm_repository = repository_rule(
    implementation = _rocm_repository_impl,
    attrs = {
        "default_include_dir": attr.string(default = "/usr/include"),
        "default_lib_dir": attr.string(default = "/usr/lib/x86_64-linux-gnu"),
    },
    environ = ["ROCM_INCLUDE_DIR", "ROCM_LIB_DIR"],
    local = True,
)
