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

// The registers stamp and scale declare (softhsa's convention: what a GPU
// compiler counted), which softhsa encodes into their kernel descriptors
// for the agent's target. On gfx90a (softhsa's default) roctrace reports
// stamp 40 VGPRs (37 rounded to 4), 16 accumulation VGPRs (40 + 10 in
// blocks of 8 is 56) and 32 SGPRs (20 in blocks of 16); scale 104, 0, 64.
#define DECLARE(name, value) \
  extern "C" __attribute__((visibility("default"))) const uint32_t name = value
DECLARE(softhsa_vgpr_count_stamp, 37);
DECLARE(softhsa_accum_vgpr_count_stamp, 10);
DECLARE(softhsa_sgpr_count_stamp, 20);
DECLARE(
    softhsa_vgpr_count__ZN7gputest5scaleEPKvPK28hsa_kernel_dispatch_packet_sjjj,
    104);
DECLARE(
    softhsa_sgpr_count__ZN7gputest5scaleEPKvPK28hsa_kernel_dispatch_packet_sjjj,
    50);
