// The library's one exit handler (runtime/pool/process_exit.h): at exit it
// drains the GPU work, then closes every pool (its records delivered), then
// finalizes the tools, last added first; once each, whether the program
// returns from main or calls exit() on a thread; and a pool opened by a
// later exit handler is closed in a round of its own.
#include "runtime/pool/process_exit.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <thread>

#include "runtime/pool/pool.h"
#include "tests/pool/pool_test_util.h"

namespace roctracer {

using pool::OverflowPolicy;
using pool::Pool;

namespace {

using pool_test::MakeRecord;
using pool_test::Properties;

// Every step says on stderr that it ran; the death test's regex checks the
// order.
void Say(const char* what) {
  std::fprintf(stderr, "%s\n", what);
  std::fflush(stderr);
}

void PrintCount(const char* begin, const char* end, void*) {
  std::fprintf(stderr, "delivered %zu\n",
               static_cast<size_t>(end - begin) / sizeof(activity_record_t));
  std::fflush(stderr);
}

void Drain() { Say("gpu drained"); }
void FinalizeFirst(void*) { Say("finalized first-added tool"); }
void FinalizeSecond(void*) { Say("finalized second-added tool"); }

Pool* OpenWithRecords(uint64_t n) {
  Pool* pool = Pool::Create(Properties(0x10000, &PrintCount, nullptr),
                            OverflowPolicy::kLossless, nullptr);
  if (pool == nullptr) std::exit(3);
  for (uint64_t i = 0; i < n; ++i) pool->Write(MakeRecord(0, i));
  return pool;
}

constexpr const char* kOrder =
    "^gpu drained\ndelivered 4\nfinalized second-added tool\n"
    "finalized first-added tool\n$";

TEST(ProcessExitDeathTest, DrainsThenClosesThenFinalizesOnce) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_EXIT(
      {
        process_exit::SetGpuDrain(&Drain);
        OpenWithRecords(4);
        process_exit::AddToolFinalizer(&FinalizeFirst, nullptr);
        process_exit::AddToolFinalizer(&FinalizeSecond, nullptr);
        std::exit(0);
      },
      ::testing::ExitedWithCode(0), kOrder);
}

TEST(ProcessExitDeathTest, ExitFromAThreadRunsTheSameSequence) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_EXIT(
      {
        process_exit::SetGpuDrain(&Drain);
        OpenWithRecords(4);
        process_exit::AddToolFinalizer(&FinalizeFirst, nullptr);
        process_exit::AddToolFinalizer(&FinalizeSecond, nullptr);
        std::thread([] { std::exit(0); }).join();
      },
      ::testing::ExitedWithCode(0), kOrder);
}

// Run() (a crash-time flush, say) then exit: nothing runs twice.
TEST(ProcessExitDeathTest, RunBeforeExitDoesNotRepeat) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_EXIT(
      {
        process_exit::SetGpuDrain(&Drain);
        OpenWithRecords(4);
        process_exit::AddToolFinalizer(&FinalizeFirst, nullptr);
        process_exit::AddToolFinalizer(&FinalizeSecond, nullptr);
        process_exit::Run();
        std::exit(0);
      },
      ::testing::ExitedWithCode(0), kOrder);
}

// An exit handler that runs after ours opens a pool and writes: that pool is
// closed (delivered) too, in a second round.
void OpenLate() {
  OpenWithRecords(2);
  Say("opened late");
}

TEST(ProcessExitDeathTest, PoolOpenedDuringExitIsClosed) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_EXIT(
      {
        std::atexit(&OpenLate);  // registered first: runs after ours
        process_exit::SetGpuDrain(&Drain);
        OpenWithRecords(4);
        std::exit(0);
      },
      ::testing::ExitedWithCode(0),
      "^gpu drained\ndelivered 4\nopened late\ndelivered 2\n$");
}

}  // namespace
}  // namespace roctracer
