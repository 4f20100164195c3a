"""`rocm_repository`: the ROCm headers and libraries the generator reads.

Defaults to the Debian-installed ROCm under /usr. Point the build at another
ROCm with one flag, its prefix (include/ and lib/x86_64-linux-gnu/ or lib/):
    bazel build --repo_env=ROCM_PATH=$(tools/rocm_release.sh sid) //...
    bazel build --repo_env=ROCM_PATH=/opt/rocm-6.4.3 //...
(ROCM_INCLUDE_DIR / ROCM_LIB_DIR override either half.) Each API domain's
header files (codegen/domains.bzl) are symlinked into the repository one by
one, so Bazel tracks every header: editing or upgrading one regenerates the
code. File by file, because a directory link would let Bazel's globs follow
the links inside it: Debian's 7.2.4 ships `include/hsa/hsa -> .`. Per
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

def _mirror_files(rctx, include_dir, sub):
    """Links every file under include_dir/sub (a file or a directory) into
    include/, skipping links to directories."""
    res = rctx.execute(["find", sub, "-xtype", "f"], working_directory = include_dir)
    if res.return_code != 0:
        fail("rocm_repository: cannot list %s/%s: %s" % (include_dir, sub, res.stderr))
    for f in res.stdout.splitlines():
        rctx.symlink(include_dir + "/" + f, "include/" + f)

def _lib_dir(rctx, prefix):
    for sub in ["/lib/x86_64-linux-gnu", "/lib"]:
        if rctx.path(prefix + sub + "/libhsa-runtime64.so.1").exists:
            return prefix + sub
    return prefix + "/lib"

def _rocm_repository_impl(rctx):
    prefix = rctx.os.environ.get("ROCM_PATH", "")
    if prefix:
        if not rctx.path(prefix + "/include").exists:
            fail("rocm_repository: ROCM_PATH=%s has no include/" % prefix)
        default_include, default_lib = prefix + "/include", _lib_dir(rctx, prefix)
    else:
        default_include, default_lib = rctx.attr.default_include_dir, rctx.attr.default_lib_dir
    include_dir = rctx.os.environ.get("ROCM_INCLUDE_DIR", default_include)
    lib_dir = rctx.os.environ.get("ROCM_LIB_DIR", default_lib)
    build = ['package(default_visibility = ["//visibility:public"])\n']
    for d in API_DOMAINS:
        found = 0
        for sub in d.headers:
            if rctx.path(include_dir + "/" + sub).exists:
                _mirror_files(rctx, include_dir, sub)
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
    environ = ["ROCM_PATH", "ROCM_INCLUDE_DIR", "ROCM_LIB_DIR"],
    local = True,
)
