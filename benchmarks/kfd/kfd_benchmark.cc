// Cost of tracing one cheap libhsakmt call, hsaKmtGetVersion (without
// /dev/kfd it answers "driver not open" at once), as the intercept
// benchmarks measure the HSA and HIP domains (benchmarks/intercept):
//   Direct      libhsakmt's function through a pointer from dlsym;
//   Symbol/m    the generated C-symbol stub linked into this binary ahead of
//               the runtimes, the path ROCR's own calls take;
// m = 0 nothing enabled, 1 an empty callback, 2 activity into a pool.
// hsa_status_string through its stub, same modes, for comparison in the
// same run.
#include <benchmark/benchmark.h>
#include <dlfcn.h>
#include <hsa/hsa.h>
#include <roctracer.h>
#include <roctracer_hsa.h>
#include <roctracer_kfd.h>

#include <cstdio>

namespace {

void EmptyCallback(uint32_t, uint32_t, const void*, void*) {}
void DropBuffer(const char*, const char*, void*) {}

// Enables mode 1 (callback) or 2 (activity) for one (domain, op) while alive.
class Mode {
 public:
  Mode(int64_t mode, activity_domain_t domain, uint32_t op)
      : mode_(mode), domain_(domain), op_(op) {
    if (mode_ == 1) {
      roctracer_enable_op_callback(domain_, op_, &EmptyCallback, nullptr);
    } else if (mode_ == 2) {
      roctracer_enable_op_activity(domain_, op_);
    }
  }
  ~Mode() {
    if (mode_ == 1) roctracer_disable_op_callback(domain_, op_);
    if (mode_ == 2) roctracer_disable_op_activity(domain_, op_);
  }

 private:
  int64_t mode_;
  activity_domain_t domain_;
  uint32_t op_;
};

decltype(&hsaKmtGetVersion) g_direct = nullptr;
HsaVersionInfo g_version;
const char* g_text;

void BM_KfdGetVersion_Direct(benchmark::State& state) {
  auto fn = g_direct;
  fn(&g_version);
  for (auto _ : state) benchmark::DoNotOptimize(fn(&g_version));
}

void BM_KfdGetVersion_Symbol(benchmark::State& state) {
  Mode mode(state.range(0), ACTIVITY_DOMAIN_KFD_API,
            KFD_API_ID_hsaKmtGetVersion);
  hsaKmtGetVersion(&g_version);
  for (auto _ : state) benchmark::DoNotOptimize(hsaKmtGetVersion(&g_version));
}

void BM_HsaStatusString_Symbol(benchmark::State& state) {
  Mode mode(state.range(0), ACTIVITY_DOMAIN_HSA_API,
            HSA_API_ID_hsa_status_string);
  hsa_status_string(HSA_STATUS_ERROR, &g_text);
  for (auto _ : state) {
    benchmark::DoNotOptimize(hsa_status_string(HSA_STATUS_ERROR, &g_text));
  }
}

BENCHMARK(BM_KfdGetVersion_Direct);
BENCHMARK(BM_KfdGetVersion_Symbol)->Arg(0)->Arg(1)->Arg(2);
BENCHMARK(BM_HsaStatusString_Symbol)->Arg(0)->Arg(1)->Arg(2);

}  // namespace

int main(int argc, char** argv) {
  void* kmt = dlopen("libhsakmt.so.1", RTLD_NOW | RTLD_NOLOAD);
  g_direct = kmt == nullptr ? nullptr
                            : reinterpret_cast<decltype(g_direct)>(
                                  dlsym(kmt, "hsaKmtGetVersion"));
  if (g_direct == nullptr || reinterpret_cast<void*>(g_direct) ==
                                 reinterpret_cast<void*>(&hsaKmtGetVersion)) {
    std::fprintf(stderr, "libhsakmt not loaded, or its function not found\n");
    return 1;
  }
  roctracer_properties_t properties{};
  properties.buffer_size = 1 << 20;
  properties.buffer_callback_fun = &DropBuffer;
  if (roctracer_open_pool(&properties) != ROCTRACER_STATUS_SUCCESS) return 1;
  benchmark::Initialize(&argc, argv);
  benchmark::RunSpecifiedBenchmarks();
  roctracer_close_pool();
  return 0;
}
