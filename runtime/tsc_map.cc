#include "runtime/tsc_map.h"

namespace roctracer {
namespace {

// ns per tick in 32.32 fixed point from `ns` nanoseconds over `ticks` ticks.
uint64_t RateOf(uint64_t ns, uint64_t ticks) noexcept {
  return static_cast<uint64_t>((static_cast<unsigned __int128>(ns) << 32) /
                               ticks);
}

bool Near(uint64_t a, uint64_t b, uint64_t tolerance) noexcept {
  return a + tolerance >= b && a <= b + tolerance;
}

}  // namespace

uint64_t TscFitter::SpanTicks(uint64_t mult) noexcept {
  return RateOf(kRefitNs, 1) / mult;
}

void TscFitter::Start(const TscAnchor& first) noexcept {
  last_ = first;
  rate_ = 0;
  candidate_ = 0;
  calibrated_ = false;
}

bool TscFitter::Feed(const TscAnchor& now, const TscMap& current, TscMap* map,
                     bool* reset) noexcept {
  *reset = now.tsc <= last_.tsc;
  if (*reset || now.ns <= last_.ns) return false;
  const uint64_t measured = RateOf(now.ns - last_.ns, now.tsc - last_.tsc);
  if (!calibrated_) {
    if (now.ns - last_.ns < kCalibrationNs || measured == 0) return false;
    rate_ = measured;
    *map = TscMap{now.tsc, now.ns, rate_, SpanTicks(rate_)};
    last_ = now;
    calibrated_ = true;
    return true;
  }
  // A rate is learnt only from an interval long enough for the anchors'
  // jitter (tens of ns) not to matter, and only when it is plausible: the
  // kernel slews its clock by parts per million, so a larger change means the
  // interval held a disturbance (a suspend with the TSC stopped, a clock step)
  // and says nothing about the rate. Unless the next interval measures the
  // same new rate: then the TSC's frequency itself changed (a VM moved to
  // another host) and the new rate is taken. Short intervals only steer.
  const uint64_t tolerance = rate_ / kMaxSteer;
  if (now.ns - last_.ns >= kRefitNs / 2) {
    if (Near(measured, rate_, tolerance)) {
      rate_ = measured;
      candidate_ = 0;
    } else if (candidate_ != 0 &&
               Near(measured, candidate_, candidate_ / kMaxSteer)) {
      rate_ = measured;
      candidate_ = 0;
    } else {
      candidate_ = measured;
    }
    last_ = now;
  }
  const uint64_t span = SpanTicks(rate_);
  const uint64_t mapped = MapTsc(current, now.tsc);
  const int64_t error = static_cast<int64_t>(now.ns - mapped);
  if (error > static_cast<int64_t>(kStepNs) ||
      error < -static_cast<int64_t>(kStepNs)) {
    *map = TscMap{now.tsc, now.ns, rate_, span};
    return true;
  }
  // Continue from where the current map is and close the gap to the kernel's
  // clock over the next span.
  __int128 steer = static_cast<__int128>(error) * (__int128{1} << 32) /
                   static_cast<__int128>(span);
  const __int128 limit = static_cast<__int128>(tolerance);
  if (steer > limit) steer = limit;
  if (steer < -limit) steer = -limit;
  *map = TscMap{now.tsc, mapped,
                static_cast<uint64_t>(static_cast<__int128>(rate_) + steer),
                span};
  return true;
}

}  // namespace roctracer
