// Layout and value facts that binaries built against roctracer 4.1 depend on.
#include <gtest/gtest.h>
#include <roctracer.h>
#include <roctracer/roctracer_roctx.h>
#include <roctracer_ext.h>

#include <cstddef>

static_assert(sizeof(activity_record_t) == 64, "4.1 record size");
static_assert(offsetof(activity_record_t, domain) == 0, "");
static_assert(offsetof(activity_record_t, kind) == 4, "");
static_assert(offsetof(activity_record_t, op) == 8, "");
static_assert(offsetof(activity_record_t, correlation_id) == 16, "");
static_assert(offsetof(activity_record_t, begin_ns) == 24, "");
static_assert(offsetof(activity_record_t, end_ns) == 32, "");
static_assert(offsetof(activity_record_t, device_id) == 40, "");
static_assert(offsetof(activity_record_t, queue_id) == 48, "");
static_assert(offsetof(activity_record_t, process_id) == 40, "");
static_assert(offsetof(activity_record_t, thread_id) == 44, "");
static_assert(offsetof(activity_record_t, external_id) == 40, "");
static_assert(offsetof(activity_record_t, bytes) == 56, "");
static_assert(offsetof(activity_record_t, mark_message) == 56, "");
static_assert(sizeof(roctracer_properties_t) == 48, "4.1 properties size");
static_assert(offsetof(roctracer_properties_t, buffer_callback_fun) == 32, "");
static_assert(sizeof(roctx_api_data_t) == 16, "4.1 roctx data size");

TEST(Layout, DomainValuesFollowRoctracer41) {
  EXPECT_EQ(ACTIVITY_DOMAIN_HSA_API, 0);
  EXPECT_EQ(ACTIVITY_DOMAIN_HSA_OPS, 1);
  EXPECT_EQ(ACTIVITY_DOMAIN_HIP_OPS, 2);
  EXPECT_EQ(ACTIVITY_DOMAIN_HCC_OPS, ACTIVITY_DOMAIN_HIP_OPS);
  EXPECT_EQ(ACTIVITY_DOMAIN_HIP_VDI, ACTIVITY_DOMAIN_HIP_OPS);
  EXPECT_EQ(ACTIVITY_DOMAIN_HIP_API, 3);
  EXPECT_EQ(ACTIVITY_DOMAIN_KFD_API, 4);
  EXPECT_EQ(ACTIVITY_DOMAIN_EXT_API, 5);
  EXPECT_EQ(ACTIVITY_DOMAIN_ROCTX, 6);
  EXPECT_EQ(ACTIVITY_DOMAIN_HSA_EVT, 7);
  EXPECT_EQ(ACTIVITY_DOMAIN_NUMBER, 8);
}

TEST(Layout, StatusCodesAreNegativeWithDeprecatedAliases) {
  EXPECT_EQ(ROCTRACER_STATUS_SUCCESS, 0);
  EXPECT_EQ(ROCTRACER_STATUS_ERROR, -1);
  EXPECT_EQ(ROCTRACER_STATUS_ERROR_INVALID_DOMAIN_ID, -2);
  EXPECT_EQ(ROCTRACER_STATUS_ERROR_INVALID_ARGUMENT, -3);
  EXPECT_EQ(ROCTRACER_STATUS_ERROR_DEFAULT_POOL_UNDEFINED, -4);
  EXPECT_EQ(ROCTRACER_STATUS_ERROR_DEFAULT_POOL_ALREADY_DEFINED, -5);
  EXPECT_EQ(ROCTRACER_STATUS_ERROR_MEMORY_ALLOCATION, -6);
  EXPECT_EQ(ROCTRACER_STATUS_ERROR_MISMATCHED_EXTERNAL_CORRELATION_ID, -7);
  EXPECT_EQ(ROCTRACER_STATUS_ERROR_NOT_IMPLEMENTED, -8);
  EXPECT_EQ(ROCTRACER_STATUS_BAD_DOMAIN,
            ROCTRACER_STATUS_ERROR_INVALID_DOMAIN_ID);
  EXPECT_EQ(ROCTRACER_STATUS_BAD_PARAMETER,
            ROCTRACER_STATUS_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(ROCTRACER_STATUS_UNINIT, 2);
  EXPECT_EQ(ROCTRACER_STATUS_ROCTX_ERR, 8);
}

TEST(Layout, OpEnumsFollowRoctracer41) {
  EXPECT_EQ(ACTIVITY_EXT_OP_MARK, 0);
  EXPECT_EQ(ACTIVITY_EXT_OP_EXTERN_ID, 1);
  EXPECT_EQ(ROCTX_API_ID_roctxMarkA, 0);
  EXPECT_EQ(ROCTX_API_ID_roctxRangeStop, 4);
  EXPECT_EQ(ROCTX_API_ID_NUMBER, 5);
  EXPECT_EQ(ACTIVITY_API_PHASE_ENTER, 0);
  EXPECT_EQ(ACTIVITY_API_PHASE_EXIT, 1);
  EXPECT_EQ(ROCTRACER_VERSION_MAJOR, 4);
  EXPECT_EQ(ROCTRACER_VERSION_MINOR, 1);
}
