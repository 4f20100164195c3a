// Shared by the GPU activity tests: an HSA program on softhsa with
// libroctracer64.so.4 loaded as its tool (HSA_TOOLS_LIB), kernels loaded, a
// pool collecting records with their kernel names.
#ifndef TESTS_GPU_GPU_TEST_UTIL_H_
#define TESTS_GPU_GPU_TEST_UTIL_H_

#include <roctracer.h>
#include <roctracer_ext.h>
#include <roctracer_hsa.h>

#include <algorithm>
#include <cstdlib>
#include <mutex>
#include <string>
#include <vector>

#include "tests/softhsa/hsa_test_util.h"

namespace gpu_test {

constexpr char kTracer[] = "libroctracer64.so.4";
constexpr char kKernels[] = "tests/gpu/libgpu_kernels.so";

struct Record {
  activity_record_t r;
  std::string name;
};

// Every record delivered to its pool, with dispatch kernel names copied.
class Records {
 public:
  static void Callback(const char* begin, const char* end, void* arg) {
    auto* self = static_cast<Records*>(arg);
    std::lock_guard<std::mutex> lock(self->mutex_);
    for (auto* r = reinterpret_cast<const activity_record_t*>(begin);
         r < reinterpret_cast<const activity_record_t*>(end); ++r) {
      Record c{*r, ""};
      // HSA_OP_ID_DISPATCH and HIP_OP_ID_DISPATCH are both 0.
      if ((r->domain == ACTIVITY_DOMAIN_HSA_OPS ||
           r->domain == ACTIVITY_DOMAIN_HIP_OPS) &&
          r->op == HSA_OP_ID_DISPATCH && r->kernel_name != nullptr) {
        c.name = r->kernel_name;
      }
      self->all_.push_back(c);
    }
  }
  // In begin order: records written by different threads (the completion
  // thread, a flush) reach the buffer callback in no set order between them.
  std::vector<Record> Of(uint32_t domain, uint32_t op) {
    std::lock_guard<std::mutex> lock(mutex_);
    std::vector<Record> out;
    for (const Record& c : all_) {
      if (c.r.domain == domain && c.r.op == op) out.push_back(c);
    }
    std::stable_sort(out.begin(), out.end(),
                     [](const Record& a, const Record& b) {
                       return a.r.begin_ns < b.r.begin_ns;
                     });
    return out;
  }
  size_t Count(uint32_t domain, uint32_t op) { return Of(domain, op).size(); }
  void Clear() {
    std::lock_guard<std::mutex> lock(mutex_);
    all_.clear();
  }

 private:
  std::mutex mutex_;
  std::vector<Record> all_;
};

// A pool of 4 KiB buffers delivering into `records`.
inline roctracer_status_t OpenPool(Records* records, roctracer_pool_t** pool) {
  roctracer_properties_t props{};
  props.buffer_size = 4096;
  props.buffer_callback_fun = &Records::Callback;
  props.buffer_callback_arg = records;
  return roctracer_open_pool_expl(&props, pool);
}

// The tracer's directory in the runfiles: the test links it, and names the
// same file to the runtime as its tool.
inline std::string TracerPath() {
  const char* dir = std::getenv("GPU_TEST_TRACER");
  return dir != nullptr ? dir : kTracer;
}

// hsa_init with the tracer as tool, a GPU agent, the kernels loaded, a
// kernarg buffer.
struct Program {
  hsa_agent_t gpu{0};
  hsa_agent_t cpu{0};
  hsa_test::Loaded kernels;
  uint64_t empty = 0, stamp = 0, scale = 0;
  void* kernarg = nullptr;
  // HSA tools the runtime loads before the tracer (a lower priority), if
  // any: their names, separated by spaces.
  std::string tools_first;
  // false: HSA_TOOLS_LIB is left as it is (the tracer names itself there,
  // or the test has set it).
  bool name_tracer = true;

  bool Start() {
    const std::string tools =
        tools_first.empty() ? TracerPath() : tools_first + " " + TracerPath();
    if (name_tracer) setenv("HSA_TOOLS_LIB", tools.c_str(), 1);
    if (hsa_init() != HSA_STATUS_SUCCESS) return false;
    auto gpus = hsa_test::Agents(HSA_DEVICE_TYPE_GPU);
    auto cpus = hsa_test::Agents(HSA_DEVICE_TYPE_CPU);
    if (gpus.empty() || cpus.empty()) return false;
    gpu = gpus[0];
    cpu = cpus[0];
    if (hsa_test::LoadFile(kKernels, gpu, &kernels) != HSA_STATUS_SUCCESS) {
      return false;
    }
    empty = hsa_test::KernelObject(kernels.executable, gpu, "empty");
    stamp = hsa_test::KernelObject(kernels.executable, gpu, "stamp");
    scale = hsa_test::KernelObject(
        kernels.executable, gpu,
        "_ZN7gputest5scaleEPKvPK28hsa_kernel_dispatch_packet_sjjj");
    hsa_amd_memory_pool_allocate(hsa_test::KernargPool(), 4096, 0, &kernarg);
    return empty != 0 && stamp != 0 && scale != 0 && kernarg != nullptr;
  }

  void Stop() {
    if (kernarg != nullptr) hsa_amd_memory_pool_free(kernarg);
    kernarg = nullptr;
    hsa_test::Unload(&kernels);
    hsa_shut_down();
  }

  hsa_queue_t* Queue(uint32_t size = 1024) {
    hsa_queue_t* q = nullptr;
    hsa_queue_create(gpu, size, HSA_QUEUE_TYPE_MULTI, nullptr, nullptr, 0, 0,
                     &q);
    return q;
  }
};

inline void Dispatch(hsa_queue_t* q, uint64_t kernel, void* kernarg,
                     hsa_signal_t completion) {
  hsa_kernel_dispatch_packet_t p =
      hsa_test::DispatchPacket(kernel, kernarg, 1, 1, completion);
  hsa_test::Submit(q, &p);
}

inline void Barrier(hsa_queue_t* q, hsa_packet_type_t type,
                    std::vector<hsa_signal_t> deps, hsa_signal_t completion) {
  hsa_barrier_and_packet_t b{};
  b.header = hsa_test::Header(type);
  for (size_t i = 0; i < deps.size() && i < 5; ++i) b.dep_signal[i] = deps[i];
  b.completion_signal = completion;
  hsa_test::Submit(q, &b);
}

inline hsa_signal_value_t WaitZero(hsa_signal_t s) {
  return hsa_signal_wait_scacquire(s, HSA_SIGNAL_CONDITION_EQ, 0, UINT64_MAX,
                                   HSA_WAIT_STATE_BLOCKED);
}

inline roctracer_gpu_activity_stats_t GpuStats() {
  roctracer_gpu_activity_stats_t s{};
  roctracer_get_gpu_activity_stats_expl(&s);
  return s;
}

}  // namespace gpu_test

#endif  // TESTS_GPU_GPU_TEST_UTIL_H_
