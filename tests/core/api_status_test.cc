// Every public function, fed good and bad input, returns its documented status
// and never crashes.
#include <gtest/gtest.h>
#include <roctracer.h>
#include <roctracer_ext.h>
#include <roctracer_roctx.h>
#include <time.h>

#include <atomic>
#include <chrono>
#include <cstring>
#include <string>
#include <thread>

#include "tests/core/collector.h"
#include "tests/core/reset.h"

// Exported by roctracer without a header declaration; users declare it.
extern "C" void roctracer_mark(const char* str);

namespace roctracer_test {
namespace {

void NoopCallback(uint32_t, uint32_t, const void*, void*) {}

constexpr auto kBadDomain =
    static_cast<activity_domain_t>(ACTIVITY_DOMAIN_NUMBER);
constexpr auto kHugeDomain = static_cast<activity_domain_t>(0x7fffffff);

using ApiStatus = TracerTest;

TEST_F(ApiStatus, VersionMatchesHeader) {
  EXPECT_EQ(roctracer_version_major(), ROCTRACER_VERSION_MAJOR);
  EXPECT_EQ(roctracer_version_minor(), ROCTRACER_VERSION_MINOR);
}

TEST_F(ApiStatus, ErrorStringDescribesTheLastFailure) {
  ASSERT_NE(roctracer_error_string(), nullptr);
  ASSERT_EQ(roctracer_enable_domain_callback(kBadDomain, NoopCallback, nullptr),
            ROCTRACER_STATUS_ERROR_INVALID_DOMAIN_ID);
  const std::string message = roctracer_error_string();
  EXPECT_NE(message.find("domain"), std::string::npos) << message;
  // A later success does not clear it.
  ASSERT_EQ(roctracer_version_major(), 4u);
  EXPECT_EQ(message, roctracer_error_string());
}

TEST_F(ApiStatus, ErrorStringIsPerThread) {
  ASSERT_EQ(roctracer_next_record(nullptr, nullptr),
            ROCTRACER_STATUS_ERROR_INVALID_ARGUMENT);
  const std::string mine = roctracer_error_string();
  std::string theirs = "unset";
  std::thread([&] { theirs = roctracer_error_string(); }).join();
  EXPECT_EQ(theirs, "");
  EXPECT_EQ(mine, roctracer_error_string());
}

TEST_F(ApiStatus, OpStringForBuiltinDomains) {
  EXPECT_STREQ(roctracer_op_string(ACTIVITY_DOMAIN_ROCTX,
                                   ROCTX_API_ID_roctxRangePushA, 0),
               "roctxRangePushA");
  EXPECT_STREQ(roctracer_op_string(ACTIVITY_DOMAIN_EXT_API,
                                   ACTIVITY_EXT_OP_EXTERN_ID, 0),
               "EXT_API");
  EXPECT_STREQ(roctracer_op_string(ACTIVITY_DOMAIN_HIP_OPS, 1, 0x11F4),
               "CopyHostToDevice");
  EXPECT_STREQ(roctracer_op_string(ACTIVITY_DOMAIN_HSA_OPS, 0, 0), "DISPATCH");
  EXPECT_STREQ(roctracer_op_string(ACTIVITY_DOMAIN_HSA_EVT, 5, 0), "CODEOBJ");
}

TEST_F(ApiStatus, OpStringRejectsBadDomainAndOp) {
  EXPECT_EQ(roctracer_op_string(ACTIVITY_DOMAIN_NUMBER, 0, 0), nullptr);
  EXPECT_EQ(roctracer_op_string(0xffffffffu, 0, 0), nullptr);
  EXPECT_EQ(roctracer_op_string(ACTIVITY_DOMAIN_ROCTX, ROCTX_API_ID_NUMBER, 0),
            nullptr);
  EXPECT_EQ(roctracer_op_string(ACTIVITY_DOMAIN_KFD_API, 0, 0), nullptr);
  EXPECT_NE(std::string(roctracer_error_string()), "");
}

// EXT_API and HIP_OPS names do not round-trip (ROCm names every EXT_API op
// "EXT_API" and a HIP_OPS record by its kind): tests/core/op_names_test.cc.
TEST_F(ApiStatus, OpCodeRoundTripsEveryBuiltinOp) {
  const struct {
    activity_domain_t domain;
    uint32_t count;
  } domains[] = {{ACTIVITY_DOMAIN_HSA_OPS, 4},
                 {ACTIVITY_DOMAIN_ROCTX, ROCTX_API_ID_NUMBER},
                 {ACTIVITY_DOMAIN_HSA_EVT, 6}};
  for (const auto& d : domains) {
    for (uint32_t op = 0; op < d.count; ++op) {
      const char* name = roctracer_op_string(d.domain, op, 0);
      ASSERT_NE(name, nullptr) << d.domain << "/" << op;
      uint32_t code = 99, kind = 99;
      ASSERT_EQ(roctracer_op_code(d.domain, name, &code, &kind),
                ROCTRACER_STATUS_SUCCESS);
      EXPECT_EQ(code, op);
      EXPECT_EQ(kind, 0u);
    }
    EXPECT_EQ(roctracer_op_string(d.domain, d.count, 0), nullptr);
  }
}

TEST_F(ApiStatus, OpCodeRejectsBadInput) {
  uint32_t op = 0;
  EXPECT_EQ(
      roctracer_op_code(ACTIVITY_DOMAIN_NUMBER, "roctxMarkA", &op, nullptr),
      ROCTRACER_STATUS_ERROR_INVALID_DOMAIN_ID);
  EXPECT_EQ(roctracer_op_code(ACTIVITY_DOMAIN_ROCTX, nullptr, &op, nullptr),
            ROCTRACER_STATUS_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(
      roctracer_op_code(ACTIVITY_DOMAIN_ROCTX, "roctxMarkA", nullptr, nullptr),
      ROCTRACER_STATUS_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(roctracer_op_code(ACTIVITY_DOMAIN_ROCTX, "hipMalloc", &op, nullptr),
            ROCTRACER_STATUS_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(roctracer_op_code(ACTIVITY_DOMAIN_KFD_API, "x", &op, nullptr),
            ROCTRACER_STATUS_ERROR_INVALID_DOMAIN_ID);
}

TEST_F(ApiStatus, SetProperties) {
  int dummy = 0;
  EXPECT_EQ(roctracer_set_properties(ACTIVITY_DOMAIN_HSA_OPS, &dummy),
            ROCTRACER_STATUS_SUCCESS);
  EXPECT_EQ(roctracer_set_properties(ACTIVITY_DOMAIN_HIP_API, nullptr),
            ROCTRACER_STATUS_SUCCESS);
  EXPECT_EQ(roctracer_set_properties(kBadDomain, &dummy),
            ROCTRACER_STATUS_ERROR_INVALID_DOMAIN_ID);
}

TEST_F(ApiStatus, CallbackEnableDisableStatuses) {
  const auto roctx = ACTIVITY_DOMAIN_ROCTX;
  EXPECT_EQ(roctracer_enable_op_callback(roctx, 0, NoopCallback, nullptr),
            ROCTRACER_STATUS_SUCCESS);
  EXPECT_EQ(roctracer_enable_op_callback(roctx, ROCTX_API_ID_NUMBER,
                                         NoopCallback, nullptr),
            ROCTRACER_STATUS_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(roctracer_enable_op_callback(roctx, 0, nullptr, nullptr),
            ROCTRACER_STATUS_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(roctracer_enable_op_callback(kBadDomain, 0, NoopCallback, nullptr),
            ROCTRACER_STATUS_ERROR_INVALID_DOMAIN_ID);
  EXPECT_EQ(roctracer_enable_op_callback(kHugeDomain, 0, NoopCallback, nullptr),
            ROCTRACER_STATUS_ERROR_INVALID_DOMAIN_ID);
  EXPECT_EQ(roctracer_enable_domain_callback(roctx, NoopCallback, nullptr),
            ROCTRACER_STATUS_SUCCESS);
  EXPECT_EQ(roctracer_enable_domain_callback(kBadDomain, NoopCallback, nullptr),
            ROCTRACER_STATUS_ERROR_INVALID_DOMAIN_ID);
  EXPECT_EQ(roctracer_enable_domain_callback(ACTIVITY_DOMAIN_KFD_API,
                                             NoopCallback, nullptr),
            ROCTRACER_STATUS_ERROR_INVALID_DOMAIN_ID);
  EXPECT_EQ(roctracer_enable_domain_callback(roctx, nullptr, nullptr),
            ROCTRACER_STATUS_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(roctracer_enable_callback(NoopCallback, nullptr),
            ROCTRACER_STATUS_SUCCESS);
  EXPECT_EQ(roctracer_enable_callback(nullptr, nullptr),
            ROCTRACER_STATUS_ERROR_INVALID_ARGUMENT);

  EXPECT_EQ(roctracer_disable_op_callback(roctx, 0), ROCTRACER_STATUS_SUCCESS);
  EXPECT_EQ(roctracer_disable_op_callback(roctx, 0), ROCTRACER_STATUS_SUCCESS);
  EXPECT_EQ(roctracer_disable_op_callback(roctx, 99),
            ROCTRACER_STATUS_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(roctracer_disable_op_callback(kBadDomain, 0),
            ROCTRACER_STATUS_ERROR_INVALID_DOMAIN_ID);
  EXPECT_EQ(roctracer_disable_domain_callback(roctx), ROCTRACER_STATUS_SUCCESS);
  EXPECT_EQ(roctracer_disable_domain_callback(kBadDomain),
            ROCTRACER_STATUS_ERROR_INVALID_DOMAIN_ID);
  EXPECT_EQ(roctracer_disable_callback(), ROCTRACER_STATUS_SUCCESS);
}

TEST_F(ApiStatus, NextRecord) {
  activity_record_t records[2] = {};
  const activity_record_t* next = nullptr;
  EXPECT_EQ(roctracer_next_record(nullptr, &next),
            ROCTRACER_STATUS_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(roctracer_next_record(&records[0], nullptr),
            ROCTRACER_STATUS_ERROR_INVALID_ARGUMENT);
  ASSERT_EQ(roctracer_next_record(&records[0], &next),
            ROCTRACER_STATUS_SUCCESS);
  EXPECT_EQ(next, &records[1]);
}

TEST_F(ApiStatus, OpenPoolRejectsBadProperties) {
  Collector& collector = NewCollector();
  EXPECT_EQ(roctracer_open_pool(nullptr),
            ROCTRACER_STATUS_ERROR_INVALID_ARGUMENT);
  roctracer_properties_t tiny = collector.Properties(8);
  EXPECT_EQ(roctracer_open_pool(&tiny),
            ROCTRACER_STATUS_ERROR_INVALID_ARGUMENT);
  roctracer_pool_t* pool = nullptr;
  EXPECT_EQ(roctracer_open_pool_expl(nullptr, &pool),
            ROCTRACER_STATUS_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(pool, nullptr);
  EXPECT_EQ(roctracer_default_pool(), nullptr);
}

// ROCm accepts a pool without a buffer callback (Kineto opens its default
// pool that way and ignores the status): it opens, and what is written to
// it is counted as dropped.
TEST_F(ApiStatus, PoolWithoutCallbackOpensAndCountsItsRecordsAsDropped) {
  Collector& collector = NewCollector();
  roctracer_properties_t no_callback = collector.Properties();
  no_callback.buffer_callback_fun = nullptr;
  ASSERT_EQ(roctracer_open_pool(&no_callback), ROCTRACER_STATUS_SUCCESS);
  ASSERT_NE(roctracer_default_pool(), nullptr);
  ASSERT_EQ(roctracer_enable_op_activity(ACTIVITY_DOMAIN_EXT_API,
                                         ACTIVITY_EXT_OP_MARK),
            ROCTRACER_STATUS_SUCCESS);
  for (int i = 0; i < 5; ++i) roctracer_mark("m");
  ASSERT_EQ(roctracer_flush_activity(), ROCTRACER_STATUS_SUCCESS);
  uint64_t dropped = 0;
  ASSERT_EQ(roctracer_get_dropped_records_expl(nullptr, &dropped),
            ROCTRACER_STATUS_SUCCESS);
  EXPECT_EQ(dropped, 5u);
  EXPECT_EQ(roctracer_close_pool(), ROCTRACER_STATUS_SUCCESS);
}

TEST_F(ApiStatus, DefaultPoolLifecycle) {
  Collector& collector = NewCollector();
  const roctracer_properties_t props = collector.Properties();
  EXPECT_EQ(roctracer_default_pool(), nullptr);
  ASSERT_EQ(roctracer_open_pool(&props), ROCTRACER_STATUS_SUCCESS);
  roctracer_pool_t* first = roctracer_default_pool();
  ASSERT_NE(first, nullptr);
  EXPECT_EQ(roctracer_open_pool(&props),
            ROCTRACER_STATUS_ERROR_DEFAULT_POOL_ALREADY_DEFINED);
  EXPECT_EQ(roctracer_open_pool_expl(&props, nullptr),
            ROCTRACER_STATUS_ERROR_DEFAULT_POOL_ALREADY_DEFINED);

  // An explicit pool does not replace the default...
  roctracer_pool_t* second = nullptr;
  ASSERT_EQ(roctracer_open_pool_expl(&props, &second),
            ROCTRACER_STATUS_SUCCESS);
  ASSERT_NE(second, nullptr);
  EXPECT_NE(second, first);
  EXPECT_EQ(roctracer_default_pool(), first);
  // ...until made the default; the previous default is returned.
  EXPECT_EQ(roctracer_default_pool_expl(second), first);
  EXPECT_EQ(roctracer_default_pool(), second);
  EXPECT_EQ(roctracer_default_pool_expl(nullptr), second);

  EXPECT_EQ(roctracer_close_pool(), ROCTRACER_STATUS_SUCCESS);
  EXPECT_EQ(roctracer_default_pool(), nullptr);
  EXPECT_EQ(roctracer_close_pool(), ROCTRACER_STATUS_SUCCESS);  // none: no-op
  // A closed pool cannot become the default again.
  EXPECT_EQ(roctracer_default_pool_expl(second), nullptr);
  EXPECT_EQ(roctracer_default_pool(), nullptr);
  EXPECT_EQ(roctracer_close_pool_expl(first), ROCTRACER_STATUS_SUCCESS);
}

TEST_F(ApiStatus, ClosingAPoolTwiceIsAnError) {
  Collector& collector = NewCollector();
  const roctracer_properties_t props = collector.Properties();
  roctracer_pool_t* pool = nullptr;
  ASSERT_EQ(roctracer_open_pool_expl(&props, &pool), ROCTRACER_STATUS_SUCCESS);
  EXPECT_EQ(roctracer_close_pool_expl(pool), ROCTRACER_STATUS_SUCCESS);
  EXPECT_EQ(roctracer_close_pool_expl(pool),
            ROCTRACER_STATUS_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(roctracer_flush_activity_expl(pool),
            ROCTRACER_STATUS_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(roctracer_enable_domain_activity_expl(ACTIVITY_DOMAIN_ROCTX, pool),
            ROCTRACER_STATUS_ERROR_INVALID_ARGUMENT);
  // Never dereferenced: an arbitrary pointer is just "not an open pool".
  int not_a_pool = 0;
  EXPECT_EQ(roctracer_close_pool_expl(&not_a_pool),
            ROCTRACER_STATUS_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(roctracer_close_pool_expl(nullptr), ROCTRACER_STATUS_SUCCESS);
}

TEST_F(ApiStatus, EnablingActivityWithoutDefaultPool) {
  ASSERT_EQ(roctracer_default_pool(), nullptr);
  EXPECT_EQ(roctracer_enable_op_activity(ACTIVITY_DOMAIN_ROCTX, 0),
            ROCTRACER_STATUS_ERROR_DEFAULT_POOL_UNDEFINED);
  EXPECT_EQ(
      roctracer_enable_op_activity_expl(ACTIVITY_DOMAIN_ROCTX, 0, nullptr),
      ROCTRACER_STATUS_ERROR_DEFAULT_POOL_UNDEFINED);
  EXPECT_EQ(roctracer_enable_domain_activity(ACTIVITY_DOMAIN_ROCTX),
            ROCTRACER_STATUS_ERROR_DEFAULT_POOL_UNDEFINED);
  EXPECT_EQ(
      roctracer_enable_domain_activity_expl(ACTIVITY_DOMAIN_ROCTX, nullptr),
      ROCTRACER_STATUS_ERROR_DEFAULT_POOL_UNDEFINED);
  EXPECT_EQ(roctracer_enable_activity(),
            ROCTRACER_STATUS_ERROR_DEFAULT_POOL_UNDEFINED);
  EXPECT_EQ(roctracer_enable_activity_expl(nullptr),
            ROCTRACER_STATUS_ERROR_DEFAULT_POOL_UNDEFINED);
}

TEST_F(ApiStatus, ActivityEnableDisableStatuses) {
  Collector& collector = NewCollector();
  const roctracer_properties_t props = collector.Properties();
  ASSERT_EQ(roctracer_open_pool(&props), ROCTRACER_STATUS_SUCCESS);
  EXPECT_EQ(roctracer_enable_op_activity(ACTIVITY_DOMAIN_ROCTX, 0),
            ROCTRACER_STATUS_SUCCESS);
  EXPECT_EQ(roctracer_enable_op_activity(ACTIVITY_DOMAIN_ROCTX, 5),
            ROCTRACER_STATUS_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(roctracer_enable_op_activity(kBadDomain, 0),
            ROCTRACER_STATUS_ERROR_INVALID_DOMAIN_ID);
  EXPECT_EQ(roctracer_enable_domain_activity(ACTIVITY_DOMAIN_HIP_OPS),
            ROCTRACER_STATUS_SUCCESS);
  EXPECT_EQ(roctracer_enable_domain_activity(kHugeDomain),
            ROCTRACER_STATUS_ERROR_INVALID_DOMAIN_ID);
  EXPECT_EQ(roctracer_enable_activity(), ROCTRACER_STATUS_SUCCESS);
  EXPECT_EQ(roctracer_disable_op_activity(ACTIVITY_DOMAIN_ROCTX, 0),
            ROCTRACER_STATUS_SUCCESS);
  EXPECT_EQ(roctracer_disable_op_activity(ACTIVITY_DOMAIN_ROCTX, 77),
            ROCTRACER_STATUS_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(roctracer_disable_op_activity(kBadDomain, 0),
            ROCTRACER_STATUS_ERROR_INVALID_DOMAIN_ID);
  EXPECT_EQ(roctracer_disable_domain_activity(ACTIVITY_DOMAIN_HIP_OPS),
            ROCTRACER_STATUS_SUCCESS);
  EXPECT_EQ(roctracer_disable_domain_activity(kBadDomain),
            ROCTRACER_STATUS_ERROR_INVALID_DOMAIN_ID);
  EXPECT_EQ(roctracer_disable_activity(), ROCTRACER_STATUS_SUCCESS);
}

TEST_F(ApiStatus, FlushStatuses) {
  // No default pool: nothing to flush.
  EXPECT_EQ(roctracer_flush_activity(), ROCTRACER_STATUS_SUCCESS);
  EXPECT_EQ(roctracer_flush_activity_expl(nullptr), ROCTRACER_STATUS_SUCCESS);
  Collector& collector = NewCollector();
  const roctracer_properties_t props = collector.Properties();
  ASSERT_EQ(roctracer_open_pool(&props), ROCTRACER_STATUS_SUCCESS);
  EXPECT_EQ(roctracer_flush_activity(), ROCTRACER_STATUS_SUCCESS);
  EXPECT_EQ(roctracer_flush_activity_expl(roctracer_default_pool()),
            ROCTRACER_STATUS_SUCCESS);
}

TEST_F(ApiStatus, TimestampIsBoottimeNanoseconds) {
  EXPECT_EQ(roctracer_get_timestamp(nullptr),
            ROCTRACER_STATUS_ERROR_INVALID_ARGUMENT);
  timespec before_ts, after_ts;
  roctracer_timestamp_t t1 = 0, t2 = 0;
  clock_gettime(CLOCK_BOOTTIME, &before_ts);
  ASSERT_EQ(roctracer_get_timestamp(&t1), ROCTRACER_STATUS_SUCCESS);
  ASSERT_EQ(roctracer_get_timestamp(&t2), ROCTRACER_STATUS_SUCCESS);
  clock_gettime(CLOCK_BOOTTIME, &after_ts);
  const uint64_t before = before_ts.tv_sec * 1000000000ull + before_ts.tv_nsec;
  const uint64_t after = after_ts.tv_sec * 1000000000ull + after_ts.tv_nsec;
  // Read through the TSC, the clock tracks the kernel's to tens of ns
  // (tests/core/clock_test.cc); a microsecond of slack keeps this exact
  // enough to tell CLOCK_BOOTTIME from any other clock.
  constexpr uint64_t kSlackNs = 1000;
  EXPECT_LE(before, t1 + kSlackNs);
  EXPECT_LE(t1, t2);
  EXPECT_LE(t2, after + kSlackNs);
}

TEST_F(ApiStatus, ExternalCorrelationStack) {
  activity_correlation_id_t last = 12345;
  EXPECT_EQ(roctracer_activity_pop_external_correlation_id(&last),
            ROCTRACER_STATUS_ERROR_MISMATCHED_EXTERNAL_CORRELATION_ID);
  EXPECT_EQ(last, 0u);
  EXPECT_EQ(roctracer_activity_pop_external_correlation_id(nullptr),
            ROCTRACER_STATUS_ERROR_MISMATCHED_EXTERNAL_CORRELATION_ID);
  ASSERT_EQ(roctracer_activity_push_external_correlation_id(5),
            ROCTRACER_STATUS_SUCCESS);
  ASSERT_EQ(roctracer_activity_push_external_correlation_id(7),
            ROCTRACER_STATUS_SUCCESS);
  EXPECT_EQ(roctracer_activity_pop_external_correlation_id(&last),
            ROCTRACER_STATUS_SUCCESS);
  EXPECT_EQ(last, 7u);
  EXPECT_EQ(roctracer_activity_pop_external_correlation_id(nullptr),
            ROCTRACER_STATUS_SUCCESS);
  last = 99;
  EXPECT_EQ(roctracer_activity_pop_external_correlation_id(&last),
            ROCTRACER_STATUS_ERROR_MISMATCHED_EXTERNAL_CORRELATION_ID);
  EXPECT_EQ(last, 0u);
}

TEST_F(ApiStatus, ExternalCorrelationStackIsPerThread) {
  ASSERT_EQ(roctracer_activity_push_external_correlation_id(11),
            ROCTRACER_STATUS_SUCCESS);
  roctracer_status_t other = ROCTRACER_STATUS_SUCCESS;
  std::thread([&] {
    activity_correlation_id_t id;
    other = roctracer_activity_pop_external_correlation_id(&id);
  }).join();
  EXPECT_EQ(other, ROCTRACER_STATUS_ERROR_MISMATCHED_EXTERNAL_CORRELATION_ID);
  activity_correlation_id_t id = 0;
  EXPECT_EQ(roctracer_activity_pop_external_correlation_id(&id),
            ROCTRACER_STATUS_SUCCESS);
  EXPECT_EQ(id, 11u);
}

// The allocator contract: all pool memory comes from alloc_fun and goes back
// through it.
struct CountingAllocator {
  int allocations = 0;
  int frees = 0;
  static void Fn(char** ptr, size_t size, void* arg) {
    auto* self = static_cast<CountingAllocator*>(arg);
    if (size == 0) {
      ++self->frees;
      free(*ptr);
      *ptr = nullptr;
    } else {
      if (*ptr == nullptr) ++self->allocations;
      *ptr = static_cast<char*>(realloc(*ptr, size));
    }
  }
};

// The discard extension: while the consumer is held up, a full pool drops
// records and counts them; every record is either delivered or counted.
struct HeldCallback {
  std::atomic<bool> released{false};
  std::atomic<size_t> records{0};
  static void Fn(const char* begin, const char* end, void* arg) {
    auto* self = static_cast<HeldCallback*>(arg);
    while (!self->released.load()) std::this_thread::yield();
    self->records +=
        static_cast<size_t>(end - begin) / sizeof(activity_record_t);
  }
};

// A small discard-mode pool that EXT_API marks (roctracer_mark) write to.
roctracer_pool_t* OpenDiscardMarkPool(roctracer_buffer_callback_t callback,
                                      void* arg) {
  roctracer_properties_t props{};
  props.mode = ROCTRACER_POOL_MODE_DISCARD;
  props.buffer_size = 256;
  props.buffer_callback_fun = callback;
  props.buffer_callback_arg = arg;
  roctracer_pool_t* pool = nullptr;
  if (roctracer_open_pool_expl(&props, &pool) != ROCTRACER_STATUS_SUCCESS ||
      roctracer_enable_op_activity_expl(ACTIVITY_DOMAIN_EXT_API,
                                        ACTIVITY_EXT_OP_MARK,
                                        pool) != ROCTRACER_STATUS_SUCCESS) {
    return nullptr;
  }
  return pool;
}

TEST_F(ApiStatus, DiscardModeCountsWhatItDrops) {
  HeldCallback held;
  roctracer_pool_t* pool = OpenDiscardMarkPool(&HeldCallback::Fn, &held);
  ASSERT_NE(pool, nullptr);
  constexpr size_t kProduced = 20000;
  for (size_t i = 0; i < kProduced; ++i) roctracer_mark("m");
  uint64_t dropped = 0;
  ASSERT_EQ(roctracer_get_dropped_records_expl(pool, &dropped),
            ROCTRACER_STATUS_SUCCESS);
  EXPECT_GT(dropped, 0u);
  held.released = true;
  ASSERT_EQ(roctracer_close_pool_expl(pool), ROCTRACER_STATUS_SUCCESS);
  EXPECT_EQ(held.records.load() + dropped, kProduced);
}

// Discard mode with an external ID pushed: records go in pairs (EXT_API tag,
// then the record it tags). A slow consumer frees buffers while the producer
// writes, so a buffer can free up at any moment. A pair is delivered whole or
// dropped whole: a record always comes right after its tag, a tag is always
// followed by its record, and every record written or dropped is counted.
struct PairChecker {
  std::atomic<size_t> records{0};
  std::atomic<size_t> untagged{0};
  std::atomic<size_t> orphan_tags{0};
  activity_record_t previous{};  // across deliveries: one producer thread
  static void Fn(const char* begin, const char* end, void* arg) {
    auto* self = static_cast<PairChecker*>(arg);
    std::this_thread::sleep_for(std::chrono::microseconds(20));
    for (auto* r = reinterpret_cast<const activity_record_t*>(begin);
         r < reinterpret_cast<const activity_record_t*>(end); ++r) {
      ++self->records;
      const bool after_its_tag =
          self->previous.op == ACTIVITY_EXT_OP_EXTERN_ID &&
          self->previous.correlation_id == r->correlation_id;
      if (r->op == ACTIVITY_EXT_OP_MARK && !after_its_tag) ++self->untagged;
      if (self->previous.op == ACTIVITY_EXT_OP_EXTERN_ID && !after_its_tag) {
        ++self->orphan_tags;
      }
      self->previous = *r;
    }
  }
};

TEST_F(ApiStatus, DiscardModeKeepsTagsWithTheirRecords) {
  PairChecker checker;
  roctracer_pool_t* pool = OpenDiscardMarkPool(&PairChecker::Fn, &checker);
  ASSERT_NE(pool, nullptr);
  ASSERT_EQ(roctracer_activity_push_external_correlation_id(9),
            ROCTRACER_STATUS_SUCCESS);
  constexpr size_t kMarks = 200000;
  for (size_t i = 0; i < kMarks; ++i) roctracer_mark("m");
  activity_correlation_id_t last = 0;
  ASSERT_EQ(roctracer_activity_pop_external_correlation_id(&last),
            ROCTRACER_STATUS_SUCCESS);
  uint64_t dropped = 0;
  ASSERT_EQ(roctracer_get_dropped_records_expl(pool, &dropped),
            ROCTRACER_STATUS_SUCCESS);
  EXPECT_GT(dropped, 0u);
  ASSERT_EQ(roctracer_close_pool_expl(pool), ROCTRACER_STATUS_SUCCESS);
  EXPECT_EQ(checker.untagged.load(), 0u);
  EXPECT_EQ(checker.orphan_tags.load(), 0u);
  EXPECT_EQ(checker.previous.op, ACTIVITY_EXT_OP_MARK);  // the last pair whole
  EXPECT_EQ(checker.records.load() + dropped, 2 * kMarks);
  EXPECT_EQ(checker.records.load() % 2, 0u);
}

// roctracer.h: a buffer must hold a record, its EXT_API tag and 64 bytes of
// message: 192 bytes at least.
TEST_F(ApiStatus, PoolBuffersBelow192BytesAreRejected) {
  Collector& collector = NewCollector();
  roctracer_pool_t* pool = nullptr;
  const roctracer_properties_t too_small = collector.Properties(191);
  EXPECT_EQ(roctracer_open_pool_expl(&too_small, &pool),
            ROCTRACER_STATUS_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(pool, nullptr);
  const roctracer_properties_t smallest = collector.Properties(192);
  ASSERT_EQ(roctracer_open_pool_expl(&smallest, &pool),
            ROCTRACER_STATUS_SUCCESS);
  ASSERT_NE(pool, nullptr);
  EXPECT_EQ(roctracer_close_pool_expl(pool), ROCTRACER_STATUS_SUCCESS);
}

TEST_F(ApiStatus, DroppedRecordsRejectsBadInput) {
  uint64_t dropped = 7;
  EXPECT_EQ(roctracer_get_dropped_records_expl(nullptr, &dropped),
            ROCTRACER_STATUS_ERROR_DEFAULT_POOL_UNDEFINED);
  Collector& collector = NewCollector();
  const roctracer_properties_t props = collector.Properties();
  roctracer_pool_t* pool = nullptr;
  ASSERT_EQ(roctracer_open_pool_expl(&props, &pool), ROCTRACER_STATUS_SUCCESS);
  EXPECT_EQ(roctracer_get_dropped_records_expl(pool, nullptr),
            ROCTRACER_STATUS_ERROR_INVALID_ARGUMENT);
  ASSERT_EQ(roctracer_get_dropped_records_expl(pool, &dropped),
            ROCTRACER_STATUS_SUCCESS);
  EXPECT_EQ(dropped, 0u);  // lossless by default
  ASSERT_EQ(roctracer_close_pool_expl(pool), ROCTRACER_STATUS_SUCCESS);
  EXPECT_EQ(roctracer_get_dropped_records_expl(pool, &dropped),
            ROCTRACER_STATUS_ERROR_INVALID_ARGUMENT);
}

TEST_F(ApiStatus, CustomAllocatorIsHonoured) {
  Collector& collector = NewCollector();
  CountingAllocator allocator;
  roctracer_properties_t props = collector.Properties();
  props.alloc_fun = &CountingAllocator::Fn;
  props.alloc_arg = &allocator;
  roctracer_pool_t* pool = nullptr;
  ASSERT_EQ(roctracer_open_pool_expl(&props, &pool), ROCTRACER_STATUS_SUCCESS);
  // Buffers are allocated on a thread's first record, so write one.
  ASSERT_EQ(roctracer_enable_op_activity_expl(ACTIVITY_DOMAIN_EXT_API,
                                              ACTIVITY_EXT_OP_MARK, pool),
            ROCTRACER_STATUS_SUCCESS);
  roctracer_mark("through the custom allocator");
  EXPECT_GT(allocator.allocations, 0);
  ASSERT_EQ(roctracer_close_pool_expl(pool), ROCTRACER_STATUS_SUCCESS);
  EXPECT_EQ(collector.records().size(), 1u);
  EXPECT_EQ(allocator.allocations, allocator.frees);
}

// Closing or flushing from inside a buffer callback would wait for that same
// callback: refused with ROCTRACER_STATUS_ERROR instead of hanging.
struct ReentrantCallback {
  roctracer_status_t close_status = ROCTRACER_STATUS_SUCCESS;
  roctracer_status_t flush_status = ROCTRACER_STATUS_SUCCESS;
  int calls = 0;
  static void Fn(const char*, const char*, void* arg) {
    auto* self = static_cast<ReentrantCallback*>(arg);
    ++self->calls;
    self->flush_status = roctracer_flush_activity();
    self->close_status = roctracer_close_pool();
  }
};

TEST_F(ApiStatus, CloseAndFlushFromABufferCallbackAreRefused) {
  ReentrantCallback cb;
  roctracer_properties_t props{};
  props.buffer_size = 4096;
  props.buffer_callback_fun = &ReentrantCallback::Fn;
  props.buffer_callback_arg = &cb;
  ASSERT_EQ(roctracer_open_pool(&props), ROCTRACER_STATUS_SUCCESS);
  ASSERT_EQ(roctracer_enable_op_activity(ACTIVITY_DOMAIN_EXT_API,
                                         ACTIVITY_EXT_OP_MARK),
            ROCTRACER_STATUS_SUCCESS);
  roctracer_mark("one record");
  ASSERT_EQ(roctracer_flush_activity(), ROCTRACER_STATUS_SUCCESS);
  EXPECT_EQ(cb.calls, 1);
  EXPECT_EQ(cb.flush_status, ROCTRACER_STATUS_ERROR);
  EXPECT_EQ(cb.close_status, ROCTRACER_STATUS_ERROR);
  EXPECT_NE(roctracer_default_pool(), nullptr);                 // still open
  EXPECT_EQ(roctracer_close_pool(), ROCTRACER_STATUS_SUCCESS);  // cb in scope
}

struct MarkLog {
  int calls = 0;
  std::string last;
  static void Fn(uint32_t domain, uint32_t op, const void* data, void* arg) {
    auto* self = static_cast<MarkLog*>(arg);
    if (domain != ACTIVITY_DOMAIN_EXT_API || op != ACTIVITY_EXT_OP_MARK) return;
    ++self->calls;
    self->last = static_cast<const char*>(data);
  }
};

TEST_F(ApiStatus, DeprecatedExportsStillWork) {
  EXPECT_TRUE(roctracer_load());
  roctracer_unload();
  roctracer_flush_buf();  // no default pool: harmless
  roctracer_mark("nobody listens");

  Collector& collector = NewCollector();
  const roctracer_properties_t props = collector.Properties();
  ASSERT_EQ(roctracer_open_pool(&props), ROCTRACER_STATUS_SUCCESS);
  MarkLog log;
  ASSERT_EQ(
      roctracer_enable_op_callback(ACTIVITY_DOMAIN_EXT_API,
                                   ACTIVITY_EXT_OP_MARK, MarkLog::Fn, &log),
      ROCTRACER_STATUS_SUCCESS);
  ASSERT_EQ(roctracer_enable_op_activity(ACTIVITY_DOMAIN_EXT_API,
                                         ACTIVITY_EXT_OP_MARK),
            ROCTRACER_STATUS_SUCCESS);
  std::string text = "phase one";
  roctracer_mark(text.c_str());
  text.assign("overwritten");
  roctracer_flush_buf();
  EXPECT_EQ(log.calls, 1);
  EXPECT_EQ(log.last, "phase one");
  const auto got = collector.records();
  ASSERT_EQ(got.size(), 1u);
  EXPECT_EQ(got[0].record.domain, ACTIVITY_DOMAIN_EXT_API);
  EXPECT_EQ(got[0].record.op, ACTIVITY_EXT_OP_MARK);
  EXPECT_NE(got[0].record.correlation_id, 0u);
  EXPECT_EQ(got[0].message, "phase one");
}

}  // namespace
}  // namespace roctracer_test
