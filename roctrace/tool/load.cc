// libroctrace_tool.so's entry: a Tool configured from the environment at
// load, finished at exit.
#include <pthread.h>

#include <cstdlib>

#include "roctrace/tool/tool.h"

namespace roctrace {
namespace {

Tool* g_tool = nullptr;

void AtExit() {
  if (g_tool != nullptr) g_tool->Stop();
}

void AtForkChild() {
  if (g_tool != nullptr) g_tool->ForkedChild();
}

__attribute__((constructor)) void Load() {
  // Leaked on purpose: the pool's consumer thread and late callers may still
  // reach it while the process's destructors run.
  g_tool = new Tool();
  g_tool->Start(std::getenv);
  pthread_atfork(nullptr, nullptr, AtForkChild);
  std::atexit(AtExit);
}

}  // namespace
}  // namespace roctrace
