// A linear map from TSC ticks to CLOCK_BOOTTIME nanoseconds, and the rules
// that keep re-fitting it to the kernel's clock (runtime/clock/clock.cc feeds
// it anchors: pairs of a TSC reading and a clock_gettime reading taken
// together).
//
// Why a model of its own: the kernel slews CLOCK_BOOTTIME against the TSC
// (NTP) and a suspend makes it jump, so one fitted rate drifts. Each re-fit
// measures the rate again and starts the new map, at the moment it is
// published, on the kernel's clock, unless a reader of the old map may
// already have seen a later time: then the new map starts there and runs
// slower until the kernel's clock has caught up. So readings never go
// backwards, and never run ahead of the kernel by more than the old map's
// error over one span: tens of ns while the kernel's rate against the TSC
// holds. When that rate changes by more than kRateTolerance (the TSC's
// frequency changed; chrony slewing fast), the map runs ahead until the new
// rate is measured twice and the kernel's clock has caught up with it, by up
// to kStepNs for a few spans; a map more than kStepNs ahead steps back to the
// kernel. What a map cannot see is a jump of the kernel's clock inside its span
// (a suspend during which the TSC stopped): readings lag by the jump until the
// span ends, at most kRefitNs of TSC time later.
//
// Pure arithmetic, no clock reads: tests drive it with synthetic anchors.
#ifndef RUNTIME_CLOCK_TSC_MAP_H_
#define RUNTIME_CLOCK_TSC_MAP_H_

#include <cstdint>

namespace roctracer::clock {

struct TscAnchor {
  uint64_t tsc;
  uint64_t ns;  // CLOCK_BOOTTIME
};

struct TscMap {
  uint64_t base_tsc;
  uint64_t base_ns;
  uint64_t mult;  // ns per tick, 32.32 fixed point
  uint64_t span;  // ticks after base_tsc the map may be used for
};

// ns at `tsc`. Exact to the fixed-point rounding for any tsc >= base_tsc (the
// product is 128-bit); a tsc slightly before base_tsc (read just before a
// re-fit) maps below base_ns.
inline uint64_t MapTsc(const TscMap& map, uint64_t tsc) noexcept {
  if (tsc >= map.base_tsc) {
    const unsigned __int128 d = tsc - map.base_tsc;
    return map.base_ns + static_cast<uint64_t>((d * map.mult) >> 32);
  }
  const unsigned __int128 d = map.base_tsc - tsc;
  const uint64_t back = static_cast<uint64_t>((d * map.mult) >> 32);
  return back < map.base_ns ? map.base_ns - back : 0;
}

// The latest time a reader of `map` can have been given: its value at the end
// of its span (readers past the span re-fit, wait or stop there).
inline uint64_t MapEnd(const TscMap& map) noexcept {
  return MapTsc(map, map.base_tsc + map.span);
}

class TscFitter {
 public:
  // The first map is fitted from two consecutive intervals of at least this
  // long that measure the same rate (one could hold a suspend). Short, so
  // that a program's first readings soon come from the TSC; the rate such an
  // interval measures is off by the anchors' jitter over its length (tens of
  // ns over 1 ms), so spans start short and grow with the interval the rate
  // was measured over (kSpanPerInterval).
  static constexpr uint64_t kCalibrationNs = 1'000'000;
  // A map is re-fitted after this long (so it drifts from the kernel's clock
  // by at most the kernel's slew over this time, ~50 ns at 1 ppm).
  static constexpr uint64_t kRefitNs = 50'000'000;
  // A map's span is at most this many times the interval its rate was
  // measured over (and at most kRefitNs): a rate off by the anchors' jitter
  // j over an interval I drifts by about j * kSpanPerInterval over a span,
  // whatever I. Each re-fit measures over the last span, so after
  // calibration spans double (2, 4, 8, 16, 32 ms) until they reach kRefitNs.
  static constexpr uint64_t kSpanPerInterval = 2;
  // A map this far ahead of the kernel steps back instead of slowing down.
  static constexpr uint64_t kStepNs = 1'000'000;
  // A measured rate further than 1/kRateTolerance from the previous one is
  // suspect (the kernel's NTP slew is at most 500 ppm).
  static constexpr uint64_t kRateTolerance = 1000;
  // A map ahead of the kernel runs slower by at most 1/kMaxSlowdown: 500 us
  // of lead made up per 50 ms span, durations meanwhile 1% short at most.
  static constexpr uint64_t kMaxSlowdown = 100;

  // The first anchor; the fitter has no map yet.
  void Start(const TscAnchor& first) noexcept;

  // Feeds a newer anchor. Returns true and sets *map when a (new) map should
  // be published: on calibration, and on every re-fit. The new map starts at
  // `start_tsc` (>= anchor.tsc: the TSC right before it is published), so
  // that time spent between the anchor and the publication is accounted for.
  // `current` is the map readers use now, NULL when none. Returns false while
  // still calibrating (anchors too close) or when the anchor is unusable, in
  // which case `reset` tells the caller to start over (the TSC went
  // backwards).
  bool Feed(const TscAnchor& anchor, const TscMap* current, uint64_t start_tsc,
            TscMap* map, bool* reset) noexcept;

  bool calibrated() const noexcept { return calibrated_; }
  // The kernel's time of the anchor the current interval started at (while
  // calibrating: no re-fit is worth trying before kCalibrationNs after it).
  uint64_t interval_start_ns() const noexcept { return last_.ns; }

 private:
  uint64_t SpanTicks(uint64_t mult) const noexcept;
  void LearnRate(const TscAnchor& anchor, uint64_t measured) noexcept;

  TscAnchor last_{0, 0};           // the anchor the rate is measured from
  uint64_t rate_ = 0;              // the last measured rate, 32.32 ns per tick
  uint64_t rate_interval_ns_ = 0;  // the interval rate_ was measured over
  uint64_t candidate_ = 0;  // an implausible rate, adopted if measured twice
  bool calibrated_ = false;
};

}  // namespace roctracer::clock

#endif  // RUNTIME_CLOCK_TSC_MAP_H_
