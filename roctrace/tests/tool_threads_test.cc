// The tool inside a process whose threads trace concurrently: rocTX ranges
// and marks from 4 threads go through the pool, the converter, the shared
// batches and the four writer threads (rocpd, pftrace, csv, stats) while
// the flusher checkpoints; every event reaches every output. Linked
// statically with the tracer and rocTX, so it also runs under TSan.
#include <gtest/gtest.h>
#include <roctx.h>
#include <sqlite3.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <fstream>
#include <map>
#include <string>
#include <thread>
#include <vector>

#include "roctrace/tests/scratch_dir.h"
#include "roctrace/tool/tool.h"
#include "runtime/private/roctx_link.h"

namespace roctrace {
namespace {

constexpr int kThreads = 4;
constexpr int kRangesPerThread = 3000;

int64_t QueryInt(const std::string& db_path, const std::string& sql) {
  sqlite3* db = nullptr;
  int64_t value = -1;
  if (sqlite3_open_v2(db_path.c_str(), &db, SQLITE_OPEN_READONLY, nullptr) ==
      SQLITE_OK) {
    sqlite3_stmt* stmt = nullptr;
    if (sqlite3_prepare_v2(db, sql.c_str(), -1, &stmt, nullptr) == SQLITE_OK &&
        sqlite3_step(stmt) == SQLITE_ROW) {
      value = sqlite3_column_int64(stmt, 0);
    }
    sqlite3_finalize(stmt);
  }
  sqlite3_close(db);
  return value;
}

size_t CountLines(const std::string& path) {
  std::ifstream in(path);
  size_t n = 0;
  for (std::string line; std::getline(in, line);) ++n;
  return n;
}

TEST(ToolThreads, EveryEventOfEveryThreadReachesEveryOutput) {
  roctracer::AttachRoctx(roctx_internal_link());
  const ScratchDir dir("roctrace_tool_threads");
  const std::map<std::string, std::string> env = {
      {"ROCTRACE_OUTPUT_DIR", dir.path()},
      {"ROCTRACE_OUTPUT_FILE", "t"},
      {"ROCTRACE_OUTPUT_FORMAT", "rocpd,pftrace,csv"},
      {"ROCTRACE_STATS", "1"},
      {"ROCTRACE_DOMAINS", "marker"},
      {"ROCTRACE_BUFFER_SIZE", "4K"},  // many small batches
  };
  Tool tool;
  tool.Start([&env](const char* name) -> const char* {
    auto it = env.find(name);
    return it == env.end() ? nullptr : it->second.c_str();
  });

  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([] {
      for (int i = 0; i < kRangesPerThread; ++i) {
        roctxRangePush("work");
        roctxMark("tick");
        roctxRangePop();
        // Span at least one 200 ms checkpoint while writing.
        if (i % 1000 == 999) {
          std::this_thread::sleep_for(std::chrono::milliseconds(80));
        }
      }
    });
  }
  for (auto& t : threads) t.join();
  tool.Stop();

  const std::string db = dir / "t_results.db";
  const int64_t per_name = kThreads * kRangesPerThread;
  EXPECT_EQ(QueryInt(db, "SELECT COUNT(*) FROM regions WHERE name = 'work'"),
            per_name);
  EXPECT_EQ(QueryInt(db, "SELECT COUNT(*) FROM regions WHERE name = 'tick'"),
            per_name);
  EXPECT_EQ(QueryInt(db, "SELECT COUNT(DISTINCT tid) FROM regions"), kThreads);
  // Every correlation ID once: no event written twice.
  EXPECT_EQ(QueryInt(db, "SELECT COUNT(DISTINCT corr_id) FROM regions"),
            2 * per_name);
  EXPECT_EQ(QueryInt(db,
                     "SELECT value FROM rocpd_metadata WHERE tag = "
                     "'roctrace.finished'"),
            1);
  EXPECT_EQ(CountLines(dir / "t_marker_api_trace.csv"),
            static_cast<size_t>(2 * per_name + 1));
  std::ifstream stats(dir / "t_marker_api_stats.csv");
  std::string line;
  std::map<std::string, std::string> calls;
  std::getline(stats, line);  // header
  while (std::getline(stats, line)) {
    size_t name_end = line.find("\",");
    size_t calls_end = line.find(',', name_end + 2);
    calls[line.substr(1, name_end - 1)] =
        line.substr(name_end + 2, calls_end - name_end - 2);
  }
  EXPECT_EQ(calls["work"], std::to_string(per_name));
  EXPECT_EQ(calls["tick"], std::to_string(per_name));
  std::ifstream pftrace(dir / "t_results.pftrace", std::ios::binary);
  pftrace.seekg(0, std::ios::end);
  // Two packets per range, one per mark, each a few bytes: the file holds
  // them all (the Python end-to-end test decodes the timeline).
  EXPECT_GT(static_cast<int64_t>(pftrace.tellg()), 3 * 8 * per_name);
}

}  // namespace
}  // namespace roctrace
