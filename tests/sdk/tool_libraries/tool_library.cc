// A tool library for ROCP_TOOL_LIBRARIES, built twice (TOOL_NAME "a" and
// "b"). It keeps an ordinary global std::vector and reports, through the
// test program's tool_event (exported with -rdynamic), its configure (with
// its client handle) and, in finalize, whether its globals were still alive
// and how many HSA_CORE_API records its own buffer delivered. It keeps the
// client ID pointer configure was given and the finalize function
// initialize was given, as rocprofiler-sdk's samples and Kineto do, and
// reports the ID read through that pointer at finalize.
#include <atomic>
#include <cstdio>
#include <string>
#include <vector>

#include "rocprofiler-sdk/rocprofiler.h"
#include "tests/sdk/tool_configure.h"

extern "C" void tool_event(const char* tool, const char* what, uint64_t value);

namespace {

std::vector<std::string> g_log;  // an ordinary global with a destructor
bool g_alive = false;
std::atomic<unsigned long> g_records{0};
rocprofiler_client_id_t* g_client_id = nullptr;
rocprofiler_client_finalize_t g_finalize_self = nullptr;

void Deliver(rocprofiler_context_id_t, rocprofiler_buffer_id_t,
             rocprofiler_record_header_t**, size_t n, void*, uint64_t) {
  g_records += n;
}
struct Alive {
  Alive() { g_alive = true; }
  ~Alive() { g_alive = false; }
} g_alive_guard;

int Initialize(rocprofiler_client_finalize_t finalize_self, void*) {
  g_log.push_back("initialize");
  g_finalize_self = finalize_self;
  rocprofiler_context_id_t ctx{0};
  rocprofiler_buffer_id_t buffer{0};
  if (rocprofiler_create_context(&ctx) != ROCPROFILER_STATUS_SUCCESS ||
      rocprofiler_create_buffer(
          ctx, 1 << 16, 1 << 12, ROCPROFILER_BUFFER_POLICY_LOSSLESS, &Deliver,
          nullptr, &buffer) != ROCPROFILER_STATUS_SUCCESS ||
      rocprofiler_configure_buffer_tracing_service(
          ctx, ROCPROFILER_BUFFER_TRACING_HSA_CORE_API, nullptr, 0, buffer) !=
          ROCPROFILER_STATUS_SUCCESS ||
      rocprofiler_start_context(ctx) != ROCPROFILER_STATUS_SUCCESS) {
    return 1;
  }
  tool_event(TOOL_NAME, "initialize", g_alive ? 1 : 0);
  return 0;
}

void Finalize(void*) {
  g_log.push_back("finalize");
  // Written to stderr: the test reads it from the exiting process.
  std::fprintf(stderr,
               "tool %s finalize: globals %s, log %zu, records %lu, "
               "client %lu %s\n",
               TOOL_NAME, g_alive ? "alive" : "destroyed", g_log.size(),
               g_records.load(),
               static_cast<unsigned long>(g_client_id->handle),
               g_client_id->name != nullptr ? g_client_id->name : "(null)");
}

}  // namespace

extern "C" rocprofiler_tool_configure_result_t* rocprofiler_configure(
    uint32_t, const char*, uint32_t priority, rocprofiler_client_id_t* id) {
  g_client_id = id;
  tool_event(TOOL_NAME, "configure", id->handle);
  tool_event(TOOL_NAME, "priority", priority);
  return sdk_test::Configure<&Initialize, &Finalize>(id,
                                                     "tool_library_" TOOL_NAME);
}

// Finalizes this tool the way a tool does it itself: the finalize function
// it was given, called with the client ID it kept. Looked up by the test in
// this library (dlsym on its handle: both tools define it).
extern "C" __attribute__((visibility("default"))) void
tool_library_finalize_self() {
  g_finalize_self(*g_client_id);
}
