"""The generator's domain list, as Bazel needs it (codegen/domains.py is the
generator's own; //tests/codegen:domains_agree_test checks they name the same
domains in the same order).

Per domain: where its headers are under the ROCm include directory (`headers`:
directories or files symlinked into @rocm//:include, `globs` of the header
files under it), its runtime library (`library`: file name stem), the defines
its headers need, and whether a ROCm may lack it (`optional`: then the
domain is generated empty).
"""

API_DOMAINS = [
    struct(
        name = "hsa",
        headers = ["hsa"],
        globs = ["include/hsa/**/*.h"],
        library = "libhsa-runtime64",
        defines = [],
        optional = False,
    ),
    struct(
        name = "hip",
        headers = ["hip"],
        globs = ["include/hip/**/*.h", "include/hip/**/*.hpp"],
        library = "libamdhip64",
        defines = ["__HIP_PLATFORM_AMD__"],
        optional = False,
    ),
    struct(
        name = "kfd",
        # hsakmt/ since ROCm 6; hsakmt.h and hsakmttypes.h in Debian's 5.2.3.
        headers = ["hsakmt", "hsakmt.h", "hsakmttypes.h"],
        globs = ["include/hsakmt/**/*.h", "include/hsakmt*.h"],
        library = "libhsakmt",
        defines = [],
        optional = True,
    ),
]

API_DOMAIN_NAMES = [d.name for d in API_DOMAINS]
