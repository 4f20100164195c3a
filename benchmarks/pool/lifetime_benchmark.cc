// What pools cost over their life rather than per record: opening and
// closing them over and over (time and resident memory must stay flat in
// the number of pools ever opened), and the buffer memory a writer thread
// holds in one pool.
//
//   bazel run --config=opt //benchmarks/pool:lifetime_benchmark --
//     --benchmark_repetitions=5 --benchmark_report_aggregates_only=true
#include <benchmark/benchmark.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <thread>
#include <vector>

#include "runtime/pool/pool.h"

namespace roctracer {

using pool::OverflowPolicy;
using pool::Pool;

namespace {

void Ignore(const char*, const char*, void*) {}

activity_record_t Record(uint64_t i) {
  activity_record_t r{};
  r.domain = 3;
  r.correlation_id = i;
  return r;
}

uint64_t ResidentBytes() {
  long pages = 0, resident = 0;
  if (FILE* f = std::fopen("/proc/self/statm", "r")) {
    if (std::fscanf(f, "%ld %ld", &pages, &resident) != 2) resident = 0;
    std::fclose(f);
  }
  return static_cast<uint64_t>(resident) * 4096;
}

// One cycle: open a pool, write one record, close it (roctracer_open_pool,
// one traced call, roctracer_close_pool). The counters compare the first
// and the last tenth of the run: flat means the same.
void BM_OpenWriteClose(benchmark::State& state) {
  roctracer_properties_t props{};
  props.buffer_size = 0x1000;
  props.buffer_callback_fun = &Ignore;
  const int64_t tenth = state.max_iterations / 10;
  int64_t i = 0;
  uint64_t rss_after_first_tenth = 0;
  auto t0 = std::chrono::steady_clock::now();
  double first_tenth_s = 0, last_tenth_s = 0;
  for (auto _ : state) {
    Pool* pool = Pool::Create(props, OverflowPolicy::kLossless, nullptr);
    if (pool == nullptr) {
      state.SkipWithError("Pool::Create failed");
      return;
    }
    pool->Write(Record(static_cast<uint64_t>(i)));
    Pool::Retire(pool);
    ++i;
    if (i == tenth) {
      first_tenth_s = std::chrono::duration<double>(
                          std::chrono::steady_clock::now() - t0)
                          .count();
      rss_after_first_tenth = ResidentBytes();
    } else if (i == state.max_iterations - tenth) {
      t0 = std::chrono::steady_clock::now();
    }
  }
  last_tenth_s =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - t0)
          .count();
  state.counters["last_vs_first_tenth_time"] = last_tenth_s / first_tenth_s;
  state.counters["rss_growth_MiB"] =
      (static_cast<double>(ResidentBytes()) -
       static_cast<double>(rss_after_first_tenth)) /
      (1 << 20);
}
BENCHMARK(BM_OpenWriteClose)->Iterations(100000)->Unit(benchmark::kMicrosecond);

// Counts the bytes a pool holds through its allocator.
struct Counting {
  static void Fun(char** ptr, size_t size, void* arg) {
    auto* self = static_cast<Counting*>(arg);
    if (*ptr == nullptr) {
      *ptr = static_cast<char*>(std::malloc(size));
      if (*ptr != nullptr) self->live += size;
    } else if (size == 0) {
      self->live -= self->size;
      std::free(*ptr);
      *ptr = nullptr;
    }
  }
  std::atomic<int64_t> live{0};
  size_t size = 0;
};

// Arg 0: buffer size; arg 1: records each of 8 threads writes. Reports the
// buffer bytes the pool holds per writer thread while they are alive.
void BM_BytesPerWriterThread(benchmark::State& state) {
  const size_t buffer_size = static_cast<size_t>(state.range(0));
  const int64_t records = state.range(1);
  constexpr int kThreads = 8;
  double per_thread = 0;
  for (auto _ : state) {
    Counting counting;
    counting.size = buffer_size;
    roctracer_properties_t props{};
    props.buffer_size = buffer_size;
    props.buffer_callback_fun = &Ignore;
    props.alloc_fun = &Counting::Fun;
    props.alloc_arg = &counting;
    Pool* pool = Pool::Create(props, OverflowPolicy::kLossless, nullptr);
    std::atomic<int> done{0};
    std::atomic<bool> release{false};
    std::vector<std::thread> threads;
    for (int t = 0; t < kThreads; ++t) {
      threads.emplace_back([&] {
        for (int64_t r = 0; r < records; ++r) pool->Write(Record(r));
        ++done;
        while (!release.load()) std::this_thread::yield();
      });
    }
    while (done.load() != kThreads) std::this_thread::yield();
    pool->Flush();
    per_thread = static_cast<double>(counting.live.load()) / kThreads;
    release = true;
    for (auto& th : threads) th.join();
    Pool::Retire(pool);
  }
  state.counters["buffer_KiB_per_thread"] = per_thread / 1024;
}
BENCHMARK(BM_BytesPerWriterThread)
    ->ArgNames({"buffer", "records"})
    ->ArgsProduct({{0x1000, 0x100000, 0x1000000}, {10, 1000000}})
    ->Iterations(1)
    ->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace roctracer

BENCHMARK_MAIN();
