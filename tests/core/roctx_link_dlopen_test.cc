// libroctx64.so.4 and a tracer library find each other whichever is loaded
// first, even with RTLD_LOCAL, and only the versioned public API is exported.
// argv[1]: "tracer-first" or "roctx-first".
#include <dlfcn.h>
#include <roctracer.h>
#include <roctracer_roctx.h>

#include <cstdio>
#include <cstring>
#include <string>

namespace {

int g_failures = 0;
#define CHECK(cond)                                                         \
  do {                                                                      \
    if (!(cond)) {                                                          \
      std::fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, \
                   #cond);                                                  \
      ++g_failures;                                                         \
    }                                                                       \
  } while (0)

std::string g_last_message;
int g_calls = 0;
void OnRoctx(uint32_t domain, uint32_t op, const void* data, void*) {
  const auto* d = static_cast<const roctx_api_data_t*>(data);
  ++g_calls;
  if (domain == ACTIVITY_DOMAIN_ROCTX && op == ROCTX_API_ID_roctxMarkA &&
      d->args.message != nullptr) {
    g_last_message = d->args.message;
  }
}

void* Open(const char* path) {
  void* h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
  if (h == nullptr) std::fprintf(stderr, "dlopen: %s\n", dlerror());
  return h;
}

}  // namespace

int main(int argc, char** argv) {
  const bool tracer_first =
      argc > 1 && std::strcmp(argv[1], "tracer-first") == 0;
  const char* kTracer = "tests/core/libroctracer64.so.4";
  const char* kRoctx = "roctx/libroctx64.so.4";
  void* tracer = nullptr;
  void* roctx = nullptr;
  if (tracer_first) {
    tracer = Open(kTracer);
    roctx = Open(kRoctx);
  } else {
    roctx = Open(kRoctx);
    tracer = Open(kTracer);
  }
  if (tracer == nullptr || roctx == nullptr) return 1;

  // Versioned exports; internals stay hidden.
  CHECK(dlvsym(tracer, "roctracer_open_pool_expl", "ROCTRACER_4.0") != nullptr);
  CHECK(dlvsym(tracer, "roctracer_open_pool", "ROCTRACER_4.1") != nullptr);
  CHECK(dlvsym(tracer, "roctracer_activity_pop_external_correlation_id",
               "ROCTRACER_4.0") != nullptr);
  CHECK(dlvsym(tracer, "roctracer_mark", "ROCTRACER_4.0") != nullptr);
  CHECK(dlvsym(roctx, "roctxRangePushA", "ROCTX_4.1") != nullptr);
  CHECK(dlsym(tracer, "_ZN9roctracer11CallbackForEjj") == nullptr);
  CHECK(dlsym(tracer, "roctxMarkA") == nullptr);

  using EnableFn = roctracer_status_t (*)(activity_domain_t,
                                          activity_rtapi_callback_t, void*);
  using DisableFn = roctracer_status_t (*)(activity_domain_t);
  using MarkFn = void (*)(const char*);
  auto enable = reinterpret_cast<EnableFn>(
      dlsym(tracer, "roctracer_enable_domain_callback"));
  auto disable = reinterpret_cast<DisableFn>(
      dlsym(tracer, "roctracer_disable_domain_callback"));
  auto mark = reinterpret_cast<MarkFn>(dlsym(roctx, "roctxMarkA"));
  CHECK(enable != nullptr && disable != nullptr && mark != nullptr);
  if (g_failures != 0) return 1;

  mark("before enable");
  CHECK(g_calls == 0);
  CHECK(enable(ACTIVITY_DOMAIN_ROCTX, OnRoctx, nullptr) ==
        ROCTRACER_STATUS_SUCCESS);
  mark("hello");
  CHECK(g_calls == 1);
  CHECK(g_last_message == "hello");
  CHECK(disable(ACTIVITY_DOMAIN_ROCTX) == ROCTRACER_STATUS_SUCCESS);
  mark("after disable");
  CHECK(g_calls == 1);

  // Unloading rocTX first withdraws its link: re-enabling must not touch it.
  CHECK(dlclose(roctx) == 0);
  CHECK(enable(ACTIVITY_DOMAIN_ROCTX, OnRoctx, nullptr) ==
        ROCTRACER_STATUS_SUCCESS);
  CHECK(disable(ACTIVITY_DOMAIN_ROCTX) == ROCTRACER_STATUS_SUCCESS);

  std::printf("%s: %d failures\n",
              tracer_first ? "tracer-first" : "roctx-first", g_failures);
  return g_failures == 0 ? 0 : 1;
}
