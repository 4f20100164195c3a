// 8 threads calling traced HSA APIs at once, with callbacks, an activity
// pool and the consumer all enabled: every ENTER has its EXIT on the same
// thread with the same ID, IDs are unique, and every activity record matches
// a callback's correlation ID. The calls take an HSA program's path: the
// exported functions of softhsa (//softhsa, the program's
// libhsa-runtime64.so.1) dispatch through the runtime's table, into which
// the runtime had the tracer (linked statically, for its internals) put its
// wrappers from HSA_TOOLS_LIB at hsa_init (libprogram_tool.so hands that
// OnLoad call to this program's tracer).
#include <gtest/gtest.h>
#include <hsa/hsa_api_trace.h>
#include <roctracer.h>
#include <roctracer_hsa.h>

#include <atomic>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <set>
#include <thread>
#include <unordered_map>
#include <vector>

#include "runtime/intercept/api_consumer.h"
#include "tests/core/reset.h"
#include "tests/intercept/program_tool.h"

extern "C" bool OnLoad(HsaApiTable*, uint64_t, uint64_t, const char* const*);
extern "C" void OnUnload();

namespace {

constexpr int kThreads = 8;
constexpr int kCallsPerThread = 5000;

struct PerThread {
  std::vector<uint64_t> open;  // stack of ENTERed IDs
  std::vector<uint64_t> completed;
  int unmatched = 0;
  int bad_strings = 0;
};
thread_local PerThread* t_log = nullptr;
std::atomic<int> g_consumer_enters{0};
std::atomic<int> g_consumer_exits{0};

void Callback(uint32_t, uint32_t op, const void* data, void*) {
  const auto* d = static_cast<const hsa_api_data_t*>(data);
  PerThread& log = *t_log;
  if (d->phase == ACTIVITY_API_PHASE_ENTER) {
    log.open.push_back(d->correlation_id);
    if (op == HSA_API_ID_hsa_executable_get_symbol_by_name &&
        std::strcmp(d->args.hsa_executable_get_symbol_by_name.symbol_name,
                    "symbol") != 0) {
      ++log.bad_strings;
    }
  } else {
    if (log.open.empty() || log.open.back() != d->correlation_id) {
      ++log.unmatched;
    } else {
      log.open.pop_back();
      log.completed.push_back(d->correlation_id);
    }
  }
}

void Consumer(const roctracer::ApiCallInfo& info) noexcept {
  (info.phase == ACTIVITY_API_PHASE_ENTER ? g_consumer_enters
                                          : g_consumer_exits)
      .fetch_add(1, std::memory_order_relaxed);
}

class ThreadsTest : public roctracer_test::TracerTest {};

TEST_F(ThreadsTest, EightThreadsEveryEnterHasItsExitAndItsRecord) {
  program_tool_register(&OnLoad, &OnUnload);
  setenv("HSA_TOOLS_LIB", "libprogram_tool.so", 1);
  ASSERT_EQ(hsa_init(), HSA_STATUS_SUCCESS);
  auto& collector = NewCollector();
  roctracer_properties_t properties = collector.Properties(1 << 16);
  ASSERT_EQ(roctracer_open_pool(&properties), ROCTRACER_STATUS_SUCCESS);
  ASSERT_EQ(roctracer_enable_domain_callback(ACTIVITY_DOMAIN_HSA_API, &Callback,
                                             nullptr),
            ROCTRACER_STATUS_SUCCESS);
  ASSERT_EQ(roctracer_enable_domain_activity(ACTIVITY_DOMAIN_HSA_API),
            ROCTRACER_STATUS_SUCCESS);
  roctracer::SetApiConsumer(&Consumer);
  roctracer::SetConsumerInterest(ACTIVITY_DOMAIN_HSA_API,
                                 HSA_API_ID_hsa_status_string, true);

  std::vector<PerThread> logs(kThreads);
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&logs, t] {
      t_log = &logs[t];
      for (int i = 0; i < kCallsPerThread; ++i) {
        const char* text;
        hsa_status_string(HSA_STATUS_SUCCESS, &text);
        hsa_agent_t agent{1};
        hsa_executable_symbol_t symbol;
        hsa_executable_get_symbol_by_name(hsa_executable_t{1}, "symbol", &agent,
                                          &symbol);
      }
    });
  }
  for (auto& th : threads) th.join();
  ASSERT_EQ(roctracer_flush_activity(), ROCTRACER_STATUS_SUCCESS);
  roctracer::SetConsumerInterest(ACTIVITY_DOMAIN_HSA_API,
                                 HSA_API_ID_hsa_status_string, false);
  roctracer::SetApiConsumer(nullptr);
  // The runtime's last call, untraced: the callbacks log threads above only.
  ASSERT_EQ(roctracer_disable_domain_callback(ACTIVITY_DOMAIN_HSA_API),
            ROCTRACER_STATUS_SUCCESS);
  ASSERT_EQ(roctracer_disable_domain_activity(ACTIVITY_DOMAIN_HSA_API),
            ROCTRACER_STATUS_SUCCESS);
  ASSERT_EQ(hsa_shut_down(), HSA_STATUS_SUCCESS);  // the tracer's OnUnload

  std::set<uint64_t> ids;
  for (const PerThread& log : logs) {
    EXPECT_EQ(log.unmatched, 0);
    EXPECT_EQ(log.bad_strings, 0);
    EXPECT_TRUE(log.open.empty());
    EXPECT_EQ(log.completed.size(), 2u * kCallsPerThread);
    ids.insert(log.completed.begin(), log.completed.end());
  }
  EXPECT_EQ(ids.size(), 2u * kThreads * kCallsPerThread);  // unique
  EXPECT_EQ(g_consumer_enters.load(), kThreads * kCallsPerThread);
  EXPECT_EQ(g_consumer_exits.load(), kThreads * kCallsPerThread);

  size_t records = 0;
  std::set<uint64_t> record_ids;
  for (const auto& c : collector.records()) {
    if (c.record.domain != ACTIVITY_DOMAIN_HSA_API) continue;
    ++records;
    record_ids.insert(c.record.correlation_id);
    EXPECT_TRUE(ids.count(c.record.correlation_id)) << c.record.correlation_id;
  }
  EXPECT_EQ(records, ids.size());
  EXPECT_EQ(record_ids, ids);
}

}  // namespace
