// Register counts from an AMDHSA kernel descriptor (code object v3+: the
// 64-byte record a kernel object points to), decoded for the agent's target.
// The descriptor holds them in granules whose size depends on the target
// (LLVM AMDGPUUsage, "Kernel Descriptor"): compute_pgm_rsrc1's
// GRANULATED_WORKITEM_VGPR_COUNT and GRANULATED_WAVEFRONT_SGPR_COUNT,
// compute_pgm_rsrc3's ACCUM_OFFSET on targets with a unified VGPR/AGPR file,
// and kernel_code_properties' ENABLE_WAVEFRONT_SIZE32. The counts are what
// the hardware allocates (the granule-rounded numbers rocprofv3 reports), not
// the exact registers the compiler used.
#ifndef RUNTIME_GPU_KERNEL_DESCRIPTOR_H_
#define RUNTIME_GPU_KERNEL_DESCRIPTOR_H_

#include <cstddef>
#include <cstdint>

#include "runtime/private/gpu_events.h"

namespace roctracer::gpu {

constexpr size_t kKernelDescriptorSize = 64;

// A GFX processor as its name spells it: gfx90a is 9.0.0xa, gfx1151 is
// 11.5.1; generic targets (gfx9-4-generic) have the family's major and minor.
struct GfxTarget {
  uint32_t major;
  uint32_t minor;
  uint32_t stepping;
};

// Finds the processor in an agent or ISA name ("gfx90a",
// "amdgcn-amd-amdhsa--gfx942:sramecc+:xnack-", "gfx10-3-generic"); false
// when there is none.
bool ParseGfxTarget(const char* name, GfxTarget* target);

// The counts a descriptor gives on `target`; `known` false for a target
// before GFX6 or a descriptor that contradicts itself (an accumulation
// offset past the allocated VGPRs).
KernelRegisters DecodeKernelRegisters(
    const GfxTarget& target,
    const uint8_t (&descriptor)[kKernelDescriptorSize]);

}  // namespace roctracer::gpu

#endif  // RUNTIME_GPU_KERNEL_DESCRIPTOR_H_
