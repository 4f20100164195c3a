// The map from the runtime's system timestamp domain to the tracer's
// CLOCK_BOOTTIME nanoseconds (runtime/gpu/gpu_clock.h): exact arithmetic,
// and an anchor measured against a domain of another rate and epoch.
#include "runtime/gpu/gpu_clock.h"

#include <gtest/gtest.h>

#include <cstdint>

#include "runtime/clock/clock.h"

namespace {

using roctracer::gpu::ClockAnchor;
using roctracer::gpu::MeasureAnchor;
using roctracer::gpu::TicksToNs;

TEST(GpuClock, MapsTicksAffinelyOnBothSidesOfTheAnchor) {
  const ClockAnchor a{1'000'000, 5'000'000'000, 100'000'000};  // 100 MHz
  EXPECT_EQ(TicksToNs(a, 1'000'000), 5'000'000'000u);
  EXPECT_EQ(TicksToNs(a, 1'000'100), 5'000'001'000u);
  EXPECT_EQ(TicksToNs(a, 999'900), 4'999'999'000u);
  // 25 MHz: 40 ns a tick; a partial tick rounds toward the anchor.
  const ClockAnchor b{0, 1'000, 25'000'000};
  EXPECT_EQ(TicksToNs(b, 3), 1'120u);
  // Far from the anchor (days at 1 GHz), no overflow.
  const ClockAnchor c{10, 7, 1'000'000'000};
  EXPECT_EQ(TicksToNs(c, 10 + 400'000'000'000'000ull), 400'000'000'000'007ull);
  // A rate that does not divide a second: 3 ticks of 19.2 MHz.
  const ClockAnchor d{0, 0, 19'200'000};
  EXPECT_EQ(TicksToNs(d, 19'200'000ull * 3600), 3'600'000'000'000ull);
  EXPECT_EQ(TicksToNs(d, 3), 156u);  // 156.25 ns
}

// A domain at 100 MHz running 1000 s ahead of the tracer's clock (softhsa's
// shape): once anchored, the map reads the tracer's clock back to within a
// microsecond, and stays monotonic.
uint64_t FakeSystemTicks() {
  return (roctracer::clock::TimestampNs() + 1'000'000'000'000ull) / 10;
}

TEST(GpuClock, AnchorMeasuredAgainstAnotherDomainReadsTheTracersClock) {
  const ClockAnchor a = MeasureAnchor(&FakeSystemTicks, 100'000'000);
  uint64_t last = 0;
  for (int i = 0; i < 1000; ++i) {
    const uint64_t before = roctracer::clock::TimestampNs();
    const uint64_t mapped = TicksToNs(a, FakeSystemTicks());
    const uint64_t after = roctracer::clock::TimestampNs();
    EXPECT_LE(before, mapped + 1'000);
    EXPECT_LE(mapped, after + 1'000);
    EXPECT_LE(last, mapped);
    last = mapped;
  }
}

}  // namespace
