// The few roctracer calls the layout programs make, looked up by name, so
// one source serves every link layout (tracer linked, dlopen'ed, absent).
#ifndef TESTS_INTERCEPT_LAYOUTS_TRACER_HANDLE_H_
#define TESTS_INTERCEPT_LAYOUTS_TRACER_HANDLE_H_

#include <dlfcn.h>

#include <cstdint>
#include <cstdio>
#include <map>
#include <mutex>
#include <string>

namespace layouts {

constexpr uint32_t kHsaApi = 0;  // ACTIVITY_DOMAIN_HSA_API
constexpr uint32_t kHipApi = 3;  // ACTIVITY_DOMAIN_HIP_API

using Callback = void (*)(uint32_t, uint32_t, const void*, void*);
using EnableFn = int (*)(uint32_t, Callback, void*);
using DisableFn = int (*)(uint32_t);
using OpStringFn = const char* (*)(uint32_t, uint32_t, uint32_t);

struct Tracer {
  EnableFn enable = nullptr;
  DisableFn disable = nullptr;
  OpStringFn op_string = nullptr;
  std::mutex mu;
  std::map<std::string, int> calls;  // callbacks (ENTER + EXIT) per API

  bool Bind(void* handle) {
    enable = reinterpret_cast<EnableFn>(
        dlsym(handle, "roctracer_enable_domain_callback"));
    disable = reinterpret_cast<DisableFn>(
        dlsym(handle, "roctracer_disable_domain_callback"));
    op_string =
        reinterpret_cast<OpStringFn>(dlsym(handle, "roctracer_op_string"));
    return enable && disable && op_string;
  }

  static void OnCall(uint32_t domain, uint32_t op, const void*, void* arg) {
    auto* self = static_cast<Tracer*>(arg);
    const char* name = self->op_string(domain, op, 0);
    std::lock_guard<std::mutex> lock(self->mu);
    ++self->calls[name ? name : "?"];
  }

  void EnableAll() {
    enable(kHipApi, &OnCall, this);
    enable(kHsaApi, &OnCall, this);
  }

  void DisableAll() {
    disable(kHipApi);
    disable(kHsaApi);
  }

  // Completed traced calls (ENTER + EXIT callbacks) of `name`.
  int Traced(const std::string& name) {
    std::lock_guard<std::mutex> lock(mu);
    auto it = calls.find(name);
    return it == calls.end() ? 0 : it->second / 2;
  }
};

}  // namespace layouts

#endif  // TESTS_INTERCEPT_LAYOUTS_TRACER_HANDLE_H_
