// rocTX: levels, range IDs, and what a tracer receives (callbacks with the
// message, activity records with their own copy of it). Both libraries are
// linked statically here, so the test attaches them explicitly, as the
// load-time handshake would.
#include <gtest/gtest.h>
#include <roctracer.h>
#include <roctracer_ext.h>
#include <roctracer_roctx.h>
#include <roctx.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <cstring>
#include <mutex>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "runtime/private/roctx_link.h"
#include "tests/core/collector.h"
#include "tests/core/reset.h"

extern "C" void roctracer_mark(const char* str);

namespace roctracer_test {
namespace {

struct Seen {
  uint32_t domain;
  uint32_t op;
  std::string message;
  bool has_message;
  uint64_t id;
};

struct CallbackLog {
  std::mutex mutex;
  std::vector<Seen> seen;
  static void Fn(uint32_t domain, uint32_t op, const void* data, void* arg) {
    auto* self = static_cast<CallbackLog*>(arg);
    const auto* d = static_cast<const roctx_api_data_t*>(data);
    std::lock_guard<std::mutex> lock(self->mutex);
    self->seen.push_back({domain, op, d->args.message ? d->args.message : "",
                          d->args.message != nullptr, d->args.id});
  }
};

class Roctx : public TracerTest {
 protected:
  static void SetUpTestSuite() {
    roctracer::AttachRoctx(roctx_internal_link());
  }
};

TEST_F(Roctx, Versions) {
  EXPECT_EQ(roctx_version_major(), 4u);
  EXPECT_EQ(roctx_version_minor(), 1u);
}

TEST_F(Roctx, PushPopReturnNestingLevels) {
  EXPECT_EQ(roctxRangePush("a"), 0);
  EXPECT_EQ(roctxRangePushA("b"), 1);
  EXPECT_EQ(roctxRangePush(nullptr), 2);
  EXPECT_EQ(roctxRangePop(), 2);
  EXPECT_EQ(roctxRangePop(), 1);
  EXPECT_EQ(roctxRangePop(), 0);
  EXPECT_LT(roctxRangePop(), 0);
  EXPECT_LT(roctxRangePop(), 0);
  EXPECT_EQ(roctxRangePush("again"), 0);  // an extra pop did not corrupt it
  EXPECT_EQ(roctxRangePop(), 0);
}

TEST_F(Roctx, LevelsArePerThread) {
  ASSERT_EQ(roctxRangePush("main"), 0);
  int other_level = -5, other_pop = 5;
  std::thread([&] {
    other_level = roctxRangePush("worker");
    roctxRangePop();
    other_pop = roctxRangePop();
  }).join();
  EXPECT_EQ(other_level, 0);
  EXPECT_LT(other_pop, 0);
  EXPECT_EQ(roctxRangePop(), 0);
}

TEST_F(Roctx, RangeIdsAreUniqueAndNonZeroAcrossThreads) {
  constexpr int kThreads = 8, kPerThread = 5000;
  std::vector<std::vector<roctx_range_id_t>> ids(kThreads);
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&ids, t] {
      for (int i = 0; i < kPerThread; ++i) {
        roctx_range_id_t id = roctxRangeStart("r");
        ids[t].push_back(id);
        roctxRangeStop(id);
      }
    });
  }
  for (auto& t : threads) t.join();
  std::set<roctx_range_id_t> unique;
  for (auto& v : ids) unique.insert(v.begin(), v.end());
  EXPECT_EQ(unique.size(), size_t{kThreads} * kPerThread);
  EXPECT_EQ(unique.count(0), 0u);
}

TEST_F(Roctx, NothingReportedWhenNotEnabled) {
  CallbackLog log;
  ASSERT_EQ(roctracer_enable_op_callback(ACTIVITY_DOMAIN_ROCTX,
                                         ROCTX_API_ID_roctxRangePushA,
                                         CallbackLog::Fn, &log),
            ROCTRACER_STATUS_SUCCESS);
  roctxMarkA("not enabled");
  ASSERT_EQ(roctxRangePushA("enabled"), 0);
  roctxRangePop();
  ASSERT_EQ(log.seen.size(), 1u);
  EXPECT_EQ(log.seen[0].op, ROCTX_API_ID_roctxRangePushA);
  EXPECT_EQ(log.seen[0].message, "enabled");
}

TEST_F(Roctx, CallbacksCarryMessagesAndIds) {
  CallbackLog log;
  ASSERT_EQ(roctracer_enable_domain_callback(ACTIVITY_DOMAIN_ROCTX,
                                             CallbackLog::Fn, &log),
            ROCTRACER_STATUS_SUCCESS);
  roctxMark("mark");
  roctxRangePush("push");
  roctxRangePop();
  const roctx_range_id_t id = roctxRangeStart("start");
  roctxRangeStop(id);
  ASSERT_EQ(log.seen.size(), 5u);
  for (const Seen& s : log.seen) EXPECT_EQ(s.domain, ACTIVITY_DOMAIN_ROCTX);
  EXPECT_EQ(log.seen[0].op, ROCTX_API_ID_roctxMarkA);
  EXPECT_EQ(log.seen[0].message, "mark");
  EXPECT_EQ(log.seen[1].op, ROCTX_API_ID_roctxRangePushA);
  EXPECT_EQ(log.seen[1].message, "push");
  EXPECT_EQ(log.seen[2].op, ROCTX_API_ID_roctxRangePop);
  EXPECT_FALSE(log.seen[2].has_message);
  EXPECT_EQ(log.seen[3].op, ROCTX_API_ID_roctxRangeStartA);
  EXPECT_EQ(log.seen[3].message, "start");
  EXPECT_EQ(log.seen[3].id, id);
  EXPECT_EQ(log.seen[4].op, ROCTX_API_ID_roctxRangeStop);
  EXPECT_EQ(log.seen[4].id, id);

  roctracer_stop();
  roctxMark("while stopped");
  roctracer_start();
  roctxMark("after start");
  ASSERT_EQ(log.seen.size(), 6u);
  EXPECT_EQ(log.seen[5].message, "after start");
}

TEST_F(Roctx, RecordsCarryACopyOfTheMessage) {
  Collector& collector = NewCollector();
  const roctracer_properties_t props = collector.Properties(256);
  ASSERT_EQ(roctracer_open_pool(&props), ROCTRACER_STATUS_SUCCESS);
  ASSERT_EQ(roctracer_enable_domain_activity(ACTIVITY_DOMAIN_ROCTX),
            ROCTRACER_STATUS_SUCCESS);
  uint64_t before = 0, after = 0;
  roctracer_get_timestamp(&before);
  {
    // The caller's buffer is overwritten right after each call: the records
    // must not point at it.
    char message[64];
    for (int i = 0; i < 20; ++i) {
      std::snprintf(message, sizeof(message), "mark %d", i);
      roctxMarkA(message);
      std::memset(message, 'X', sizeof(message) - 1);
    }
    // Longer than a whole 256-byte buffer: a record and its text share one
    // delivery, so the text is cut to what an empty buffer holds beside the
    // 64-byte record (256 - 64 bytes, NUL included), never dropped.
    std::string longer(300, 'L');
    roctxRangePushA(longer.c_str());
    longer.assign(300, 'Z');
    roctxRangePop();
    roctxMarkA(nullptr);
  }
  roctracer_get_timestamp(&after);
  ASSERT_EQ(roctracer_flush_activity(), ROCTRACER_STATUS_SUCCESS);
  const auto got = collector.records();
  ASSERT_EQ(got.size(), 23u);
  const uint32_t tid = static_cast<uint32_t>(syscall(SYS_gettid));
  for (int i = 0; i < 20; ++i) {
    EXPECT_EQ(got[i].record.domain, ACTIVITY_DOMAIN_ROCTX);
    EXPECT_EQ(got[i].record.op, ROCTX_API_ID_roctxMarkA);
    ASSERT_TRUE(got[i].has_message);
    EXPECT_EQ(got[i].message, "mark " + std::to_string(i));
    EXPECT_EQ(got[i].record.thread_id, tid);
    EXPECT_EQ(got[i].record.process_id, static_cast<uint32_t>(getpid()));
    EXPECT_LE(before, got[i].record.begin_ns);
    EXPECT_LE(got[i].record.end_ns, after);
  }
  EXPECT_EQ(got[20].record.op, ROCTX_API_ID_roctxRangePushA);
  EXPECT_EQ(got[20].message, std::string(256 - 64 - 1, 'L'));
  EXPECT_EQ(got[21].record.op, ROCTX_API_ID_roctxRangePop);
  EXPECT_FALSE(got[21].has_message);
  EXPECT_EQ(got[22].record.op, ROCTX_API_ID_roctxMarkA);
  EXPECT_FALSE(got[22].has_message);
}

// A pop with no open range returns -1 and closes nothing, but it is a call
// the application made: callbacks and records get it as any pop (ROCm's
// libroctx reports every pop before it looks at the level). roctracer's
// callback data and record carry no result, so nothing tells it apart.
TEST_F(Roctx, APopWithNoOpenRangeIsReported) {
  CallbackLog log;
  ASSERT_EQ(roctracer_enable_domain_callback(ACTIVITY_DOMAIN_ROCTX,
                                             CallbackLog::Fn, &log),
            ROCTRACER_STATUS_SUCCESS);
  Collector& collector = NewCollector();
  const roctracer_properties_t props = collector.Properties(4096);
  ASSERT_EQ(roctracer_open_pool(&props), ROCTRACER_STATUS_SUCCESS);
  ASSERT_EQ(roctracer_enable_domain_activity(ACTIVITY_DOMAIN_ROCTX),
            ROCTRACER_STATUS_SUCCESS);
  EXPECT_EQ(roctxRangePop(), -1);
  EXPECT_EQ(roctxRangePushA("after"), 0);  // the level is still 0
  EXPECT_EQ(roctxRangePop(), 0);
  ASSERT_EQ(roctracer_flush_activity(), ROCTRACER_STATUS_SUCCESS);

  ASSERT_EQ(log.seen.size(), 3u);
  EXPECT_EQ(log.seen[0].op, ROCTX_API_ID_roctxRangePop);
  EXPECT_FALSE(log.seen[0].has_message);
  EXPECT_EQ(log.seen[0].id, 0u);  // roctracer's callback never sees a level
  EXPECT_EQ(log.seen[1].op, ROCTX_API_ID_roctxRangePushA);
  EXPECT_EQ(log.seen[2].op, ROCTX_API_ID_roctxRangePop);
  const auto got = collector.records();
  ASSERT_EQ(got.size(), 3u);
  const uint32_t ops[] = {ROCTX_API_ID_roctxRangePop,
                          ROCTX_API_ID_roctxRangePushA,
                          ROCTX_API_ID_roctxRangePop};
  std::set<uint64_t> ids;
  for (size_t i = 0; i < 3; ++i) {
    EXPECT_EQ(got[i].record.domain, ACTIVITY_DOMAIN_ROCTX);
    EXPECT_EQ(got[i].record.op, ops[i]);
    EXPECT_EQ(got[i].record.thread_id,
              static_cast<uint32_t>(syscall(SYS_gettid)));
    ids.insert(got[i].record.correlation_id);
  }
  EXPECT_FALSE(got[0].has_message);
  EXPECT_EQ(ids.size(), 3u);  // a call of its own
}

// libroctx alone never reads a message; the tracer copies it into the
// record, without trusting the pointer: an unreadable one is recorded as the
// text "<unreadable>".
TEST_F(Roctx, UnreadableMessagesAreRecordedAsSuch) {
  Collector& collector = NewCollector();
  const roctracer_properties_t props = collector.Properties(4096);
  ASSERT_EQ(roctracer_open_pool(&props), ROCTRACER_STATUS_SUCCESS);
  ASSERT_EQ(roctracer_enable_domain_activity(ACTIVITY_DOMAIN_ROCTX),
            ROCTRACER_STATUS_SUCCESS);
  void* pages = mmap(nullptr, 2 * 4096, PROT_READ | PROT_WRITE,
                     MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  ASSERT_NE(pages, MAP_FAILED);
  char* readable = static_cast<char*>(pages);
  munmap(readable + 4096, 4096);
  std::memset(readable, 'r', 4096);  // runs into the unmapped page
  roctxMarkA(reinterpret_cast<const char*>(0x10));
  roctxMarkA(readable + 4096 + 16);
  roctxRangePushA(readable + 4000);
  readable[4095] = '\0';
  roctxMarkA(readable + 4000);  // ends just before the unmapped page
  roctxRangePop();
  ASSERT_EQ(roctracer_flush_activity(), ROCTRACER_STATUS_SUCCESS);
  const auto got = collector.records();
  ASSERT_EQ(got.size(), 5u);
  for (int i = 0; i < 3; ++i) {
    ASSERT_TRUE(got[i].has_message);
    EXPECT_EQ(got[i].message, "<unreadable>");
  }
  EXPECT_EQ(got[3].message, std::string(95, 'r'));
  EXPECT_EQ(got[4].record.op, ROCTX_API_ID_roctxRangePop);
  munmap(readable, 4096);
}

// With an external ID pushed, each annotation's record is preceded by an
// EXT_API record that tags that annotation's own (non-zero) correlation ID.
TEST_F(Roctx, ExternalIdTagsEachAnnotation) {
  Collector& collector = NewCollector();
  const roctracer_properties_t props = collector.Properties();
  ASSERT_EQ(roctracer_open_pool(&props), ROCTRACER_STATUS_SUCCESS);
  ASSERT_EQ(roctracer_enable_domain_activity(ACTIVITY_DOMAIN_ROCTX),
            ROCTRACER_STATUS_SUCCESS);
  ASSERT_EQ(roctracer_activity_push_external_correlation_id(77),
            ROCTRACER_STATUS_SUCCESS);
  roctxMarkA("first");
  roctxMarkA("second");
  activity_correlation_id_t last = 0;
  ASSERT_EQ(roctracer_activity_pop_external_correlation_id(&last),
            ROCTRACER_STATUS_SUCCESS);
  ASSERT_EQ(roctracer_flush_activity(), ROCTRACER_STATUS_SUCCESS);
  const auto got = collector.records();
  ASSERT_EQ(got.size(), 4u);
  for (size_t i = 0; i < 4; i += 2) {
    EXPECT_EQ(got[i].record.domain, ACTIVITY_DOMAIN_EXT_API);
    EXPECT_EQ(got[i].record.op, ACTIVITY_EXT_OP_EXTERN_ID);
    EXPECT_EQ(got[i].record.external_id, 77u);
    EXPECT_EQ(got[i + 1].record.domain, ACTIVITY_DOMAIN_ROCTX);
    EXPECT_NE(got[i + 1].record.correlation_id, 0u);
    EXPECT_EQ(got[i].record.correlation_id, got[i + 1].record.correlation_id);
  }
  EXPECT_NE(got[1].record.correlation_id, got[3].record.correlation_id);
}

// A range's start and stop records pair up through correlation_id, and that
// ID names nothing else: not an API call, not a mark, not another range; the
// EXT_API record in front of each record tags exactly that record.
TEST_F(Roctx, RangeIdsNeverCollideWithCorrelationIds) {
  Collector& collector = NewCollector();
  const roctracer_properties_t props = collector.Properties();
  ASSERT_EQ(roctracer_open_pool(&props), ROCTRACER_STATUS_SUCCESS);
  ASSERT_EQ(roctracer_enable_domain_activity(ACTIVITY_DOMAIN_ROCTX),
            ROCTRACER_STATUS_SUCCESS);
  ASSERT_EQ(roctracer_enable_op_activity(ACTIVITY_DOMAIN_EXT_API,
                                         ACTIVITY_EXT_OP_MARK),
            ROCTRACER_STATUS_SUCCESS);
  ASSERT_EQ(roctracer_activity_push_external_correlation_id(5),
            ROCTRACER_STATUS_SUCCESS);
  roctracer_mark("api-like");  // draws a correlation ID
  const roctx_range_id_t range = roctxRangeStartA("range");
  roctxMarkA("inside");
  roctxRangeStop(range);
  activity_correlation_id_t last = 0;
  ASSERT_EQ(roctracer_activity_pop_external_correlation_id(&last),
            ROCTRACER_STATUS_SUCCESS);
  ASSERT_EQ(roctracer_flush_activity(), ROCTRACER_STATUS_SUCCESS);

  const auto got = collector.records();
  ASSERT_EQ(got.size(), 8u);
  std::vector<uint64_t> ids;
  for (size_t i = 0; i < got.size(); i += 2) {
    EXPECT_EQ(got[i].record.domain, ACTIVITY_DOMAIN_EXT_API);
    EXPECT_EQ(got[i].record.op, ACTIVITY_EXT_OP_EXTERN_ID);
    EXPECT_EQ(got[i].record.external_id, 5u);
    EXPECT_EQ(got[i].record.correlation_id, got[i + 1].record.correlation_id);
    ids.push_back(got[i + 1].record.correlation_id);
  }
  EXPECT_EQ(got[3].record.op, ROCTX_API_ID_roctxRangeStartA);
  EXPECT_EQ(got[7].record.op, ROCTX_API_ID_roctxRangeStop);
  EXPECT_EQ(ids[1], range);
  EXPECT_EQ(ids[3], range);
  EXPECT_EQ(std::set<uint64_t>({ids[0], ids[1], ids[2]}).size(), 3u);
  // While the tracer is attached the range ID is drawn from the same
  // counter as every correlation ID, in call order on this thread.
  EXPECT_LT(ids[0], range);
  EXPECT_LT(range, ids[2]);
}

TEST_F(Roctx, ConcurrentAnnotationsWhileEnablingAndDisabling) {
  Collector& collector = NewCollector();
  const roctracer_properties_t props = collector.Properties(4096);
  ASSERT_EQ(roctracer_open_pool(&props), ROCTRACER_STATUS_SUCCESS);
  CallbackLog log;
  std::atomic<bool> done{false};
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&] {
      while (!done.load()) {
        roctxRangePush("p");
        roctxMark("m");
        roctxRangePop();
      }
    });
  }
  for (int i = 0; i < 200; ++i) {
    ASSERT_EQ(roctracer_enable_domain_activity(ACTIVITY_DOMAIN_ROCTX),
              ROCTRACER_STATUS_SUCCESS);
    ASSERT_EQ(roctracer_enable_domain_callback(ACTIVITY_DOMAIN_ROCTX,
                                               CallbackLog::Fn, &log),
              ROCTRACER_STATUS_SUCCESS);
    ASSERT_EQ(roctracer_disable_domain_activity(ACTIVITY_DOMAIN_ROCTX),
              ROCTRACER_STATUS_SUCCESS);
    ASSERT_EQ(roctracer_disable_domain_callback(ACTIVITY_DOMAIN_ROCTX),
              ROCTRACER_STATUS_SUCCESS);
  }
  done = true;
  for (auto& t : threads) t.join();
  ASSERT_EQ(roctracer_flush_activity(), ROCTRACER_STATUS_SUCCESS);
  for (const auto& c : collector.records()) {
    ASSERT_EQ(c.record.domain, ACTIVITY_DOMAIN_ROCTX);
    if (c.record.op != ROCTX_API_ID_roctxRangePop) {
      ASSERT_TRUE(c.has_message);
      EXPECT_TRUE(c.message == "p" || c.message == "m") << c.message;
    }
  }
}

}  // namespace
}  // namespace roctracer_test
