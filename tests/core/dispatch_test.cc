// What the interception layer sees through the dispatch slots: callbacks and
// pools per (domain, op), active flags, start/stop, pool close, and the
// EXT_API-then-API record order. The interception layer is stood in for by
// calling CallbackFor / ActivityPoolFor / EmitApiActivity directly, and the
// generated HSA_API tables by a three-op fake registered the same way.
#include <gtest/gtest.h>
#include <roctracer.h>
#include <roctracer_ext.h>
#include <roctracer_roctx.h>

#include <array>
#include <atomic>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <thread>
#include <vector>

#include "runtime/activity/activity_emit.h"
#include "runtime/activity/correlation.h"
#include "runtime/activity/domain_registry.h"
#include "runtime/activity/op_slots.h"
#include "runtime/private/tool_activity.h"
#include "tests/core/collector.h"
#include "tests/core/reset.h"

namespace roctracer_test {
namespace {

using roctracer::activity::ActivityPoolFor;
using roctracer::activity::CallbackFor;

constexpr const char* kFakeNames[] = {"hsa_init", "hsa_shut_down",
                                      "hsa_status_string"};
constexpr uint32_t kFakeOps = 3;
std::atomic<uint8_t> g_fake_active[kFakeOps];

const char* FakeName(uint32_t op) {
  return op < kFakeOps ? kFakeNames[op] : nullptr;
}
bool FakeId(const char* name, uint32_t* op) {
  for (uint32_t i = 0; i < kFakeOps; ++i) {
    if (std::strcmp(kFakeNames[i], name) == 0) {
      *op = i;
      return true;
    }
  }
  return false;
}

class Dispatch : public TracerTest {
 protected:
  static void SetUpTestSuite() {
    ASSERT_TRUE(roctracer::activity::RegisterApiDomain(
        ACTIVITY_DOMAIN_HSA_API, kFakeOps, FakeName, FakeId));
    ASSERT_TRUE(roctracer::activity::RegisterActiveFlags(
        ACTIVITY_DOMAIN_HSA_API, g_fake_active, kFakeOps));
  }
  static bool Active(uint32_t op) { return g_fake_active[op].load() != 0; }
};

void CallbackA(uint32_t, uint32_t, const void*, void*) {}
void CallbackB(uint32_t, uint32_t, const void*, void*) {}

TEST_F(Dispatch, RegistrationRules) {
  EXPECT_TRUE(roctracer::activity::RegisterApiDomain(
      ACTIVITY_DOMAIN_HSA_API, kFakeOps, FakeName, FakeId));
  EXPECT_FALSE(roctracer::activity::RegisterApiDomain(ACTIVITY_DOMAIN_HSA_API,
                                                      4, FakeName, FakeId));
  EXPECT_FALSE(roctracer::activity::RegisterApiDomain(ACTIVITY_DOMAIN_NUMBER, 1,
                                                      FakeName, FakeId));
  EXPECT_FALSE(roctracer::activity::RegisterApiDomain(ACTIVITY_DOMAIN_HIP_API,
                                                      0, FakeName, FakeId));
  EXPECT_FALSE(roctracer::activity::RegisterApiDomain(ACTIVITY_DOMAIN_HIP_API,
                                                      2, nullptr, FakeId));
  EXPECT_FALSE(roctracer::activity::RegisterActiveFlags(
      ACTIVITY_DOMAIN_NUMBER, g_fake_active, kFakeOps));
  EXPECT_FALSE(roctracer::activity::RegisterActiveFlags(ACTIVITY_DOMAIN_HSA_API,
                                                        nullptr, 1));
}

TEST_F(Dispatch, RegisteredDomainNamesAreServedByTheApi) {
  EXPECT_STREQ(roctracer_op_string(ACTIVITY_DOMAIN_HSA_API, 2, 0),
               "hsa_status_string");
  uint32_t op = 99;
  ASSERT_EQ(
      roctracer_op_code(ACTIVITY_DOMAIN_HSA_API, "hsa_shut_down", &op, nullptr),
      ROCTRACER_STATUS_SUCCESS);
  EXPECT_EQ(op, 1u);
  EXPECT_EQ(roctracer_enable_op_callback(ACTIVITY_DOMAIN_HSA_API, kFakeOps,
                                         CallbackA, nullptr),
            ROCTRACER_STATUS_ERROR_INVALID_ARGUMENT);
}

TEST_F(Dispatch, UnregisteredApiDomainIsRejected) {
  // HIP_API has no tables in this binary.
  EXPECT_EQ(roctracer_enable_domain_callback(ACTIVITY_DOMAIN_HIP_API, CallbackA,
                                             nullptr),
            ROCTRACER_STATUS_ERROR_INVALID_DOMAIN_ID);
  EXPECT_EQ(CallbackFor(ACTIVITY_DOMAIN_HIP_API, 0), nullptr);
}

TEST_F(Dispatch, OpCallbackCoversExactlyThatOp) {
  int arg = 0;
  ASSERT_EQ(
      roctracer_enable_op_callback(ACTIVITY_DOMAIN_HSA_API, 1, CallbackA, &arg),
      ROCTRACER_STATUS_SUCCESS);
  const roctracer::activity::CallbackEntry* entry =
      CallbackFor(ACTIVITY_DOMAIN_HSA_API, 1);
  ASSERT_NE(entry, nullptr);
  EXPECT_EQ(entry->fn, &CallbackA);
  EXPECT_EQ(entry->arg, &arg);
  EXPECT_EQ(CallbackFor(ACTIVITY_DOMAIN_HSA_API, 0), nullptr);
  EXPECT_EQ(CallbackFor(ACTIVITY_DOMAIN_HSA_API, 2), nullptr);
  EXPECT_FALSE(Active(0));
  EXPECT_TRUE(Active(1));
  EXPECT_FALSE(Active(2));
  // Out-of-range lookups are harmless.
  EXPECT_EQ(CallbackFor(ACTIVITY_DOMAIN_HSA_API, kFakeOps), nullptr);
  EXPECT_EQ(CallbackFor(ACTIVITY_DOMAIN_NUMBER, 0), nullptr);
  EXPECT_EQ(CallbackFor(0xffffffffu, 0), nullptr);

  ASSERT_EQ(roctracer_disable_op_callback(ACTIVITY_DOMAIN_HSA_API, 1),
            ROCTRACER_STATUS_SUCCESS);
  EXPECT_EQ(CallbackFor(ACTIVITY_DOMAIN_HSA_API, 1), nullptr);
  EXPECT_FALSE(Active(1));
}

TEST_F(Dispatch, DomainAndGlobalCallbacks) {
  int a = 0, b = 0;
  ASSERT_EQ(
      roctracer_enable_domain_callback(ACTIVITY_DOMAIN_HSA_API, CallbackA, &a),
      ROCTRACER_STATUS_SUCCESS);
  for (uint32_t op = 0; op < kFakeOps; ++op) {
    ASSERT_NE(CallbackFor(ACTIVITY_DOMAIN_HSA_API, op), nullptr);
    EXPECT_EQ(CallbackFor(ACTIVITY_DOMAIN_HSA_API, op)->arg, &a);
    EXPECT_TRUE(Active(op));
  }
  EXPECT_EQ(CallbackFor(ACTIVITY_DOMAIN_ROCTX, 0), nullptr);

  // A later enable replaces the callback of the ops it covers.
  ASSERT_EQ(
      roctracer_enable_op_callback(ACTIVITY_DOMAIN_HSA_API, 2, CallbackB, &b),
      ROCTRACER_STATUS_SUCCESS);
  EXPECT_EQ(CallbackFor(ACTIVITY_DOMAIN_HSA_API, 2)->fn, &CallbackB);
  EXPECT_EQ(CallbackFor(ACTIVITY_DOMAIN_HSA_API, 1)->fn, &CallbackA);

  ASSERT_EQ(roctracer_enable_callback(CallbackB, &b), ROCTRACER_STATUS_SUCCESS);
  for (uint32_t d = 0; d < ACTIVITY_DOMAIN_NUMBER; ++d) {
    if (d == ACTIVITY_DOMAIN_KFD_API || d == ACTIVITY_DOMAIN_HIP_API) {
      EXPECT_EQ(CallbackFor(d, 0), nullptr);
      continue;
    }
    ASSERT_NE(CallbackFor(d, 0), nullptr) << d;
    EXPECT_EQ(CallbackFor(d, 0)->fn, &CallbackB) << d;
  }
  ASSERT_EQ(roctracer_disable_domain_callback(ACTIVITY_DOMAIN_HSA_API),
            ROCTRACER_STATUS_SUCCESS);
  EXPECT_EQ(CallbackFor(ACTIVITY_DOMAIN_HSA_API, 0), nullptr);
  EXPECT_NE(CallbackFor(ACTIVITY_DOMAIN_ROCTX, 0), nullptr);
  ASSERT_EQ(roctracer_disable_callback(), ROCTRACER_STATUS_SUCCESS);
  for (uint32_t d = 0; d < ACTIVITY_DOMAIN_NUMBER; ++d) {
    EXPECT_EQ(CallbackFor(d, 0), nullptr) << d;
  }
}

TEST_F(Dispatch, ActivityGoesToTheChosenPool) {
  Collector& c1 = NewCollector();
  Collector& c2 = NewCollector();
  const roctracer_properties_t p1 = c1.Properties(), p2 = c2.Properties();
  ASSERT_EQ(roctracer_open_pool(&p1), ROCTRACER_STATUS_SUCCESS);
  roctracer_pool_t* other = nullptr;
  ASSERT_EQ(roctracer_open_pool_expl(&p2, &other), ROCTRACER_STATUS_SUCCESS);
  ASSERT_EQ(roctracer_enable_op_activity(ACTIVITY_DOMAIN_HSA_API, 0),
            ROCTRACER_STATUS_SUCCESS);
  ASSERT_EQ(
      roctracer_enable_op_activity_expl(ACTIVITY_DOMAIN_HSA_API, 1, other),
      ROCTRACER_STATUS_SUCCESS);
  EXPECT_EQ(static_cast<void*>(ActivityPoolFor(ACTIVITY_DOMAIN_HSA_API, 0)),
            roctracer_default_pool());
  EXPECT_EQ(static_cast<void*>(ActivityPoolFor(ACTIVITY_DOMAIN_HSA_API, 1)),
            other);
  EXPECT_EQ(ActivityPoolFor(ACTIVITY_DOMAIN_HSA_API, 2), nullptr);
  EXPECT_TRUE(Active(0));
  EXPECT_TRUE(Active(1));
  EXPECT_FALSE(Active(2));

  activity_record_t r{};
  r.domain = ACTIVITY_DOMAIN_HSA_API;
  r.op = 0;
  r.correlation_id = 100;
  EXPECT_TRUE(roctracer::activity::EmitApiActivity(r));
  r.op = 1;
  r.correlation_id = 101;
  EXPECT_TRUE(roctracer::activity::EmitApiActivity(r));
  r.op = 2;
  EXPECT_FALSE(roctracer::activity::EmitApiActivity(r));  // not enabled
  ASSERT_EQ(roctracer_flush_activity(), ROCTRACER_STATUS_SUCCESS);
  ASSERT_EQ(roctracer_flush_activity_expl(other), ROCTRACER_STATUS_SUCCESS);
  ASSERT_EQ(c1.size(), 1u);
  EXPECT_EQ(c1.records()[0].record.correlation_id, 100u);
  ASSERT_EQ(c2.size(), 1u);
  EXPECT_EQ(c2.records()[0].record.correlation_id, 101u);

  ASSERT_EQ(roctracer_disable_op_activity(ACTIVITY_DOMAIN_HSA_API, 0),
            ROCTRACER_STATUS_SUCCESS);
  EXPECT_EQ(ActivityPoolFor(ACTIVITY_DOMAIN_HSA_API, 0), nullptr);
  EXPECT_FALSE(Active(0));
  EXPECT_EQ(roctracer_close_pool_expl(other), ROCTRACER_STATUS_SUCCESS);
}

TEST_F(Dispatch, ClosingAPoolDisablesItsActivitiesAndFlushesIt) {
  Collector& closing = NewCollector();
  Collector& staying = NewCollector();
  const roctracer_properties_t p1 = closing.Properties(),
                               p2 = staying.Properties();
  roctracer_pool_t* a = nullptr;
  roctracer_pool_t* b = nullptr;
  ASSERT_EQ(roctracer_open_pool_expl(&p1, &a), ROCTRACER_STATUS_SUCCESS);
  ASSERT_EQ(roctracer_open_pool_expl(&p2, &b), ROCTRACER_STATUS_SUCCESS);
  ASSERT_EQ(roctracer_enable_domain_activity_expl(ACTIVITY_DOMAIN_HSA_API, a),
            ROCTRACER_STATUS_SUCCESS);
  ASSERT_EQ(roctracer_enable_domain_activity_expl(ACTIVITY_DOMAIN_ROCTX, b),
            ROCTRACER_STATUS_SUCCESS);
  activity_record_t r{};
  r.domain = ACTIVITY_DOMAIN_HSA_API;
  for (uint32_t i = 0; i < 10; ++i) {
    r.op = i % kFakeOps;
    r.correlation_id = i + 1;
    ASSERT_TRUE(roctracer::activity::EmitApiActivity(r));
  }
  // Held across the close, as an intercepting thread might.
  roctracer::pool::Pool* stale = ActivityPoolFor(ACTIVITY_DOMAIN_HSA_API, 0);
  ASSERT_EQ(roctracer_close_pool_expl(a), ROCTRACER_STATUS_SUCCESS);
  EXPECT_EQ(closing.size(), 10u);  // flushed by the close
  for (uint32_t op = 0; op < kFakeOps; ++op) {
    EXPECT_EQ(ActivityPoolFor(ACTIVITY_DOMAIN_HSA_API, op), nullptr);
    EXPECT_FALSE(Active(op));
  }
  EXPECT_EQ(static_cast<void*>(ActivityPoolFor(ACTIVITY_DOMAIN_ROCTX, 0)), b);
  EXPECT_FALSE(
      roctracer::activity::EmitApiActivityTo(stale, r));  // closed: refused
  EXPECT_EQ(closing.size(), 10u);
  EXPECT_EQ(roctracer_close_pool_expl(b), ROCTRACER_STATUS_SUCCESS);
  EXPECT_EQ(ActivityPoolFor(ACTIVITY_DOMAIN_ROCTX, 0), nullptr);
}

TEST_F(Dispatch, StopSuppressesCallbacksAndRecords) {
  Collector& collector = NewCollector();
  const roctracer_properties_t props = collector.Properties();
  ASSERT_EQ(roctracer_open_pool(&props), ROCTRACER_STATUS_SUCCESS);
  ASSERT_EQ(roctracer_enable_domain_callback(ACTIVITY_DOMAIN_HSA_API, CallbackA,
                                             nullptr),
            ROCTRACER_STATUS_SUCCESS);
  ASSERT_EQ(roctracer_enable_domain_activity(ACTIVITY_DOMAIN_HSA_API),
            ROCTRACER_STATUS_SUCCESS);
  roctracer_stop();
  for (uint32_t op = 0; op < kFakeOps; ++op) {
    EXPECT_EQ(CallbackFor(ACTIVITY_DOMAIN_HSA_API, op), nullptr);
    EXPECT_EQ(ActivityPoolFor(ACTIVITY_DOMAIN_HSA_API, op), nullptr);
    EXPECT_FALSE(Active(op));
  }
  activity_record_t r{};
  r.domain = ACTIVITY_DOMAIN_HSA_API;
  EXPECT_FALSE(roctracer::activity::EmitApiActivity(r));
  // Configuration made while stopped takes effect at start.
  ASSERT_EQ(roctracer_disable_op_callback(ACTIVITY_DOMAIN_HSA_API, 2),
            ROCTRACER_STATUS_SUCCESS);
  roctracer_start();
  EXPECT_NE(CallbackFor(ACTIVITY_DOMAIN_HSA_API, 0), nullptr);
  EXPECT_EQ(CallbackFor(ACTIVITY_DOMAIN_HSA_API, 2), nullptr);
  EXPECT_NE(ActivityPoolFor(ACTIVITY_DOMAIN_HSA_API, 0), nullptr);
  EXPECT_TRUE(Active(0));
  EXPECT_TRUE(Active(2));  // activity still on
  EXPECT_TRUE(roctracer::activity::EmitApiActivity(r));
  ASSERT_EQ(roctracer_flush_activity(), ROCTRACER_STATUS_SUCCESS);
  EXPECT_EQ(collector.size(), 1u);
}

// The tool slot (tool_activity.h): what the program does with the public API
// never reaches it, and both get every record.
TEST_F(Dispatch, ToolSlotIsIndependentOfTheProgramsActivity) {
  Collector& tool = NewCollector();
  Collector& program = NewCollector();
  const roctracer_properties_t pt = tool.Properties(),
                               pp = program.Properties();
  roctracer_pool_t* tool_pool = nullptr;
  ASSERT_EQ(roctracer_open_pool_expl(&pt, &tool_pool),
            ROCTRACER_STATUS_SUCCESS);
  ASSERT_EQ(roctracer_internal_tool_enable_domain_activity(
                ACTIVITY_DOMAIN_HSA_API, tool_pool),
            ROCTRACER_STATUS_SUCCESS);
  EXPECT_TRUE(Active(0));
  EXPECT_EQ(ActivityPoolFor(ACTIVITY_DOMAIN_HSA_API, 0), nullptr);

  ASSERT_EQ(roctracer_open_pool(&pp), ROCTRACER_STATUS_SUCCESS);
  ASSERT_EQ(roctracer_enable_domain_activity(ACTIVITY_DOMAIN_HSA_API),
            ROCTRACER_STATUS_SUCCESS);
  activity_record_t r{};
  r.domain = ACTIVITY_DOMAIN_HSA_API;
  r.correlation_id = 1;
  ASSERT_TRUE(roctracer::activity::EmitApiActivity(r));  // both
  roctracer_stop();
  EXPECT_TRUE(Active(0));
  r.correlation_id = 2;
  ASSERT_TRUE(roctracer::activity::EmitApiActivity(r));  // tool only
  roctracer_start();
  ASSERT_EQ(roctracer_disable_activity(), ROCTRACER_STATUS_SUCCESS);
  EXPECT_TRUE(Active(0));
  r.correlation_id = 3;
  ASSERT_TRUE(roctracer::activity::EmitApiActivity(r));  // tool only
  ASSERT_EQ(roctracer_enable_domain_activity(ACTIVITY_DOMAIN_HSA_API),
            ROCTRACER_STATUS_SUCCESS);
  ASSERT_EQ(roctracer_close_pool(), ROCTRACER_STATUS_SUCCESS);
  r.correlation_id = 4;
  ASSERT_TRUE(roctracer::activity::EmitApiActivity(r));  // tool only
  // The same pool in both slots gets a record once.
  ASSERT_EQ(
      roctracer_enable_op_activity_expl(ACTIVITY_DOMAIN_HSA_API, 0, tool_pool),
      ROCTRACER_STATUS_SUCCESS);
  r.correlation_id = 5;
  ASSERT_TRUE(roctracer::activity::EmitApiActivity(r));
  ASSERT_EQ(roctracer_disable_activity(), ROCTRACER_STATUS_SUCCESS);

  ASSERT_EQ(roctracer_flush_activity_expl(tool_pool), ROCTRACER_STATUS_SUCCESS);
  std::vector<uint64_t> tool_ids, program_ids;
  for (const Collected& c : tool.records())
    tool_ids.push_back(c.record.correlation_id);
  for (const Collected& c : program.records())
    program_ids.push_back(c.record.correlation_id);
  EXPECT_EQ(tool_ids, (std::vector<uint64_t>{1, 2, 3, 4, 5}));
  EXPECT_EQ(program_ids, (std::vector<uint64_t>{1}));

  // Closing the tool's pool is what turns the tool slot off.
  ASSERT_EQ(roctracer_close_pool_expl(tool_pool), ROCTRACER_STATUS_SUCCESS);
  EXPECT_FALSE(Active(0));
  EXPECT_FALSE(roctracer::activity::EmitApiActivity(r));
}

TEST_F(Dispatch, ToolCallbackSitsBesideTheProgramsCallback) {
  ASSERT_EQ(roctracer_internal_tool_enable_op_callback(ACTIVITY_DOMAIN_HSA_API,
                                                       1, CallbackB, nullptr),
            ROCTRACER_STATUS_SUCCESS);
  EXPECT_TRUE(Active(1));
  EXPECT_EQ(CallbackFor(ACTIVITY_DOMAIN_HSA_API, 1), nullptr);
  ASSERT_NE(roctracer::activity::ToolCallbackFor(ACTIVITY_DOMAIN_HSA_API, 1),
            nullptr);
  EXPECT_TRUE(roctracer::activity::TargetsFor(ACTIVITY_DOMAIN_HSA_API, 1)
                  .tool_callback);
  // The program's enable, disable and stop leave it alone.
  ASSERT_EQ(roctracer_enable_domain_callback(ACTIVITY_DOMAIN_HSA_API, CallbackA,
                                             nullptr),
            ROCTRACER_STATUS_SUCCESS);
  EXPECT_EQ(CallbackFor(ACTIVITY_DOMAIN_HSA_API, 1)->fn, &CallbackA);
  EXPECT_EQ(
      roctracer::activity::ToolCallbackFor(ACTIVITY_DOMAIN_HSA_API, 1)->fn,
      &CallbackB);
  ASSERT_EQ(roctracer_disable_callback(), ROCTRACER_STATUS_SUCCESS);
  roctracer_stop();
  EXPECT_TRUE(Active(1));
  EXPECT_EQ(
      roctracer::activity::ToolCallbackFor(ACTIVITY_DOMAIN_HSA_API, 1)->fn,
      &CallbackB);
  roctracer_start();
  // A profiler pause (roctxProfilerPause) does pause it.
  roctracer::activity::SetToolPaused(true);
  EXPECT_FALSE(Active(1));
  EXPECT_EQ(roctracer::activity::ToolCallbackFor(ACTIVITY_DOMAIN_HSA_API, 1),
            nullptr);
  roctracer::activity::SetToolPaused(false);
  EXPECT_TRUE(Active(1));
  ASSERT_EQ(
      roctracer_internal_tool_disable_op_callback(ACTIVITY_DOMAIN_HSA_API, 1),
      ROCTRACER_STATUS_SUCCESS);
  EXPECT_FALSE(Active(1));
  EXPECT_EQ(roctracer::activity::ToolCallbackFor(ACTIVITY_DOMAIN_HSA_API, 1),
            nullptr);
  EXPECT_EQ(roctracer_internal_tool_enable_op_callback(ACTIVITY_DOMAIN_HSA_API,
                                                       0, nullptr, nullptr),
            ROCTRACER_STATUS_ERROR_INVALID_ARGUMENT);
}

TEST_F(Dispatch, ToolSlotRejectsBadArguments) {
  Collector& c = NewCollector();
  const roctracer_properties_t p = c.Properties();
  roctracer_pool_t* pool = nullptr;
  ASSERT_EQ(roctracer_open_pool_expl(&p, &pool), ROCTRACER_STATUS_SUCCESS);
  ASSERT_EQ(roctracer_open_pool(&p), ROCTRACER_STATUS_SUCCESS);
  // No default-pool fallback: the default pool is the program's.
  EXPECT_EQ(roctracer_internal_tool_enable_domain_activity(
                ACTIVITY_DOMAIN_HSA_API, nullptr),
            ROCTRACER_STATUS_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(roctracer_internal_tool_enable_domain_activity(
                static_cast<activity_domain_t>(ACTIVITY_DOMAIN_NUMBER), pool),
            ROCTRACER_STATUS_ERROR_INVALID_DOMAIN_ID);
  EXPECT_EQ(roctracer_internal_tool_enable_op_activity(ACTIVITY_DOMAIN_HSA_API,
                                                       kFakeOps, pool),
            ROCTRACER_STATUS_ERROR_INVALID_ARGUMENT);
  ASSERT_EQ(roctracer_close_pool_expl(pool), ROCTRACER_STATUS_SUCCESS);
  EXPECT_EQ(roctracer_internal_tool_enable_op_activity(ACTIVITY_DOMAIN_HSA_API,
                                                       0, pool),
            ROCTRACER_STATUS_ERROR_INVALID_ARGUMENT);
  EXPECT_STRNE(roctracer_error_string(), "");
  for (uint32_t op = 0; op < kFakeOps; ++op) {
    EXPECT_EQ(roctracer::activity::ToolPoolFor(ACTIVITY_DOMAIN_HSA_API, op),
              nullptr);
    EXPECT_FALSE(Active(op));
  }
}

TEST_F(Dispatch, ExternalIdRecordPrecedesTheApiRecordItTags) {
  Collector& collector = NewCollector();
  const roctracer_properties_t props = collector.Properties();
  ASSERT_EQ(roctracer_open_pool(&props), ROCTRACER_STATUS_SUCCESS);
  ASSERT_EQ(roctracer_enable_domain_activity(ACTIVITY_DOMAIN_HSA_API),
            ROCTRACER_STATUS_SUCCESS);
  activity_record_t r{};
  r.domain = ACTIVITY_DOMAIN_HSA_API;
  r.op = 1;
  r.correlation_id = 500;  // untagged
  ASSERT_TRUE(roctracer::activity::EmitApiActivity(r));
  ASSERT_EQ(roctracer_activity_push_external_correlation_id(42),
            ROCTRACER_STATUS_SUCCESS);
  r.correlation_id = 501;
  ASSERT_TRUE(roctracer::activity::EmitApiActivity(r));
  ASSERT_EQ(roctracer_activity_push_external_correlation_id(43),
            ROCTRACER_STATUS_SUCCESS);
  r.correlation_id = 502;
  ASSERT_TRUE(roctracer::activity::EmitApiActivity(r));
  activity_correlation_id_t id;
  ASSERT_EQ(roctracer_activity_pop_external_correlation_id(&id),
            ROCTRACER_STATUS_SUCCESS);
  ASSERT_EQ(roctracer_activity_pop_external_correlation_id(&id),
            ROCTRACER_STATUS_SUCCESS);
  r.correlation_id = 503;  // untagged again
  ASSERT_TRUE(roctracer::activity::EmitApiActivity(r));
  ASSERT_EQ(roctracer_flush_activity(), ROCTRACER_STATUS_SUCCESS);

  const auto got = collector.records();
  ASSERT_EQ(got.size(), 6u);
  EXPECT_EQ(got[0].record.domain, ACTIVITY_DOMAIN_HSA_API);
  EXPECT_EQ(got[0].record.correlation_id, 500u);
  EXPECT_EQ(got[1].record.domain, ACTIVITY_DOMAIN_EXT_API);
  EXPECT_EQ(got[1].record.op, ACTIVITY_EXT_OP_EXTERN_ID);
  EXPECT_EQ(got[1].record.external_id, 42u);
  EXPECT_EQ(got[1].record.correlation_id, 501u);
  EXPECT_EQ(got[2].record.domain, ACTIVITY_DOMAIN_HSA_API);
  EXPECT_EQ(got[2].record.correlation_id, 501u);
  EXPECT_EQ(got[3].record.domain, ACTIVITY_DOMAIN_EXT_API);
  EXPECT_EQ(got[3].record.external_id, 43u);
  EXPECT_EQ(got[3].record.correlation_id, 502u);
  EXPECT_EQ(got[4].record.correlation_id, 502u);
  EXPECT_EQ(got[5].record.domain, ACTIVITY_DOMAIN_HSA_API);
  EXPECT_EQ(got[5].record.correlation_id, 503u);
}

// The records a buffer callback is given, byte for byte.
struct RawRecords {
  std::mutex mu;
  std::vector<std::array<unsigned char, sizeof(activity_record_t)>> records;
  static void Fn(const char* begin, const char* end, void* arg) {
    auto* self = static_cast<RawRecords*>(arg);
    std::lock_guard<std::mutex> lock(self->mu);
    for (; begin + sizeof(activity_record_t) <= end;
         begin += sizeof(activity_record_t)) {
      self->records.emplace_back();
      std::memcpy(self->records.back().data(), begin,
                  sizeof(activity_record_t));
    }
  }
};

// Buffers full of 0xA5: any byte of a record that is not written shows.
void DirtyAllocator(char** ptr, size_t size, void*) {
  if (size == 0) {
    std::free(*ptr);
    *ptr = nullptr;
    return;
  }
  *ptr = static_cast<char*>(std::realloc(*ptr, size));
  if (*ptr != nullptr) std::memset(*ptr, 0xA5, size);
}

// An API call's record as the hook's EXIT makes it, in the pool's buffer
// (StoreThreadRecord through EmitFilledActivityTo): every byte is what
// MakeThreadRecord's record holds, padding zero, in buffers that held other
// bytes; records spread over many small buffers arrive whole and in order,
// into the program's pool and the tool's alike.
TEST_F(Dispatch, ApiRecordsMadeInTheBufferAreWholeAndInOrder) {
  RawRecords program_raw, tool_raw;
  roctracer_properties_t props{};
  props.buffer_size = 256;  // four records a buffer
  props.buffer_callback_fun = &RawRecords::Fn;
  props.buffer_callback_arg = &program_raw;
  props.alloc_fun = &DirtyAllocator;
  roctracer_pool_t* program = nullptr;
  ASSERT_EQ(roctracer_open_pool_expl(&props, &program),
            ROCTRACER_STATUS_SUCCESS);
  props.buffer_callback_arg = &tool_raw;
  roctracer_pool_t* tool = nullptr;
  ASSERT_EQ(roctracer_open_pool_expl(&props, &tool), ROCTRACER_STATUS_SUCCESS);
  ASSERT_EQ(
      roctracer_enable_op_activity_expl(ACTIVITY_DOMAIN_HSA_API, 2, program),
      ROCTRACER_STATUS_SUCCESS);

  constexpr int kRecords = 41;
  auto write = [](int i) {
    const auto pools =
        roctracer::activity::ActivityPoolsFor(ACTIVITY_DOMAIN_HSA_API, 2);
    return roctracer::activity::EmitFilledActivityTo(
        pools, [i](void* dst) noexcept {
          roctracer::activity::StoreThreadRecord(dst, ACTIVITY_DOMAIN_HSA_API,
                                                 2, 7000 + i, 100 * i,
                                                 100 * i + 7, -i);
        });
  };
  for (int i = 0; i < kRecords; ++i) ASSERT_TRUE(write(i));
  // Both pools: the tool's too.
  ASSERT_EQ(roctracer_internal_tool_enable_op_activity(ACTIVITY_DOMAIN_HSA_API,
                                                       2, tool),
            ROCTRACER_STATUS_SUCCESS);
  for (int i = kRecords; i < 2 * kRecords; ++i) ASSERT_TRUE(write(i));
  ASSERT_EQ(roctracer_close_pool_expl(program), ROCTRACER_STATUS_SUCCESS);
  ASSERT_EQ(roctracer_close_pool_expl(tool), ROCTRACER_STATUS_SUCCESS);

  auto expected = [](int i) {
    std::array<unsigned char, sizeof(activity_record_t)> bytes;
    activity_record_t r = roctracer::activity::MakeThreadRecord(
        ACTIVITY_DOMAIN_HSA_API, 2, 7000 + i, 100 * i, 100 * i + 7);
    r.api_status = -i;
    std::memset(bytes.data(), 0, bytes.size());
    std::memcpy(bytes.data(), &r, sizeof(r));
    // Padding after `op` and after thread_id: zero.
    std::memset(bytes.data() + 12, 0, 4);
    std::memset(bytes.data() + 48, 0, 8);
    return bytes;
  };
  ASSERT_EQ(program_raw.records.size(), 2u * kRecords);
  for (int i = 0; i < 2 * kRecords; ++i) {
    EXPECT_EQ(program_raw.records[i], expected(i)) << "program record " << i;
  }
  ASSERT_EQ(tool_raw.records.size(), static_cast<size_t>(kRecords));
  for (int i = 0; i < kRecords; ++i) {
    EXPECT_EQ(tool_raw.records[i], expected(kRecords + i))
        << "tool record " << i;
  }
}

// Readers never lock: callbacks are flipped on and off while other threads
// look them up and call them (run under TSan).
TEST_F(Dispatch, ConcurrentLookupsWhileReconfiguring) {
  std::atomic<bool> done{false};
  std::atomic<uint64_t> calls{0};
  auto counting = [](uint32_t, uint32_t, const void*, void* arg) {
    static_cast<std::atomic<uint64_t>*>(arg)->fetch_add(1);
  };
  std::vector<std::thread> readers;
  for (int t = 0; t < 4; ++t) {
    readers.emplace_back([&] {
      while (!done.load()) {
        for (uint32_t op = 0; op < kFakeOps; ++op) {
          if (!Active(op)) continue;
          (void)roctracer::activity::NextCorrelationId();
          if (auto* cb = CallbackFor(ACTIVITY_DOMAIN_HSA_API, op)) {
            cb->fn(ACTIVITY_DOMAIN_HSA_API, op, nullptr, cb->arg);
          }
        }
      }
    });
  }
  for (int i = 0; i < 2000; ++i) {
    ASSERT_EQ(roctracer_enable_domain_callback(ACTIVITY_DOMAIN_HSA_API,
                                               counting, &calls),
              ROCTRACER_STATUS_SUCCESS);
    ASSERT_EQ(roctracer_disable_domain_callback(ACTIVITY_DOMAIN_HSA_API),
              ROCTRACER_STATUS_SUCCESS);
    if (i % 100 == 0) {
      roctracer_stop();
      roctracer_start();
    }
  }
  done = true;
  for (auto& t : readers) t.join();
  EXPECT_EQ(CallbackFor(ACTIVITY_DOMAIN_HSA_API, 0), nullptr);
}

}  // namespace
}  // namespace roctracer_test
