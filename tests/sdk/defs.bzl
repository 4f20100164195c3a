"""The shape of the SDK front end's unit tests."""

load("//tests:defs.bzl", "TEST_COPTS")

SEAM_TEST_DEPS = [
    ":fake_consumer_seam",
    "//codegen:api_headers",
    "//include:roctracer_headers",
    "//include/rocprofiler-sdk:headers",
    "//sdk:rocprofiler_sdk",
]

def seam_test(name, srcs, deps = [], own_main = False, **kwargs):
    """A test of //sdk driven through the fake consumer seam, linked statically.

    Args:
      name: the test.
      srcs: its sources.
      deps: libraries besides the SDK, its headers and the fake seam.
      own_main: the test defines main (else GoogleTest's main is linked).
      **kwargs: passed to cc_test (size, tags, args, data, env, linkopts).
    """
    native.cc_test(
        name = name,
        srcs = srcs,
        copts = TEST_COPTS,
        linkstatic = True,
        deps = SEAM_TEST_DEPS + deps +
               ["@system//:gtest" if own_main else "@system//:gtest_main"],
        **kwargs
    )
