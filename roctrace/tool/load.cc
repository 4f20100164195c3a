// libroctrace_tool.so's entry: a Tool configured from the environment at
// load, finished at exit as the last step of libroctracer64's exit handling
// (runtime/pool/process_exit.h), once the GPU work in flight has been
// reported to its observers and its pool closed.
#include <pthread.h>

#include <cstdlib>
#include <cstring>

#include "roctrace/tool/tool.h"
#include "runtime/private/tool_activity.h"

namespace roctrace {
namespace {

Tool* g_tool = nullptr;

void AtExit() {
  if (g_tool != nullptr) g_tool->Stop();
}

void Finalize(void*) { AtExit(); }

void AtForkChild() {
  if (g_tool != nullptr) g_tool->ForkedChild();
}

__attribute__((constructor)) void Load() {
  // Leaked on purpose: the pool's consumer thread and late callers may still
  // reach it while the process's destructors run.
  g_tool = new Tool();
  // --selected-regions: nothing until the program's roctxProfilerResume;
  // paused before tracing starts, so that no call of another thread (a
  // tool loaded late, by dlopen) is traced in between.
  const char* selected = std::getenv("ROCTRACE_SELECTED_REGIONS");
  if (selected != nullptr && std::strcmp(selected, "1") == 0) {
    roctracer_internal_tool_set_paused(true);
  }
  g_tool->Start(std::getenv);
  pthread_atfork(nullptr, nullptr, AtForkChild);
  if (!roctracer_internal_tool_finalize_at_exit(&Finalize, nullptr)) {
    std::atexit(AtExit);
  }
}

}  // namespace

Tool* LoadedTool() { return g_tool; }

}  // namespace roctrace
