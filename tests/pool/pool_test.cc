// Single-pool behaviour: argument checks, text payloads, allocator use,
// threads, re-entrancy from the callback, process exit.
#include "runtime/pool/pool.h"

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdio>
#include <cstring>
#include <set>
#include <string>
#include <thread>
#include <vector>

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

void Ignore(const char*, const char*, void*) {}

// Tools compiled against roctracer 4.1 read these offsets.
TEST(Pool, RecordLayoutIsRoctracer41) {
  EXPECT_EQ(sizeof(activity_record_t), 64u);
  EXPECT_EQ(offsetof(activity_record_t, domain), 0u);
  EXPECT_EQ(offsetof(activity_record_t, kind), 4u);
  EXPECT_EQ(offsetof(activity_record_t, op), 8u);
  EXPECT_EQ(offsetof(activity_record_t, correlation_id), 16u);
  EXPECT_EQ(offsetof(activity_record_t, begin_ns), 24u);
  EXPECT_EQ(offsetof(activity_record_t, end_ns), 32u);
  EXPECT_EQ(offsetof(activity_record_t, device_id), 40u);
  EXPECT_EQ(offsetof(activity_record_t, queue_id), 48u);
  EXPECT_EQ(offsetof(activity_record_t, process_id), 40u);
  EXPECT_EQ(offsetof(activity_record_t, thread_id), 44u);
  EXPECT_EQ(offsetof(activity_record_t, external_id), 40u);
  EXPECT_EQ(offsetof(activity_record_t, bytes), 56u);
  EXPECT_EQ(offsetof(activity_record_t, mark_message), 56u);
  EXPECT_EQ(offsetof(activity_record_t, kernel_name), 56u);
}

TEST(Pool, RejectsBadProperties) {
  PoolStatus status = PoolStatus::kOk;
  for (size_t size : {size_t{0}, size_t{12}, size_t{64},
                      Pool::kMinBufferSize - 1, Pool::kMaxBufferSize + 1}) {
    status = PoolStatus::kOk;
    EXPECT_EQ(Pool::Create(Properties(size, &Ignore, nullptr),
                           OverflowPolicy::kLossless, &status),
              nullptr)
        << size;
    EXPECT_EQ(status, PoolStatus::kInvalidArgument) << size;
  }
  EXPECT_EQ(Pool::Create(Properties(0x1000, &Ignore, nullptr),
                         static_cast<OverflowPolicy>(7), &status),
            nullptr);
  EXPECT_EQ(status, PoolStatus::kInvalidArgument);
  // A NULL status pointer is allowed.
  EXPECT_EQ(Pool::Create(Properties(0, &Ignore, nullptr),
                         OverflowPolicy::kLossless, nullptr),
            nullptr);
  Pool* smallest =
      Pool::Create(Properties(Pool::kMinBufferSize, &Ignore, nullptr),
                   OverflowPolicy::kLossless, &status);
  ASSERT_NE(smallest, nullptr);
  EXPECT_EQ(status, PoolStatus::kOk);
  EXPECT_TRUE(smallest->Write(MakeRecord(0, 0), "some text", 9));
  Pool::Retire(smallest);
}

// roctracer accepts a pool without a buffer callback (Kineto opens its
// default pool that way): its records cannot go anywhere, so they are
// counted as dropped rather than vanishing.
TEST(Pool, WithoutCallbackCountsEveryRecordAsDropped) {
  PoolStatus status = PoolStatus::kInvalidArgument;
  Pool* pool = Pool::Create(Properties(0x1000, nullptr, nullptr),
                            OverflowPolicy::kLossless, &status);
  ASSERT_NE(pool, nullptr);
  EXPECT_EQ(status, PoolStatus::kOk);
  for (uint64_t i = 0; i < 300; ++i) ASSERT_TRUE(pool->Write(MakeRecord(0, i)));
  pool->Flush();
  EXPECT_EQ(pool->delivered(), 0u);
  EXPECT_EQ(pool->dropped(), 300u);
  Pool::Retire(pool);
}

TEST(Pool, DeliversOnDeliveryThreadContiguousRecords) {
  Checker checker(1);
  checker.forbidden_thread = std::this_thread::get_id();
  Pool* pool = Pool::Create(Properties(0x1000, &Checker::Callback, &checker),
                            OverflowPolicy::kLossless, nullptr);
  ASSERT_NE(pool, nullptr);
  constexpr uint64_t kCount = 1000;  // several full 64-record buffers
  for (uint64_t i = 0; i < kCount; ++i)
    ASSERT_TRUE(pool->Write(MakeRecord(0, i)));
  pool->Flush();
  EXPECT_EQ(checker.records, kCount);
  EXPECT_EQ(checker.errors, 0u);  // includes "ran on the producer thread"
  EXPECT_EQ(checker.order_errors, 0u);
  EXPECT_GE(checker.calls, kCount / (0x1000 / 64));
  EXPECT_EQ(pool->delivered(), kCount);
  pool->Close();
  Pool::Retire(pool);
}

struct TextCheck {
  CountingAllocator* alloc;
  std::vector<std::string> expected;
  size_t next = 0;
  uint64_t errors = 0;
  static void Callback(const char* begin, const char* end, void* arg) {
    auto* self = static_cast<TextCheck*>(arg);
    for (auto* r = reinterpret_cast<const activity_record_t*>(begin);
         r < reinterpret_cast<const activity_record_t*>(end); ++r) {
      if (self->next >= self->expected.size()) {
        ++self->errors;
        continue;
      }
      const std::string& want = self->expected[self->next++];
      const char* got = r->mark_message;
      // The text must be inside the same allocator block as the records.
      if (got == nullptr || !self->alloc->Owns(got, got + want.size() + 1) ||
          !self->alloc->Owns(begin, end) || std::string(got) != want ||
          r->correlation_id != self->next - 1) {
        ++self->errors;
      }
    }
  }
};

TEST(Pool, TextTravelsInTheSameBuffer) {
  CountingAllocator alloc;
  TextCheck check{&alloc, {}};
  constexpr size_t kBuffer = 0x400;
  auto props = Properties(kBuffer, &TextCheck::Callback, &check);
  props.alloc_fun = &CountingAllocator::Fun;
  props.alloc_arg = &alloc;
  Pool* pool = Pool::Create(props, OverflowPolicy::kLossless, nullptr);
  ASSERT_NE(pool, nullptr);
  std::vector<std::string> texts;
  for (int i = 0; i < 300; ++i) {
    texts.push_back("range-" + std::to_string(i) + std::string(i % 97, 'x'));
  }
  texts.push_back("");                      // empty message
  texts.push_back(std::string(5000, 'L'));  // longer than a buffer
  // The delivery thread reads `expected` while we write: fill it in first.
  for (const std::string& t : texts) {
    std::string want = t;
    if (want.size() > kBuffer - sizeof(activity_record_t) - 1) {
      want.resize(kBuffer - sizeof(activity_record_t) - 1);  // documented cut
    }
    check.expected.push_back(want);
  }
  for (size_t i = 0; i < texts.size(); ++i) {
    // The source is not NUL-terminated where the pool stops copying.
    std::string padded = texts[i] + "GARBAGE";
    ASSERT_TRUE(pool->Write(MakeRecord(0, i), padded.data(), texts[i].size()));
  }
  pool->Flush();
  EXPECT_EQ(check.next, texts.size());
  EXPECT_EQ(check.errors, 0u);
  pool->Close();
  EXPECT_EQ(alloc.LiveBlocks(), 0u);
  Pool::Retire(pool);
}

// A tag (an EXT_API record) and the record it tags arrive in the same
// delivery, tag first, wherever the buffer boundaries fall; text is cut to
// what fits next to both.
TEST(Pool, TaggedRecordsArriveTogetherWithTheirText) {
  struct Pairs {
    std::vector<std::vector<activity_record_t>> deliveries;
    std::vector<std::string> texts;  // of the tagged records, in order
    static void Callback(const char* b, const char* e, void* arg) {
      auto* self = static_cast<Pairs*>(arg);
      self->deliveries.emplace_back(
          reinterpret_cast<const activity_record_t*>(b),
          reinterpret_cast<const activity_record_t*>(e));
      for (const auto& r : self->deliveries.back()) {
        if (r.kind == 1) self->texts.emplace_back(r.mark_message);
      }
    }
  } pairs;
  constexpr size_t kBuffer = 0x200;
  Pool* pool = Pool::Create(Properties(kBuffer, &Pairs::Callback, &pairs),
                            OverflowPolicy::kLossless, nullptr);
  ASSERT_NE(pool, nullptr);
  const std::string long_text(kBuffer, 'T');
  for (uint64_t i = 0; i < 200; ++i) {
    activity_record_t tag = MakeRecord(0, i);
    tag.kind = 2;
    activity_record_t record = MakeRecord(0, i);
    record.kind = 1;
    // Untagged records of varying text between the pairs move the buffer
    // boundary around.
    ASSERT_TRUE(pool->Write(MakeRecord(0, i), "x", i % 3));
    ASSERT_TRUE(pool->WriteTagged(&tag, record, long_text.data(),
                                  i % 2 == 0 ? long_text.size() : i));
  }
  pool->Close();
  size_t tagged = 0;
  for (const auto& delivery : pairs.deliveries) {
    for (size_t j = 0; j < delivery.size(); ++j) {
      if (delivery[j].kind == 2) {
        ASSERT_LT(j + 1, delivery.size()) << "a tag ends a delivery";
        EXPECT_EQ(delivery[j + 1].kind, 1u);
        EXPECT_EQ(delivery[j + 1].correlation_id, delivery[j].correlation_id);
      }
      if (delivery[j].kind == 1) {
        ASSERT_GT(j, 0u) << "a tagged record starts a delivery";
        EXPECT_EQ(delivery[j - 1].kind, 2u);
        ++tagged;
      }
    }
  }
  EXPECT_EQ(tagged, 200u);
  ASSERT_EQ(pairs.texts.size(), 200u);
  const size_t cut = kBuffer - 2 * sizeof(activity_record_t) - 1;
  for (size_t i = 0; i < 200; ++i) {
    EXPECT_EQ(pairs.texts[i].size(), i % 2 == 0 ? cut : i) << i;
  }
  Pool::Retire(pool);
}

// The smallest buffer a pool accepts holds a tag, its record and a cut
// message, in either mode (a reviewer found a 128-byte buffer sealing empty
// buffers forever on such a write).
TEST(Pool, TheSmallestBufferHoldsATaggedRecordAndItsText) {
  for (OverflowPolicy policy :
       {OverflowPolicy::kLossless, OverflowPolicy::kDiscard}) {
    struct Seen {
      std::vector<activity_record_t> records;
      std::vector<std::string> texts;
      static void Callback(const char* b, const char* e, void* arg) {
        auto* self = static_cast<Seen*>(arg);
        for (auto* r = reinterpret_cast<const activity_record_t*>(b);
             r < reinterpret_cast<const activity_record_t*>(e); ++r) {
          self->records.push_back(*r);
          if (r->kind == 1) self->texts.emplace_back(r->mark_message);
        }
      }
    } seen;
    Pool* pool =
        Pool::Create(Properties(Pool::kMinBufferSize, &Seen::Callback, &seen),
                     policy, nullptr);
    ASSERT_NE(pool, nullptr);
    activity_record_t tag = MakeRecord(0, 7);
    tag.kind = 2;
    activity_record_t record = MakeRecord(0, 7);
    record.kind = 1;
    const std::string text(300, 'm');
    EXPECT_TRUE(pool->WriteTagged(&tag, record, text.data(), text.size()));
    pool->Close();
    ASSERT_EQ(seen.records.size(), 2u);
    EXPECT_EQ(seen.records[0].kind, 2u);
    EXPECT_EQ(seen.records[1].kind, 1u);
    ASSERT_EQ(seen.texts.size(), 1u);
    EXPECT_EQ(seen.texts[0], std::string(Pool::kMinTextBytes - 1, 'm'));
    EXPECT_EQ(pool->dropped(), 0u);
    Pool::Retire(pool);
  }
}

TEST(Pool, RecordsWithoutTextKeepTheirPayloadField) {
  struct Bytes {
    std::vector<size_t> seen;
    static void Callback(const char* b, const char* e, void* arg) {
      for (auto* r = reinterpret_cast<const activity_record_t*>(b);
           r < reinterpret_cast<const activity_record_t*>(e); ++r) {
        static_cast<Bytes*>(arg)->seen.push_back(r->bytes);
      }
    }
  } bytes;
  Pool* pool = Pool::Create(Properties(0x200, &Bytes::Callback, &bytes),
                            OverflowPolicy::kLossless, nullptr);
  ASSERT_NE(pool, nullptr);
  for (size_t i = 0; i < 50; ++i) {
    activity_record_t r = MakeRecord(0, i);
    r.bytes = i * 4096;
    ASSERT_TRUE(pool->Write(r));
  }
  pool->Close();
  ASSERT_EQ(bytes.seen.size(), 50u);
  for (size_t i = 0; i < 50; ++i) EXPECT_EQ(bytes.seen[i], i * 4096);
  Pool::Retire(pool);
}

TEST(Pool, CustomAllocatorOwnsAllBufferMemory) {
  CountingAllocator alloc;
  struct Owned {
    CountingAllocator* alloc;
    uint64_t foreign = 0;
    uint64_t records = 0;
    static void Callback(const char* b, const char* e, void* arg) {
      auto* self = static_cast<Owned*>(arg);
      if (!self->alloc->Owns(b, e)) ++self->foreign;
      self->records += (e - b) / sizeof(activity_record_t);
    }
  } owned{&alloc};
  auto props = Properties(0x1000, &Owned::Callback, &owned);
  props.alloc_fun = &CountingAllocator::Fun;
  props.alloc_arg = &alloc;
  Pool* pool = Pool::Create(props, OverflowPolicy::kLossless, nullptr);
  ASSERT_NE(pool, nullptr);
  std::vector<std::thread> threads;
  for (uint32_t t = 0; t < 3; ++t) {
    threads.emplace_back([&, t] {
      for (uint64_t i = 0; i < 5000; ++i)
        ASSERT_TRUE(pool->Write(MakeRecord(t, i)));
    });
  }
  for (auto& th : threads) th.join();
  pool->Close();
  EXPECT_EQ(owned.records, 15000u);
  EXPECT_EQ(owned.foreign, 0u);
  // Buffers come and go with use, but a writer never holds more than its
  // ring (plus the probe at Create).
  EXPECT_GE(alloc.allocs, 2u);
  EXPECT_LE(alloc.peak, 3u * pool->buffers_per_slot() + 1);
  EXPECT_EQ(alloc.frees, alloc.allocs);
  EXPECT_EQ(alloc.bad_frees, 0u);
  EXPECT_EQ(alloc.LiveBlocks(), 0u);
  Pool::Retire(pool);
}

void FailingAlloc(char** ptr, size_t size, void*) {
  if (*ptr == nullptr) return;  // never allocates
  if (size == 0) std::free(*ptr);
}

// An allocator that returns NULL would lose every record: the pool is not
// created.
TEST(Pool, AllocatorReturningNullFailsCreate) {
  auto props = Properties(0x1000, &Ignore, nullptr);
  props.alloc_fun = &FailingAlloc;
  PoolStatus status = PoolStatus::kOk;
  EXPECT_EQ(Pool::Create(props, OverflowPolicy::kLossless, &status), nullptr);
  EXPECT_EQ(status, PoolStatus::kMemoryAllocation);
}

// Allocates `budget` buffers, then returns NULL.
struct BudgetAllocator {
  CountingAllocator counting;
  uint64_t budget;
  static void Fun(char** ptr, size_t size, void* arg) {
    auto* self = static_cast<BudgetAllocator*>(arg);
    if (*ptr == nullptr && self->counting.allocs >= self->budget) return;
    CountingAllocator::Fun(ptr, size, &self->counting);
  }
};

// When the allocator fails later, the records that had no buffer are
// dropped and counted, never silently lost.
TEST(Pool, AllocationFailureLaterIsCountedAsDropped) {
  Checker checker(1);
  BudgetAllocator alloc{{}, 2};  // the probe at Create, then one buffer
  auto props = Properties(Pool::kMinBufferSize, &Checker::Callback, &checker);
  props.alloc_fun = &BudgetAllocator::Fun;
  props.alloc_arg = &alloc;
  Pool* pool = Pool::Create(props, OverflowPolicy::kLossless, nullptr);
  ASSERT_NE(pool, nullptr);
  uint64_t accepted = 0;
  for (uint64_t i = 0; i < 50; ++i) accepted += pool->Write(MakeRecord(0, i));
  pool->Close();
  EXPECT_GT(accepted, 0u);
  EXPECT_LT(accepted, 50u);
  EXPECT_EQ(pool->delivered(), accepted);
  EXPECT_EQ(pool->dropped(), 50u - accepted);
  EXPECT_EQ(alloc.counting.LiveBlocks(), 0u);
  Pool::Retire(pool);
}

TEST(Pool, CloseTwiceAndUseAfterCloseAreHarmless) {
  Checker checker(1);
  Pool* pool = Pool::Create(Properties(0x1000, &Checker::Callback, &checker),
                            OverflowPolicy::kLossless, nullptr);
  ASSERT_NE(pool, nullptr);
  for (uint64_t i = 0; i < 10; ++i) ASSERT_TRUE(pool->Write(MakeRecord(0, i)));
  pool->Close();
  EXPECT_TRUE(pool->closed());
  EXPECT_EQ(checker.records, 10u);  // Close flushes
  pool->Close();
  EXPECT_FALSE(pool->Write(MakeRecord(0, 10)));
  EXPECT_FALSE(pool->Write(MakeRecord(0, 10), "text", 4));
  pool->Flush();
  EXPECT_EQ(pool->delivered(), 10u);
  EXPECT_EQ(pool->refused(), 2u);
  Pool::Retire(pool);
  Pool::Retire(pool);
  Pool::Retire(nullptr);
}

TEST(Pool, ThreadExitHandsOverPartialBuffer) {
  Checker checker(1);
  Pool* pool = Pool::Create(Properties(0x10000, &Checker::Callback, &checker),
                            OverflowPolicy::kLossless, nullptr);
  ASSERT_NE(pool, nullptr);
  std::thread([&] {
    for (uint64_t i = 0; i < 7; ++i) ASSERT_TRUE(pool->Write(MakeRecord(0, i)));
  }).join();
  // 7 records do not fill a 1024-record buffer: only the exit hand-over can
  // deliver them without a flush.
  const auto deadline =
      std::chrono::steady_clock::now() + std::chrono::seconds(30);
  while (pool->delivered() < 7 && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  EXPECT_EQ(pool->delivered(), 7u);
  pool->Close();
  EXPECT_EQ(checker.records, 7u);
  Pool::Retire(pool);
}

TEST(Pool, ThreadExitAfterCloseIsSafe) {
  Checker checker(1);
  Pool* pool = Pool::Create(Properties(0x10000, &Checker::Callback, &checker),
                            OverflowPolicy::kLossless, nullptr);
  ASSERT_NE(pool, nullptr);
  std::atomic<int> stage{0};
  std::thread producer([&] {
    for (uint64_t i = 0; i < 5; ++i) ASSERT_TRUE(pool->Write(MakeRecord(0, i)));
    stage = 1;
    while (stage.load() != 2) std::this_thread::yield();
    EXPECT_FALSE(pool->Write(MakeRecord(0, 5)));
  });  // exits after the pool closed: its hand-over must not touch buffers
  while (stage.load() != 1) std::this_thread::yield();
  pool->Close();
  EXPECT_EQ(checker.records, 5u);
  stage = 2;
  producer.join();
  EXPECT_EQ(pool->delivered(), 5u);
  Pool::Retire(pool);
}

struct Reentrant {
  Pool* pool = nullptr;
  std::atomic<int> calls{0};
  bool close_inside = false;
  static void Callback(const char*, const char*, void* arg) {
    auto* self = static_cast<Reentrant*>(arg);
    self->calls.fetch_add(1);
    self->pool->Flush();  // must not deadlock
    if (self->close_inside) self->pool->Close();
  }
};

TEST(Pool, FlushAndCloseFromInsideTheCallbackDoNotDeadlock) {
  Reentrant r;
  r.pool = Pool::Create(Properties(0x1000, &Reentrant::Callback, &r),
                        OverflowPolicy::kLossless, nullptr);
  ASSERT_NE(r.pool, nullptr);
  for (uint64_t i = 0; i < 200; ++i)
    ASSERT_TRUE(r.pool->Write(MakeRecord(0, i)));
  r.pool->Flush();
  EXPECT_GE(r.calls.load(), 1);
  EXPECT_EQ(r.pool->delivered(), 200u);
  r.close_inside = true;
  ASSERT_TRUE(r.pool->Write(MakeRecord(0, 200)));
  r.pool->Flush();  // its callback closes the pool
  r.pool->Close();  // waits for that close to finish
  EXPECT_TRUE(r.pool->closed());
  EXPECT_EQ(r.pool->delivered(), 201u);
  EXPECT_FALSE(r.pool->Write(MakeRecord(0, 201)));
  Pool::Retire(r.pool);
}

// A callback that writes into its own pool (a tool whose buffer callback
// makes traced calls) must neither wait for itself nor lose what it writes:
// each record of generation < 2 makes the callback write one of the next
// generation, so N records make exactly 3N.
struct SelfWriter {
  Pool* pool = nullptr;
  uint64_t seen = 0;  // delivery thread only
  std::atomic<uint64_t> accepted{0}, rejected{0};
  static void Callback(const char* b, const char* e, void* arg) {
    auto* self = static_cast<SelfWriter*>(arg);
    for (auto* r = reinterpret_cast<const activity_record_t*>(b);
         r < reinterpret_cast<const activity_record_t*>(e); ++r) {
      ++self->seen;
      if (r->op < 2) {
        activity_record_t child = MakeRecord(r->op + 1, r->correlation_id);
        (self->pool->Write(child) ? self->accepted : self->rejected)
            .fetch_add(1);
      }
    }
  }
};

TEST(Pool, CallbackWritingIntoItsOwnLosslessPoolLosesNothing) {
  SelfWriter w;
  // Small buffers: one sweep of the writer's ring overfills the callback's.
  w.pool = Pool::Create(
      Properties(Pool::kMinBufferSize * 2, &SelfWriter::Callback, &w),
      OverflowPolicy::kLossless, nullptr);
  ASSERT_NE(w.pool, nullptr);
  constexpr uint64_t kRecords = 20000;
  std::thread([&] {
    for (uint64_t i = 0; i < kRecords; ++i)
      ASSERT_TRUE(w.pool->Write(MakeRecord(0, i)));
  }).join();
  w.pool->Flush();
  w.pool->Flush();  // the second generation's own records
  w.pool->Close();
  EXPECT_EQ(w.rejected.load(), 0u);
  EXPECT_EQ(w.accepted.load(), 2 * kRecords);
  EXPECT_EQ(w.seen, 3 * kRecords);
  EXPECT_EQ(w.pool->dropped(), 0u);
  Pool::Retire(w.pool);
}

// In discard mode the callback's own records are dropped like anyone's when
// no buffer is free, and counted.
TEST(Pool, CallbackWritingIntoItsOwnDiscardPoolCountsWhatItDrops) {
  SelfWriter w;
  w.pool = Pool::Create(
      Properties(Pool::kMinBufferSize * 2, &SelfWriter::Callback, &w),
      OverflowPolicy::kDiscard, nullptr);
  ASSERT_NE(w.pool, nullptr);
  for (uint64_t i = 0; i < 20000; ++i) w.pool->Write(MakeRecord(0, i));
  w.pool->Flush();
  w.pool->Flush();
  w.pool->Close();
  // Every write attempt is delivered, dropped (counted) or refused (closed).
  EXPECT_EQ(w.seen + w.pool->dropped() + w.pool->refused(),
            20000 + w.accepted.load() + w.rejected.load());
  Pool::Retire(w.pool);
}

// A writer thread holds the buffers it uses, not its whole ring: eight
// threads that each write a few records hold one buffer each, where every
// thread used to get all 64 of a 4 KiB pool's ring up front.
TEST(Pool, WriterThreadsHoldOnlyTheBuffersTheyUse) {
  CountingAllocator alloc;
  auto props = Properties(0x1000, &Ignore, nullptr);
  props.alloc_fun = &CountingAllocator::Fun;
  props.alloc_arg = &alloc;
  Pool* pool = Pool::Create(props, OverflowPolicy::kLossless, nullptr);
  ASSERT_NE(pool, nullptr);
  ASSERT_EQ(pool->buffers_per_slot(), Pool::kMaxBuffersPerSlot);
  std::atomic<int> written{0};
  std::atomic<bool> release{false};
  std::vector<std::thread> threads;
  for (uint32_t t = 0; t < 8; ++t) {
    threads.emplace_back([&, t] {
      for (uint64_t i = 0; i < 10; ++i)
        ASSERT_TRUE(pool->Write(MakeRecord(t, i)));
      ++written;
      while (!release.load()) std::this_thread::yield();
    });
  }
  while (written.load() != 8) std::this_thread::yield();
  EXPECT_EQ(alloc.LiveBlocks(), 8u);
  release = true;
  for (auto& th : threads) th.join();
  Pool::Retire(pool);
  EXPECT_EQ(alloc.LiveBlocks(), 0u);
  EXPECT_LE(alloc.peak, 9u);  // 8 writers and the probe at Create
}

// A caller's thread_buffers sets the ring's length (at least 2, at most
// kMaxBuffersPerSlot) in place of the default derived from the buffer size.
TEST(Pool, ThreadBuffersSetsTheRingLength) {
  auto props = Properties(0x1000, &Ignore, nullptr);
  const struct {
    unsigned asked, ring;
  } cases[] = {{0, Pool::kMaxBuffersPerSlot},
               {1, 2},
               {2, 2},
               {8, 8},
               {Pool::kMaxBuffersPerSlot + 1, Pool::kMaxBuffersPerSlot}};
  for (const auto& c : cases) {
    Pool* pool =
        Pool::Create(props, OverflowPolicy::kDiscard, nullptr, c.asked);
    ASSERT_NE(pool, nullptr);
    EXPECT_EQ(pool->buffers_per_slot(), c.ring) << c.asked;
    Pool::Retire(pool);
  }
}

// Opening and closing pools over and over costs the same each time: closed
// pools give their memory back and their objects are reused, so the set of
// Pool objects in use stays at the retired ones kept plus the open one.
TEST(Pool, OpenCloseChurnStaysFlat) {
  CountingAllocator alloc;
  auto props = Properties(0x1000, &Ignore, nullptr);
  props.alloc_fun = &CountingAllocator::Fun;
  props.alloc_arg = &alloc;
  std::set<const Pool*> objects;
  for (int cycle = 0; cycle < 2000; ++cycle) {
    Pool* pool = Pool::Create(props, OverflowPolicy::kLossless, nullptr);
    ASSERT_NE(pool, nullptr);
    objects.insert(pool);
    ASSERT_TRUE(pool->Write(MakeRecord(0, static_cast<uint64_t>(cycle))));
    Pool::Retire(pool);
    ASSERT_EQ(alloc.LiveBlocks(), 0u) << cycle;
  }
  // This thread's slot in the last pool goes at its next warm-up; the other
  // pools were recycled.
  EXPECT_LE(objects.size(), Pool::kRetiredKept + 3);
}

// A pool left open when the process exits is flushed by the at-exit close.
void PrintCount(const char* begin, const char* end, void*) {
  std::fprintf(stderr, "delivered %zu records\n",
               static_cast<size_t>(end - begin) / sizeof(activity_record_t));
}

TEST(PoolDeathTest, OpenPoolIsFlushedAtExit) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_EXIT(
      {
        Pool* pool = Pool::Create(Properties(0x10000, &PrintCount, nullptr),
                                  OverflowPolicy::kLossless, nullptr);
        if (pool == nullptr) std::exit(3);
        std::thread([pool] {
          for (uint64_t i = 0; i < 3; ++i) pool->Write(MakeRecord(0, i));
        }).join();
        for (uint64_t i = 0; i < 2; ++i) pool->Write(MakeRecord(0, i));
        std::exit(0);  // no Flush, no Close
      },
      ::testing::ExitedWithCode(0),
      "delivered 3 records\n(.|\n)*delivered 2 records|delivered 2 "
      "records\n(.|\n)*delivered 3 records|delivered 5 records");
}

// A pool open at fork() keeps working in the child with a delivery thread of
// its own: the child's records reach the child's callback, the parent's records
// written before the fork are not delivered again there, and the child's
// exit does not wait for the parent's delivery thread.
std::atomic<uint64_t> g_child_records{0};
void CountInChild(const char* b, const char* e, void*) {
  g_child_records += static_cast<uint64_t>(e - b) / sizeof(activity_record_t);
}

TEST(PoolDeathTest, ForkedChildGetsAWorkingPool) {
#if defined(__SANITIZE_THREAD__)
  GTEST_SKIP() << "ThreadSanitizer cannot start threads after a fork";
#endif
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_EXIT(
      {
        Pool* pool = Pool::Create(
            Properties(Pool::kMinBufferSize, &CountInChild, nullptr),
            OverflowPolicy::kLossless, nullptr);
        if (pool == nullptr) std::exit(3);
        // Another thread's slot with records in it travels to the child too.
        std::thread([pool] {
          for (uint64_t i = 0; i < 7; ++i) pool->Write(MakeRecord(1, i));
        }).join();
        for (uint64_t i = 0; i < 10; ++i) pool->Write(MakeRecord(0, i));
        const pid_t child = fork();
        if (child == 0) {
          alarm(20);  // a hang becomes a SIGALRM death
          g_child_records = 0;
          uint64_t accepted = 0;
          for (uint64_t i = 0; i < 25; ++i)
            accepted += pool->Write(MakeRecord(0, 100 + i));
          std::thread([pool, &accepted] {
            for (uint64_t i = 0; i < 5; ++i)
              accepted += pool->Write(MakeRecord(2, i));
          }).join();
          pool->Flush();
          const uint64_t flushed = g_child_records.load();
          pool->Close();  // what the at-exit handler does
          // _exit: LeakSanitizer's exit-time scan can hang in a child forked
          // from a multithreaded process, which is not what is tested here.
          _exit(accepted == 30 && flushed == 30 && g_child_records == 30 &&
                        pool->dropped() == 0
                    ? 0
                    : 4);
        }
        int status = 0;
        if (waitpid(child, &status, 0) != child) std::exit(5);
        if (!WIFEXITED(status)) std::exit(6);
        std::exit(WEXITSTATUS(status));
      },
      ::testing::ExitedWithCode(0), "");
}

// A child that forks while it never needed its delivery thread closes at exit
// on the closing thread.
TEST(PoolDeathTest, ForkedChildThatNeverWritesExitsCleanly) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_EXIT(
      {
        Pool* pool = Pool::Create(Properties(0x1000, &Ignore, nullptr),
                                  OverflowPolicy::kLossless, nullptr);
        if (pool == nullptr) std::exit(3);
        pool->Write(MakeRecord(0, 0));
        const pid_t child = fork();
        if (child == 0) {
          alarm(20);
          pool->Close();
          _exit(pool->closed() ? 0 : 4);
        }
        int status = 0;
        if (waitpid(child, &status, 0) != child) std::exit(5);
        if (!WIFEXITED(status)) std::exit(6);
        std::exit(WEXITSTATUS(status));
      },
      ::testing::ExitedWithCode(0), "");
}

}  // namespace
}  // namespace roctracer
