// The C sample tool, found in the process at load (it exports
// rocprofiler_configure; the test links with -rdynamic), traces synthetic
// calls delivered through the fake consumer seam.
#include "tests/sdk/sample_tool.h"

#include <cstdlib>
#include <cstring>
#include <string>

#include "ext/prof_protocol.h"
#include "gtest/gtest.h"
#include "hsa_api_data.h"
#include "rocprofiler-sdk/rocprofiler.h"
#include "tests/sdk/fake_consumer_seam.h"

namespace {

TEST(SampleTool, FoundAndInitializedAtTheFirstCall) {
  int status = -1;
  rocprofiler_is_initialized(&status);
  EXPECT_EQ(status, 0);
  EXPECT_EQ(sample_tool_seen.initialized, 0);
  // The runtimes' first call registers the tool, which then traces that
  // call like any other.
  hsa_api_data_t first;
  std::memset(&first, 0, sizeof(first));
  fake_seam::Call(ACTIVITY_DOMAIN_HSA_API, HSA_API_ID_hsa_init,
                  ACTIVITY_API_PHASE_ENTER, 1, &first);
  fake_seam::Call(ACTIVITY_DOMAIN_HSA_API, HSA_API_ID_hsa_init,
                  ACTIVITY_API_PHASE_EXIT, 1, &first);
  EXPECT_EQ(sample_tool_seen.initialized, 1);
  EXPECT_EQ(sample_tool_seen.enters, 1);
  EXPECT_EQ(sample_tool_seen.exits, 1);
  EXPECT_STREQ(sample_tool_seen.last_op, "hsa_init");
  EXPECT_EQ(sample_tool_seen.last_correlation_exit, 1u);
  rocprofiler_is_initialized(&status);
  EXPECT_EQ(status, 1);
  EXPECT_EQ(ROCPROFILER_STATUS_ERROR_CONFIGURATION_LOCKED,
            rocprofiler_force_configure(nullptr));
}

TEST(SampleTool, TracesAndIteratesArguments) {
  hsa_api_data_t d;
  std::memset(&d, 0, sizeof(d));
  uint64_t value = 0;
  d.args.hsa_system_get_info.attribute = HSA_SYSTEM_INFO_TIMESTAMP;
  d.args.hsa_system_get_info.value = &value;
  fake_seam::Call(ACTIVITY_DOMAIN_HSA_API, HSA_API_ID_hsa_system_get_info,
                  ACTIVITY_API_PHASE_ENTER, 77, &d);
  d.hsa_status_t_retval = HSA_STATUS_ERROR_NOT_INITIALIZED;
  fake_seam::Call(ACTIVITY_DOMAIN_HSA_API, HSA_API_ID_hsa_system_get_info,
                  ACTIVITY_API_PHASE_EXIT, 77, &d);
  EXPECT_EQ(sample_tool_seen.enters, 2);
  EXPECT_EQ(sample_tool_seen.exits, 2);
  EXPECT_STREQ(sample_tool_seen.last_kind, "HSA_CORE_API");
  EXPECT_STREQ(sample_tool_seen.last_op, "hsa_system_get_info");
  EXPECT_EQ(sample_tool_seen.last_correlation_enter, 77u);
  EXPECT_EQ(sample_tool_seen.last_correlation_exit, 77u);
  EXPECT_EQ(sample_tool_seen.last_user_at_exit, 78u);
  EXPECT_EQ(sample_tool_seen.last_hsa_status, HSA_STATUS_ERROR_NOT_INITIALIZED);
  EXPECT_EQ(sample_tool_seen.last_arg_count, 2);
  EXPECT_NE(std::string(sample_tool_seen.last_args)
                .find("hsa_system_info_t attribute=HSA_SYSTEM_INFO_TIMESTAMP"),
            std::string::npos)
      << sample_tool_seen.last_args;
  EXPECT_NE(std::string(sample_tool_seen.last_args).find("void* value=0x"),
            std::string::npos)
      << sample_tool_seen.last_args;
}

TEST(SampleTool, FinalizeRunsAtExit) {
  EXPECT_EXIT(std::exit(0), testing::ExitedWithCode(0),
              "sample_tool: finalize after [0-9]+ calls");
}

}  // namespace
