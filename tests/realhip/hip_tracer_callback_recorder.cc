// Preloaded into a hipcc-built program to take HIP's own record of the work
// it ran, through the callback HIP 5.3 and later export for roctracer
// (hipRegisterTracerCallback: one function HIP calls with a domain, an
// operation and a pointer, NULL to ask whether the operation is enabled, 0
// meaning yes). HIP_OPS (domain 2) and HIP_API (domain 1) are enabled: each
// HIP_OPS record's command kind (the second 32-bit word of roctracer's
// activity_record_t) is counted, and each API call once, at its enter phase
// (the `phase` word after hip_api_data_t's 64-bit correlation ID), by the
// name hipApiName gives its operation. At exit it writes "hip OP KIND
// COUNT" and "api NAME COUNT" lines to $RECORDER_OUT.
//
// HIP 7 also calls it with the pointer value 1 for HIP_OPS (not a record:
// not read). A process without the function (HIP 5.2, which has
// hipInitActivityCallback instead, or no HIP at all: roctrace itself, a
// wrapper script) writes nothing.
#include <dlfcn.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <mutex>
#include <string>
#include <utility>

namespace {

constexpr int kHipApi = 1;
constexpr int kHipOps = 2;
constexpr uint32_t kPhaseEnter = 0;

std::mutex& g_mutex = *new std::mutex;
std::map<std::pair<uint32_t, uint32_t>, int>& g_counts =
    *new std::map<std::pair<uint32_t, uint32_t>, int>;
std::map<std::string, int>& g_calls = *new std::map<std::string, int>;
const char* g_state = "registered";
const char* (*g_api_name)(uint32_t) = nullptr;

int Callback(int domain, uint32_t op, void* data) {
  if (domain == kHipApi) {
    if (reinterpret_cast<uintptr_t>(data) >= 4096 &&
        static_cast<const uint32_t*>(data)[2] == kPhaseEnter) {
      const char* name = g_api_name != nullptr ? g_api_name(op) : nullptr;
      std::lock_guard<std::mutex> lock(g_mutex);
      ++g_calls[name != nullptr ? name : "op" + std::to_string(op)];
    }
    return 0;
  }
  if (domain != kHipOps) return 1;  // not enabled
  // Addresses in the first page are no record.
  if (reinterpret_cast<uintptr_t>(data) >= 4096) {
    const uint32_t kind = static_cast<const uint32_t*>(data)[1];
    std::lock_guard<std::mutex> lock(g_mutex);
    ++g_counts[{op, kind}];
  }
  return 0;
}

__attribute__((constructor)) void Start() {
  using Register = void (*)(int (*)(int, uint32_t, void*));
  auto reg = reinterpret_cast<Register>(
      dlsym(RTLD_DEFAULT, "hipRegisterTracerCallback"));
  g_api_name = reinterpret_cast<const char* (*)(uint32_t)>(
      dlsym(RTLD_DEFAULT, "hipApiName"));
  if (reg == nullptr) {
    g_state = nullptr;
  } else {
    reg(&Callback);
  }
}

__attribute__((destructor)) void Stop() {
  if (g_state == nullptr) return;
  const char* path = std::getenv("RECORDER_OUT");
  FILE* f = path != nullptr ? std::fopen(path, "w") : stderr;
  if (f == nullptr) return;
  std::fprintf(f, "%s\n", g_state);
  std::lock_guard<std::mutex> lock(g_mutex);
  for (const auto& [key, n] : g_counts) {
    std::fprintf(f, "hip %u %#x %d\n", key.first, key.second, n);
  }
  for (const auto& [name, n] : g_calls) {
    std::fprintf(f, "api %s %d\n", name.c_str(), n);
  }
  if (f != stderr) std::fclose(f);
}

}  // namespace
