// HSA_TOOLS_LIB on the user's behalf (tool_request.h). ROCR copies the
// variable at its first hsa_init (ROCR 5.2.3 into its flags, newer ROCR
// too, softhsa into a stream before it loads anything), so putting the
// user's value back from OnLoad cannot disturb the loading in progress.
#include "runtime/gpu/tool_request.h"

#include <dlfcn.h>
#include <hsa/hsa.h>
#include <link.h>
#include <sys/stat.h>

#include <atomic>
#include <cctype>
#include <climits>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <sstream>
#include <string>
#include <vector>

#include "runtime/platform/child_environment.h"

extern char** environ;

namespace roctracer::gpu {
namespace {

std::mutex& Mutex() {
  static auto* m = new std::mutex;  // used until exit: never destroyed
  return *m;
}

bool g_handed_over = false;
// HSA_TOOLS_LIB holds our addition until the table arrives; the user's
// value to put back ("" when the user had none: the entry stays, empty).
bool g_changed = false;
// Some front end asked in this process: after the runtime shuts down and
// takes its table back, the next hsa_init must load the tracer again.
bool g_asked = false;
// The runtime loaded the tracer and its table was refused: no GPU work will
// come from this runtime.
bool g_refused = false;
std::string& UserValue() {
  static auto* s = new std::string;
  return *s;
}

constexpr char kVariable[] = "HSA_TOOLS_LIB";

bool SetToZero(const char* name) {
  const char* v = std::getenv(name);
  return v != nullptr && std::strcmp(v, "0") == 0;
}

bool AutoOff() {
  return SetToZero("ROCTRACER_AUTO_HSA_TOOL") || SetToZero("ROCTRACER_GPU");
}

// Every "HSA_TOOLS_LIB=..." string handed to putenv, kept reachable and
// never freed or rewritten: another thread's getenv may still be reading
// an older one.
std::vector<char*>& Entries() {
  static auto* v = new std::vector<char*>;
  return *v;
}

// The C library does not synchronise setenv/unsetenv with getenv in other
// threads: adding a variable may reallocate the environment array under a
// reader, and removing one shifts entries in place. Replacing an existing
// entry with putenv only swaps one pointer in the array, so once the entry
// exists (the constructor below adds it while the process is normally
// single-threaded) every later change is a replacement, and the variable is
// never removed.
char* NewEntry(const std::string& value) {
  const std::string entry = std::string(kVariable) + "=" + value;
  auto* buffer = new char[entry.size() + 1];
  std::memcpy(buffer, entry.c_str(), entry.size() + 1);
  Entries().push_back(buffer);
  return buffer;
}

// What a program this process starts gets instead of the tracer's entry
// (ChildEntry below): the entry last put, and the user's own entry
// (nullptr: the user had none). Read without the mutex, in a vforked
// child too; the strings are never freed.
std::atomic<const char*> g_put{nullptr};
std::atomic<const char*> g_user_entry{nullptr};

void Put(const std::string& value) {
  char* buffer = NewEntry(value);
  g_put.store(buffer, std::memory_order_release);
  putenv(buffer);
}

// The environment's HSA_TOOLS_LIB entry is the one the tracer put last (the
// program has not set the variable itself since).
bool EnvironHoldsPut(const char* put) {
  for (char** e = environ; e != nullptr && *e != nullptr; ++e) {
    if (*e == put) return true;
  }
  return false;
}

// The child_environment filter: a new program gets the user's
// HSA_TOOLS_LIB (or none) where this process holds the tracer's entry, in
// an environment passed as this process's own or copied from it (an entry
// equal to the tracer's). No allocation, no lock: a vforked child runs it.
const char* ChildEntry(const char* entry) {
  constexpr size_t kNameLength = sizeof(kVariable) - 1;
  if (std::strncmp(entry, kVariable, kNameLength) != 0 ||
      entry[kNameLength] != '=') {
    return entry;
  }
  const char* put = g_put.load(std::memory_order_acquire);
  if (put == nullptr || std::strcmp(entry, put) != 0 || !EnvironHoldsPut(put)) {
    return entry;
  }
  // The user's value back in place changes nothing (the environment is
  // then passed on as it is).
  const char* user = g_user_entry.load(std::memory_order_acquire);
  return user != nullptr && std::strcmp(user, entry) == 0 ? entry : user;
}

// The user's value as the program's environment holds it now, unless the
// entry there is still the tracer's (the user's recorded value stands).
void RecordUserValueLocked() {
  const char* put = g_put.load(std::memory_order_relaxed);
  if (put != nullptr && EnvironHoldsPut(put)) return;
  const char* user = std::getenv(kVariable);
  UserValue() = user != nullptr ? user : "";
  g_user_entry.store(user == nullptr ? nullptr : NewEntry(UserValue()),
                     std::memory_order_release);
}

// At load: with the automatic request on and the variable absent, an empty
// entry (ROCR and softhsa load no tools for an empty value) for later
// requests to replace.
// Only while the process has one thread: a library loaded later (dlopen
// into a running program) leaves the variable to RequestToolPath.
bool SingleThreaded() {
  FILE* f = std::fopen("/proc/self/status", "re");
  if (f == nullptr) return false;
  char line[256];
  long threads = 0;
  while (std::fgets(line, sizeof(line), f) != nullptr) {
    if (std::strncmp(line, "Threads:", 8) == 0) {
      threads = std::strtol(line + 8, nullptr, 10);
      break;
    }
  }
  std::fclose(f);
  return threads == 1;
}

__attribute__((constructor)) void ReserveTheVariable() {
  if (AutoOff()) return;
  child_environment::SetFilter(&ChildEntry);
  if (std::getenv(kVariable) != nullptr || !SingleThreaded()) return;
  // The user's entry: none (g_user_entry stays null).
  std::lock_guard<std::mutex> lock(Mutex());
  Put("");
}

void RestoreLocked() {
  if (!g_changed) return;
  g_changed = false;
  // A value the program set itself since stays.
  const char* put = g_put.load(std::memory_order_relaxed);
  if (put != nullptr && EnvironHoldsPut(put)) Put(UserValue());
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

// The soname of the object `handle` (empty when it has none).
std::string Soname(void* handle) {
  link_map* map = nullptr;
  if (dlinfo(handle, RTLD_DI_LINKMAP, &map) != 0 || map == nullptr) return {};
  uintptr_t strtab = 0;
  uintptr_t soname = 0;
  bool has_soname = false;
  for (const ElfW(Dyn)* d = map->l_ld; d->d_tag != DT_NULL; ++d) {
    if (d->d_tag == DT_STRTAB) strtab = d->d_un.d_ptr;
    if (d->d_tag == DT_SONAME) {
      soname = d->d_un.d_val;
      has_soname = true;
    }
  }
  if (!has_soname || strtab == 0) return {};
  // glibc relocates the dynamic section's addresses when it loads the
  // object; other loaders leave them relative to the load address.
  if (strtab < map->l_addr) strtab += map->l_addr;
  return reinterpret_cast<const char*>(strtab + soname);
}

// ROCR splits HSA_TOOLS_LIB on spaces (and reads quotes and backslashes):
// a path with any of them is named by the library's soname instead, which
// the runtime's dlopen finds among the objects already loaded.
bool Plain(const std::string& path) {
  for (const char c : path) {
    if (std::isspace(static_cast<unsigned char>(c)) || c == '"' || c == '\'' ||
        c == '\\') {
      return false;
    }
  }
  return true;
}

// A word of HSA_TOOLS_LIB that loads this tracer. A path (a word with a
// '/'): this library's own file (the same device and inode, whatever the
// path's name: another file called librocprofiler-sdk.so, ROCm's own, is
// not the tracer), or a loaded object whose OnLoad is ours (the filter
// librocprofiler-sdk.so.1). A bare name: one of the tracer's sonames, or a
// loaded object whose OnLoad is ours.
bool NamesThisTracer(const std::string& word, void* self,
                     const std::string& own_path) {
  if (word.find('/') != std::string::npos) {
    struct stat named {};
    struct stat own {};
    if (stat(word.c_str(), &named) == 0 && stat(own_path.c_str(), &own) == 0 &&
        named.st_dev == own.st_dev && named.st_ino == own.st_ino) {
      return true;
    }
  } else {
    for (const char* soname :
         {"libroctracer64.so", "libroctracer64.so.4", "librocprofiler-sdk.so",
          "librocprofiler-sdk.so.1"}) {
      if (word == soname) return true;
    }
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

// What HSA_TOOLS_LIB says of this library, and its path.
struct Self {
  bool shell = false;  // a shared object exporting OnLoad (OwnFile)
  bool named = false;  // the variable names the tracer already
  std::string path;    // its file
  std::string word;    // what names it in the variable
};

Self LookAtVariable() {
  Self s;
  void* self = nullptr;
  if (!OwnFile(&s.path, &self)) return s;
  s.shell = true;
  s.word = s.path;
  if (!Plain(s.path)) {
    s.word = Soname(self);
    if (s.word.empty() || !Plain(s.word)) s.shell = false;
  }
  if (const char* user = std::getenv(kVariable)) {
    std::istringstream words(user);
    for (std::string w; !s.named && words >> w;) {
      s.named = NamesThisTracer(w, self, s.path);
    }
  }
  dlclose(self);
  return s;
}

void AddSelfLocked(const std::string& path) {
  RecordUserValueLocked();
  // First: ROCR loads the tools named in the variable in its order (5.2.3
  // knows no priorities; newer ROCR orders only the tools it finds loaded
  // by HSA_AMD_TOOL_PRIORITY), so the user's tools' OnLoad come after the
  // hand-over and see the variable as the user set it.
  Put(UserValue().empty() ? path : path + " " + UserValue());
  g_changed = true;
}

}  // namespace

ToolPath RequestToolPath() noexcept {
  std::lock_guard<std::mutex> lock(Mutex());
  if (g_handed_over) return ToolPath::kHandedOver;
  if (AutoOff()) return ToolPath::kOff;
  if (g_refused) return ToolPath::kTooLate;
  // Our name is in the variable and no table has come: the runtime has not
  // initialised, or is initialising on another thread and about to load
  // the tracer (its hsa_system_get_info answers before the tools load), so
  // "too late" would be wrong.
  if (g_changed) return ToolPath::kRequested;
  const Self self = LookAtVariable();
  if (!self.shell) return ToolPath::kOff;
  g_asked = true;
  if (self.named) return ToolPath::kRequested;  // the user's (or roctrace's)
  // Initialised with a variable that did not name the tracer: no table
  // will come until the runtime shuts down and initialises again (the
  // variable is left alone).
  if (RuntimeInitialised()) return ToolPath::kTooLate;
  AddSelfLocked(self.word);
  return ToolPath::kRequested;
}

void NoteTableHandedOver() noexcept {
  std::lock_guard<std::mutex> lock(Mutex());
  g_handed_over = true;
  RestoreLocked();
}

void NoteTableRefused() noexcept {
  std::lock_guard<std::mutex> lock(Mutex());
  if (g_handed_over) return;  // a second table: the first one is traced
  g_refused = true;
  RestoreLocked();
}

void NoteTableWithdrawn() noexcept {
  std::lock_guard<std::mutex> lock(Mutex());
  g_handed_over = false;
  g_refused = false;
  // What asked for the table still wants GPU work after a later hsa_init,
  // which reads the variable again.
  if (!g_asked || g_changed || AutoOff()) return;
  const Self self = LookAtVariable();
  if (self.shell && !self.named) AddSelfLocked(self.word);
}

}  // namespace roctracer::gpu
