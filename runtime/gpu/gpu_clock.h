// GPU times into the tracer's clock. The runtime reports dispatch and copy
// times in its system timestamp domain (HSA_SYSTEM_INFO_TIMESTAMP, ticks at
// HSA_SYSTEM_INFO_TIMESTAMP_FREQUENCY, epoch unspecified; ROCR converts the
// device's own clock into it). Records carry CLOCK_BOOTTIME nanoseconds
// (TimestampNs()). The map between the two is affine:
//
//   ns(ticks) = anchor_ns + (ticks - anchor_ticks) * 1e9 / frequency
//
// with the runtime's reported frequency as the rate and one anchor pair
// measured by reading TimestampNs(), the system timestamp, TimestampNs() and
// keeping the pair with the narrowest bracket of several (the anchor is the
// bracket's midpoint: error at most half the bracket, tens of ns here). The
// anchor is measured again every second, so the map follows a system clock
// that drifts from or steps against CLOCK_BOOTTIME (suspend). Every time
// goes through the same map: nothing is swapped or clamped, so begin <= end
// holds exactly when it held in the runtime's domain.
#ifndef RUNTIME_GPU_GPU_CLOCK_H_
#define RUNTIME_GPU_GPU_CLOCK_H_

#include <cstdint>

namespace roctracer::gpu {

struct ClockAnchor {
  uint64_t ticks;
  uint64_t ns;
  uint64_t frequency;  // ticks per second, > 0
};

// The map itself (pure, for tests): ticks before the anchor map below it.
uint64_t TicksToNs(const ClockAnchor& anchor, uint64_t ticks) noexcept;

// Measures an anchor with `read_ticks` (the system timestamp) against
// TimestampNs(): the narrowest of `tries` brackets.
using ReadTicksFn = uint64_t (*)();
ClockAnchor MeasureAnchor(ReadTicksFn read_ticks, uint64_t frequency,
                          int tries = 16) noexcept;

// The process-wide map the GPU half uses, calibrated against the runtime's
// hsa_system_get_info on first use and re-anchored at most once a second.
// An operation's two times go through one map. False when the runtime
// reports no timestamp frequency.
bool SystemTicksToNs(uint64_t begin_ticks, uint64_t end_ticks,
                     uint64_t* begin_ns, uint64_t* end_ns) noexcept;
// Forgets the anchor (the runtime shut down: a new one may use another
// domain).
void ResetSystemClock() noexcept;

}  // namespace roctracer::gpu

#endif  // RUNTIME_GPU_GPU_CLOCK_H_
