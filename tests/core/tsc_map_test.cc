// The TSC-to-CLOCK_BOOTTIME fitting rules, driven by synthetic anchors: a
// simulated TSC at 2.3 GHz and a simulated kernel clock whose rate against it
// can be slewed or made to jump.
#include "runtime/tsc_map.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>

namespace roctracer {
namespace {

constexpr double kGhz = 2.3;

// The kernel's clock as a function of the TSC: piecewise linear, with a
// settable rate (ns per tick) from the current point on.
class SimulatedKernel {
 public:
  SimulatedKernel() : tsc_(1'000'000'000'000ull), ns_(5'000'000'000'000ull) {}
  TscAnchor Now() const { return TscAnchor{tsc_, ns_}; }
  void Advance(uint64_t ticks) {
    tsc_ += ticks;
    ns_ += static_cast<uint64_t>(std::llround(ticks * rate_));
  }
  void AdvanceNs(uint64_t ns) {
    Advance(static_cast<uint64_t>(std::llround(ns / rate_)));
  }
  void set_rate(double ns_per_tick) { rate_ = ns_per_tick; }
  void JumpNs(uint64_t ns) { ns_ += ns; }  // suspended with the TSC stopped
  void ResetTsc(uint64_t tsc) { tsc_ = tsc; }

 private:
  uint64_t tsc_;
  uint64_t ns_;
  double rate_ = 1.0 / kGhz;
};

int64_t ErrorNs(const TscMap& map, const SimulatedKernel& kernel) {
  const TscAnchor now = kernel.Now();
  return static_cast<int64_t>(MapTsc(map, now.tsc) - now.ns);
}

// Feeds the kernel's current reading; expects a map to come out.
TscMap Refit(TscFitter* fitter, const SimulatedKernel& kernel,
             const TscMap& current) {
  TscMap next{};
  bool reset = true;
  EXPECT_TRUE(fitter->Feed(kernel.Now(), current, &next, &reset));
  EXPECT_FALSE(reset);
  return next;
}

// A fitter calibrated on a simulated kernel, ready for re-fits.
class TscMapFit : public ::testing::Test {
 protected:
  TscMap Calibrate() {
    fitter_.Start(kernel_.Now());
    kernel_.AdvanceNs(TscFitter::kCalibrationNs);
    return Refit(&fitter_, kernel_, TscMap{});
  }
  SimulatedKernel kernel_;
  TscFitter fitter_;
};

TEST(TscMap, NoMapUntilTheCalibrationIntervalHasPassed) {
  SimulatedKernel kernel;
  TscFitter fitter;
  fitter.Start(kernel.Now());
  kernel.AdvanceNs(TscFitter::kCalibrationNs / 2);
  TscMap map{};
  bool reset = true;
  EXPECT_FALSE(fitter.Feed(kernel.Now(), map, &map, &reset));
  EXPECT_FALSE(reset);
  EXPECT_FALSE(fitter.calibrated());
  kernel.AdvanceNs(TscFitter::kCalibrationNs);
  EXPECT_TRUE(fitter.Feed(kernel.Now(), map, &map, &reset));
  EXPECT_TRUE(fitter.calibrated());
  EXPECT_EQ(map.base_ns, kernel.Now().ns);
  EXPECT_EQ(map.base_tsc, kernel.Now().tsc);
}

TEST_F(TscMapFit, ConstantRateMapsEveryPointOfTheSpanToTheNanosecond) {
  const TscMap map = Calibrate();
  // The span covers the re-fit interval.
  EXPECT_NEAR(map.span / kGhz, TscFitter::kRefitNs, 1000.0);
  for (int i = 0; i < 100; ++i) {
    kernel_.Advance(map.span / 100);
    EXPECT_LE(std::llabs(ErrorNs(map, kernel_)), 1) << "step " << i;
  }
}

TEST_F(TscMapFit, RefitContinuesFromTheOldMapAndSteersToASlewedClock) {
  TscMap map = Calibrate();
  // The kernel now runs 100 ppm fast against the TSC (NTP slewing).
  kernel_.set_rate(1.0001 / kGhz);
  int64_t worst_late = 0;
  for (int refit = 0; refit < 20; ++refit) {
    // Timestamps inside the span never go backwards.
    uint64_t previous = 0;
    for (int i = 1; i <= 10; ++i) {
      kernel_.Advance(map.span / 10);
      const uint64_t t = MapTsc(map, kernel_.Now().tsc);
      EXPECT_GT(t, previous);
      previous = t;
    }
    const TscMap next = Refit(&fitter_, kernel_, map);
    // Continuous: the new map starts where the old one is at the re-fit.
    EXPECT_EQ(next.base_ns, MapTsc(map, next.base_tsc));
    if (refit >= 3) worst_late = std::max(worst_late, -ErrorNs(map, kernel_));
    map = next;
  }
  // Once steered, it trails the kernel by less than one span's worth of
  // estimation lag (100 ppm of 50 ms is 5000 ns without any steering).
  EXPECT_LT(worst_late, 600);
}

// Re-fits can come close together (a reading a little before the base of a
// map another thread just published, several threads past the span): an
// anchor's jitter of a few tens of ns over 100 us is a rate off by 600 ppm,
// plausible for a slewed clock but wrong, and must not be learnt.
TEST_F(TscMapFit, CloseRefitsWithJitteryAnchorsKeepTheRate) {
  TscMap map = Calibrate();
  const uint64_t rate = map.mult;
  for (int i = 0; i < 200; ++i) {
    kernel_.AdvanceNs(100'000);
    TscAnchor jittery = kernel_.Now();
    jittery.ns += (i % 2 == 0) ? 30 : -30;
    TscMap next{};
    bool reset = true;
    ASSERT_TRUE(fitter_.Feed(jittery, map, &next, &reset));
    ASSERT_FALSE(reset);
    EXPECT_EQ(next.base_ns, MapTsc(map, next.base_tsc));
    map = next;
  }
  // Steering toward +-30 ns of jitter moves the rate by at most 0.1%; what
  // matters is that the map still tracks the kernel after a whole span.
  kernel_.Advance(map.span);
  map = Refit(&fitter_, kernel_, map);
  kernel_.Advance(map.span / 2);
  EXPECT_LE(std::llabs(ErrorNs(map, kernel_)), 100);
  EXPECT_NEAR(static_cast<double>(map.mult), static_cast<double>(rate),
              rate * 1e-5);
}

TEST_F(TscMapFit, SuspendJumpsToTheKernelClockAndKeepsTheRate) {
  TscMap map = Calibrate();
  kernel_.AdvanceNs(TscFitter::kRefitNs);
  map = Refit(&fitter_, kernel_, map);
  const uint64_t rate = map.mult;
  kernel_.AdvanceNs(TscFitter::kRefitNs / 2);
  kernel_.JumpNs(30'000'000'000ull);  // 30 s asleep
  kernel_.AdvanceNs(TscFitter::kRefitNs / 2);
  map = Refit(&fitter_, kernel_, map);
  EXPECT_EQ(map.base_ns, kernel_.Now().ns);
  // The jump did not pass for a rate (it would be 600 times the real one).
  EXPECT_NEAR(static_cast<double>(map.mult), static_cast<double>(rate),
              rate * 1e-6);
  kernel_.AdvanceNs(TscFitter::kRefitNs / 2);
  EXPECT_LE(std::llabs(ErrorNs(map, kernel_)), 2);
}

// A VM moved to a host whose TSC runs 5% faster: no single interval is
// trusted with a change that large, but two that agree are, and the map then
// tracks the kernel's clock again.
TEST_F(TscMapFit, ATscFrequencyChangeMeasuredTwiceIsAdopted) {
  TscMap map = Calibrate();
  kernel_.set_rate(1.0 / (kGhz * 1.05));
  for (int refit = 0; refit < 4; ++refit) {
    kernel_.AdvanceNs(TscFitter::kRefitNs);
    map = Refit(&fitter_, kernel_, map);
  }
  EXPECT_NEAR(static_cast<double>(map.mult),
              (uint64_t{1} << 32) / (kGhz * 1.05), 1e-5 * map.mult);
  for (int i = 0; i < 10; ++i) {
    kernel_.Advance(map.span / 10);
    EXPECT_LE(std::llabs(ErrorNs(map, kernel_)), 100) << "step " << i;
  }
}

TEST_F(TscMapFit, ATscThatWentBackwardsAsksForACalibrationFromScratch) {
  const TscMap map = Calibrate();
  kernel_.ResetTsc(1000);
  TscMap next{};
  bool reset = false;
  EXPECT_FALSE(fitter_.Feed(kernel_.Now(), map, &next, &reset));
  EXPECT_TRUE(reset);
}

TEST(TscMap, AReadingJustBeforeTheBaseMapsJustBelowIt) {
  const TscMap map{1'000'000, 7'000'000'000ull, uint64_t{1} << 31, 100'000};
  EXPECT_EQ(MapTsc(map, 1'000'000), 7'000'000'000ull);
  EXPECT_EQ(MapTsc(map, 1'000'010), 7'000'000'005ull);
  EXPECT_EQ(MapTsc(map, 999'990), 6'999'999'995ull);
}

}  // namespace
}  // namespace roctracer
