// Streaming stores (pool.h; this test runs with ROCTRACER_POOL_STREAMING=1):
// records and their text arrive whole, whether a buffer is delivered sealed
// or, still being filled, at a flush, and whatever the buffers' alignment.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#include "runtime/platform/asymmetric_fence.h"
#include "runtime/pool/pool.h"
#include "tests/pool/pool_test_util.h"

namespace roctracer {

using pool::OverflowPolicy;
using pool::Pool;

namespace {

using pool_test::Checker;
using pool_test::MakeRecord;
using pool_test::Properties;

// Every record's text is "t<thread>:<seq>".
struct TextChecker {
  static void Callback(const char* begin, const char* end, void* arg) {
    auto* self = static_cast<TextChecker*>(arg);
    for (auto* r = reinterpret_cast<const activity_record_t*>(begin);
         r < reinterpret_cast<const activity_record_t*>(end); ++r) {
      const std::string want =
          "t" + std::to_string(r->op) + ":" + std::to_string(r->correlation_id);
      if (r->mark_message == nullptr || want != r->mark_message) ++self->errors;
      ++self->records;
    }
  }
  uint64_t records = 0;
  uint64_t errors = 0;
};

TEST(PoolStreaming, OnWhereTheFenceIs) {
  Checker checker(1);
  Pool* pool = Pool::Create(Properties(0x10000, &Checker::Callback, &checker),
                            OverflowPolicy::kLossless, nullptr);
  ASSERT_NE(pool, nullptr);
  EXPECT_EQ(pool->streaming(), platform::g_heavy_fence_available.load());
#if !defined(__SANITIZE_THREAD__)
  EXPECT_TRUE(pool->streaming());  // membarrier is there on every CI kernel
#endif
  pool->Close();
  Pool::Retire(pool);
}

// Threads writing records with text, flushed while they write: each flush
// delivers the committed part of buffers still being filled.
TEST(PoolStreaming, TextRecordsWhole) {
  constexpr uint32_t kThreads = 4;
  const uint64_t per_thread = pool_test::RecordsPerThread(100000);
  TextChecker checker;
  Pool* pool =
      Pool::Create(Properties(0x4000, &TextChecker::Callback, &checker),
                   OverflowPolicy::kLossless, nullptr);
  ASSERT_NE(pool, nullptr);
  std::atomic<uint32_t> running{kThreads};
  std::vector<std::thread> threads;
  for (uint32_t t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      for (uint64_t i = 0; i < per_thread; ++i) {
        const std::string text =
            "t" + std::to_string(t) + ":" + std::to_string(i);
        activity_record_t r = MakeRecord(t, i);
        ASSERT_TRUE(pool->Write(r, text.c_str(), text.size()));
      }
      running.fetch_sub(1);
    });
  }
  while (running.load() != 0) pool->Flush();
  for (auto& th : threads) th.join();
  pool->Flush();
  EXPECT_EQ(checker.errors, 0u);
  EXPECT_EQ(checker.records, kThreads * per_thread);
  pool->Close();
  Pool::Retire(pool);
}

// Buffers only 8-byte aligned (what alloc_fun promises): records at an odd
// 8-byte offset are written the ordinary way, the rest streamed.
void OddAlloc(char** ptr, size_t size, void*) {
  if (*ptr == nullptr) {
    char* block = static_cast<char*>(std::malloc(size + 16));
    if (block == nullptr) return;
    *ptr = block + 8;
  } else if (size == 0) {
    std::free(*ptr - 8);
    *ptr = nullptr;
  }
}

TEST(PoolStreaming, EightByteAlignedBuffers) {
  Checker checker(1);
  auto props = Properties(0x1000, &Checker::Callback, &checker);
  props.alloc_fun = &OddAlloc;
  Pool* pool = Pool::Create(props, OverflowPolicy::kLossless, nullptr);
  ASSERT_NE(pool, nullptr);
  for (uint64_t i = 0; i < 10000; ++i)
    ASSERT_TRUE(pool->Write(MakeRecord(0, i)));
  pool->Close();
  EXPECT_EQ(checker.errors, 0u);
  EXPECT_EQ(checker.order_errors, 0u);
  EXPECT_EQ(checker.records, 10000u);
  Pool::Retire(pool);
}

}  // namespace
}  // namespace roctracer
