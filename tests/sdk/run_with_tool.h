// main() of a GoogleTest binary that is itself an SDK tool: the tool is
// registered with rocprofiler_force_configure before any test runs, so every
// test sees it initialized.
#ifndef TESTS_SDK_RUN_WITH_TOOL_H_
#define TESTS_SDK_RUN_WITH_TOOL_H_

#include <rocprofiler-sdk/registration.h>

namespace sdk_test {

// Initializes GoogleTest from the command line, registers `configure`, and
// runs the tests: RUN_ALL_TESTS's result, or 2 (no test run) when the SDK
// refuses the tool.
int RunWithTool(int argc, char** argv, rocprofiler_configure_func_t configure);

}  // namespace sdk_test

#endif  // TESTS_SDK_RUN_WITH_TOOL_H_
