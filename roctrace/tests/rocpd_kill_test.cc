// The rocpd writer SIGKILLed at random moments while it writes and
// checkpoints: the database opens, SQLite's quick_check passes (or names only
// pages a cut-short checkpoint had not linked or freed yet), and it holds
// every event of the last checkpoint the writer finished, ids 1..N without
// gaps, every region, dispatch and copy row naming an event that is there.
#include <gtest/gtest.h>
#include <signal.h>
#include <sqlite3.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdint>
#include <deque>
#include <random>
#include <string>

#include "roctrace/tests/scratch_dir.h"
#include "roctrace/writers/rocpd_writer.h"

namespace roctrace {
namespace {

// Writes events in batches of 1 to 5000, each batch followed by a
// checkpoint and the count of events so far on `fd`; new names now and then
// (SQLite rows in the same checkpoint), one event in 64 a kernel dispatch or
// a copy.
[[noreturn]] void RunWriter(const std::string& path, int fd, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::deque<OpName> names;
  uint32_t index = 0;
  for (; index < 8; ++index) {
    names.push_back({Category::kHip, "hipCall" + std::to_string(index),
                     "HIP_RUNTIME_API_EXT", index});
  }
  OpName kernel{Category::kKernel, "kernel", "", index++};
  kernel.kernel_id = 1;
  OpName copy{Category::kMemoryCopy, "MEMORY_COPY_HOST_TO_DEVICE", "", index++};
  copy.direction = CopyDirection::kHostToDevice;
  RunInfo info;
  info.pid = static_cast<uint32_t>(getpid());
  info.command = "rocpd_kill_test";
  RocpdWriter writer(path, info);
  uint64_t events = 0;
  uint64_t clock = 86'400'000'000'000ull;
  const auto stop = std::chrono::steady_clock::now() + std::chrono::seconds(20);
  while (std::chrono::steady_clock::now() < stop) {
    const uint64_t kind = rng() % 3;
    const uint64_t batch = kind == 0   ? 1 + rng() % 4
                           : kind == 1 ? 50 + rng() % 250
                                       : 1000 + rng() % 4000;
    if (rng() % 8 == 0) {
      names.push_back({Category::kHip, "hipNew" + std::to_string(index),
                       "HIP_RUNTIME_API_EXT", index});
      ++index;
    }
    for (uint64_t b = 0; b < batch; ++b) {
      ApiEvent e{};
      const uint64_t pick = rng() % 64;
      e.op = pick == 0   ? &kernel
             : pick == 1 ? &copy
                         : &names[static_cast<size_t>(rng() % names.size())];
      e.correlation_id = ++events;
      e.start_ns = clock;
      e.end_ns = clock + 40;
      clock += 57;
      e.pid = info.pid;
      e.tid = 100 + static_cast<uint32_t>(rng() % 4);
      e.queue_id = 1;
      DeviceWork d{};
      d.dispatch_id = events;
      if (IsDevice(e.op->category)) e.device = &d;
      writer.Write(e);
    }
    writer.Checkpoint();
    if (!writer.ok() || write(fd, &events, sizeof(events)) != sizeof(events)) {
      _exit(1);
    }
  }
  _exit(0);
}

std::string One(sqlite3* db, const std::string& sql) {
  sqlite3_stmt* st = nullptr;
  std::string out = "(error)";
  if (sqlite3_prepare_v2(db, sql.c_str(), -1, &st, nullptr) == SQLITE_OK &&
      sqlite3_step(st) == SQLITE_ROW) {
    const unsigned char* text = sqlite3_column_text(st, 0);
    out = text != nullptr ? reinterpret_cast<const char*>(text) : "NULL";
  } else {
    out = sqlite3_errmsg(db);
  }
  sqlite3_finalize(st);
  return out;
}

uint64_t Number(sqlite3* db, const std::string& sql) {
  return std::stoull(One(db, sql));
}

TEST(RocpdKill, EveryCheckpointedEventSurvivesSigkill) {
  const ScratchDir dir("rocpd_kill_test");
  std::mt19937_64 rng(20261123);
  int unlinked_pages = 0;
  constexpr int kKills = 40;
  for (int kill_at = 0; kill_at < kKills; ++kill_at) {
    const std::string path = dir / "k" + std::to_string(kill_at) + ".db";
    int fds[2];
    ASSERT_EQ(pipe(fds), 0);
    const pid_t pid = fork();
    ASSERT_GE(pid, 0);
    if (pid == 0) {
      close(fds[0]);
      RunWriter(path, fds[1], rng());
    }
    close(fds[1]);
    // From the first checkpoint on, a random moment up to 300 ms later.
    uint64_t reported = 0;
    ASSERT_EQ(read(fds[0], &reported, sizeof(reported)),
              static_cast<ssize_t>(sizeof(reported)));
    usleep(static_cast<useconds_t>(rng() % 300000));
    kill(pid, SIGKILL);
    int status = 0;
    ASSERT_EQ(waitpid(pid, &status, 0), pid);
    ASSERT_TRUE(WIFSIGNALED(status)) << "the writer stopped by itself";
    for (uint64_t n; read(fds[0], &n, sizeof(n)) == sizeof(n);) reported = n;
    close(fds[0]);

    SCOPED_TRACE("kill " + std::to_string(kill_at) + ", " +
                 std::to_string(reported) + " events checkpointed");
    sqlite3* db = nullptr;
    // Read-write: a transaction cut short leaves a journal to roll back.
    ASSERT_EQ(
        sqlite3_open_v2(path.c_str(), &db, SQLITE_OPEN_READWRITE, nullptr),
        SQLITE_OK);
    sqlite3_stmt* st = nullptr;
    ASSERT_EQ(sqlite3_prepare_v2(db, "PRAGMA quick_check", -1, &st, nullptr),
              SQLITE_OK)
        << sqlite3_errmsg(db);
    bool orphans = false;
    while (sqlite3_step(st) == SQLITE_ROW) {
      const std::string line =
          reinterpret_cast<const char*>(sqlite3_column_text(st, 0));
      if (line.find(" is never used") != std::string::npos) {
        orphans = true;
      } else {
        EXPECT_EQ(line, "ok");
      }
    }
    sqlite3_finalize(st);
    unlinked_pages += orphans;

    const uint64_t events = Number(db, "SELECT count(*) FROM rocpd_event");
    EXPECT_GE(events, reported);
    EXPECT_EQ(One(db, "SELECT coalesce(max(id), 0) FROM rocpd_event"),
              std::to_string(events));
    EXPECT_EQ(One(db, "SELECT coalesce(min(id), 1) FROM rocpd_event"), "1");
    EXPECT_EQ(One(db,
                  "SELECT count(*) FROM rocpd_event WHERE "
                  "correlation_id != id"),
              "0");
    for (const char* table :
         {"rocpd_region", "rocpd_kernel_dispatch", "rocpd_memory_copy"}) {
      EXPECT_EQ(One(db, std::string("SELECT count(*) FROM ") + table +
                            " R LEFT JOIN rocpd_event E ON E.id = "
                            "R.event_id WHERE E.id IS NULL"),
                "0")
          << table;
    }
    EXPECT_EQ(One(db,
                  "SELECT count(*) FROM rocpd_region WHERE id != "
                  "event_id"),
              "0");
    // Every checkpointed event has its region or device row, and the views
    // find the strings and threads they name.
    const std::string upto = std::to_string(reported);
    EXPECT_EQ(
        Number(db, "SELECT count(*) FROM rocpd_region WHERE id <= " + upto) +
            Number(db,
                   "SELECT count(*) FROM rocpd_kernel_dispatch WHERE "
                   "event_id <= " +
                       upto) +
            Number(db,
                   "SELECT count(*) FROM rocpd_memory_copy WHERE "
                   "event_id <= " +
                       upto),
        reported);
    EXPECT_EQ(One(db, "SELECT count(*) FROM regions"),
              One(db, "SELECT count(*) FROM rocpd_region"));
    EXPECT_EQ(One(db, "SELECT count(*) FROM kernels"),
              One(db, "SELECT count(*) FROM rocpd_kernel_dispatch"));
    sqlite3_close(db);
    std::remove(path.c_str());
  }
  std::printf("%d of %d kills left pages not yet linked or freed\n",
              unlinked_pages, kKills);
}

}  // namespace
}  // namespace roctrace
