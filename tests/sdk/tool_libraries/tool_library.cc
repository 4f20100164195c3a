// A tool library for ROCP_TOOL_LIBRARIES, built twice (TOOL_NAME "a" and
// "b"). It keeps an ordinary global std::vector and reports, through the
// test program's tool_event (exported with -rdynamic), its configure (with
// its client handle) and whether its globals were still alive in finalize.
#include <cstdio>
#include <string>
#include <vector>

#include "rocprofiler-sdk/registration.h"

extern "C" void tool_event(const char* tool, const char* what, uint64_t value);

namespace {

std::vector<std::string> g_log;  // an ordinary global with a destructor
bool g_alive = false;
struct Alive {
  Alive() { g_alive = true; }
  ~Alive() { g_alive = false; }
} g_alive_guard;

int Initialize(rocprofiler_client_finalize_t, void*) {
  g_log.push_back("initialize");
  tool_event(TOOL_NAME, "initialize", g_alive ? 1 : 0);
  return 0;
}

void Finalize(void*) {
  g_log.push_back("finalize");
  // Written to stderr: the test reads it from the exiting process.
  std::fprintf(stderr, "tool %s finalize: globals %s, log %zu\n", TOOL_NAME,
               g_alive ? "alive" : "destroyed", g_log.size());
}

}  // namespace

extern "C" rocprofiler_tool_configure_result_t* rocprofiler_configure(
    uint32_t, const char*, uint32_t priority, rocprofiler_client_id_t* id) {
  id->name = "tool_library_" TOOL_NAME;
  tool_event(TOOL_NAME, "configure", id->handle);
  tool_event(TOOL_NAME, "priority", priority);
  static rocprofiler_tool_configure_result_t result{
      sizeof(rocprofiler_tool_configure_result_t), &Initialize, &Finalize,
      nullptr};
  return &result;
}
