// The 64-byte AMDHSA kernel descriptor (code object v3+) softhsa gives
// every loaded kernel, encoded from what the kernel declares as a GPU
// compiler would for the agent's target (LLVM AMDGPUUsage, "Kernel
// Descriptor"), so that a tool reads register counts from it as from a GPU's.
#ifndef SOFTHSA_KERNEL_DESCRIPTOR_H_
#define SOFTHSA_KERNEL_DESCRIPTOR_H_

#include <cstddef>
#include <cstdint>
#include <string>

namespace softhsa {

constexpr size_t kKernelDescriptorSize = 64;

// What a kernel declares (softhsa/README.md, "The code object format"):
// segment sizes, and the registers it uses as a compiler counts them
// (next free VGPR / AGPR / SGPR, the SGPRs including VCC and the other
// reserved ones); wavefront_size 32 or 64, 0 for the target's default
// (64 before GFX10, 32 from GFX10 on, as the compilers default).
struct KernelDeclaration {
  uint32_t kernarg_size;
  uint32_t group_size;
  uint32_t private_size;
  uint32_t vgprs;
  uint32_t accum_vgprs;
  uint32_t sgprs;
  uint32_t wavefront_size;
};

// Encodes `d` for the processor `target` ("gfx90a", "gfx1100"; what
// SOFTHSA_GPU_NAME names) into the kKernelDescriptorSize bytes at `out`.
void EncodeKernelDescriptor(const std::string& target,
                            const KernelDeclaration& d, uint8_t* out);

}  // namespace softhsa

#endif  // SOFTHSA_KERNEL_DESCRIPTOR_H_
