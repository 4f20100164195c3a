// A rocprofiler-sdk tool in a shared library of its own (found by the
// registration scan through its exported rocprofiler_configure, as a tool
// linked into a program is), keeping its state in ordinary C++ globals.
// It buffer-traces every HSA core API call into a LOSSLESS buffer of
// Kineto's size (256 KiB, delivered at 128 KiB), counts what each delivery
// brought, and at finalize writes to $CRASH_TOOL_OUT:
//   delivery N        one line per buffer callback (N records)
//   op NAME COUNT     records per operation name
//   drops D           the sum of the drop counts it was given
//   finalize          last, written by finalize
// crash_test.py checks that nothing was lost when the program died of a
// signal and that finalize ran after the last delivery.
#include <cstdio>
#include <cstdlib>
#include <map>
#include <mutex>
#include <string>
#include <vector>

#include "rocprofiler-sdk/registration.h"
#include "rocprofiler-sdk/rocprofiler.h"
#include "tests/sdk/tool_configure.h"

namespace {

std::mutex g_mutex;
std::vector<size_t> g_deliveries;
std::map<std::string, uint64_t> g_ops;
uint64_t g_drops = 0;
rocprofiler_context_id_t g_context{};
rocprofiler_buffer_id_t g_buffer{};

void OnRecords(rocprofiler_context_id_t, rocprofiler_buffer_id_t,
               rocprofiler_record_header_t** headers, size_t count, void*,
               uint64_t drops) {
  std::lock_guard<std::mutex> lock(g_mutex);
  g_deliveries.push_back(count);
  g_drops += drops;
  for (size_t i = 0; i < count; ++i) {
    if (headers[i]->category != ROCPROFILER_BUFFER_CATEGORY_TRACING ||
        headers[i]->kind != ROCPROFILER_BUFFER_TRACING_HSA_CORE_API) {
      continue;
    }
    const auto* r =
        static_cast<const rocprofiler_buffer_tracing_hsa_api_record_t*>(
            headers[i]->payload);
    const char* name = nullptr;
    rocprofiler_query_buffer_tracing_kind_operation_name(r->kind, r->operation,
                                                         &name, nullptr);
    ++g_ops[name != nullptr ? name : "?"];
  }
}

int Initialize(rocprofiler_client_finalize_t, void*) {
  if (rocprofiler_create_context(&g_context) != ROCPROFILER_STATUS_SUCCESS ||
      rocprofiler_create_buffer(
          g_context, 0x40000, 0x20000, ROCPROFILER_BUFFER_POLICY_LOSSLESS,
          &OnRecords, nullptr, &g_buffer) != ROCPROFILER_STATUS_SUCCESS ||
      rocprofiler_configure_buffer_tracing_service(
          g_context, ROCPROFILER_BUFFER_TRACING_HSA_CORE_API, nullptr, 0,
          g_buffer) != ROCPROFILER_STATUS_SUCCESS ||
      rocprofiler_start_context(g_context) != ROCPROFILER_STATUS_SUCCESS) {
    return -1;
  }
  return 0;
}

void Finalize(void*) {
  const char* path = std::getenv("CRASH_TOOL_OUT");
  if (path == nullptr) return;
  FILE* f = std::fopen(path, "w");
  if (f == nullptr) return;
  std::lock_guard<std::mutex> lock(g_mutex);
  for (size_t n : g_deliveries) std::fprintf(f, "delivery %zu\n", n);
  for (const auto& [name, count] : g_ops) {
    std::fprintf(f, "op %s %llu\n", name.c_str(),
                 static_cast<unsigned long long>(count));
  }
  std::fprintf(f, "drops %llu\nfinalize\n",
               static_cast<unsigned long long>(g_drops));
  std::fclose(f);
}

}  // namespace

extern "C" __attribute__((visibility("default")))
rocprofiler_tool_configure_result_t*
rocprofiler_configure(uint32_t, const char*, uint32_t,
                      rocprofiler_client_id_t* id) {
  return sdk_test::Configure<&Initialize, &Finalize>(id, "crash_tool");
}
