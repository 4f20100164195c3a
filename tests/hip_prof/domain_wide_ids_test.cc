// Enabling the whole HIP_API domain enables exactly the IDs HIP's own record
// (the release's hip/amd_detail/hip_prof_str.h, which this test is compiled
// against) numbers, up to its HIP_API_ID_LAST: a client that sizes its
// arrays by that HIP_API_ID_LAST is never handed a larger ID. The APIs it
// leaves unnumbered are enabled by their ID, and a domain disable clears
// them too. Runs against every release's headers (no HIP library needed: it
// reads the tracer's dispatch slots).
#include <gtest/gtest.h>
#include <hip/hip_runtime_api.h>
// HIP's record needs HIP's API header before it.
#include <hip/amd_detail/hip_prof_str.h>
#include <roctracer.h>

#include "runtime/activity/domain_registry.h"
#include "runtime/intercept/api_consumer.h"
#include "runtime/private/tool_activity.h"

namespace {

void Noop(uint32_t, uint32_t, const void*, void*) {}
void NoRecords(const char*, const char*, void*) {}

constexpr uint32_t kHip = ACTIVITY_DOMAIN_HIP_API;

// Ops of the domain whose callback and pool are set.
void ExpectEnabledUpToHipsLast() {
  const uint32_t count = roctracer::activity::OpCount(kHip);
  ASSERT_GT(count, 0u);
  for (uint32_t op = 0; op < count; ++op) {
    const bool numbered = op <= HIP_API_ID_LAST;
    EXPECT_EQ(roctracer::activity::CallbackFor(kHip, op) != nullptr, numbered)
        << op;
    EXPECT_EQ(roctracer::activity::ActivityPoolFor(kHip, op) != nullptr,
              numbered)
        << op;
  }
}

class DomainWideIds : public ::testing::Test {
 protected:
  void SetUp() override {
    roctracer_properties_t properties{};
    properties.buffer_size = 4096;
    properties.buffer_callback_fun = NoRecords;
    ASSERT_EQ(roctracer_open_pool(&properties), ROCTRACER_STATUS_SUCCESS);
  }
  void TearDown() override {
    roctracer_disable_callback();
    roctracer_disable_activity();
    roctracer_close_pool();
  }
};

TEST_F(DomainWideIds, DomainEnableStopsAtHipsLast) {
  EXPECT_EQ(roctracer::activity::DomainWideOpCount(kHip),
            static_cast<uint32_t>(HIP_API_ID_LAST) + 1);
  ASSERT_EQ(
      roctracer_enable_domain_callback(ACTIVITY_DOMAIN_HIP_API, Noop, nullptr),
      ROCTRACER_STATUS_SUCCESS);
  ASSERT_EQ(roctracer_enable_domain_activity(ACTIVITY_DOMAIN_HIP_API),
            ROCTRACER_STATUS_SUCCESS);
  ExpectEnabledUpToHipsLast();
}

TEST_F(DomainWideIds, EveryDomainEnableStopsAtHipsLast) {
  ASSERT_EQ(roctracer_enable_callback(Noop, nullptr), ROCTRACER_STATUS_SUCCESS);
  ASSERT_EQ(roctracer_enable_activity(), ROCTRACER_STATUS_SUCCESS);
  ExpectEnabledUpToHipsLast();
}

TEST_F(DomainWideIds, UnnumberedApisAreEnabledByIdAndDisabledWithTheDomain) {
  const uint32_t count = roctracer::activity::OpCount(kHip);
  uint32_t extra = 0;
  for (uint32_t op = HIP_API_ID_LAST + 1; op < count && extra == 0; ++op) {
    if (roctracer::activity::OpName(kHip, op) != nullptr) extra = op;
  }
  if (extra == 0) GTEST_SKIP() << "this HIP numbers every traced API";
  uint32_t by_name = 0;
  ASSERT_EQ(roctracer_op_code(kHip, roctracer::activity::OpName(kHip, extra),
                              &by_name, nullptr),
            ROCTRACER_STATUS_SUCCESS);
  EXPECT_EQ(by_name, extra);
  ASSERT_EQ(roctracer_enable_op_callback(ACTIVITY_DOMAIN_HIP_API, extra, Noop,
                                         nullptr),
            ROCTRACER_STATUS_SUCCESS);
  ASSERT_EQ(roctracer_enable_op_activity(ACTIVITY_DOMAIN_HIP_API, extra),
            ROCTRACER_STATUS_SUCCESS);
  EXPECT_NE(roctracer::activity::CallbackFor(kHip, extra), nullptr);
  EXPECT_NE(roctracer::activity::ActivityPoolFor(kHip, extra), nullptr);
  ASSERT_EQ(roctracer_disable_domain_callback(ACTIVITY_DOMAIN_HIP_API),
            ROCTRACER_STATUS_SUCCESS);
  ASSERT_EQ(roctracer_disable_domain_activity(ACTIVITY_DOMAIN_HIP_API),
            ROCTRACER_STATUS_SUCCESS);
  EXPECT_EQ(roctracer::activity::CallbackFor(kHip, extra), nullptr);
  EXPECT_EQ(roctracer::activity::ActivityPoolFor(kHip, extra), nullptr);
}

// roctrace (the tool slot) and the rocprofiler-sdk front end (the consumer's
// per-op interest) keep seeing the APIs after HIP_API_ID_LAST.
TEST_F(DomainWideIds, ToolSlotAndSdkCoverEveryOp) {
  const uint32_t count = roctracer::activity::OpCount(kHip);
  roctracer_properties_t properties{};
  properties.buffer_size = 4096;
  properties.buffer_callback_fun = NoRecords;
  roctracer_pool_t* tool_pool = nullptr;
  ASSERT_EQ(roctracer_open_pool_expl(&properties, &tool_pool),
            ROCTRACER_STATUS_SUCCESS);
  ASSERT_EQ(roctracer_internal_tool_enable_domain_activity(
                ACTIVITY_DOMAIN_HIP_API, tool_pool),
            ROCTRACER_STATUS_SUCCESS);
  for (uint32_t op = 0; op < count; ++op) {
    EXPECT_NE(roctracer::activity::ToolPoolFor(kHip, op), nullptr) << op;
  }
  EXPECT_TRUE(roctracer::SetConsumerInterest(kHip, count - 1, true));
  EXPECT_TRUE(roctracer::activity::ConsumerWants(kHip, count - 1));
  roctracer::SetConsumerInterest(kHip, count - 1, false);
  EXPECT_EQ(roctracer_close_pool_expl(tool_pool), ROCTRACER_STATUS_SUCCESS);
}

}  // namespace
