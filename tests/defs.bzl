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
        deps = ["@system//:hsa_headers"],
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
