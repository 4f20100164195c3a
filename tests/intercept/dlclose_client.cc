// A tool built the way users build one (exit_test.py compiles it with the
// system g++ and its default flags, public headers only): it loads
// libroctracer64.so and libroctx64.so with dlopen, records rocTX marks and an
// external ID from a worker thread, dlcloses both libraries while that thread
// is alive, and then lets the thread exit.
//
// Usage: dlclose_client <libroctracer64.so> <libroctx64.so>
// Prints "MARKS <made> RECORDS <delivered>" after the pool was flushed,
// then "WORKER EXITED" once the thread is gone.
#include <dlfcn.h>
#include <roctracer.h>
#include <roctracer_ext.h>
#include <roctracer_roctx.h>
#include <roctx.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <future>
#include <thread>

namespace {

std::atomic<int> g_records{0};

void OnBuffer(const char* begin, const char* end, void*) {
  for (const char* p = begin; p < end; p += sizeof(activity_record_t)) {
    const auto* r = reinterpret_cast<const activity_record_t*>(p);
    if (r->domain == ACTIVITY_DOMAIN_ROCTX) g_records.fetch_add(1);
  }
}

void* Sym(void* lib, const char* name) {
  void* p = dlsym(lib, name);
  if (p == nullptr) {
    std::fprintf(stderr, "missing %s\n", name);
    std::exit(2);
  }
  return p;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3) return 2;
  void* tracer = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
  void* roctx = dlopen(argv[2], RTLD_NOW | RTLD_LOCAL);
  if (tracer == nullptr || roctx == nullptr) {
    std::fprintf(stderr, "dlopen: %s\n", dlerror());
    return 2;
  }
  auto open_pool = reinterpret_cast<decltype(&roctracer_open_pool)>(
      Sym(tracer, "roctracer_open_pool"));
  auto enable_activity =
      reinterpret_cast<decltype(&roctracer_enable_domain_activity)>(
          Sym(tracer, "roctracer_enable_domain_activity"));
  auto flush = reinterpret_cast<decltype(&roctracer_flush_activity)>(
      Sym(tracer, "roctracer_flush_activity"));
  auto push_external = reinterpret_cast<
      decltype(&roctracer_activity_push_external_correlation_id)>(
      Sym(tracer, "roctracer_activity_push_external_correlation_id"));
  auto mark = reinterpret_cast<decltype(&roctxMarkA)>(Sym(roctx, "roctxMarkA"));

  roctracer_properties_t properties{};
  properties.buffer_size = 0x1000;
  properties.buffer_callback_fun = &OnBuffer;
  if (open_pool(&properties) != ROCTRACER_STATUS_SUCCESS ||
      enable_activity(ACTIVITY_DOMAIN_ROCTX) != ROCTRACER_STATUS_SUCCESS) {
    std::fprintf(stderr, "setup failed\n");
    return 2;
  }

  const int kMarks = 100;
  std::promise<void> traced;
  std::promise<void> closed;
  std::thread worker([&] {
    push_external(7);
    for (int i = 0; i < kMarks; ++i) mark("worker");
    traced.set_value();
    closed.get_future().wait();
  });  // its key destructors run after the libraries are closed

  traced.get_future().wait();
  flush();
  std::printf("MARKS %d RECORDS %d\n", kMarks, g_records.load());
  std::fflush(stdout);
  dlclose(roctx);
  dlclose(tracer);
  closed.set_value();
  worker.join();
  std::puts("WORKER EXITED");
  return 0;
}
