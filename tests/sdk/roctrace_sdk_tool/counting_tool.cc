// A rocprofiler-sdk tool library for roctrace's --sdk-tool: records the
// correlation ID of every hipGetErrorString call it sees (callback tracing
// of HIP runtime calls) and prints them at finalize.
#include <cstdio>
#include <cstring>
#include <mutex>
#include <string>
#include <vector>

#include "rocprofiler-sdk/registration.h"
#include "rocprofiler-sdk/rocprofiler.h"
#include "tests/sdk/tool_configure.h"

namespace {

std::mutex g_mutex;
std::vector<uint64_t> g_ids;
rocprofiler_context_id_t g_context{};

void OnCall(rocprofiler_callback_tracing_record_t r, rocprofiler_user_data_t*,
            void*) {
  if (r.phase != ROCPROFILER_CALLBACK_PHASE_EXIT) return;
  const char* name = nullptr;
  rocprofiler_query_callback_tracing_kind_operation_name(r.kind, r.operation,
                                                         &name, nullptr);
  if (name == nullptr || std::strcmp(name, "hipGetErrorString") != 0) return;
  std::lock_guard<std::mutex> lock(g_mutex);
  g_ids.push_back(r.correlation_id.internal);
}

int Initialize(rocprofiler_client_finalize_t, void*) {
  if (rocprofiler_create_context(&g_context) != ROCPROFILER_STATUS_SUCCESS ||
      rocprofiler_configure_callback_tracing_service(
          g_context, ROCPROFILER_CALLBACK_TRACING_HIP_RUNTIME_API, nullptr, 0,
          &OnCall, nullptr) != ROCPROFILER_STATUS_SUCCESS) {
    return 1;
  }
  return rocprofiler_start_context(g_context) == ROCPROFILER_STATUS_SUCCESS ? 0
                                                                            : 1;
}

void Finalize(void*) {
  std::string line = "sdk tool:";
  for (uint64_t id : g_ids) line += " " + std::to_string(id);
  std::fprintf(stderr, "%s\n", line.c_str());
}

}  // namespace

extern "C" __attribute__((visibility("default")))
rocprofiler_tool_configure_result_t*
rocprofiler_configure(uint32_t, const char*, uint32_t,
                      rocprofiler_client_id_t* id) {
  return sdk_test::Configure<&Initialize, &Finalize>(id, "counting_tool");
}
