// The stand-in HIP library's own kernels, in softhsa's code object format:
// HIP fills memory (hipMemset*) with a kernel of its runtime, as this one.
#include <hsa/hsa.h>

#include <cstdint>
#include <cstring>

// kernarg: void* dst, uint64_t bytes, int value. One workgroup fills all.
extern "C" __attribute__((visibility("default"))) void
__amd_rocclr_fillBufferAligned(const void* kernarg,
                               const hsa_kernel_dispatch_packet_t*, uint32_t,
                               uint32_t, uint32_t) {
  struct Args {
    void* dst;
    uint64_t bytes;
    int value;
  };
  const auto* args = static_cast<const Args*>(kernarg);
  std::memset(args->dst, args->value, args->bytes);
}
