// HSA_TOOLS_LIB on the user's behalf (tool_request.h). ROCR copies the
// variable at its first hsa_init (ROCR 5.2.3 into its flags, newer ROCR
// too, softhsa into a stream before it loads anything), so putting the
// user's value back from OnLoad cannot disturb the loading in progress.
#include "runtime/gpu/tool_request.h"

#include <dlfcn.h>
#include <hsa/hsa.h>

#include <climits>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <sstream>
#include <string>

namespace roctracer::gpu {
namespace {

std::mutex& Mutex() {
  static auto* m = new std::mutex;  // used until exit: never destroyed
  return *m;
}

bool g_handed_over = false;
// HSA_TOOLS_LIB holds our addition until the table arrives (or the runtime
// turns out to have initialised without us); the user's value to put back.
bool g_changed = false;
bool g_user_had_value = false;
std::string& UserValue() {
  static auto* s = new std::string;
  return *s;
}

bool SetToZero(const char* name) {
  const char* v = std::getenv(name);
  return v != nullptr && std::strcmp(v, "0") == 0;
}

void RestoreLocked() {
  if (!g_changed) return;
  if (g_user_had_value) {
    setenv("HSA_TOOLS_LIB", UserValue().c_str(), 1);
  } else {
    unsetenv("HSA_TOOLS_LIB");
  }
  g_changed = false;
}

// This library's file when it is a shared object exporting OnLoad (not
// when the tracer is linked into the program itself, as some tests do).
bool OwnFile(std::string* path, void** self) {
  Dl_info info{};
  if (dladdr(reinterpret_cast<void*>(&RequestToolPath), &info) == 0 ||
      info.dli_fname == nullptr || info.dli_fname[0] == '\0') {
    return false;
  }
  void* handle = dlopen(info.dli_fname, RTLD_LAZY | RTLD_NOLOAD);
  if (handle == nullptr) return false;
  void* program = dlopen(nullptr, RTLD_LAZY);
  const bool usable = handle != program && dlsym(handle, "OnLoad") != nullptr;
  if (!usable) {
    dlclose(handle);
    return false;
  }
  // Absolute, so that a program changing directory still finds it; the
  // loader recognises the file already mapped and loads nothing again.
  char resolved[PATH_MAX];
  *path =
      realpath(info.dli_fname, resolved) != nullptr ? resolved : info.dli_fname;
  *self = handle;
  return true;
}

// A word of HSA_TOOLS_LIB that loads this tracer: one of its names
// (librocprofiler-sdk.so.1 is a filter whose OnLoad is ours), or a loaded
// object whose OnLoad is ours.
bool NamesThisTracer(const std::string& word, void* self) {
  const size_t slash = word.rfind('/');
  const std::string base =
      slash == std::string::npos ? word : word.substr(slash + 1);
  if (base.rfind("libroctracer64.so", 0) == 0 ||
      base.rfind("librocprofiler-sdk.so", 0) == 0) {
    return true;
  }
  void* h = dlopen(word.c_str(), RTLD_LAZY | RTLD_NOLOAD);
  if (h == nullptr) return false;
  const bool ours = h == self || dlsym(h, "OnLoad") == dlsym(self, "OnLoad");
  dlclose(h);
  return ours;
}

// Whether the HSA runtime in the process has initialised, asked of the
// runtime itself (its hsa_system_get_info answers NOT_INITIALIZED before
// hsa_init, without side effects). A runtime not loaded has not.
bool RuntimeInitialised() {
  void* h = dlopen("libhsa-runtime64.so.1", RTLD_LAZY | RTLD_NOLOAD);
  if (h == nullptr) return false;
  using GetInfo = hsa_status_t (*)(hsa_system_info_t, void*);
  auto get_info = reinterpret_cast<GetInfo>(dlsym(h, "hsa_system_get_info"));
  uint16_t major = 0;
  const bool initialised =
      get_info != nullptr &&
      get_info(HSA_SYSTEM_INFO_VERSION_MAJOR, &major) == HSA_STATUS_SUCCESS;
  dlclose(h);
  return initialised;
}

}  // namespace

ToolPath RequestToolPath() noexcept {
  std::lock_guard<std::mutex> lock(Mutex());
  if (g_handed_over) return ToolPath::kHandedOver;
  if (SetToZero("ROCTRACER_AUTO_HSA_TOOL") || SetToZero("ROCTRACER_GPU")) {
    return ToolPath::kOff;
  }
  if (RuntimeInitialised()) {
    // Loaded after the runtime's first hsa_init, or the runtime did not load
    // tools: the variable is no use any more.
    RestoreLocked();
    return ToolPath::kTooLate;
  }
  if (g_changed) return ToolPath::kRequested;
  std::string path;
  void* self = nullptr;
  if (!OwnFile(&path, &self)) return ToolPath::kOff;
  const char* user = std::getenv("HSA_TOOLS_LIB");
  bool named = false;
  if (user != nullptr) {
    std::istringstream words(user);
    for (std::string w; !named && words >> w;) named = NamesThisTracer(w, self);
  }
  dlclose(self);
  if (named) return ToolPath::kRequested;  // the user's (or roctrace's) own
  g_user_had_value = user != nullptr;
  UserValue() = user != nullptr ? user : "";
  const std::string value =
      (user != nullptr && user[0] != '\0') ? UserValue() + " " + path : path;
  setenv("HSA_TOOLS_LIB", value.c_str(), 1);
  g_changed = true;
  return ToolPath::kRequested;
}

void NoteTableHandedOver() noexcept {
  std::lock_guard<std::mutex> lock(Mutex());
  g_handed_over = true;
  RestoreLocked();
}

}  // namespace roctracer::gpu
