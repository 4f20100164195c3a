// Built by hip_ops_client_test.sh with the system g++ and default flags
// against the installed tree, as a user builds a tool:
//   g++ hip_ops_client.cc $(pkg-config --cflags --libs roctracer)
//       -lamdhip64 -lhsa-runtime64
// and run with the stand-in HIP library as libamdhip64.so.5 and softhsa as
// libhsa-runtime64.so.1, the tracer as the HSA tool. Checks the HIP_OPS
// records of a few HIP calls and the HSA_EVT events of a module load; prints
// "hip_ops_client: N failures".
#include <hip/hip_runtime_api.h>
#include <hsa/hsa.h>
#include <roctracer/roctracer_hip.h>
#include <roctracer/roctracer_hsa.h>

#include <cstdio>
#include <cstring>
#include <map>
#include <mutex>
#include <set>
#include <string>
#include <vector>

namespace {

int failures = 0;
#define CHECK(cond)                                               \
  do {                                                            \
    if (!(cond)) {                                                \
      ++failures;                                                 \
      std::printf("FAIL %s:%d: %s\n", __FILE__, __LINE__, #cond); \
    }                                                             \
  } while (0)

std::mutex mutex;
std::vector<activity_record_t> records;
std::set<std::string> loaded_kernels;
int code_objects_loaded = 0;

void Buffer(const char* begin, const char* end, void*) {
  std::lock_guard<std::mutex> lock(mutex);
  for (auto* r = reinterpret_cast<const activity_record_t*>(begin);
       r < reinterpret_cast<const activity_record_t*>(end); ++r) {
    records.push_back(*r);
  }
}

void Event(uint32_t domain, uint32_t op, const void* data, void*) {
  if (domain != ACTIVITY_DOMAIN_HSA_EVT) return;
  const auto* d = static_cast<const hsa_evt_data_t*>(data);
  if (op == HSA_EVT_ID_CODEOBJ && !d->codeobj.unload) ++code_objects_loaded;
  if (op == HSA_EVT_ID_KSYMBOL && !d->ksymbol.unload) {
    loaded_kernels.insert(d->ksymbol.name);
  }
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::printf("usage: hip_ops_client KERNELS.so\n");
    return 2;
  }
  CHECK(hsa_init() == HSA_STATUS_SUCCESS);  // the tracer loads as the tool
  roctracer_properties_t props{};
  props.buffer_size = 4096;
  props.buffer_callback_fun = &Buffer;
  roctracer_pool_t* pool = nullptr;
  CHECK(roctracer_open_pool_expl(&props, &pool) == ROCTRACER_STATUS_SUCCESS);
  CHECK(roctracer_enable_domain_activity_expl(ACTIVITY_DOMAIN_HIP_API, pool) ==
        ROCTRACER_STATUS_SUCCESS);
  CHECK(roctracer_enable_domain_activity_expl(ACTIVITY_DOMAIN_HIP_OPS, pool) ==
        ROCTRACER_STATUS_SUCCESS);
  CHECK(roctracer_enable_domain_callback(ACTIVITY_DOMAIN_HSA_EVT, &Event,
                                         nullptr) == ROCTRACER_STATUS_SUCCESS);

  hipModule_t module = nullptr;
  hipFunction_t empty = nullptr;
  CHECK(hipModuleLoad(&module, argv[1]) == hipSuccess);
  CHECK(hipModuleGetFunction(&empty, module, "empty") == hipSuccess);
  std::vector<char> host(4096, 'h'), device(4096, 'd');
  void* arg = nullptr;
  size_t size = sizeof(arg);
  void* extra[] = {HIP_LAUNCH_PARAM_BUFFER_POINTER, &arg,
                   HIP_LAUNCH_PARAM_BUFFER_SIZE, &size, HIP_LAUNCH_PARAM_END};
  CHECK(hipModuleLaunchKernel(empty, 1, 1, 1, 1, 1, 1, 0, nullptr, nullptr,
                              extra) == hipSuccess);
  CHECK(hipMemsetAsync(device.data(), 1, device.size(), nullptr) == hipSuccess);
  CHECK(hipDeviceSynchronize() == hipSuccess);
  CHECK(hipMemcpy(device.data(), host.data(), 100, hipMemcpyHostToDevice) ==
        hipSuccess);
  CHECK(device[99] == 'h' && device[100] == 1);
  CHECK(roctracer_flush_activity_expl(pool) == ROCTRACER_STATUS_SUCCESS);

  std::map<uint64_t, std::string> calls;  // HIP_API records: ID -> name
  std::vector<activity_record_t> ops;
  {
    std::lock_guard<std::mutex> lock(mutex);
    for (const activity_record_t& r : records) {
      if (r.domain == ACTIVITY_DOMAIN_HIP_API) {
        calls[r.correlation_id] =
            roctracer_op_string(ACTIVITY_DOMAIN_HIP_API, r.op, 0);
      }
      if (r.domain == ACTIVITY_DOMAIN_HIP_OPS) ops.push_back(r);
    }
  }
  const std::map<std::string, std::string> expected = {
      {"hipModuleLaunchKernel", "KernelExecution"},
      {"hipMemsetAsync", "FillBuffer"},
      {"hipDeviceSynchronize", "Marker"},
      {"hipMemcpy", "CopyHostToDevice"}};
  CHECK(ops.size() == expected.size());
  for (const activity_record_t& r : ops) {
    auto call = calls.find(r.correlation_id);
    CHECK(call != calls.end());
    if (call == calls.end()) continue;
    auto want = expected.find(call->second);
    CHECK(want != expected.end());
    if (want == expected.end()) continue;
    const char* kind =
        roctracer_op_string(ACTIVITY_DOMAIN_HIP_OPS, r.op, r.kind);
    CHECK(kind != nullptr && want->second == kind);
    CHECK(r.begin_ns <= r.end_ns);
    std::printf("%s: %s\n", call->second.c_str(), kind ? kind : "(null)");
  }
  // The application's module and the stand-in HIP's own fill kernel.
  CHECK(code_objects_loaded == 2);
  CHECK(loaded_kernels.count("empty") == 1);
  CHECK(loaded_kernels.count("__amd_rocclr_fillBufferAligned") == 1);

  CHECK(hipModuleUnload(module) == hipSuccess);
  roctracer_disable_domain_callback(ACTIVITY_DOMAIN_HSA_EVT);
  CHECK(roctracer_close_pool_expl(pool) == ROCTRACER_STATUS_SUCCESS);
  std::printf("hip_ops_client: %d failures\n", failures);
  return failures == 0 ? 0 : 1;
}
