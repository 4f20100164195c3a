// Cost of writing activity records: our pool against a mutex-per-record
// baseline, on one and two threads, with heap allocations counted per record.
//
//   bazel run --config=opt //benchmarks/pool:pool_benchmark --
//     --benchmark_repetitions=5 --benchmark_report_aggregates_only=true
#include <benchmark/benchmark.h>

#include <atomic>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>

#include "benchmarks/pool/alloc_counter.h"
#include "benchmarks/pool/mutex_pool.h"
#include "runtime/pool/pool.h"

namespace roctracer {

using pool::OverflowPolicy;
using pool::Pool;

namespace {

// Two consumers: one reads every record, as a tool that converts them would;
// one only takes the buffer's extent, as a tool that hands buffers to another
// thread would. With two producers on this 2-core machine the reading
// consumer competes with them for a core.
std::atomic<uint64_t> g_sink{0};
void CountOnly(const char* begin, const char* end, void*) {
  g_sink.fetch_add(static_cast<uint64_t>(end - begin),
                   std::memory_order_relaxed);
}

void Consume(const char* begin, const char* end, void*) {
  uint64_t sum = 0;
  for (auto* r = reinterpret_cast<const activity_record_t*>(begin);
       r < reinterpret_cast<const activity_record_t*>(end); ++r) {
    sum += r->correlation_id;
  }
  g_sink.fetch_add(sum, std::memory_order_relaxed);
}

// One pool per buffer size, shared by all runs (threads of later runs adopt
// the slots of earlier, exited threads). Closed by the pool's at-exit hook.
Pool* SharedPool(size_t buffer_size, bool consumer_reads) {
  static std::mutex mu;
  static auto* pools = new std::map<std::pair<size_t, bool>, Pool*>;
  std::lock_guard<std::mutex> lock(mu);
  Pool*& pool = (*pools)[{buffer_size, consumer_reads}];
  if (pool == nullptr) {
    roctracer_properties_t props{};
    props.buffer_size = buffer_size;
    props.buffer_callback_fun = consumer_reads ? &Consume : &CountOnly;
    pool = Pool::Create(props, OverflowPolicy::kLossless, nullptr);
  }
  return pool;
}

activity_record_t Record(uint64_t i) {
  activity_record_t r{};
  r.domain = 3;
  r.op = 42;
  r.correlation_id = i;
  r.begin_ns = i;
  r.end_ns = i + 1;
  return r;
}

// Allocations are read inside the timed loop, at its last iteration: the
// library's own bookkeeping after the loop allocates and must not count.
struct AllocationWindow {
  explicit AllocationWindow(const benchmark::State& state)
      : last(static_cast<uint64_t>(state.max_iterations)),
        before(bench::ThreadAllocations()) {}
  void Tick(uint64_t i) {
    if (__builtin_expect(i == last, 0)) after = bench::ThreadAllocations();
  }
  void Report(benchmark::State& state) const {
    state.SetItemsProcessed(state.iterations());
    state.counters["allocs_per_record"] =
        benchmark::Counter(static_cast<double>(after - before) /
                               static_cast<double>(state.iterations()),
                           benchmark::Counter::kAvgThreads);
  }
  const uint64_t last;
  const uint64_t before;
  uint64_t after = 0;
};

// Arg 0: buffer size in bytes; arg 1: 1 if the consumer reads every record.
void BM_PoolWrite(benchmark::State& state) {
  Pool* pool =
      SharedPool(static_cast<size_t>(state.range(0)), state.range(1) != 0);
  if (pool == nullptr) {
    state.SkipWithError("Pool::Create failed");
    return;
  }
  pool->Write(Record(0));  // warm-up: this thread's slot and buffers
  // The record is built once and one field changes per write: what is timed
  // is the pool. BM_PoolWriteFreshRecord adds building the record.
  activity_record_t record = Record(0);
  AllocationWindow allocs(state);
  uint64_t i = 0;
  for (auto _ : state) {
    record.correlation_id = ++i;
    benchmark::DoNotOptimize(pool->Write(record));
    allocs.Tick(i);
  }
  allocs.Report(state);
}
BENCHMARK(BM_PoolWrite)
    ->ArgNames({"buffer", "reads"})
    ->ArgsProduct({{0x1000, 0x10000, 0x100000}, {0, 1}})
    ->Threads(1)
    ->Threads(2)
    ->UseRealTime();

// As an API layer would do it: a fresh record on the stack for every call.
// Copying a record right after building it field by field costs a few ns of
// store-to-load forwarding stalls on x86, whoever copies it.
void BM_PoolWriteFreshRecord(benchmark::State& state) {
  Pool* pool = SharedPool(0x100000, /*consumer_reads=*/true);
  if (pool == nullptr) {
    state.SkipWithError("Pool::Create failed");
    return;
  }
  pool->Write(Record(0));
  AllocationWindow allocs(state);
  uint64_t i = 0;
  for (auto _ : state) {
    benchmark::DoNotOptimize(pool->Write(Record(++i)));
    allocs.Tick(i);
  }
  allocs.Report(state);
}
BENCHMARK(BM_PoolWriteFreshRecord)->Threads(1)->UseRealTime();

// A rocTX-like record: a 24-character message copied into the buffer.
void BM_PoolWriteWithText(benchmark::State& state) {
  Pool* pool = SharedPool(0x100000, /*consumer_reads=*/true);
  if (pool == nullptr) {
    state.SkipWithError("Pool::Create failed");
    return;
  }
  static const char kMessage[] = "hipLaunchKernel: gemm_64";
  activity_record_t record = Record(0);
  pool->Write(record, kMessage, sizeof(kMessage) - 1);
  AllocationWindow allocs(state);
  uint64_t i = 0;
  for (auto _ : state) {
    record.correlation_id = ++i;
    benchmark::DoNotOptimize(
        pool->Write(record, kMessage, sizeof(kMessage) - 1));
    allocs.Tick(i);
  }
  allocs.Report(state);
}
BENCHMARK(BM_PoolWriteWithText)->Threads(1)->UseRealTime();

// Baseline: mutex per record, same record, same consumer.
void BM_MutexPoolWrite(benchmark::State& state) {
  static bench::MutexPool* pool =
      new bench::MutexPool(0x100000, &Consume, nullptr);
  activity_record_t record = Record(0);
  pool->Write(record);
  AllocationWindow allocs(state);
  uint64_t i = 0;
  for (auto _ : state) {
    record.correlation_id = ++i;
    pool->Write(record);
    allocs.Tick(i);
  }
  allocs.Report(state);
}
BENCHMARK(BM_MutexPoolWrite)->Threads(1)->Threads(2)->UseRealTime();

}  // namespace
}  // namespace roctracer

BENCHMARK_MAIN();
