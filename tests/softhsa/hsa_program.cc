// An ordinary HSA program, built by e2e_test.py with the system g++ and
// default flags and linked -lhsa-runtime64 (ROCm's library): it creates a
// queue, loads the kernel code object named by argv[1], dispatches `fill`
// with a completion signal, waits and checks the result. With ROCTRACER_LIB
// set it also enables the tracer's HSA API callbacks (the tracer having been
// loaded as an HSA tool through HSA_TOOLS_LIB) and prints what it saw.
#include <dlfcn.h>
#include <hsa/hsa.h>
#include <hsa/hsa_ext_amd.h>

#include <cstdio>
#include <cstdlib>
#include <map>
#include <mutex>
#include <string>

#include "hsa_test_util.h"

namespace {

#define CHECK(call)                                                \
  do {                                                             \
    hsa_status_t s_ = (call);                                      \
    if (s_ != HSA_STATUS_SUCCESS) {                                \
      printf("FAIL %s: 0x%x\n", #call, static_cast<unsigned>(s_)); \
      return 1;                                                    \
    }                                                              \
  } while (0)

using Callback = void (*)(uint32_t domain, uint32_t cid, const void* data,
                          void* arg);
std::mutex g_mutex;
std::map<std::string, int> g_traced;  // API name -> callbacks (enter + exit)
const char* (*g_op_string)(uint32_t, uint32_t, uint32_t);

void OnApi(uint32_t domain, uint32_t cid, const void*, void*) {
  std::lock_guard<std::mutex> lock(g_mutex);
  ++g_traced[g_op_string(domain, cid, 0)];
}

struct FillArgs {
  uint32_t* out;
  uint32_t base;
};

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) return 2;
  CHECK(hsa_init());
  const char* tracer = getenv("ROCTRACER_LIB");
  if (tracer != nullptr) {
    void* lib = dlopen(tracer, RTLD_NOW | RTLD_NOLOAD);
    if (lib == nullptr) {
      printf("FAIL tracer not loaded by hsa_init: %s\n", tracer);
      return 1;
    }
    auto enable = reinterpret_cast<int (*)(uint32_t, Callback, void*)>(
        dlsym(lib, "roctracer_enable_domain_callback"));
    g_op_string =
        reinterpret_cast<const char* (*)(uint32_t, uint32_t, uint32_t)>(
            dlsym(lib, "roctracer_op_string"));
    if (enable == nullptr || g_op_string == nullptr ||
        enable(0, OnApi, nullptr) != 0) {
      printf("FAIL cannot enable HSA API callbacks\n");
      return 1;
    }
  }
  auto gpus = hsa_test::Agents(HSA_DEVICE_TYPE_GPU);
  if (gpus.empty()) {
    printf("FAIL no kernel agent\n");
    return 1;
  }
  hsa_agent_t gpu = gpus[0];
  hsa_amd_memory_pool_t pool = hsa_test::KernargPool();
  hsa_test::Loaded code;
  CHECK(hsa_test::LoadFile(argv[1], gpu, &code));
  uint64_t fill = hsa_test::KernelObject(code.executable, gpu, "fill");
  if (fill == 0) {
    printf("FAIL no kernel 'fill'\n");
    return 1;
  }
  constexpr uint32_t kItems = 4096;
  void* out = nullptr;
  void* args = nullptr;
  CHECK(hsa_amd_memory_pool_allocate(pool, kItems * 4, 0, &out));
  CHECK(hsa_amd_memory_pool_allocate(pool, sizeof(FillArgs), 0, &args));
  *static_cast<FillArgs*>(args) = FillArgs{static_cast<uint32_t*>(out), 100};
  hsa_queue_t* queue = nullptr;
  CHECK(hsa_queue_create(gpu, 256, HSA_QUEUE_TYPE_SINGLE, nullptr, nullptr,
                         UINT32_MAX, UINT32_MAX, &queue));
  hsa_signal_t done;
  CHECK(hsa_signal_create(1, 0, nullptr, &done));
  auto packet = hsa_test::DispatchPacket(fill, args, kItems, 256, done);
  hsa_test::Submit(queue, &packet);
  hsa_signal_value_t v = hsa_signal_wait_scacquire(
      done, HSA_SIGNAL_CONDITION_EQ, 0, UINT64_MAX, HSA_WAIT_STATE_BLOCKED);
  if (v != 0) {
    printf("FAIL completion signal %ld\n", static_cast<long>(v));
    return 1;
  }
  for (uint32_t i = 0; i < kItems; ++i) {
    if (static_cast<uint32_t*>(out)[i] != 100 + i) {
      printf("FAIL out[%u] = %u\n", i, static_cast<uint32_t*>(out)[i]);
      return 1;
    }
  }
  CHECK(hsa_signal_destroy(done));
  CHECK(hsa_queue_destroy(queue));
  CHECK(hsa_amd_memory_pool_free(out));
  CHECK(hsa_amd_memory_pool_free(args));
  hsa_test::Unload(&code);
  {
    std::lock_guard<std::mutex> lock(g_mutex);
    for (auto& [name, n] : g_traced) printf("TRACED %s %d\n", name.c_str(), n);
  }
  CHECK(hsa_shut_down());
  printf("OK dispatched %u work-items\n", kItems);
  return 0;
}
