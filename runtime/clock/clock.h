// The one clock of every timestamp the tracer produces: CLOCK_BOOTTIME
// nanoseconds (see roctracer_get_timestamp() in roctracer.h for why that
// clock).
//
// Read through the TSC when the kernel itself keeps time with it (its
// clocksource is "tsc": invariant and synchronised across CPUs): one rdtsc
// and a multiply on a map fitted to clock_gettime(CLOCK_BOOTTIME) and re-fitted
// every 50 ms (sooner in the first ~60 ms: runtime/clock/tsc_map.h), ~10 ns
// against ~22 ns for the vDSO call here. An activity record takes two readings.
// Elsewhere, or with ROCTRACER_CLOCK=boottime in the environment, every reading
// is a clock_gettime call.
#ifndef RUNTIME_CLOCK_CLOCK_H_
#define RUNTIME_CLOCK_CLOCK_H_

#include <atomic>
#include <cstdint>

#if defined(__x86_64__)
#include <x86intrin.h>
#endif

namespace roctracer::clock {

namespace detail {

// The published map, under a sequence lock: `seq` odd means "do not use"
// (being re-fitted, not calibrated yet, or the TSC is not used at all). The
// writer stores the fields with release after making `seq` odd, readers load
// them with acquire: a reader that sees any field of a newer map then sees
// `seq` changed.
struct alignas(64) FastClock {
  std::atomic<uint32_t> seq;
  std::atomic<uint64_t> base_tsc;
  std::atomic<uint64_t> base_ns;
  std::atomic<uint64_t> mult;  // ns per tick, 32.32 fixed point
  std::atomic<uint64_t> span;  // re-fit once tsc - base_tsc reaches this
};
extern FastClock g_fast_clock;

uint64_t TimestampNsSlow() noexcept;

}  // namespace detail

inline uint64_t TimestampNs() noexcept {
#if defined(__x86_64__)
  using detail::g_fast_clock;
  const uint32_t seq = g_fast_clock.seq.load(std::memory_order_acquire);
  if (__builtin_expect((seq & 1) != 0, 0)) {
    return detail::TimestampNsSlow();
  }
  // No fence around rdtsc: a record's two readings bracket a whole call, a
  // few cycles of reordering do not matter, and a fence costs ~7 ns.
  const uint64_t tsc = __rdtsc();
  // Acquire loads (plain moves on x86) keep the second `seq` load after them
  // without a fence (which ThreadSanitizer cannot model).
  const uint64_t base_tsc =
      g_fast_clock.base_tsc.load(std::memory_order_acquire);
  const uint64_t base_ns = g_fast_clock.base_ns.load(std::memory_order_acquire);
  const uint64_t mult = g_fast_clock.mult.load(std::memory_order_acquire);
  const uint64_t span = g_fast_clock.span.load(std::memory_order_acquire);
  const uint64_t delta = tsc - base_tsc;  // huge when tsc < base_tsc
  if (__builtin_expect(
          g_fast_clock.seq.load(std::memory_order_relaxed) != seq ||
              delta >= span,
          0)) {
    return detail::TimestampNsSlow();
  }
  return base_ns + static_cast<uint64_t>(
                       (static_cast<unsigned __int128>(delta) * mult) >> 32);
#else
  return detail::TimestampNsSlow();
#endif
}

// "tsc" while readings come from the fitted TSC map, "boottime" while they
// are clock_gettime calls (also while the map is being calibrated: until two
// intervals of 1 ms or more, ended by readings, have measured the same TSC
// rate; ~2 ms after load for a program that keeps reading). For diagnostics
// and tests.
const char* ActiveClockName() noexcept;

}  // namespace roctracer::clock

#endif  // RUNTIME_CLOCK_CLOCK_H_
