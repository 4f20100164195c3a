// Kernels of gpu_program, in softhsa's code object format (a host shared
// library whose exported functions are kernels).
#include <hsa/hsa.h>

#include <cstdint>

#define KERNEL extern "C" __attribute__((visibility("default"))) void

// kernarg: uint64_t* counter, incremented once per workgroup.
KERNEL count(const void* kernarg, const hsa_kernel_dispatch_packet_t*, uint32_t,
             uint32_t, uint32_t) {
  uint64_t* counter = *static_cast<uint64_t* const*>(kernarg);
  __atomic_add_fetch(counter, 1, __ATOMIC_RELAXED);
}

// A C++ kernel: mangled symbol, demangled in the traces.
namespace roctest {
__attribute__((visibility("default"))) void touch(
    const void*, const hsa_kernel_dispatch_packet_t*, uint32_t, uint32_t,
    uint32_t) {}
}  // namespace roctest
