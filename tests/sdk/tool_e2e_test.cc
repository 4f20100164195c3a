// End to end: the C sample tool (found by libroctracer64.so's load-time
// scan; this binary exports rocprofiler_configure with -rdynamic) traces real
// HSA and HIP calls intercepted by the library, which is linked ahead of the
// ROCm runtimes so its hsa_* / hip* stubs interpose them. A roctracer
// callback on the same call must see the same correlation ID.
#include <dlfcn.h>
#include <hip/hip_runtime_api.h>
#include <hsa/hsa.h>

#include <string>

#include "gtest/gtest.h"
#include "hsa_api_data.h"
#include "rocprofiler-sdk/rocprofiler.h"
#include "roctracer.h"
#include "tests/sdk/sample_tool.h"

namespace {

uint64_t g_roctracer_correlation = 0;

void RoctracerCallback(uint32_t, uint32_t, const void* data, void*) {
  const auto* d = static_cast<const hsa_api_data_t*>(data);
  if (d->phase == ACTIVITY_API_PHASE_EXIT) {
    g_roctracer_correlation = d->correlation_id;
  }
}

TEST(ToolEndToEnd, ToolWasFoundInTheProcessAtTheFirstRuntimeCall) {
  // Not at load: at the runtimes' first call, which it then traces.
  EXPECT_EQ(sample_tool_seen.initialized, 0);
  hipGetErrorString(hipSuccess);
  EXPECT_EQ(sample_tool_seen.initialized, 1);
  EXPECT_EQ(sample_tool_seen.enters, 1);
  EXPECT_EQ(sample_tool_seen.exits, 1);
  EXPECT_STREQ(sample_tool_seen.last_op, "hipGetErrorString");
}

TEST(ToolEndToEnd, RealHsaCallWithItsRealReturnCode) {
  const int before = sample_tool_seen.exits;
  uint64_t timestamp = 0;
  // No GPU and no hsa_init: the runtime answers NOT_INITIALIZED.
  const hsa_status_t rc =
      hsa_system_get_info(HSA_SYSTEM_INFO_TIMESTAMP, &timestamp);
  EXPECT_EQ(sample_tool_seen.exits, before + 1);
  EXPECT_EQ(sample_tool_seen.enters, sample_tool_seen.exits);
  EXPECT_STREQ(sample_tool_seen.last_kind, "HSA_CORE_API");
  EXPECT_STREQ(sample_tool_seen.last_op, "hsa_system_get_info");
  EXPECT_EQ(sample_tool_seen.last_hsa_status, rc);
  EXPECT_NE(sample_tool_seen.last_correlation_exit, 0u);
  EXPECT_EQ(sample_tool_seen.last_correlation_enter,
            sample_tool_seen.last_correlation_exit);
  EXPECT_EQ(sample_tool_seen.last_arg_count, 2);
  EXPECT_NE(std::string(sample_tool_seen.last_args)
                .find("attribute=HSA_SYSTEM_INFO_TIMESTAMP"),
            std::string::npos)
      << sample_tool_seen.last_args;
}

TEST(ToolEndToEnd, RealHipCallWithItsRealReturnValue) {
  const char* s = hipGetErrorString(hipErrorInvalidValue);
  EXPECT_STREQ(sample_tool_seen.last_kind, "HIP_RUNTIME_API");
  EXPECT_STREQ(sample_tool_seen.last_op, "hipGetErrorString");
  EXPECT_EQ(sample_tool_seen.last_hip_string_retval, s);
}

TEST(ToolEndToEnd, SameCorrelationIdAsRoctracer) {
  ASSERT_EQ(ROCTRACER_STATUS_SUCCESS,
            roctracer_enable_op_callback(ACTIVITY_DOMAIN_HSA_API,
                                         HSA_API_ID_hsa_status_string,
                                         &RoctracerCallback, nullptr));
  const char* text = nullptr;
  hsa_status_string(HSA_STATUS_ERROR, &text);
  roctracer_disable_op_callback(ACTIVITY_DOMAIN_HSA_API,
                                HSA_API_ID_hsa_status_string);
  EXPECT_STREQ(sample_tool_seen.last_op, "hsa_status_string");
  EXPECT_NE(g_roctracer_correlation, 0u);
  EXPECT_EQ(sample_tool_seen.last_correlation_exit, g_roctracer_correlation);
}

}  // namespace
