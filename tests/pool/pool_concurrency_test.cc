// Many producers, one pool: the pool's guarantees (pool.h) under contention.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <thread>
#include <vector>

#include "runtime/pool/pool.h"
#include "tests/pool/pool_test_util.h"

namespace roctracer {

using pool::OverflowPolicy;
using pool::Pool;
using pool::PoolStatus;

namespace {

using pool_test::Checker;
using pool_test::CountingAllocator;
using pool_test::MakeRecord;
using pool_test::Properties;
using pool_test::RecordsPerThread;

constexpr uint32_t kThreads = 8;

TEST(PoolConcurrency, LosslessDeliversEveryRecordInOrderOnce) {
  const uint64_t per_thread = RecordsPerThread(1000000);
  Checker checker(kThreads);
  CountingAllocator alloc;
  auto props = Properties(0x10000, &Checker::Callback, &checker);
  props.alloc_fun = &CountingAllocator::Fun;
  props.alloc_arg = &alloc;
  PoolStatus status;
  Pool* pool = Pool::Create(props, OverflowPolicy::kLossless, &status);
  ASSERT_NE(pool, nullptr);
  std::atomic<uint64_t> refused{0};
  std::vector<std::thread> threads;
  for (uint32_t t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      for (uint64_t i = 0; i < per_thread; ++i) {
        if (!pool->Write(MakeRecord(t, i))) refused.fetch_add(1);
      }
    });
  }
  for (auto& th : threads) th.join();
  pool->Flush();
  EXPECT_EQ(refused.load(), 0u);
  EXPECT_EQ(checker.errors, 0u);
  EXPECT_EQ(checker.order_errors, 0u);
  EXPECT_EQ(checker.records, kThreads * per_thread);
  EXPECT_EQ(pool->delivered(), kThreads * per_thread);
  EXPECT_EQ(pool->dropped(), 0u);
  for (uint32_t t = 0; t < kThreads; ++t) {
    EXPECT_EQ(checker.next_seq[t], per_thread) << "thread " << t;
  }
  pool->Close();
  EXPECT_EQ(alloc.LiveBlocks(), 0u);
  EXPECT_EQ(alloc.bad_frees, 0u);
  EXPECT_EQ(checker.records, kThreads * per_thread);  // nothing delivered twice
  Pool::Retire(pool);
}

// A slow delivery thread and tiny buffers force drops; the accounting stays
// exact.
TEST(PoolConcurrency, DiscardCountsEveryDrop) {
  const uint64_t per_thread = RecordsPerThread(200000);
  constexpr uint32_t kProducers = 4;
  Checker checker(kProducers);
  checker.check_order = false;
  struct Slow {
    Checker* checker;
    static void Callback(const char* b, const char* e, void* arg) {
      auto* self = static_cast<Slow*>(arg);
      self->checker->Check(b, e);
      std::this_thread::sleep_for(std::chrono::microseconds(200));
    }
  } slow{&checker};
  Pool* pool = Pool::Create(Properties(0x400, &Slow::Callback, &slow),
                            OverflowPolicy::kDiscard, nullptr);
  ASSERT_NE(pool, nullptr);
  std::atomic<uint64_t> accepted{0}, rejected{0};
  std::vector<std::thread> threads;
  for (uint32_t t = 0; t < kProducers; ++t) {
    threads.emplace_back([&, t] {
      uint64_t ok = 0, bad = 0;
      for (uint64_t i = 0; i < per_thread; ++i) {
        pool->Write(MakeRecord(t, i)) ? ++ok : ++bad;
      }
      accepted += ok;
      rejected += bad;
    });
  }
  for (auto& th : threads) th.join();
  pool->Close();
  EXPECT_EQ(checker.errors, 0u);
  EXPECT_EQ(checker.order_errors, 0u);
  EXPECT_GT(pool->dropped(), 0u) << "the delivery thread was never overrun";
  EXPECT_EQ(pool->dropped(), rejected.load());
  EXPECT_EQ(pool->delivered(), accepted.load());
  EXPECT_EQ(checker.records, accepted.load());
  EXPECT_EQ(pool->delivered() + pool->dropped(), kProducers * per_thread);
  EXPECT_EQ(pool->refused(), 0u);
  Pool::Retire(pool);
}

// Each Flush must cover every record whose Write returned before the call,
// while producers keep writing.
TEST(PoolConcurrency, FlushRacingProducersCoversEarlierWrites) {
  const uint64_t per_thread = RecordsPerThread(200000);
  constexpr uint32_t kProducers = 4;
  Checker checker(kProducers);
  Pool* pool = Pool::Create(Properties(0x1000, &Checker::Callback, &checker),
                            OverflowPolicy::kLossless, nullptr);
  ASSERT_NE(pool, nullptr);
  std::vector<std::atomic<uint64_t>> written(kProducers);
  for (auto& w : written) w.store(0);
  std::atomic<uint32_t> running{kProducers};
  std::vector<std::thread> threads;
  for (uint32_t t = 0; t < kProducers; ++t) {
    threads.emplace_back([&, t] {
      for (uint64_t i = 0; i < per_thread; ++i) {
        ASSERT_TRUE(pool->Write(MakeRecord(t, i)));
        written[t].store(i + 1, std::memory_order_release);
      }
      running.fetch_sub(1);
    });
  }
  std::atomic<uint64_t> flushes{0}, violations{0};
  auto flusher = [&] {
    while (running.load() != 0) {
      std::vector<uint64_t> before(kProducers);
      for (uint32_t t = 0; t < kProducers; ++t) {
        before[t] = written[t].load(std::memory_order_acquire);
      }
      pool->Flush();
      for (uint32_t t = 0; t < kProducers; ++t) {
        if (checker.delivered_per_thread[t].load(std::memory_order_relaxed) <
            before[t]) {
          violations.fetch_add(1);
        }
      }
      flushes.fetch_add(1);
    }
  };
  std::thread f1(flusher), f2(flusher);  // concurrent flushes too
  for (auto& th : threads) th.join();
  f1.join();
  f2.join();
  pool->Flush();
  EXPECT_GT(flushes.load(), 0u);
  EXPECT_EQ(violations.load(), 0u);
  EXPECT_EQ(checker.errors, 0u);
  EXPECT_EQ(checker.order_errors, 0u);
  EXPECT_EQ(checker.records, kProducers * per_thread);
  pool->Close();
  Pool::Retire(pool);
}

// Close while producers write: each accepted record is delivered, in order,
// every later Write fails, and every buffer is returned.
TEST(PoolConcurrency, CloseRacingProducers) {
  constexpr uint32_t kProducers = 4;
  Checker checker(kProducers);
  CountingAllocator alloc;
  auto props = Properties(0x800, &Checker::Callback, &checker);
  props.alloc_fun = &CountingAllocator::Fun;
  props.alloc_arg = &alloc;
  Pool* pool = Pool::Create(props, OverflowPolicy::kLossless, nullptr);
  ASSERT_NE(pool, nullptr);
  std::vector<uint64_t> accepted(kProducers, 0);
  std::atomic<uint32_t> started{0};
  std::vector<std::thread> threads;
  for (uint32_t t = 0; t < kProducers; ++t) {
    threads.emplace_back([&, t] {
      uint64_t i = 0;
      started.fetch_add(1);
      while (pool->Write(MakeRecord(t, i))) ++i;
      accepted[t] = i;
      // Once refused, always refused.
      for (int k = 0; k < 100; ++k) EXPECT_FALSE(pool->Write(MakeRecord(t, i)));
    });
  }
  while (started.load() != kProducers) std::this_thread::yield();
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  std::thread closer2([&] { pool->Close(); });  // two closers race too
  pool->Close();
  closer2.join();
  for (auto& th : threads) th.join();
  uint64_t total = 0;
  for (uint32_t t = 0; t < kProducers; ++t) {
    EXPECT_EQ(checker.next_seq[t], accepted[t]) << "thread " << t;
    total += accepted[t];
  }
  EXPECT_GT(total, 0u);
  EXPECT_EQ(checker.errors, 0u);
  EXPECT_EQ(checker.order_errors, 0u);
  EXPECT_EQ(checker.records, total);
  EXPECT_EQ(pool->delivered(), total);
  EXPECT_EQ(alloc.LiveBlocks(), 0u);
  EXPECT_GT(alloc.frees, 0u);
  EXPECT_EQ(alloc.frees, alloc.allocs);
  pool->Flush();  // harmless after close
  pool->Close();
  Pool::Retire(pool);
}

// Threads that write a little and exit: their records arrive without any
// flush, and their slots (with their buffers) are reused, so memory stays flat.
TEST(PoolConcurrency, ExitingThreadsHandOverAndSlotsAreReused) {
  constexpr uint32_t kWaves = 40;
  constexpr uint32_t kPerWave = 4;
  constexpr uint64_t kRecords = 10;
  Checker checker(kWaves * kPerWave);
  CountingAllocator alloc;
  auto props = Properties(0x1000, &Checker::Callback, &checker);
  props.alloc_fun = &CountingAllocator::Fun;
  props.alloc_arg = &alloc;
  Pool* pool = Pool::Create(props, OverflowPolicy::kLossless, nullptr);
  ASSERT_NE(pool, nullptr);
  for (uint32_t w = 0; w < kWaves; ++w) {
    std::vector<std::thread> threads;
    for (uint32_t t = 0; t < kPerWave; ++t) {
      threads.emplace_back([&, id = w * kPerWave + t] {
        for (uint64_t i = 0; i < kRecords; ++i) {
          ASSERT_TRUE(pool->Write(MakeRecord(id, i)));
        }
      });
    }
    for (auto& th : threads) th.join();
  }
  // No Flush: thread exit alone must get every record to the callback.
  const auto deadline =
      std::chrono::steady_clock::now() + std::chrono::seconds(30);
  while (pool->delivered() < kWaves * kPerWave * kRecords &&
         std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  EXPECT_EQ(pool->delivered(), kWaves * kPerWave * kRecords);
  // At most kPerWave threads lived at once, so at most that many slots.
  EXPECT_LE(alloc.allocs, uint64_t{kPerWave} * pool->buffers_per_slot());
  pool->Close();
  EXPECT_EQ(checker.errors, 0u);
  EXPECT_EQ(checker.order_errors, 0u);
  EXPECT_EQ(checker.records, kWaves * kPerWave * kRecords);
  EXPECT_EQ(alloc.LiveBlocks(), 0u);
  Pool::Retire(pool);
}

}  // namespace
}  // namespace roctracer
