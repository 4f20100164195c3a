// An HSA program that leaves kernels in flight: it submits N dispatches of
// `stamp` (tests/gpu/gpu_kernels.cc, each spinning SPIN_NS) on one queue,
// never waits for them, and then
//   exit      returns from main;
//   destroy   destroys the queue, then returns from main;
//   shutdown  calls hsa_shut_down, then returns from main.
//   inflight_program KERNELS MODE N SPIN_NS
// It has no tracing code of its own unless TRACE names libroctracer64.so.4
// (loaded as the HSA tool): then it opens a plain roctracer pool for HSA_OPS
// activity and, after the tracer's exit handling, prints
// "records R lost L" on stdout (L: the tracer's count of operations it never
// saw complete). Exit 0 when every submission was accepted.
#include <dlfcn.h>
#include <hsa/hsa.h>
#include <roctracer.h>
#include <roctracer_ext.h>
#include <roctracer_hsa.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "tests/softhsa/hsa_test_util.h"

namespace {

std::atomic<uint64_t> g_records{0};
void* g_tracer = nullptr;
// stamp's output: its start and end times, and how long it spins. Static:
// kernels may still write it while the process exits.
uint64_t g_times[3];

void OnRecords(const char* begin, const char* end, void*) {
  for (auto* r = reinterpret_cast<const activity_record_t*>(begin);
       r < reinterpret_cast<const activity_record_t*>(end); ++r) {
    if (r->domain == ACTIVITY_DOMAIN_HSA_OPS && r->op == HSA_OP_ID_DISPATCH) {
      g_records.fetch_add(1, std::memory_order_relaxed);
    }
  }
}

template <class Fn>
Fn Sym(const char* name) {
  return reinterpret_cast<Fn>(dlsym(g_tracer, name));
}

// Registered before the tracer opens anything, so it runs after the
// tracer's own exit handling: every record has been delivered by then.
void PrintAtExit() {
  roctracer_gpu_activity_stats_t s{};
  Sym<decltype(&roctracer_get_gpu_activity_stats_expl)>(
      "roctracer_get_gpu_activity_stats_expl")(&s);
  std::printf("records %llu lost %llu\n",
              static_cast<unsigned long long>(g_records.load()),
              static_cast<unsigned long long>(s.incomplete + s.untraced));
  std::fflush(stdout);
}

void StartTracing(const char* tracer) {
  g_tracer = dlopen(tracer, RTLD_NOW | RTLD_NOLOAD);
  if (g_tracer == nullptr) {
    std::fprintf(stderr, "tracer not loaded as a tool\n");
    std::exit(2);
  }
  std::atexit(PrintAtExit);
  roctracer_properties_t props{};
  props.buffer_size = 1 << 14;
  props.buffer_callback_fun = &OnRecords;
  roctracer_pool_t* pool = nullptr;
  Sym<decltype(&roctracer_open_pool_expl)>("roctracer_open_pool_expl")(&props,
                                                                       &pool);
  Sym<decltype(&roctracer_enable_domain_activity_expl)>(
      "roctracer_enable_domain_activity_expl")(ACTIVITY_DOMAIN_HSA_OPS, pool);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 5) return 64;
  const char* mode = argv[2];
  const long n = std::atol(argv[3]);
  const uint64_t spin_ns = std::strtoull(argv[4], nullptr, 10);
  if (hsa_init() != HSA_STATUS_SUCCESS) return 1;
  if (const char* tracer = std::getenv("TRACE")) StartTracing(tracer);
  auto gpus = hsa_test::Agents(HSA_DEVICE_TYPE_GPU);
  if (gpus.empty()) return 2;
  hsa_test::Loaded code;
  if (hsa_test::LoadFile(argv[1], gpus[0], &code) != HSA_STATUS_SUCCESS) {
    return 3;
  }
  const uint64_t stamp =
      hsa_test::KernelObject(code.executable, gpus[0], "stamp");
  if (stamp == 0) return 4;
  void* kernarg = nullptr;
  hsa_amd_memory_pool_allocate(hsa_test::KernargPool(), 64, 0, &kernarg);
  g_times[2] = spin_ns;
  *static_cast<uint64_t**>(kernarg) = g_times;
  hsa_queue_t* q = nullptr;
  if (hsa_queue_create(gpus[0], 256, HSA_QUEUE_TYPE_MULTI, nullptr, nullptr, 0,
                       0, &q) != HSA_STATUS_SUCCESS) {
    return 5;
  }
  // A completion signal on every dispatch, as HIP gives them.
  hsa_signal_t done;
  hsa_signal_create(n, 0, nullptr, &done);
  for (long i = 0; i < n; ++i) {
    hsa_kernel_dispatch_packet_t p =
        hsa_test::DispatchPacket(stamp, kernarg, 1, 1, done);
    hsa_test::Submit(q, &p);
  }
  if (std::strcmp(mode, "destroy") == 0) {
    hsa_queue_destroy(q);
  } else if (std::strcmp(mode, "shutdown") == 0) {
    hsa_shut_down();
  } else if (std::strcmp(mode, "exit") != 0) {
    return 64;
  }
  std::printf("submitted %ld\n", n);
  std::fflush(stdout);
  return 0;
}
