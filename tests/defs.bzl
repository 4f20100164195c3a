"""Rule shapes the test and benchmark folders share."""

TEST_COPTS = [
    "-Wall",
    "-Wextra",
    "-Werror",
]

# Programs written against the HSA API fill packets and structs field by
# field, as HSA applications do.
HSA_PROGRAM_COPTS = TEST_COPTS + ["-Wno-missing-field-initializers"]

def softhsa_kernels(name, src):
    """Kernels in softhsa's code object format: a host shared library.

    Args:
      name: the library, lib<something>.so.
      src: its source; every exported function is a kernel.
    """
    native.cc_binary(
        name = name,
        testonly = True,
        srcs = [src],
        # Kernels take the whole signature whether they use it or not.
        copts = HSA_PROGRAM_COPTS + ["-Wno-unused-parameter"],
        linkshared = True,
        deps = ["@rocm//:hsa_headers"],
    )

def softhsa_traced_test(name, srcs, deps, env, data = [], copts = [], **kwargs):
    """A GoogleTest HSA program on softhsa with the tracer as its HSA tool.

    The program links libroctracer64.so.4 (its API) ahead of everything in
    `srcs` (a stand-in runtime there comes after it, as the libraries the
    tracer's stubs forward to do), and softhsa's libhsa-runtime64.so.1 last,
    as an application links ROCR; `env` names the tracer for the program to
    put in HSA_TOOLS_LIB, so the runtime's dlopen finds the library already
    loaded.

    Args:
      name: the test.
      srcs: its sources (the runtimes are added).
      deps: its libraries (GoogleTest's main is added).
      env: its environment.
      data: files it reads (kernel libraries).
      copts: compiler options besides HSA_PROGRAM_COPTS.
      **kwargs: passed to cc_test (size, args, tags).
    """
    native.cc_test(
        name = name,
        srcs = ["//:libroctracer64.so.4"] + srcs +
               ["//softhsa:libhsa-runtime64.so.1"],
        copts = HSA_PROGRAM_COPTS + copts,
        data = data,
        env = env,
        deps = deps + ["@system//:gtest_main"],
        **kwargs
    )

def tracer_linked_binary(name, srcs, deps, **kwargs):
    """A program with libroctracer64.so first on its link line.

    The tracer's hip*/hsa_*/hsaKmt* definitions then come before the
    runtimes' in the global scope, as in an application linked against it.

    Args:
      name: the program.
      srcs: its sources.
      deps: its libraries (the runtimes among them).
      **kwargs: passed to cc_binary.
    """
    native.cc_binary(
        name = name,
        srcs = srcs + ["//:libroctracer64.so"],
        copts = TEST_COPTS,
        linkopts = ["-ldl"],
        deps = deps,
        **kwargs
    )

def probe_pair(name, src, deps, tags = []):
    """A probe program, traced two ways.

    `<name>_linked` links the tracer ahead of the runtimes
    (tracer_linked_binary); `<name>_plain` is the same program without it,
    to run under LD_PRELOAD.

    Args:
      name: the prefix of both programs.
      src: the probe's source.
      deps: its libraries (the runtimes among them).
      tags: of both programs.
    """
    tracer_linked_binary(
        name = name + "_linked",
        testonly = True,
        srcs = [src],
        tags = tags,
        deps = deps,
    )
    native.cc_binary(
        name = name + "_plain",
        testonly = True,
        srcs = [src],
        copts = TEST_COPTS,
        linkopts = ["-ldl"],
        tags = tags,
        deps = deps,
    )
