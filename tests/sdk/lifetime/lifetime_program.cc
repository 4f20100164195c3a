// A program that is itself a rocprofiler-sdk tool (rocprofiler_configure
// exported with -rdynamic) and keeps its state in ordinary C++ globals. The
// tool's configure, initialize and callbacks append to those globals; its
// finalize prints them. It makes two real HSA calls through
// libroctracer64.so, then ends the way argv[1] says:
//   return  - returns from main
//   worker  - exit() from a worker thread while main waits
//   _exit   - _exit(): no finalize
//   segv    - dies of SIGSEGV
// The tool must be initialized after its globals were constructed and
// finalized before they are destroyed: the printed log then holds every
// entry, and the program exits as it asked.
#include <hsa/hsa.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#include "rocprofiler-sdk/registration.h"
#include "rocprofiler-sdk/rocprofiler.h"
#include "tests/sdk/tool_configure.h"

namespace {

// Ordinary globals with constructors and destructors (the name is longer
// than the small-string buffer, so it lives on the heap).
std::vector<std::string> g_log;
std::string g_name = "lifetime tool with a name on the heap";
rocprofiler_context_id_t g_context{};

void OnCall(rocprofiler_callback_tracing_record_t record,
            rocprofiler_user_data_t*, void*) {
  if (record.phase != ROCPROFILER_CALLBACK_PHASE_EXIT) return;
  const char* name = nullptr;
  rocprofiler_query_callback_tracing_kind_operation_name(
      record.kind, record.operation, &name, nullptr);
  g_log.push_back(name != nullptr ? name : "?");
}

int Initialize(rocprofiler_client_finalize_t, void*) {
  g_log.push_back("initialize");
  if (rocprofiler_create_context(&g_context) != ROCPROFILER_STATUS_SUCCESS ||
      rocprofiler_configure_callback_tracing_service(
          g_context, ROCPROFILER_CALLBACK_TRACING_HSA_CORE_API, nullptr, 0,
          &OnCall, nullptr) != ROCPROFILER_STATUS_SUCCESS ||
      rocprofiler_start_context(g_context) != ROCPROFILER_STATUS_SUCCESS) {
    return -1;
  }
  return 0;
}

void Finalize(void*) {
  std::string line = g_name + ":";
  for (const std::string& entry : g_log) line += " " + entry;
  std::printf("finalize %s\n", line.c_str());
  std::fflush(stdout);
}

}  // namespace

extern "C" __attribute__((visibility("default")))
rocprofiler_tool_configure_result_t*
rocprofiler_configure(uint32_t, const char*, uint32_t,
                      rocprofiler_client_id_t* id) {
  g_log.push_back("configure");
  return sdk_test::Configure<&Initialize, &Finalize>(id, "lifetime");
}

int main(int argc, char** argv) {
  const char* how = argc > 1 ? argv[1] : "return";
  // No GPU: both answer an error status, and both are traced.
  uint64_t timestamp = 0;
  hsa_system_get_info(HSA_SYSTEM_INFO_TIMESTAMP, &timestamp);
  const char* text = nullptr;
  hsa_status_string(HSA_STATUS_ERROR, &text);
  std::printf("main done\n");
  std::fflush(stdout);
  if (std::strcmp(how, "worker") == 0) {
    std::thread([] { std::exit(0); }).join();
  } else if (std::strcmp(how, "_exit") == 0) {
    _exit(0);
  } else if (std::strcmp(how, "segv") == 0) {
    *static_cast<volatile int*>(nullptr) = 1;
  }
  return 0;
}
