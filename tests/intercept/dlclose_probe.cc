// A program that loads libroctracer64.so and libroctx64.so with dlopen,
// traces on a worker thread, dlcloses both libraries while that thread is
// still alive, and only then lets the thread exit. The thread's tracer state
// (string arena, pool slots, external-ID stack) is released by pthread-key
// destructors that live in the tracer: they must still be there when the
// thread exits. It also calls rocTX after the tracer alone was dlclosed
// (libroctx64.so reports to the tracer through a function pointer).
// HSA calls reach the tracer as in an HSA program: the program is linked
// against softhsa (//softhsa, its libhsa-runtime64.so.1), which calls the
// tracer's OnLoad with its table at hsa_init (HSA_TOOLS_LIB names
// libprogram_tool.so, which hands that call to the tracer this program
// opened: softhsa keeps the tools it loads mapped, and this program must be
// able to unmap the tracer) and its OnUnload at hsa_shut_down.
//
// Usage: dlclose_probe <libroctracer64.so> <libroctx64.so>
// Prints, from an exit handler that runs after the tracer's own:
//   CALLS <traced calls> RECORDS <records delivered>
// The pool is left open: the tracer flushes it at exit.
#include <dlfcn.h>
#include <hsa/hsa.h>
#include <hsa/hsa_api_trace.h>
#include <roctracer.h>
#include <roctracer_ext.h>
#include <roctracer_hsa.h>
#include <roctracer_roctx.h>
#include <unistd.h>

#include <atomic>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <thread>

#include "tests/intercept/exit_report.h"
#include "tests/intercept/program_tool.h"

namespace {

std::atomic<uint64_t> g_calls{0};
std::atomic<uint64_t> g_records{0};

void OnCallback(uint32_t domain, uint32_t, const void* data, void*) {
  if (domain == ACTIVITY_DOMAIN_HSA_API &&
      static_cast<const hsa_api_data_t*>(data)->phase ==
          ACTIVITY_API_PHASE_EXIT) {
    g_calls.fetch_add(1);
  }
}

void OnBuffer(const char* begin, const char* end, void*) {
  for (const char* p = begin; p < end; p += sizeof(activity_record_t)) {
    if (reinterpret_cast<const activity_record_t*>(p)->domain ==
        ACTIVITY_DOMAIN_HSA_API) {
      g_records.fetch_add(1);
    }
  }
}

void Report() { WriteCallsAndRecords(g_calls.load(), g_records.load()); }

template <class F>
F Sym(void* lib, const char* name) {
  void* p = dlsym(lib, name);
  if (p == nullptr) {
    std::fprintf(stderr, "missing %s\n", name);
    std::exit(2);
  }
  return reinterpret_cast<F>(p);
}

std::mutex g_mu;
std::condition_variable g_cv;
int g_stage = 0;  // 1: worker traced; 2: libraries closed, worker may exit

void Await(int stage) {
  std::unique_lock<std::mutex> lock(g_mu);
  g_cv.wait(lock, [stage] { return g_stage >= stage; });
}

void Advance(int stage) {
  {
    std::lock_guard<std::mutex> lock(g_mu);
    g_stage = stage;
  }
  g_cv.notify_all();
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3) return 2;
  std::atexit(&Report);
  // The runtime's table is the only way in: no patched GOT entries.
  setenv("ROCTRACER_GOT_PATCH", "0", 1);
  void* tracer = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
  void* roctx = dlopen(argv[2], RTLD_NOW | RTLD_LOCAL);
  if (tracer == nullptr || roctx == nullptr) {
    std::fprintf(stderr, "dlopen: %s\n", dlerror());
    return 2;
  }
  auto open_pool =
      Sym<decltype(&roctracer_open_pool)>(tracer, "roctracer_open_pool");
  auto enable_cb = Sym<decltype(&roctracer_enable_domain_callback)>(
      tracer, "roctracer_enable_domain_callback");
  auto enable_act = Sym<decltype(&roctracer_enable_domain_activity)>(
      tracer, "roctracer_enable_domain_activity");
  auto disable_cb = Sym<decltype(&roctracer_disable_domain_callback)>(
      tracer, "roctracer_disable_domain_callback");
  auto disable_act = Sym<decltype(&roctracer_disable_domain_activity)>(
      tracer, "roctracer_disable_domain_activity");
  auto push_ext =
      Sym<decltype(&roctracer_activity_push_external_correlation_id)>(
          tracer, "roctracer_activity_push_external_correlation_id");
  program_tool_register(
      Sym<bool (*)(HsaApiTable*, uint64_t, uint64_t, const char* const*)>(
          tracer, "OnLoad"),
      Sym<void (*)()>(tracer, "OnUnload"));
  setenv("HSA_TOOLS_LIB", "libprogram_tool.so", 1);
  if (hsa_init() != HSA_STATUS_SUCCESS) return 2;
  auto mark = Sym<decltype(&roctxMarkA)>(roctx, "roctxMarkA");
  auto push = Sym<decltype(&roctxRangePushA)>(roctx, "roctxRangePushA");

  roctracer_properties_t properties{};
  properties.buffer_size = 0x1000;
  properties.buffer_callback_fun = &OnBuffer;
  if (open_pool(&properties) != ROCTRACER_STATUS_SUCCESS ||
      enable_cb(ACTIVITY_DOMAIN_HSA_API, &OnCallback, nullptr) !=
          ROCTRACER_STATUS_SUCCESS ||
      enable_cb(ACTIVITY_DOMAIN_ROCTX, &OnCallback, nullptr) !=
          ROCTRACER_STATUS_SUCCESS ||
      enable_act(ACTIVITY_DOMAIN_HSA_API) != ROCTRACER_STATUS_SUCCESS) {
    std::fprintf(stderr, "setup failed\n");
    return 2;
  }

  std::thread worker([&] {
    push_ext(7);
    for (int i = 0; i < 100; ++i) {
      const char* s = nullptr;
      hsa_status_string(HSA_STATUS_ERROR, &s);
      hsa_executable_symbol_t symbol{};
      hsa_executable_get_symbol_by_name(hsa_executable_t{1}, "kernel", nullptr,
                                        &symbol);
      mark("worker");
      push("range");
    }
    Advance(1);
    Await(2);
  });  // the thread's key destructors run after the libraries are closed

  Await(1);
  // Only the worker's calls count: the runtime's shut-down is not traced.
  if (disable_cb(ACTIVITY_DOMAIN_HSA_API) != ROCTRACER_STATUS_SUCCESS ||
      disable_act(ACTIVITY_DOMAIN_HSA_API) != ROCTRACER_STATUS_SUCCESS ||
      hsa_shut_down() != HSA_STATUS_SUCCESS) {  // the tracer's OnUnload
    return 2;
  }
  program_tool_register(nullptr, nullptr);
  dlclose(tracer);
  mark("after the tracer was closed");
  dlclose(roctx);
  Advance(2);
  worker.join();
  std::puts("WORKER EXITED");
  std::fflush(stdout);
  return 0;
}
