// Kernels for the GPU activity tests, in softhsa's code object format (a
// host shared library whose exported functions are kernels).
#include <hsa/hsa.h>
#include <time.h>

#include <cstdint>

#define KERNEL extern "C" __attribute__((visibility("default"))) void

namespace {
uint64_t BoottimeNs() {
  timespec ts;
  clock_gettime(CLOCK_BOOTTIME, &ts);
  return uint64_t(ts.tv_sec) * 1'000'000'000u + uint64_t(ts.tv_nsec);
}
}  // namespace

KERNEL empty(const void*, const hsa_kernel_dispatch_packet_t*, uint32_t,
             uint32_t, uint32_t) {}

// kernarg: uint64_t* out. out[0], out[1]: CLOCK_BOOTTIME at the start and the
// end of its (one) workgroup, which spins out[2] ns.
KERNEL stamp(const void* kernarg, const hsa_kernel_dispatch_packet_t*, uint32_t,
             uint32_t, uint32_t) {
  uint64_t* out = *static_cast<uint64_t* const*>(kernarg);
  out[0] = BoottimeNs();
  while (BoottimeNs() - out[0] < out[2]) {
  }
  out[1] = BoottimeNs();
}

// A C++ kernel: its symbol is mangled, its records show it demangled.
namespace gputest {
__attribute__((visibility("default"))) void scale(
    const void*, const hsa_kernel_dispatch_packet_t*, uint32_t, uint32_t,
    uint32_t) {}
}  // namespace gputest

// scale's static LDS size as its symbol reports it (softhsa's convention):
// roctrace's kernel trace rounds it to the 512-byte LDS block, 1024.
extern "C" __attribute__((visibility("default"))) const uint32_t
    softhsa_group_segment_size__ZN7gputest5scaleEPKvPK28hsa_kernel_dispatch_packet_sjjj =
        1000;
