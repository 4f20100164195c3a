#include "tests/sdk/run_with_tool.h"

#include <gtest/gtest.h>

namespace sdk_test {

int RunWithTool(int argc, char** argv, rocprofiler_configure_func_t configure) {
  testing::InitGoogleTest(&argc, argv);
  if (rocprofiler_force_configure(configure) != ROCPROFILER_STATUS_SUCCESS) {
    return 2;
  }
  return RUN_ALL_TESTS();
}

}  // namespace sdk_test
