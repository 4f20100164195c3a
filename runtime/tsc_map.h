// A linear map from TSC ticks to CLOCK_BOOTTIME nanoseconds, and the rules
// that keep re-fitting it to the kernel's clock (runtime/clock.cc feeds it
// anchors: pairs of a TSC reading and a clock_gettime reading taken together).
//
// Why a model of its own: the kernel slews CLOCK_BOOTTIME against the TSC
// (NTP), and a suspend makes it jump, so one fitted rate drifts. Each re-fit
// measures the rate over the last interval and also steers the map back
// towards the kernel's clock over the next interval, starting from the value
// the old map gives at the re-fit point: the map never steps (timestamps of a
// thread never go backwards) unless it is off by more than kStepNs.
//
// Pure arithmetic, no clock reads: tests drive it with synthetic anchors.
#ifndef RUNTIME_TSC_MAP_H_
#define RUNTIME_TSC_MAP_H_

#include <cstdint>

namespace roctracer {

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
  return map.base_ns - static_cast<uint64_t>((d * map.mult) >> 32);
}

class TscFitter {
 public:
  // The first map is fitted once anchors this far apart exist.
  static constexpr uint64_t kCalibrationNs = 10'000'000;
  // A map is re-fitted after this long (so it drifts from the kernel's clock
  // by at most the kernel's slew over this time, ~50 ns at 1 ppm).
  static constexpr uint64_t kRefitNs = 50'000'000;
  // Off by more than this (suspend/resume, TSC reset, a rate far off):
  // jump to the kernel's clock instead of steering towards it.
  static constexpr uint64_t kStepNs = 1'000'000;
  // Steering changes the rate by at most this fraction (1/kMaxSteer).
  static constexpr uint64_t kMaxSteer = 1000;

  // The first anchor; the fitter has no map yet.
  void Start(const TscAnchor& first) noexcept;

  // Feeds a newer anchor. Returns true and sets *map when a (new) map should
  // be published: on calibration, and on every re-fit. Returns false while
  // still calibrating (anchors too close) or when the anchor is unusable
  // (TSC or clock not after the previous anchor: nothing learnt), in which
  // case `reset` tells the caller to start over (the TSC went backwards).
  // `current` is the map readers use now (ignored before the first map).
  bool Feed(const TscAnchor& now, const TscMap& current, TscMap* map,
            bool* reset) noexcept;

  bool calibrated() const noexcept { return calibrated_; }

 private:
  static uint64_t SpanTicks(uint64_t mult) noexcept;

  TscAnchor last_{0, 0};  // the anchor the rate is measured from
  uint64_t rate_ = 0;      // the last measured rate, 32.32 ns per tick
  uint64_t candidate_ = 0;  // an implausible rate, adopted if measured twice
  bool calibrated_ = false;
};

}  // namespace roctracer

#endif  // RUNTIME_TSC_MAP_H_
