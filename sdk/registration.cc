// Tool registration: find every rocprofiler_configure in the process, run
// each tool's initialize (the only time services can be configured), and run
// each finalize once (explicitly or at exit).
#include "sdk/registration.h"

#include <dlfcn.h>
#include <link.h>
#include <pthread.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <new>

#include "ext/prof_protocol.h"
#include "rocprofiler-sdk/registration.h"
#include "rocprofiler-sdk/rocprofiler.h"
#include "runtime/intercept/api_consumer.h"
#include "runtime/platform/fatal_signal.h"
#include "sdk/buffers.h"
#include "sdk/context.h"
#include "sdk/dispatch.h"
#include "sdk/interest.h"
#include "sdk/runtime_initialization.h"

namespace rocprofiler_sdk {
namespace {

constexpr uint32_t kMaxClients = 16;

struct Client {
  rocprofiler_configure_func_t configure = nullptr;
  const rocprofiler_tool_configure_result_t* result = nullptr;
  // Handed to the tool's configure by address: tools keep the pointer and
  // pass *id to the finalize function later, so it lives as long as the
  // process (a slot is reused only when every tool of its round declined).
  rocprofiler_client_id_t id{};
  bool finalized = false;
};

// Registration and finalization; recursive: a tool may call its finalize
// function from inside its initialize.
std::recursive_mutex g_registration_mutex;
Client g_clients[kMaxClients];
uint32_t g_client_count = 0;
// 0: not yet, -1: registering, 1: done (rocprofiler_is_initialized).
std::atomic<int> g_initialized{0};
std::atomic<int> g_finalized{0};
// Registration waits for the runtimes' first call (ArmRegistration).
std::atomic<bool> g_first_use_pending{false};
thread_local bool t_registering = false;
// Non-zero on the thread inside Register (a tool's force_configure may nest).
thread_local int t_in_register = 0;
// Set on the thread running a tool's initialize: that tool's handle.
thread_local bool t_in_init = false;
thread_local uint32_t t_init_client = 0;

void AddCandidate(rocprofiler_configure_func_t fn) {
  if (fn == nullptr || g_client_count == kMaxClients) return;
  for (uint32_t i = 0; i < g_client_count; ++i) {
    if (g_clients[i].configure == fn) return;
  }
  g_clients[g_client_count++].configure = fn;
}

// dlopen must not run inside dl_iterate_phdr's callback (the loader's lock
// is held there): names are collected first, looked up afterwards.
struct ObjectNames {
  static constexpr int kMax = 512;
  const char* names[kMax];
  int count = 0;
};

int CollectObjectName(dl_phdr_info* info, size_t, void* data) {
  auto* out = static_cast<ObjectNames*>(data);
  if (out->count < ObjectNames::kMax)
    out->names[out->count++] = info->dlpi_name;
  return 0;
}

void CollectCandidates() {
  ObjectNames objects;
  dl_iterate_phdr(&CollectObjectName, &objects);
  for (int i = 0; i < objects.count; ++i) {
    const char* name = objects.names[i];
    // The first entry (empty name) is the main program.
    void* handle = dlopen(name != nullptr && name[0] != '\0' ? name : nullptr,
                          RTLD_LAZY | RTLD_NOLOAD);
    if (handle == nullptr) continue;
    AddCandidate(reinterpret_cast<rocprofiler_configure_func_t>(
        dlsym(handle, "rocprofiler_configure")));
    dlclose(handle);
  }
}

// ROCP_TOOL_LIBRARIES: tool libraries to load, ':'-separated, each one's
// rocprofiler_configure a candidate in that order (after the tools already
// in the process). Loading them here runs their constructors before their
// configure is called, and before the at-exit finalize is registered, so
// their globals outlive their finalize.
void LoadToolLibraries() {
  const char* env = getenv("ROCP_TOOL_LIBRARIES");
  if (env == nullptr) return;
  char path[4096];
  while (*env != '\0') {
    const char* end = env;
    while (*end != '\0' && *end != ':') ++end;
    const size_t n = static_cast<size_t>(end - env);
    if (n > 0 && n < sizeof(path)) {
      std::memcpy(path, env, n);
      path[n] = '\0';
      // Kept loaded: the tool runs until the process exits.
      if (void* handle = dlopen(path, RTLD_NOW | RTLD_GLOBAL)) {
        AddCandidate(reinterpret_cast<rocprofiler_configure_func_t>(
            dlsym(handle, "rocprofiler_configure")));
      } else {
        fprintf(stderr, "rocprofiler-sdk: ROCP_TOOL_LIBRARIES: %s\n",
                dlerror());
      }
    }
    env = *end == ':' ? end + 1 : end;
  }
}

void FinalizeClient(uint32_t handle) {
  // Before the lock: another thread finalizing waits for our callback, and
  // we may be blocked on the lock from inside one.
  StopScope stopping;
  std::lock_guard<std::recursive_mutex> lock(g_registration_mutex);
  if (handle >= g_client_count) return;
  Client& c = g_clients[handle];
  if (c.finalized || c.result == nullptr) return;
  c.finalized = true;
  InvalidateClientContexts(handle);
  FlushClientBuffers(handle);
  if (c.result->finalize != nullptr) c.result->finalize(c.result->tool_data);
}

void ClientFinalizeTrampoline(rocprofiler_client_id_t id) {
  FinalizeClient(id.handle);
}

void FinalizeAll() {
  g_finalized.store(-1);
  for (uint32_t i = g_client_count; i-- > 0;) FinalizeClient(i);
  g_finalized.store(1);
}

// Returns false if nothing was registered (no tool found or all declined):
// registration then stays open for rocprofiler_force_configure.
bool Register(rocprofiler_configure_func_t first) {
  struct InRegister {
    InRegister() { ++t_in_register; }
    ~InRegister() { --t_in_register; }
  } in_register;
  const uint32_t begin = g_client_count;
  AddCandidate(first);
  CollectCandidates();
  // CollectCandidates' dlopen runs the constructors of a tool loaded but not
  // yet initialized (a preloaded one, when a runtime is called from a
  // constructor that runs before its own): one calling
  // rocprofiler_force_configure has registered every candidate, nested on
  // this thread, by now.
  if (g_initialized.load() != 0) return true;
  LoadToolLibraries();
  // The same for a tool library of ROCP_TOOL_LIBRARIES whose constructor
  // called rocprofiler_force_configure.
  if (g_initialized.load() != 0) return true;
  uint32_t accepted = 0;
  char version[64];
  snprintf(version, sizeof(version), "roctracer rocprofiler-sdk %d.%d.%d",
           ROCPROFILER_VERSION_MAJOR, ROCPROFILER_VERSION_MINOR,
           ROCPROFILER_VERSION_PATCH);
  for (uint32_t i = begin; i < g_client_count; ++i) {
    Client& c = g_clients[i];
    // The struct's handle is const: constructed in place, not assigned.
    new (&c.id)
        rocprofiler_client_id_t{sizeof(rocprofiler_client_id_t), nullptr, i};
    c.result = c.configure(ROCPROFILER_VERSION, version, accepted, &c.id);
    if (c.result != nullptr) ++accepted;
  }
  if (accepted == 0) {
    g_client_count = begin;
    return false;
  }
  g_initialized.store(-1);
  for (uint32_t i = begin; i < g_client_count; ++i) {
    Client& c = g_clients[i];
    if (c.result == nullptr || c.result->initialize == nullptr) continue;
    t_init_client = i;
    t_in_init = true;
    const int rc =
        c.result->initialize(&ClientFinalizeTrampoline, c.result->tool_data);
    t_in_init = false;
    if (rc != 0) {
      // A failed initialize: its contexts are ignored, its finalize never
      // runs (the tool said it is not set up).
      InvalidateClientContexts(i);
      c.finalized = true;
    }
  }
  g_initialized.store(1);
  // Runtimes that initialized before the tools were registered (handing
  // over their tables first) are reported to the contexts just started.
  ReportDeferredRuntimeInits();
  // The tools are registered: the runtimes' first call need not be watched.
  g_first_use_pending.store(false, std::memory_order_release);
  DisarmFirstUse();
  // Registered now, after the tools' globals were constructed (this runs at
  // the runtimes' first call or from a tool's own force_configure): exit
  // runs it before their destructors, as rocprofiler-sdk's atexit from its
  // initialization. Not process_exit's AddToolFinalizer: that handler may
  // have been armed earlier (a pool created at load) and would then run
  // after those destructors.
  std::atexit(&FinalizeAll);
  // A process dying of a fatal signal runs no exit handler: the tools are
  // finalized (their buffers delivered first) by the crash flush's thread.
  roctracer::fatal_signal::AddLastWords([](void*) { FinalizeAll(); }, nullptr);
  return true;
}

// A fork child inherits the lock held by whichever thread had it; a thread
// other than the forking one never runs in the child, so its hold would last
// forever (the child's exit-time finalize would block on it). A lock that
// thread was finalizing under is recreated: that tool's finalize does not
// run in the child (its `finalized` was set first). The forking thread's own
// hold (fork from inside initialize or finalize) stays.
void ResetRegistrationLockInChild() noexcept {
  if (g_registration_mutex.try_lock()) {
    g_registration_mutex.unlock();
    return;
  }
  new (&g_registration_mutex) std::recursive_mutex();
}

// Tools linked into the executable, preloaded or linked as shared libraries
// are found when a runtime is first used, as rocprofiler-sdk finds them when
// a runtime initializes and hands over its API table: the first HSA, HIP
// runtime or rocTX call of the process (ConsumeFirst) scans and registers.
// Not at load: a tool that is the executable (or a library loaded after this
// one) has not constructed its globals then, and an atexit registered then
// would finalize after their destructors. That call itself is not traced
// (the tools start inside it, as inside the runtime's initialization).

void ConsumeFirst(const roctracer::ApiCallInfo& info) noexcept {
  if (t_registering || !g_first_use_pending.load(std::memory_order_acquire)) {
    // A call made by a tool's configure or initialize, or one racing the
    // end of registration on another thread.
    ConsumeAny(info);
    return;
  }
  {
    std::lock_guard<std::recursive_mutex> lock(g_registration_mutex);
    if (g_first_use_pending.load(std::memory_order_relaxed)) {
      t_registering = true;
      if (g_initialized.load() == 0) Register(nullptr);
      t_registering = false;
      g_first_use_pending.store(false, std::memory_order_release);
      DisarmFirstUse();
      // The call that started the tools is theirs like any other (as a HIP
      // call that initializes the runtime goes through the table it just
      // registered), when a started context wants it: only then does its
      // EXIT reach the consumer to close the frame its ENTER opens.
      if (info.phase == ACTIVITY_API_PHASE_ENTER &&
          ContextsWant(info.domain, info.op)) {
        ConsumeAny(info);
      }
      return;
    }
  }
  ConsumeAny(info);
}

__attribute__((constructor)) void ArmRegistration() {
  pthread_atfork(nullptr, nullptr, &ResetRegistrationLockInChild);
  if (getenv("ROCPROFILER_SDK_NO_AUTO_REGISTER") != nullptr) return;
  g_first_use_pending.store(true, std::memory_order_release);
  if (!ArmFirstUse(&ConsumeFirst)) {
    // The API domains are not registered (a build without the interception
    // layer): nothing can report a first call, so register now.
    g_first_use_pending.store(false, std::memory_order_release);
    std::lock_guard<std::recursive_mutex> lock(g_registration_mutex);
    if (g_initialized.load() == 0) Register(nullptr);
  }
}

}  // namespace

bool InToolRegistration() noexcept { return t_in_register > 0; }

bool InToolInitialize(uint32_t* client) noexcept {
  if (!t_in_init) return false;
  *client = t_init_client;
  return true;
}

}  // namespace rocprofiler_sdk

extern "C" {

rocprofiler_status_t rocprofiler_force_configure(
    rocprofiler_configure_func_t configure_func) {
  using namespace rocprofiler_sdk;
  if (g_initialized.load() != 0) {
    return ROCPROFILER_STATUS_ERROR_CONFIGURATION_LOCKED;
  }
  std::lock_guard<std::recursive_mutex> lock(g_registration_mutex);
  if (g_initialized.load() != 0) {
    return ROCPROFILER_STATUS_ERROR_CONFIGURATION_LOCKED;
  }
  Register(configure_func);
  return ROCPROFILER_STATUS_SUCCESS;
}

rocprofiler_status_t rocprofiler_is_initialized(int* status) {
  if (status == nullptr) return ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT;
  *status = rocprofiler_sdk::g_initialized.load();
  return ROCPROFILER_STATUS_SUCCESS;
}

rocprofiler_status_t rocprofiler_is_finalized(int* status) {
  if (status == nullptr) return ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT;
  *status = rocprofiler_sdk::g_finalized.load();
  return ROCPROFILER_STATUS_SUCCESS;
}

}  // extern "C"
