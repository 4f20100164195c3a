"""Rule shapes of tests/gpu: HSA programs on softhsa, traced and untraced."""

load("//tests:defs.bzl", "HSA_PROGRAM_COPTS", "softhsa_traced_test")

# The tracer is linked (its API) and named as the tool: the runtime's dlopen
# finds the same loaded library.
GPU_TEST_ENV = {"GPU_TEST_TRACER": "$(rootpath //:libroctracer64.so.4)"}

def gpu_traced_test(name, srcs, deps = [], env = GPU_TEST_ENV, data = [], **kwargs):
    """A softhsa_traced_test that runs this folder's kernels.

    Args:
      name: the test.
      srcs: its sources.
      deps: its libraries besides gpu_test_util.
      env: its environment (the tracer named by default).
      data: files it reads besides the kernels.
      **kwargs: passed to softhsa_traced_test (size, args, tags, copts).
    """
    softhsa_traced_test(
        name = name,
        srcs = srcs,
        data = [":libgpu_kernels.so"] + data,
        env = env,
        deps = [":gpu_test_util"] + deps,
        **kwargs
    )

def gpu_unit_test(name, deps):
    """A small GoogleTest of runtime/ code alone, linked statically.

    Args:
      name: the test; its source is <name>.cc.
      deps: the runtime libraries it tests.
    """
    native.cc_test(
        name = name,
        size = "small",
        srcs = [name + ".cc"],
        copts = HSA_PROGRAM_COPTS,
        linkstatic = True,
        deps = deps + ["@system//:gtest_main"],
    )

def softhsa_program(name):
    """An HSA program on softhsa, not linked to the tracer.

    Tests run it untraced, and traced with the tracer as its HSA tool.

    Args:
      name: the program; its source is <name>.cc.
    """
    native.cc_binary(
        name = name,
        testonly = True,
        srcs = [
            name + ".cc",
            "//softhsa:libhsa-runtime64.so.1",
        ],
        copts = HSA_PROGRAM_COPTS,
        linkopts = ["-ldl"],
        deps = [
            "//include:roctracer_runtime_headers",
            "//tests/softhsa:hsa_test_util",
        ],
    )
