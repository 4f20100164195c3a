// rocpd_arg's cost: API events carrying their arguments (hipMemcpy's four:
// two addresses, a size, an enumerator) written by the rocpd writer, against
// the same events without; and the copy made at EXIT and taken back by the
// pool's consumer (ArgCapture, the calling thread's and the consumer's CPU
// together).
//   bazel run //roctrace:arg_benchmark
// CPU per argument written = (BM_RocpdArgs/1 - BM_RocpdArgs/0) / 4 per event
// when no call repeats its last's arguments (/1: 1,024 argument sets in
// turn), (BM_RocpdArgs/2 - BM_RocpdArgs/0) / 4 when every call does (/2:
// one set; its rows are encoded once and copied).
#include <benchmark/benchmark.h>
#include <roctracer.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <deque>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "hip_api_data.h"
#include "hip_api_id.h"
#include "roctrace/tool/arg_capture.h"
#include "roctrace/writers/rocpd_writer.h"

namespace roctrace {
namespace {

constexpr int kArgsPerCall = 4;

hip_api_data_t MemcpyData(uint64_t i) {
  hip_api_data_t d{};
  d.correlation_id = i;
  d.args.hipMemcpy.dst = reinterpret_cast<void*>(0x7f3a12000000ull + i * 64);
  d.args.hipMemcpy.src = reinterpret_cast<void*>(0x55d0c4a01040ull + i * 64);
  d.args.hipMemcpy.sizeBytes = 4096 + (i & 1023);
  d.args.hipMemcpy.kind = hipMemcpyHostToDevice;
  return d;
}

void BM_RocpdArgs(benchmark::State& state) {
  const bool with_args = state.range(0) != 0;
  const bool repeating = state.range(0) == 2;
  const int64_t events = 200000;
  OpName name{Category::kHip, "hipMemcpy", "HIP_RUNTIME_API_EXT", 0};
  // The arguments as the tool hands them over: one arena per batch.
  ArgArena arena;
  std::vector<const ApiArgs*> args;
  for (int64_t i = 0; i < 1024; ++i) {
    const hip_api_data_t d = MemcpyData(static_cast<uint64_t>(i));
    args.push_back(arena.Add(ACTIVITY_DOMAIN_HIP_API, HIP_API_ID_hipMemcpy,
                             &d.args.hipMemcpy, sizeof(d.args.hipMemcpy)));
  }
  for (auto _ : state) {
    char dir[] = "/tmp/roctrace_arg_bench_XXXXXX";
    if (mkdtemp(dir) == nullptr) std::abort();
    RunInfo info;
    info.pid = 4242;
    info.command = "bench";
    const std::string path = std::string(dir) + "/b_results.db";
    RocpdWriter writer(path, info);
    uint64_t clock = 86'400'000'000'000ull;
    for (int64_t i = 0; i < events; ++i) {
      ApiEvent e{};
      e.op = &name;
      e.correlation_id = static_cast<uint64_t>(i) + 1;
      e.start_ns = clock;
      e.end_ns = clock + 40;
      clock += 57;
      e.pid = 4242;
      e.tid = 4243;
      e.args = !with_args  ? nullptr
               : repeating ? args[0]
                           : args[static_cast<size_t>(i) % args.size()];
      writer.Write(e);
      if (i % 100000 == 99999) writer.Checkpoint();
    }
    writer.Finish(info);
    // Deleting the database (the kernel freeing its page cache and blocks)
    // is no part of writing it: untimed.
    state.PauseTiming();
    std::remove(path.c_str());
    std::remove(dir);
    state.ResumeTiming();
  }
  state.SetItemsProcessed(state.iterations() * events);
  state.counters["args_per_event"] = with_args ? kArgsPerCall : 0;
}
BENCHMARK(BM_RocpdArgs)
    ->Arg(0)
    ->Arg(1)
    ->Arg(2)
    ->Unit(benchmark::kMillisecond)
    ->MeasureProcessCPUTime();

// The calling thread's copy at EXIT, then the consumer's look-up by thread
// and correlation ID (the entry taken in place, its chunks read to their end
// handed to the batch's arena), a pool buffer's worth (1024 calls) at a
// time, as the tool runs them.
void BM_CaptureAndTake(benchmark::State& state) {
  ArgCapture capture;
  const uint32_t tid = static_cast<uint32_t>(syscall(SYS_gettid));
  std::vector<hip_api_data_t> data;
  for (uint64_t i = 0; i < 1024; ++i) data.push_back(MemcpyData(i + 1));
  uint64_t id = 0;
  auto arena = std::make_unique<ArgArena>();
  for (auto _ : state) {
    for (hip_api_data_t& d : data) {
      d.correlation_id = ++id;
      ArgCapture::OnExit(ACTIVITY_DOMAIN_HIP_API, HIP_API_ID_hipMemcpy, &d,
                         nullptr);
    }
    arena->Clear();
    for (uint64_t k = id - data.size() + 1; k <= id; ++k) {
      benchmark::DoNotOptimize(capture.Take(tid, k, arena.get()));
    }
  }
  state.SetItemsProcessed(state.iterations() *
                          static_cast<int64_t>(data.size()));
}
BENCHMARK(BM_CaptureAndTake)->MeasureProcessCPUTime();

// The same copy and look-up on two threads at once, as roctrace runs them:
// the benchmark's thread makes the calls (a 1,024-call pool buffer at a
// time, at most four buffers ahead, as a thread's ring of buffers allows)
// while a consumer thread takes each buffer's entries once it is handed
// over. What the two threads share per call (the queue's fields, the
// chunk's written count) costs here, where a single thread does not see it;
// CPU of both threads.
void BM_CaptureWithConsumer(benchmark::State& state) {
  constexpr uint64_t kBuffer = 1024;
  constexpr size_t kAhead = 4;
  ArgCapture capture;
  const uint32_t tid = static_cast<uint32_t>(syscall(SYS_gettid));
  std::vector<hip_api_data_t> data;
  for (uint64_t i = 0; i < kBuffer; ++i) data.push_back(MemcpyData(i + 1));
  std::mutex mu;
  std::condition_variable handed, taken;
  std::deque<uint64_t> buffers;  // each one's first correlation ID
  bool done = false;
  uint64_t missing = 0;
  std::thread consumer([&] {
    auto arena = std::make_unique<ArgArena>();
    for (;;) {
      uint64_t first;
      {
        std::unique_lock<std::mutex> lock(mu);
        handed.wait(lock, [&] { return !buffers.empty() || done; });
        if (buffers.empty()) return;
        first = buffers.front();
      }
      arena->Clear();
      for (uint64_t k = first; k < first + kBuffer; ++k) {
        const ApiArgs* args = capture.Take(
            ACTIVITY_DOMAIN_HIP_API, HIP_API_ID_hipMemcpy, tid, k, arena.get());
        if (args == nullptr) ++missing;
        benchmark::DoNotOptimize(args);
      }
      {
        std::lock_guard<std::mutex> lock(mu);
        buffers.pop_front();
      }
      taken.notify_one();
    }
  });
  uint64_t id = 0;
  for (auto _ : state) {
    const uint64_t first = id + 1;
    for (hip_api_data_t& d : data) {
      d.correlation_id = ++id;
      ArgCapture::OnExit(ACTIVITY_DOMAIN_HIP_API, HIP_API_ID_hipMemcpy, &d,
                         nullptr);
    }
    {
      std::unique_lock<std::mutex> lock(mu);
      taken.wait(lock, [&] { return buffers.size() < kAhead; });
      buffers.push_back(first);
    }
    handed.notify_one();
  }
  {
    std::unique_lock<std::mutex> lock(mu);
    taken.wait(lock, [&] { return buffers.empty(); });
    done = true;
  }
  handed.notify_one();
  consumer.join();
  if (missing != 0) state.SkipWithError("an entry was not found");
  state.SetItemsProcessed(state.iterations() * static_cast<int64_t>(kBuffer));
}
BENCHMARK(BM_CaptureWithConsumer)->MeasureProcessCPUTime()->UseRealTime();

}  // namespace
}  // namespace roctrace

BENCHMARK_MAIN();
