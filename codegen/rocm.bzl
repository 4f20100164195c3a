"""`rocm_repository`: the ROCm headers and libraries the generator reads.

Defaults to the Debian-installed ROCm under /usr. Point the build at another
ROCm with one flag:
    bazel build --repo_env=ROCM_INCLUDE_DIR=/opt/rocm-5.7.0/include \
                --repo_env=ROCM_LIB_DIR=/opt/rocm-5.7.0/lib //...
Each API domain's include directories or files and its runtime library
(codegen/domains.bzl) are symlinked into the repository, so Bazel tracks
every header file: editing or upgrading a header regenerates the code. Per
domain d it defines `d_header_files`, `d_headers` and `d_library` (empty
for an optional domain the ROCm lacks).
"""

load("//codegen:domains.bzl", "API_DOMAINS")

_DOMAIN_BUILD = """
filegroup(
    name = "{name}_header_files",
    srcs = glob({globs}, allow_empty = True),
)

# `includes` is safe here (unlike for /usr/include): the directory holds only
# the ROCm headers, so libstdc++'s #include_next is unaffected.
cc_library(
    name = "{name}_headers",
    hdrs = [":{name}_header_files"],
    defines = {defines},
    includes = ["include"],
)

filegroup(
    name = "{name}_library",
    srcs = glob(["lib/{library}.so"], allow_empty = True),
)
"""

def _find_library(rctx, lib_dir, stem, optional):
    for name in [stem + ".so", stem + ".so.1", stem + ".so.5", stem + ".so.6", stem + ".so.7"]:
        path = rctx.path(lib_dir + "/" + name)
        if path.exists:
            return path
    if optional:
        return None
    fail("rocm_repository: no %s.so* in %s (set ROCM_LIB_DIR)" % (stem, lib_dir))

def _rocm_repository_impl(rctx):
    include_dir = rctx.os.environ.get("ROCM_INCLUDE_DIR", rctx.attr.default_include_dir)
    lib_dir = rctx.os.environ.get("ROCM_LIB_DIR", rctx.attr.default_lib_dir)
    build = ['package(default_visibility = ["//visibility:public"])\n']
    for d in API_DOMAINS:
        found = 0
        for sub in d.headers:
            src = rctx.path(include_dir + "/" + sub)
            if src.exists:
                rctx.symlink(src, "include/" + sub)
                found += 1
        if found == 0 and not d.optional:
            fail("rocm_repository: %s/%s does not exist (set ROCM_INCLUDE_DIR)" %
                 (include_dir, d.headers[0]))
        lib = _find_library(rctx, lib_dir, d.library, d.optional)
        if lib != None:
            rctx.symlink(lib, "lib/%s.so" % d.library)
        build.append(_DOMAIN_BUILD.format(
            name = d.name,
            globs = repr(d.globs),
            defines = repr(d.defines),
            library = d.library,
        ))
    rctx.file("BUILD.bazel", "".join(build))
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
