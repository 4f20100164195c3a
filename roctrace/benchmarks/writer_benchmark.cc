// Writer throughput: synthetic API events (16 names, 8 threads)
// through each writer into a scratch directory, files included.
//   bazel run --config=opt //roctrace:writer_benchmark
#include <benchmark/benchmark.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

#include "roctrace/writers/csv_writer.h"
#include "roctrace/writers/pftrace_writer.h"
#include "roctrace/writers/rocpd_writer.h"
#include "roctrace/writers/stats.h"

namespace roctrace {
namespace {

std::string ScratchPrefix() {
  char dir[] = "/tmp/roctrace_bench_XXXXXX";
  if (mkdtemp(dir) == nullptr) std::abort();
  return std::string(dir) + "/b";
}

uint64_t FileBytes(const std::vector<std::string>& files) {
  uint64_t total = 0;
  for (const std::string& f : files) {
    if (std::FILE* fp = std::fopen(f.c_str(), "rb")) {
      std::fseek(fp, 0, SEEK_END);
      total += static_cast<uint64_t>(std::ftell(fp));
      std::fclose(fp);
    }
    std::remove(f.c_str());
  }
  return total;
}

template <typename MakeWriter>
void RunWriter(benchmark::State& state, MakeWriter make) {
  std::vector<OpName> names(16);
  for (size_t i = 0; i < names.size(); ++i) {
    names[i] = {Category::kHip, "hipFunction" + std::to_string(i),
                "HIP_RUNTIME_API_EXT", static_cast<uint32_t>(i)};
  }
  const int64_t events = state.range(0);
  uint64_t bytes = 0;
  for (auto _ : state) {
    std::string prefix = ScratchPrefix();
    std::unique_ptr<Writer> writer = make(prefix);
    // As the pool delivers them: runs of one thread's events (a buffer of
    // 1024 records), 8 threads in turn, each call 40 ns long, 57 ns apart;
    // timestamps of a day-old machine (47 bits).
    // Each run is one batch, handed to WriteAll eight events at a time as
    // the writer thread does.
    constexpr int64_t kRun = 1024;
    constexpr int64_t kWriteRun = 8;
    uint64_t clock[8];
    for (uint64_t& c : clock) c = 86'400'000'000'000ull;
    std::vector<ApiEvent> batch;
    batch.reserve(kRun);
    for (int64_t first = 0; first < events; first += kRun) {
      const size_t thread = static_cast<size_t>(first / kRun) % 8;
      batch.clear();
      for (int64_t i = first; i < std::min(events, first + kRun); ++i) {
        ApiEvent e{};
        e.op = &names[static_cast<size_t>(i) % names.size()];
        e.correlation_id = static_cast<uint64_t>(i) + 1;
        e.start_ns = clock[thread];
        e.end_ns = clock[thread] + 40;
        clock[thread] += 57;
        e.pid = 4242;
        e.tid = 4242 + static_cast<uint32_t>(thread);
        batch.push_back(e);
      }
      for (size_t at = 0; at < batch.size(); at += kWriteRun) {
        const size_t n = std::min<size_t>(kWriteRun, batch.size() - at);
        writer->WriteAll(batch.data() + at, batch.data() + at + n);
      }
      // About every 100,000 events, as the tool asks.
      if ((first + kRun) / 100000 != first / 100000) writer->Checkpoint();
    }
    RunInfo info;
    info.pid = 4242;
    writer->Finish(info);
    bytes = FileBytes(writer->Files());
    rmdir(prefix.substr(0, prefix.rfind('/')).c_str());
  }
  state.SetItemsProcessed(state.iterations() * events);
  state.counters["bytes_per_event"] =
      static_cast<double>(bytes) / static_cast<double>(events);
}

RunInfo Info() {
  RunInfo info;
  info.pid = 4242;
  info.command = "bench";
  return info;
}

void BM_Rocpd(benchmark::State& state) {
  RunWriter(state, [](const std::string& p) {
    return std::make_unique<RocpdWriter>(p + "_results.db", Info());
  });
}
void BM_Pftrace(benchmark::State& state) {
  RunWriter(state, [](const std::string& p) {
    return std::make_unique<PftraceWriter>(p, Info(), 0);
  });
}
void BM_Csv(benchmark::State& state) {
  RunWriter(state, [](const std::string& p) {
    return std::make_unique<CsvWriter>(p);
  });
}
void BM_Stats(benchmark::State& state) {
  RunWriter(state, [](const std::string& p) {
    return std::make_unique<StatsWriter>(p, false);
  });
}

BENCHMARK(BM_Rocpd)->Arg(200000)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_Pftrace)
    ->Arg(1000000)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();
BENCHMARK(BM_Csv)->Arg(1000000)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_Stats)->Arg(1000000)->Unit(benchmark::kMillisecond)->UseRealTime();

}  // namespace
}  // namespace roctrace

BENCHMARK_MAIN();
