// TimestampNs() against clock_gettime(CLOCK_BOOTTIME) and a bare rdtsc (the
// floor), and NextCorrelationId() against one shared fetch_add per ID (what
// it replaced). Each pair runs in the same process, one after the other.
#include <benchmark/benchmark.h>
#include <time.h>

#include <atomic>
#include <cstdint>

#include "runtime/clock/clock.h"
#include "runtime/activity/correlation.h"

namespace {

void BM_ClockGettimeBoottime(benchmark::State& state) {
  timespec ts;
  for (auto _ : state) {
    clock_gettime(CLOCK_BOOTTIME, &ts);
    benchmark::DoNotOptimize(ts);
  }
}
BENCHMARK(BM_ClockGettimeBoottime);

void BM_TimestampNs(benchmark::State& state) {
  // Past the calibration (two 10 ms intervals), so the TSC path (if any) is
  // in use.
  const uint64_t start = roctracer::clock::TimestampNs();
  while (roctracer::clock::TimestampNs() - start < 50'000'000) {
  }
  for (auto _ : state)
    benchmark::DoNotOptimize(roctracer::clock::TimestampNs());
  state.SetLabel(roctracer::clock::ActiveClockName());
}
BENCHMARK(BM_TimestampNs);

#if defined(__x86_64__)
void BM_RdtscFloor(benchmark::State& state) {
  for (auto _ : state) benchmark::DoNotOptimize(__rdtsc());
}
BENCHMARK(BM_RdtscFloor);
#endif

std::atomic<uint64_t> g_shared_counter{1};

// Between two IDs a traced call stores its record; the stores make a locked
// increment wait for them to drain, as on the real path.
void BM_SharedFetchAddId(benchmark::State& state) {
  uint64_t record[8] = {};
  for (auto _ : state) {
    record[0] = g_shared_counter.fetch_add(1, std::memory_order_relaxed);
    benchmark::DoNotOptimize(record);
    benchmark::ClobberMemory();
  }
}
BENCHMARK(BM_SharedFetchAddId);

void BM_NextCorrelationId(benchmark::State& state) {
  uint64_t record[8] = {};
  for (auto _ : state) {
    record[0] = roctracer::activity::NextCorrelationId();
    benchmark::DoNotOptimize(record);
    benchmark::ClobberMemory();
  }
}
BENCHMARK(BM_NextCorrelationId);

}  // namespace

BENCHMARK_MAIN();
