#include "runtime/clock/tsc_map.h"

namespace roctracer::clock {
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

uint64_t TscFitter::SpanTicks(uint64_t mult) const noexcept {
  uint64_t span_ns = rate_interval_ns_ * kSpanPerInterval;
  if (span_ns > kRefitNs || span_ns / kSpanPerInterval != rate_interval_ns_) {
    span_ns = kRefitNs;
  }
  return RateOf(span_ns, 1) / mult;
}

void TscFitter::Start(const TscAnchor& first) noexcept {
  last_ = first;
  rate_ = 0;
  rate_interval_ns_ = 0;
  candidate_ = 0;
  calibrated_ = false;
}

// A rate is learnt only from an interval long enough for the anchors' jitter
// (tens of ns) not to matter, and only when it is plausible: the kernel slews
// its clock by parts per million, so a larger change means the interval held
// a disturbance (a suspend with the TSC stopped) and says nothing about the
// rate. Unless the next interval measures the same new rate: then the TSC's
// frequency itself changed (a VM moved to another host) and it is taken.
//
// While spans are still growing (the rate was measured over less than
// kRefitNs / 2), an interval as long as the rate's own is long enough.
void TscFitter::LearnRate(const TscAnchor& anchor, uint64_t measured) noexcept {
  const uint64_t interval = anchor.ns - last_.ns;
  const uint64_t needed =
      rate_interval_ns_ < kRefitNs / 2 ? rate_interval_ns_ : kRefitNs / 2;
  if (interval < needed) return;
  last_ = anchor;
  if (Near(measured, rate_, rate_ / kRateTolerance) ||
      (candidate_ != 0 &&
       Near(measured, candidate_, candidate_ / kRateTolerance))) {
    rate_ = measured;
    rate_interval_ns_ = interval;
    candidate_ = 0;
  } else {
    candidate_ = measured;
  }
}

bool TscFitter::Feed(const TscAnchor& anchor, const TscMap* current,
                     uint64_t start_tsc, TscMap* map, bool* reset) noexcept {
  *reset = anchor.tsc <= last_.tsc;
  if (*reset || anchor.ns <= last_.ns) return false;
  if (start_tsc < anchor.tsc) start_tsc = anchor.tsc;
  const uint64_t measured =
      RateOf(anchor.ns - last_.ns, anchor.tsc - last_.tsc);
  if (!calibrated_) {
    const uint64_t interval = anchor.ns - last_.ns;
    if (interval < kCalibrationNs || measured == 0) return false;
    last_ = anchor;
    // A suspend inside one interval would pass for a rate: two intervals
    // must agree.
    if (candidate_ == 0 ||
        !Near(measured, candidate_, candidate_ / kRateTolerance)) {
      candidate_ = measured;
      return false;
    }
    rate_ = measured;
    rate_interval_ns_ = interval;
    candidate_ = 0;
    calibrated_ = true;
  } else {
    LearnRate(anchor, measured);
  }
  const uint64_t span = SpanTicks(rate_);
  if (span == 0) {  // a rate of more than 50 ms per tick: nothing sane
    *reset = true;
    return false;
  }
  // The kernel's clock at start_tsc, extrapolated from the anchor.
  const uint64_t kernel =
      MapTsc(TscMap{anchor.tsc, anchor.ns, rate_, span}, start_tsc);
  // What readers of the current map may have been given already.
  const uint64_t seen = current != nullptr ? MapEnd(*current) : 0;
  if (kernel >= seen || seen - kernel > kStepNs) {
    *map = TscMap{start_tsc, kernel, rate_, span};
    return true;
  }
  // Ahead of the kernel: start where readers are and run slower until the
  // kernel has caught up, by the end of this span if the limit allows.
  const uint64_t ahead = seen - kernel;
  uint64_t slow = static_cast<uint64_t>(
      (static_cast<unsigned __int128>(ahead) << 32) / span);
  if (slow > rate_ / kMaxSlowdown) slow = rate_ / kMaxSlowdown;
  *map = TscMap{start_tsc, seen, rate_ - slow, span};
  return true;
}

}  // namespace roctracer::clock
