// The register counts decoded from kernel descriptors laid out by hand from
// the documented bit layout (LLVM AMDGPUUsage, "Kernel Descriptor"):
// compute_pgm_rsrc3 at byte 44, compute_pgm_rsrc1 at 48 (bits 5:0
// GRANULATED_WORKITEM_VGPR_COUNT, 9:6 GRANULATED_WAVEFRONT_SGPR_COUNT),
// kernel_code_properties at 56 (bit 10 ENABLE_WAVEFRONT_SIZE32).
#include "runtime/gpu/kernel_descriptor.h"

#include <gtest/gtest.h>

#include <cstring>

namespace roctracer::gpu {
namespace {

struct Descriptor {
  uint8_t bytes[kKernelDescriptorSize] = {};
  Descriptor(uint32_t vgpr_field, uint32_t sgpr_field, uint32_t rsrc3 = 0,
             bool wave32 = false) {
    const uint32_t rsrc1 = vgpr_field | sgpr_field << 6;
    const uint16_t properties = wave32 ? 1u << 10 : 0;
    std::memcpy(bytes + 44, &rsrc3, 4);
    std::memcpy(bytes + 48, &rsrc1, 4);
    std::memcpy(bytes + 56, &properties, 2);
  }
};

KernelRegisters Decode(const char* target, const Descriptor& d) {
  GfxTarget t{};
  EXPECT_TRUE(ParseGfxTarget(target, &t)) << target;
  return DecodeKernelRegisters(t, d.bytes);
}

#define EXPECT_REGISTERS(r, arch, accum, sgpr) \
  do {                                         \
    const KernelRegisters got = (r);           \
    EXPECT_TRUE(got.known);                    \
    EXPECT_EQ(got.arch_vgpr_count, arch##u);   \
    EXPECT_EQ(got.accum_vgpr_count, accum##u); \
    EXPECT_EQ(got.sgpr_count, sgpr##u);        \
  } while (0)

TEST(GfxTarget, ParsesProcessorsIsaNamesAndGenericTargets) {
  struct Case {
    const char* name;
    uint32_t major, minor, stepping;
  } cases[] = {
      {"gfx90a", 9, 0, 0xa},
      {"gfx803", 8, 0, 3},
      {"gfx1151", 11, 5, 1},
      {"amdgcn-amd-amdhsa--gfx942:sramecc+:xnack-", 9, 4, 2},
      {"amdgcn-amd-amdhsa--gfx1030", 10, 3, 0},
      {"gfx9-4-generic", 9, 4, 0},
      {"gfx11-generic", 11, 0, 0},
      {"amdgcn-amd-amdhsa--gfx10-3-generic:xnack-", 10, 3, 0},
  };
  for (const Case& c : cases) {
    GfxTarget t{};
    ASSERT_TRUE(ParseGfxTarget(c.name, &t)) << c.name;
    EXPECT_EQ((std::vector<uint32_t>{t.major, t.minor, t.stepping}),
              (std::vector<uint32_t>{c.major, c.minor, c.stepping}))
        << c.name;
  }
  for (const char* bad : {"", "x86_64", "gfx", "gfx9", "gfxzz0", "gfx12345",
                          "gfx9-4-special", "AMD Ryzen"}) {
    GfxTarget t{};
    EXPECT_FALSE(ParseGfxTarget(bad, &t)) << bad;
  }
  GfxTarget t{};
  EXPECT_FALSE(ParseGfxTarget(nullptr, &t));
}

// GFX9 before gfx90a: VGPRs in blocks of 4, SGPRs encoded as twice the
// number of 16-register blocks minus one; no wave32 (the property bit is
// ignored), accumulation VGPRs only on gfx908.
TEST(KernelDescriptor, Gfx9Wave64) {
  // 40 VGPRs: 40 / 4 - 1 = 9; 48 SGPRs: 2 * (48 / 16 - 1) = 4.
  EXPECT_REGISTERS(Decode("gfx900", Descriptor(9, 4)), 40, 0, 48);
  EXPECT_REGISTERS(Decode("gfx906", Descriptor(9, 4, 0x3f, true)), 40, 0, 48);
  // The smallest allocation: 4 VGPRs, 16 SGPRs.
  EXPECT_REGISTERS(Decode("gfx900", Descriptor(0, 0)), 4, 0, 16);
  // The largest: 256 VGPRs, 112 SGPRs (field 12).
  EXPECT_REGISTERS(Decode("gfx900", Descriptor(63, 12)), 256, 0, 112);
  // gfx908: a separate AGPR file the size of the VGPRs' (LLVM's example of
  // 9 VGPRs and 32 AGPRs: 32 registers, field 7).
  EXPECT_REGISTERS(Decode("gfx908", Descriptor(7, 2)), 32, 32, 32);
}

// GFX6-GFX8: SGPRs in blocks of 8.
TEST(KernelDescriptor, Gfx8) {
  EXPECT_REGISTERS(Decode("gfx803", Descriptor(2, 3)), 12, 0, 32);
}

// gfx90a and gfx94x: one file; rsrc1's field counts both kinds in blocks of
// 8, rsrc3's ACCUM_OFFSET (bits 5:0, blocks of 4) is where the accumulation
// VGPRs start.
TEST(KernelDescriptor, Gfx90aAccumulationVgprs) {
  // LLVM's example: 9 VGPRs, 32 AGPRs: 12 + 32 = 44 -> field 5 (48),
  // ACCUM_OFFSET 2 (12).
  EXPECT_REGISTERS(Decode("gfx90a", Descriptor(5, 6, 2)), 12, 36, 64);
  // 32 architected of 48, 16 accumulation.
  EXPECT_REGISTERS(Decode("gfx90a", Descriptor(5, 6, 7)), 32, 16, 64);
  EXPECT_REGISTERS(Decode("amdgcn-amd-amdhsa--gfx942:sramecc+:xnack-",
                          Descriptor(63, 0, 63)),
                   256, 256, 16);
  EXPECT_REGISTERS(Decode("gfx9-4-generic", Descriptor(3, 0, 1)), 8, 24, 16);
  // Without accumulation VGPRs, the offset is the rounded VGPR count.
  EXPECT_REGISTERS(Decode("gfx90a", Descriptor(12, 0, 25)), 104, 0, 16);
  // Bits above ACCUM_OFFSET (TG_SPLIT, bit 16) do not count.
  EXPECT_REGISTERS(Decode("gfx90a", Descriptor(5, 0, 7 | 1u << 16)), 32, 16,
                   16);
}

TEST(KernelDescriptor, AccumulationOffsetPastTheVgprsIsUnknown) {
  const KernelRegisters r = Decode("gfx90a", Descriptor(0, 0, 20));
  EXPECT_FALSE(r.known);
}

// GFX10+: VGPRs in blocks of 8 in wave32, 4 in wave64; SGPRs always 128
// (the field is reserved).
TEST(KernelDescriptor, Gfx10And11Wave32AndWave64) {
  EXPECT_REGISTERS(Decode("gfx1030", Descriptor(4, 0, 0, true)), 40, 0, 128);
  EXPECT_REGISTERS(Decode("gfx1030", Descriptor(4, 0, 0, false)), 20, 0, 128);
  EXPECT_REGISTERS(Decode("gfx1100", Descriptor(12, 0, 0, true)), 104, 0, 128);
  EXPECT_REGISTERS(Decode("gfx1151", Descriptor(4, 0, 0, true)), 40, 0, 128);
  EXPECT_REGISTERS(Decode("gfx11-generic", Descriptor(1, 0, 0, false)), 8, 0,
                   128);
  // rsrc3 is something else there (SHARED_VGPR_COUNT, ...): not accumulation.
  EXPECT_REGISTERS(Decode("gfx1010", Descriptor(1, 0, 0xf, true)), 16, 0, 128);
}

TEST(KernelDescriptor, TargetsBeforeGfx6AreUnknown) {
  EXPECT_FALSE(
      DecodeKernelRegisters(GfxTarget{5, 0, 0}, Descriptor(1, 1).bytes).known);
}

}  // namespace
}  // namespace roctracer::gpu
