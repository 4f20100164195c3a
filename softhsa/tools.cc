// HSA_TOOLS_LIB: at the first hsa_init the runtime loads each library named
// there (separated by spaces), in increasing order of the uint32_t each
// exports as HSA_AMD_TOOL_PRIORITY (0 when absent; ties keep their order),
// and calls its OnLoad with the runtime's HsaApiTable, the table's major
// version and the names of the tools that failed so far. A tool that cannot
// be loaded, has no OnLoad, or whose OnLoad returns false has failed. At the
// last hsa_shut_down each loaded tool's OnUnload runs, in reverse order.
// Tools stay mapped: threads they started may outlive OnUnload.
#include <dlfcn.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <sstream>
#include <string>
#include <vector>

#include "softhsa/runtime.h"

namespace softhsa {
namespace {

using OnLoadFn = bool (*)(HsaApiTable*, uint64_t, uint64_t, const char* const*);
using OnUnloadFn = void (*)();

struct Tool {
  std::string name;
  void* handle;
  uint32_t priority;
};

std::vector<Tool>& g_loaded = *new std::vector<Tool>;

}  // namespace

void LoadTools() {
  const char* env = getenv("HSA_TOOLS_LIB");
  if (env == nullptr) return;
  std::vector<Tool> tools;
  std::vector<std::string> failed;
  std::istringstream words(env);
  for (std::string name; words >> name;) {
    void* h = dlopen(name.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (h == nullptr) {
      fprintf(stderr, "softhsa: cannot load tool %s: %s\n", name.c_str(),
              dlerror());
      failed.push_back(name);
      continue;
    }
    auto* p = static_cast<const uint32_t*>(dlsym(h, "HSA_AMD_TOOL_PRIORITY"));
    tools.push_back(Tool{name, h, p ? *p : 0});
  }
  std::stable_sort(
      tools.begin(), tools.end(),
      [](const Tool& a, const Tool& b) { return a.priority < b.priority; });
  for (Tool& t : tools) {
    auto on_load = reinterpret_cast<OnLoadFn>(dlsym(t.handle, "OnLoad"));
    std::vector<const char*> names;
    for (const std::string& f : failed) names.push_back(f.c_str());
    names.push_back(nullptr);
    if (on_load == nullptr || !on_load(Table(), HSA_API_TABLE_MAJOR_VERSION,
                                       failed.size(), names.data())) {
      failed.push_back(t.name);
      continue;
    }
    g_loaded.push_back(t);
  }
}

void UnloadTools() {
  for (auto it = g_loaded.rbegin(); it != g_loaded.rend(); ++it) {
    auto on_unload =
        reinterpret_cast<OnUnloadFn>(dlsym(it->handle, "OnUnload"));
    if (on_unload) on_unload();
  }
  g_loaded.clear();
}

}  // namespace softhsa
