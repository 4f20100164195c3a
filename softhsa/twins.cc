#include "softhsa/twins.h"

#include <dlfcn.h>

#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <unordered_map>
#include <unordered_set>
#include <vector>

namespace softhsa {
namespace {

std::mutex& g_mutex = *new std::mutex;
std::vector<void*>* g_libraries = nullptr;  // SOFTHSA_TWINS, once loaded
std::unordered_set<std::string>& g_names = *new std::unordered_set<std::string>;
std::unordered_map<std::string, uint64_t>& g_no_twin =
    *new std::unordered_map<std::string, uint64_t>;

const std::vector<void*>& Libraries() {
  if (g_libraries != nullptr) return *g_libraries;
  g_libraries = new std::vector<void*>;
  const char* list = getenv("SOFTHSA_TWINS");
  if (list == nullptr) return *g_libraries;
  std::string all = list;
  size_t start = 0;
  while (start <= all.size()) {
    size_t end = all.find_first_of(" :", start);
    if (end == std::string::npos) end = all.size();
    std::string path = all.substr(start, end - start);
    if (!path.empty()) {
      void* h = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
      if (h == nullptr) {
        fprintf(stderr, "softhsa: SOFTHSA_TWINS: cannot load %s: %s\n",
                path.c_str(), dlerror());
      } else {
        g_libraries->push_back(h);
      }
    }
    start = end + 1;
  }
  return *g_libraries;
}

}  // namespace

KernelFn FindTwin(const std::string& kernel,
                  const std::vector<KernelArg>& args) {
  const std::string symbol = kTwinPrefix + kernel;
  {
    std::lock_guard<std::mutex> lock(g_mutex);
    for (void* h : Libraries()) {
      if (void* f = dlsym(h, symbol.c_str())) {
        return reinterpret_cast<KernelFn>(f);
      }
    }
  }
  if (void* f = dlsym(RTLD_DEFAULT, symbol.c_str())) {
    return reinterpret_cast<KernelFn>(f);
  }
  return BuiltinTwin(kernel, args);
}

const char* InternName(const std::string& name) {
  std::lock_guard<std::mutex> lock(g_mutex);
  return g_names.insert(name).first->c_str();
}

void NoteNoTwin(const char* kernel) {
  uint64_t n;
  {
    std::lock_guard<std::mutex> lock(g_mutex);
    n = ++g_no_twin[kernel];
  }
  if (n == 1) {
    fprintf(stderr,
            "softhsa: kernel %s has no host twin (%s%s): its dispatches "
            "complete without running\n",
            kernel, kTwinPrefix, kernel);
  }
}

void ReportNoTwins() {
  std::lock_guard<std::mutex> lock(g_mutex);
  for (const auto& [kernel, count] : g_no_twin) {
    fprintf(stderr,
            "softhsa: kernel %s: %llu dispatches completed without running "
            "(no host twin)\n",
            kernel.c_str(), static_cast<unsigned long long>(count));
  }
  g_no_twin.clear();
}

}  // namespace softhsa
