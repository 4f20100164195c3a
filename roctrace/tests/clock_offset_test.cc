// The ping-pong offset: the shortest round trip bounds it.
#include "roctrace/tool/clock_offset.h"

#include <gtest/gtest.h>

namespace roctrace {
namespace {

TEST(ClockOffset, ShortestRoundTripWins) {
  // The reference clock is 1000 ns ahead; its reading falls anywhere in the
  // round trip.
  const ClockOffset o = BestOffset({{100, 1190, 300},     // rtt 200
                                    {500, 1540, 540},     // rtt 40
                                    {700, 1900, 1000}});  // rtt 300
  ASSERT_TRUE(o.valid);
  EXPECT_EQ(o.offset_ns, 1540 - 520);
  EXPECT_EQ(o.uncertainty_ns, 20u);
  EXPECT_EQ(o.local_ns, 520u);
  EXPECT_LE(o.offset_ns - 1000, static_cast<int64_t>(o.uncertainty_ns));
}

TEST(ClockOffset, ReferenceBehindAndOddRoundTrip) {
  const ClockOffset o = BestOffset({{5000, 2001, 5003}});
  ASSERT_TRUE(o.valid);
  EXPECT_EQ(o.offset_ns, 2001 - 5001);
  EXPECT_EQ(o.uncertainty_ns, 2u);  // 3 / 2 rounded up
}

TEST(ClockOffset, NothingMeasured) {
  EXPECT_FALSE(BestOffset({}).valid);
  EXPECT_FALSE(BestOffset({{10, 5, 9}}).valid);  // the clock went back
}

}  // namespace
}  // namespace roctrace
