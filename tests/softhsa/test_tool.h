// What a test tool (test_tool.cc) records, read by tool_test through the
// tool's exported tool_state().
#ifndef TESTS_SOFTHSA_TEST_TOOL_H_
#define TESTS_SOFTHSA_TEST_TOOL_H_

#include <hsa/hsa_api_trace.h>

#include <atomic>
#include <string>
#include <vector>

struct ToolState {
  int loads = 0;
  int unloads = 0;
  HsaApiTable* table = nullptr;
  uint64_t runtime_version = 0;
  uint64_t failed_count = 0;
  std::vector<std::string> failed_names;
  decltype(hsa_agent_get_info)* previous = nullptr;
  std::atomic<int> calls{0};
  int unload_order = 0;
};

#endif  // TESTS_SOFTHSA_TEST_TOOL_H_
