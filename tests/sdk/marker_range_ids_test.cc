// Correlation IDs of MARKER_CORE_RANGE_API traced with MARKER_CORE_API,
// HSA_CORE_API and CORRELATION_ID_RETIREMENT, as rocprofiler-sdk 1.0.0 gives
// them: a range (or mark) has an ID of its own, below its opening call's,
// and is that call's ancestor; each rocTX call (a start and its stop too)
// has its own ID; an open range is the ancestor of what its thread calls
// while it is open; every ID is retired exactly once, after all its
// records, ranges included; and, deliberate differences from 1.0.0 (whose
// untraced push pushes nothing, so that its pop closes an outer range, and
// whose closes pop the top of the closing thread's correlation stack),
// pops close their own pushes whatever contexts stop and start in between,
// and a closed range leaves exactly its own place (sdk/README.md).
// libroctx's functions and the tracer's rocTX bridge in one process; HSA
// calls through the fake consumer seam.
#include <gtest/gtest.h>

#include <map>
#include <mutex>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "hsa_api_data.h"
#include "hsa_api_id.h"
#include "rocprofiler-sdk-roctx/roctx.h"
#include "rocprofiler-sdk/rocprofiler.h"
#include "runtime/intercept/trace_guard.h"
#include "runtime/private/roctx_link.h"
#include "tests/sdk/fake_consumer_seam.h"
#include "tests/sdk/run_with_tool.h"
#include "tests/sdk/tool_configure.h"

extern "C" roctracer::RoctxLink* roctx_internal_link(void);

namespace {

// A delivered buffer record: a marker record (core or range) or a
// retirement, in delivery order.
struct Item {
  int32_t kind;
  int32_t op;
  uint64_t id;
  uint64_t ancestor;
};

// A callback of either marker kind.
struct Call {
  int32_t kind;
  int32_t op;
  int32_t phase;
  uint64_t id;
  uint64_t ancestor;
};

std::mutex g_mutex;
std::vector<Item> g_items;
std::vector<Call> g_calls;
rocprofiler_buffer_id_t g_buffer;
rocprofiler_context_id_t g_ctx;
// Started one at a time, with g_ctx stopped: HSA calls only; HSA calls and
// the ranges (no rocTX call itself).
rocprofiler_context_id_t g_hsa_ctx;
rocprofiler_context_id_t g_range_ctx;
rocprofiler_buffer_id_t g_hsa_buffer;
rocprofiler_buffer_id_t g_range_buffer;

void OnCall(rocprofiler_callback_tracing_record_t r, rocprofiler_user_data_t*,
            void*) {
  std::lock_guard<std::mutex> lock(g_mutex);
  g_calls.push_back({r.kind, static_cast<int32_t>(r.operation), r.phase,
                     r.correlation_id.internal, r.correlation_id.ancestor});
}

void OnRecords(rocprofiler_context_id_t, rocprofiler_buffer_id_t,
               rocprofiler_record_header_t** headers, size_t n, void*,
               uint64_t) {
  std::lock_guard<std::mutex> lock(g_mutex);
  for (size_t i = 0; i < n; ++i) {
    if (headers[i]->category != ROCPROFILER_BUFFER_CATEGORY_TRACING) continue;
    const auto kind = static_cast<int32_t>(headers[i]->kind);
    if (kind == ROCPROFILER_BUFFER_TRACING_CORRELATION_ID_RETIREMENT) {
      const auto* r = static_cast<
          const rocprofiler_buffer_tracing_correlation_id_retirement_record_t*>(
          headers[i]->payload);
      g_items.push_back({kind, 0, r->internal_correlation_id, 0});
    } else if (kind == ROCPROFILER_BUFFER_TRACING_MARKER_CORE_API ||
               kind == ROCPROFILER_BUFFER_TRACING_MARKER_CORE_RANGE_API ||
               kind == ROCPROFILER_BUFFER_TRACING_HSA_CORE_API) {
      // The three record types share the header fields read here.
      const auto* r =
          static_cast<const rocprofiler_buffer_tracing_marker_api_record_t*>(
              headers[i]->payload);
      g_items.push_back({kind, static_cast<int32_t>(r->operation),
                         r->correlation_id.internal,
                         r->correlation_id.ancestor});
    }
  }
}

int ToolInit(rocprofiler_client_finalize_t, void*) {
  rocprofiler_context_id_t& ctx = g_ctx;
  EXPECT_EQ(rocprofiler_create_context(&ctx), ROCPROFILER_STATUS_SUCCESS);
  EXPECT_EQ(rocprofiler_create_buffer(ctx, 1 << 16, 1 << 15,
                                      ROCPROFILER_BUFFER_POLICY_LOSSLESS,
                                      &OnRecords, nullptr, &g_buffer),
            ROCPROFILER_STATUS_SUCCESS);
  for (auto kind : {ROCPROFILER_CALLBACK_TRACING_MARKER_CORE_API,
                    ROCPROFILER_CALLBACK_TRACING_MARKER_CORE_RANGE_API,
                    ROCPROFILER_CALLBACK_TRACING_HSA_CORE_API}) {
    EXPECT_EQ(rocprofiler_configure_callback_tracing_service(
                  ctx, kind, nullptr, 0, &OnCall, nullptr),
              ROCPROFILER_STATUS_SUCCESS);
  }
  for (auto kind : {ROCPROFILER_BUFFER_TRACING_MARKER_CORE_API,
                    ROCPROFILER_BUFFER_TRACING_MARKER_CORE_RANGE_API,
                    ROCPROFILER_BUFFER_TRACING_HSA_CORE_API,
                    ROCPROFILER_BUFFER_TRACING_CORRELATION_ID_RETIREMENT}) {
    EXPECT_EQ(rocprofiler_configure_buffer_tracing_service(ctx, kind, nullptr,
                                                           0, g_buffer),
              ROCPROFILER_STATUS_SUCCESS);
  }
  EXPECT_EQ(rocprofiler_create_context(&g_hsa_ctx), ROCPROFILER_STATUS_SUCCESS);
  EXPECT_EQ(rocprofiler_create_buffer(g_hsa_ctx, 1 << 16, 1 << 15,
                                      ROCPROFILER_BUFFER_POLICY_LOSSLESS,
                                      &OnRecords, nullptr, &g_hsa_buffer),
            ROCPROFILER_STATUS_SUCCESS);
  EXPECT_EQ(rocprofiler_configure_buffer_tracing_service(
                g_hsa_ctx, ROCPROFILER_BUFFER_TRACING_HSA_CORE_API, nullptr, 0,
                g_hsa_buffer),
            ROCPROFILER_STATUS_SUCCESS);
  EXPECT_EQ(rocprofiler_create_context(&g_range_ctx),
            ROCPROFILER_STATUS_SUCCESS);
  EXPECT_EQ(rocprofiler_create_buffer(g_range_ctx, 1 << 16, 1 << 15,
                                      ROCPROFILER_BUFFER_POLICY_LOSSLESS,
                                      &OnRecords, nullptr, &g_range_buffer),
            ROCPROFILER_STATUS_SUCCESS);
  for (auto kind : {ROCPROFILER_BUFFER_TRACING_HSA_CORE_API,
                    ROCPROFILER_BUFFER_TRACING_MARKER_CORE_RANGE_API}) {
    EXPECT_EQ(rocprofiler_configure_buffer_tracing_service(
                  g_range_ctx, kind, nullptr, 0, g_range_buffer),
              ROCPROFILER_STATUS_SUCCESS);
  }
  return rocprofiler_start_context(ctx) == ROCPROFILER_STATUS_SUCCESS ? 0 : -1;
}

rocprofiler_tool_configure_result_t* ToolConfigure(
    uint32_t, const char*, uint32_t, rocprofiler_client_id_t* id) {
  return sdk_test::Configure<&ToolInit>(id, "marker_range_ids_test");
}

constexpr int32_t kCore = ROCPROFILER_BUFFER_TRACING_MARKER_CORE_API;
constexpr int32_t kRange = ROCPROFILER_BUFFER_TRACING_MARKER_CORE_RANGE_API;
constexpr int32_t kRetired =
    ROCPROFILER_BUFFER_TRACING_CORRELATION_ID_RETIREMENT;
constexpr int32_t kHsa = ROCPROFILER_BUFFER_TRACING_HSA_CORE_API;

// An HSA call (hsa_system_get_info) on this thread as the interception
// layer reports it; its correlation ID.
uint64_t HsaCall() {
  const uint64_t id = roctracer::FreshCorrelationId();
  hsa_api_data_t d{};
  fake_seam::Call(ACTIVITY_DOMAIN_HSA_API, HSA_API_ID_hsa_system_get_info,
                  ACTIVITY_API_PHASE_ENTER, id, &d);
  fake_seam::Call(ACTIVITY_DOMAIN_HSA_API, HSA_API_ID_hsa_system_get_info,
                  ACTIVITY_API_PHASE_EXIT, id, &d);
  return id;
}

// The record of `id` among `items` (of any kind but retirement).
Item RecordOf(const std::vector<Item>& items, uint64_t id) {
  for (const Item& i : items) {
    if (i.kind != kRetired && i.id == id) return i;
  }
  ADD_FAILURE() << "no record of " << id;
  return Item{};
}

// The ancestor both callbacks of call `id` carry (they must agree).
uint64_t CallbackAncestorOf(const std::vector<Call>& calls, uint64_t id) {
  std::vector<uint64_t> seen;
  for (const Call& c : calls) {
    if (c.id == id) seen.push_back(c.ancestor);
  }
  EXPECT_EQ(seen.size(), 2u) << id;
  if (seen.empty()) return ~uint64_t{0};
  for (uint64_t a : seen) EXPECT_EQ(a, seen[0]) << id;
  return seen[0];
}

// The marker records (core and range) and retirements delivered since the
// last call, after a flush.
std::vector<Item> TakeItems() {
  for (rocprofiler_buffer_id_t b : {g_buffer, g_hsa_buffer, g_range_buffer}) {
    EXPECT_EQ(rocprofiler_flush_buffer(b), ROCPROFILER_STATUS_SUCCESS);
  }
  std::lock_guard<std::mutex> lock(g_mutex);
  std::vector<Item> out;
  out.swap(g_items);
  return out;
}

std::vector<Call> TakeCalls() {
  std::lock_guard<std::mutex> lock(g_mutex);
  std::vector<Call> out;
  out.swap(g_calls);
  return out;
}

std::vector<Item> OfKind(const std::vector<Item>& items, int32_t kind) {
  std::vector<Item> out;
  for (const Item& i : items) {
    if (i.kind == kind) out.push_back(i);
  }
  return out;
}

// Each of `ids` retired exactly once in `items`, after every record of it.
void ExpectRetiredOnceAfterItsRecords(const std::vector<Item>& items,
                                      const std::set<uint64_t>& ids) {
  std::map<uint64_t, size_t> retired_at, last_record_at;
  for (size_t n = 0; n < items.size(); ++n) {
    const Item& i = items[n];
    if (ids.count(i.id) == 0) continue;
    if (i.kind == kRetired) {
      EXPECT_EQ(retired_at.count(i.id), 0u) << "retired twice: " << i.id;
      retired_at[i.id] = n;
    } else {
      last_record_at[i.id] = n;
    }
  }
  for (uint64_t i : ids) {
    ASSERT_EQ(retired_at.count(i), 1u) << "never retired: " << i;
    EXPECT_GT(retired_at[i], last_record_at[i]) << "retired early: " << i;
  }
}

// ENTER and EXIT of each range with its record's ID and ancestor.
void ExpectCallbacksMatch(const std::vector<Call>& calls,
                          const std::vector<Item>& ranges) {
  std::map<uint64_t, int> seen;
  for (const Call& c : calls) {
    if (c.kind != ROCPROFILER_CALLBACK_TRACING_MARKER_CORE_RANGE_API) continue;
    ++seen[c.id];
    for (const Item& r : ranges) {
      if (r.id == c.id) {
        EXPECT_EQ(c.ancestor, r.ancestor) << c.id;
      }
    }
  }
  EXPECT_EQ(seen.size(), ranges.size());
  for (const Item& r : ranges) EXPECT_EQ(seen[r.id], 2) << r.id;
}

class MarkerRangeIds : public ::testing::Test {
 protected:
  void SetUp() override {
    roctracer::AttachRoctx(roctx_internal_link());
    TakeItems();
    TakeCalls();
  }
};

TEST_F(MarkerRangeIds, ThreadRangesAndMarksHaveTheirOwnIdsAndAncestors) {
  EXPECT_EQ(roctxRangePushA("outer"), 0);
  EXPECT_EQ(roctxRangePushA("inner"), 1);
  EXPECT_EQ(roctxRangePop(), 1);
  EXPECT_EQ(roctxRangePop(), 0);
  roctxMarkA("mark");
  const auto items = TakeItems();
  const auto core = OfKind(items, kCore);
  const auto ranges = OfKind(items, kRange);
  // A core record per call (2 pushes, 2 pops, a mark); a range record per
  // range or mark, in the order they closed: inner, outer, mark.
  ASSERT_EQ(core.size(), 5u);
  ASSERT_EQ(ranges.size(), 3u);
  const Item& inner = ranges[0];
  const Item& outer = ranges[1];
  const Item& mark = ranges[2];
  EXPECT_EQ(inner.op, ROCPROFILER_MARKER_CORE_RANGE_API_ID_roctxThreadRangeA);
  EXPECT_EQ(outer.op, ROCPROFILER_MARKER_CORE_RANGE_API_ID_roctxThreadRangeA);
  EXPECT_EQ(mark.op, ROCPROFILER_MARKER_CORE_RANGE_API_ID_roctxMarkA);

  // Every ID distinct: no range shares its opening call's ID.
  std::set<uint64_t> ids;
  for (const Item& i : core) ids.insert(i.id);
  for (const Item& i : ranges) ids.insert(i.id);
  EXPECT_EQ(ids.size(), 8u);
  EXPECT_EQ(ids.count(0), 0u);

  // The outer range and the mark began with nothing open; the inner range
  // inside the outer one.
  EXPECT_EQ(outer.ancestor, 0u);
  EXPECT_EQ(inner.ancestor, outer.id);
  EXPECT_EQ(mark.ancestor, 0u);

  ExpectCallbacksMatch(TakeCalls(), ranges);
  ExpectRetiredOnceAfterItsRecords(items, ids);
}

TEST_F(MarkerRangeIds, AProcessRangeStoppedElsewhereIsRetiredAfterItsRecord) {
  const roctx_range_id_t id = roctxRangeStartA("across");
  const uint64_t inside = HsaCall();
  uint64_t on_stopper = 0;
  std::thread([id, &on_stopper] {
    on_stopper = HsaCall();
    roctxRangeStop(id);
  }).join();
  // Stopped elsewhere, it is no longer the ancestor of this thread's calls.
  const uint64_t after = HsaCall();
  const auto items = TakeItems();
  const auto core = OfKind(items, kCore);
  const auto ranges = OfKind(items, kRange);
  ASSERT_EQ(core.size(), 2u);
  ASSERT_EQ(ranges.size(), 1u);
  const Item& across = ranges[0];
  EXPECT_EQ(across.op, ROCPROFILER_MARKER_CORE_RANGE_API_ID_roctxProcessRangeA);
  EXPECT_EQ(across.ancestor, 0u);
  EXPECT_NE(across.id, 0u);
  for (const Item& c : core) EXPECT_NE(across.id, c.id);
  ExpectCallbacksMatch(TakeCalls(), ranges);
  // The start and the stop are two calls with an ID each, as in 1.0.0 (not
  // the range ID twice, which would be retired twice).
  EXPECT_NE(core[0].id, core[1].id);
  EXPECT_NE(core[0].id, static_cast<uint64_t>(id));
  ExpectRetiredOnceAfterItsRecords(items, {across.id, core[0].id, core[1].id});
  // A process range is its starting thread's ancestor of later calls (1.0.0
  // keeps it on that thread's correlation stack), another thread's never.
  EXPECT_EQ(RecordOf(items, inside).ancestor, across.id);
  EXPECT_EQ(RecordOf(items, on_stopper).ancestor, 0u);
  EXPECT_EQ(RecordOf(items, after).ancestor, 0u);
}

// Every rocTX call, a start and its stop on one thread included, has an
// ID of its own, and each ID (calls' and ranges') is retired exactly once.
TEST_F(MarkerRangeIds, EveryRocTxCallHasItsOwnIdRetiredOnce) {
  const roctx_range_id_t a = roctxRangeStartA("a");
  const roctx_range_id_t b = roctxRangeStartA("b");
  roctxRangeStop(a);
  roctxRangeStop(b);
  EXPECT_EQ(roctxRangePushA("p"), 0);
  EXPECT_EQ(roctxRangePop(), 0);
  roctxMarkA("m");
  const auto items = TakeItems();
  const auto core = OfKind(items, kCore);
  const auto ranges = OfKind(items, kRange);
  ASSERT_EQ(core.size(), 7u);
  ASSERT_EQ(ranges.size(), 4u);
  std::set<uint64_t> ids;
  for (const Item& i : core) ids.insert(i.id);
  for (const Item& i : ranges) ids.insert(i.id);
  EXPECT_EQ(ids.size(), 11u);
  EXPECT_EQ(ids.count(0), 0u);
  ExpectCallbacksMatch(TakeCalls(), ranges);
  ExpectRetiredOnceAfterItsRecords(items, ids);
}

// As in 1.0.0 (the range's ID is drawn and put on the thread's correlation
// stack before the rocTX call's): a range's or mark's ID is below its
// opening call's, and is that call's ancestor; the call closing a range on
// the same thread has the range as ancestor too (it is still open).
TEST_F(MarkerRangeIds, ARangeIsNumberedBelowItsOpeningCallAndIsItsAncestor) {
  EXPECT_EQ(roctxRangePushA("push"), 0);
  roctxMarkA("mark");
  const roctx_range_id_t started = roctxRangeStartA("start");
  roctxRangeStop(started);
  EXPECT_EQ(roctxRangePop(), 0);
  const auto items = TakeItems();
  const auto calls = TakeCalls();
  const auto ranges = OfKind(items, kRange);
  ASSERT_EQ(ranges.size(), 3u);  // mark, process range, thread range
  const uint64_t mark = ranges[0].id, process = ranges[1].id,
                 thread = ranges[2].id;
  // The rocTX calls' ENTER callbacks in order: push, mark, start, stop, pop.
  std::vector<Call> opened;
  for (const Call& c : calls) {
    if (c.kind == ROCPROFILER_CALLBACK_TRACING_MARKER_CORE_API &&
        c.phase == ROCPROFILER_CALLBACK_PHASE_ENTER) {
      opened.push_back(c);
    }
  }
  ASSERT_EQ(opened.size(), 5u);
  const uint64_t opener[] = {thread, mark, process};
  for (int i = 0; i < 3; ++i) {
    EXPECT_LT(opener[i], opened[i].id) << i;
    EXPECT_EQ(opened[i].ancestor, opener[i]) << i;
    EXPECT_EQ(RecordOf(items, opened[i].id).ancestor, opener[i]) << i;
  }
  // The thread range encloses the mark and the process range.
  EXPECT_EQ(RecordOf(items, mark).ancestor, thread);
  EXPECT_EQ(RecordOf(items, process).ancestor, thread);
  // The stop and the pop, made while their range is the innermost open.
  EXPECT_EQ(opened[3].ancestor, process);
  EXPECT_EQ(opened[4].ancestor, thread);
}

// As in 1.0.0, a range open on a thread (pushed or started) is the
// ancestor of the calls the thread makes while it is the innermost open
// one; other threads' calls and calls after it closes are not its.
TEST_F(MarkerRangeIds, AnOpenRangeIsTheAncestorOfItsThreadsLaterCalls) {
  EXPECT_EQ(roctxRangePushA("outer"), 0);
  const uint64_t in_outer = HsaCall();
  uint64_t elsewhere = 0;
  std::thread([&] { elsewhere = HsaCall(); }).join();
  EXPECT_EQ(roctxRangePushA("inner"), 1);
  const uint64_t in_inner = HsaCall();
  EXPECT_EQ(roctxRangePop(), 1);
  const uint64_t outer_again = HsaCall();
  const roctx_range_id_t started = roctxRangeStartA("process");
  const uint64_t in_process = HsaCall();
  roctxRangeStop(started);
  const uint64_t outer_last = HsaCall();
  EXPECT_EQ(roctxRangePop(), 0);
  const uint64_t after = HsaCall();
  const auto items = TakeItems();
  const auto calls = TakeCalls();
  const auto ranges = OfKind(items, kRange);
  ASSERT_EQ(ranges.size(), 3u);  // inner, process, outer
  const uint64_t inner = ranges[0].id, process = ranges[1].id,
                 outer = ranges[2].id;
  ASSERT_EQ(OfKind(items, kHsa).size(), 7u);
  const std::pair<uint64_t, uint64_t> expected[] = {{in_outer, outer},
                                                    {elsewhere, 0},
                                                    {in_inner, inner},
                                                    {outer_again, outer},
                                                    {in_process, process},
                                                    {outer_last, outer},
                                                    {after, 0}};
  for (const auto& e : expected) {
    EXPECT_EQ(RecordOf(items, e.first).ancestor, e.second) << e.first;
    EXPECT_EQ(CallbackAncestorOf(calls, e.first), e.second) << e.first;
  }
  ExpectRetiredOnceAfterItsRecords(items, {inner, process, outer});
}

// As in 1.0.0, a call's ancestor is fixed when the call begins: a process
// range started on this thread and stopped on another during a call is
// still the ancestor its EXIT callback and its record carry.
TEST_F(MarkerRangeIds, ACallKeepsItsAncestorWhenItsRangeStopsElsewhere) {
  const roctx_range_id_t started = roctxRangeStartA("stopped mid-call");
  const uint64_t id = roctracer::FreshCorrelationId();
  hsa_api_data_t d{};
  fake_seam::Call(ACTIVITY_DOMAIN_HSA_API, HSA_API_ID_hsa_system_get_info,
                  ACTIVITY_API_PHASE_ENTER, id, &d);
  std::thread([&] { roctxRangeStop(started); }).join();
  fake_seam::Call(ACTIVITY_DOMAIN_HSA_API, HSA_API_ID_hsa_system_get_info,
                  ACTIVITY_API_PHASE_EXIT, id, &d);
  const uint64_t after = HsaCall();
  const auto items = TakeItems();
  const auto calls = TakeCalls();
  const auto ranges = OfKind(items, kRange);
  ASSERT_EQ(ranges.size(), 1u);
  const uint64_t range = ranges[0].id;
  EXPECT_NE(range, 0u);
  EXPECT_EQ(RecordOf(items, id).ancestor, range);
  EXPECT_EQ(CallbackAncestorOf(calls, id), range);
  // The range is closed for the calls that begin after its stop.
  EXPECT_EQ(RecordOf(items, after).ancestor, 0u);
}

// A pop closes its own push's range whatever contexts stop and start in
// between: a range pushed while the context ran and popped while it was
// stopped is not closed by a later pop, and a push made while it was
// stopped does not take a pop from a traced one. A deliberate difference
// from 1.0.0, whose push returns without pushing while no context traces
// the range, so that the pop of that level closes an outer traced range.
TEST_F(MarkerRangeIds, PopsPairWithTheirPushesAcrossAContextStop) {
  EXPECT_EQ(roctxRangePushA("traced, popped while stopped"), 0);
  ASSERT_EQ(rocprofiler_stop_context(g_ctx), ROCPROFILER_STATUS_SUCCESS);
  EXPECT_EQ(roctxRangePop(), 0);
  EXPECT_EQ(roctxRangePushA("pushed while stopped"), 0);
  ASSERT_EQ(rocprofiler_start_context(g_ctx), ROCPROFILER_STATUS_SUCCESS);
  EXPECT_EQ(roctxRangePop(), 0);  // closes no traced range
  EXPECT_EQ(roctxRangePushA("traced"), 0);
  EXPECT_EQ(roctxRangePushA("traced, inner"), 1);
  ASSERT_EQ(rocprofiler_stop_context(g_ctx), ROCPROFILER_STATUS_SUCCESS);
  EXPECT_EQ(roctxRangePushA("pushed while stopped, inner"), 2);
  ASSERT_EQ(rocprofiler_start_context(g_ctx), ROCPROFILER_STATUS_SUCCESS);
  EXPECT_EQ(roctxRangePop(), 2);  // closes no traced range
  EXPECT_EQ(roctxRangePop(), 1);
  EXPECT_EQ(roctxRangePop(), 0);
  const uint64_t after = HsaCall();
  const auto items = TakeItems();
  const auto calls = TakeCalls();
  // The traced pushes' IDs (their ENTER callbacks'): "traced, popped while
  // stopped", "traced", "traced, inner".
  std::vector<uint64_t> entered;
  for (const Call& c : calls) {
    if (c.kind == ROCPROFILER_CALLBACK_TRACING_MARKER_CORE_RANGE_API &&
        c.phase == ROCPROFILER_CALLBACK_PHASE_ENTER) {
      entered.push_back(c.id);
    }
  }
  ASSERT_EQ(entered.size(), 3u);
  // The ranges that closed while the context ran: "traced, inner", then
  // "traced", each at its own pop; the first one closed while stopped.
  const auto ranges = OfKind(items, kRange);
  ASSERT_EQ(ranges.size(), 2u);
  EXPECT_EQ(ranges[0].id, entered[2]);
  EXPECT_EQ(ranges[1].id, entered[1]);
  EXPECT_EQ(ranges[0].ancestor, entered[1]);
  // Nothing is left open on the thread.
  EXPECT_EQ(RecordOf(items, after).ancestor, 0u);
}

// A push made while no context traces thread ranges, inside a traced
// range, is closed by its own pop: the traced range stays open (the
// ancestor of the calls between the two pops) and closes at its own pop. A
// deliberate difference from 1.0.0, which pushes nothing for the untraced
// push, so that its pop closes the traced range and the traced range's pop
// closes nothing.
TEST_F(MarkerRangeIds, AnUntracedPushIsClosedByItsOwnPopNotByAnOuterRange) {
  EXPECT_EQ(roctxRangePushA("traced"), 0);
  ASSERT_EQ(rocprofiler_stop_context(g_ctx), ROCPROFILER_STATUS_SUCCESS);
  EXPECT_EQ(roctxRangePushA("untraced"), 1);
  ASSERT_EQ(rocprofiler_start_context(g_ctx), ROCPROFILER_STATUS_SUCCESS);
  EXPECT_EQ(roctxRangePop(), 1);
  const uint64_t between = HsaCall();
  const auto before = TakeItems();
  EXPECT_EQ(OfKind(before, kRange).size(), 0u);  // the traced range is open
  EXPECT_EQ(roctxRangePop(), 0);
  const uint64_t after = HsaCall();
  const auto items = TakeItems();
  const auto ranges = OfKind(items, kRange);
  ASSERT_EQ(ranges.size(), 1u);  // closed by its own pop
  EXPECT_EQ(RecordOf(before, between).ancestor, ranges[0].id);
  EXPECT_EQ(RecordOf(items, after).ancestor, 0u);
  TakeCalls();
}

// A process range started outside a thread range and stopped inside it, on
// one thread, leaves exactly itself: the thread range is the ancestor of
// the calls after the stop until its pop. 1.0.0 pops the top of the
// stopping thread's correlation stack at a stop, whichever entry that is:
// there the thread range's entry would go and the process range would stay
// the ancestor.
TEST_F(MarkerRangeIds, AStopInsideAThreadRangeClosesOnlyItsProcessRange) {
  const roctx_range_id_t started = roctxRangeStartA("process");
  EXPECT_EQ(roctxRangePushA("thread"), 0);
  roctxRangeStop(started);
  const uint64_t inside = HsaCall();
  EXPECT_EQ(roctxRangePop(), 0);
  const uint64_t after = HsaCall();
  const auto items = TakeItems();
  const auto ranges = OfKind(items, kRange);
  ASSERT_EQ(ranges.size(), 2u);  // process, then thread
  EXPECT_EQ(ranges[0].op,
            ROCPROFILER_MARKER_CORE_RANGE_API_ID_roctxProcessRangeA);
  EXPECT_EQ(ranges[1].op,
            ROCPROFILER_MARKER_CORE_RANGE_API_ID_roctxThreadRangeA);
  EXPECT_EQ(ranges[1].ancestor, ranges[0].id);
  EXPECT_EQ(RecordOf(items, inside).ancestor, ranges[1].id);
  EXPECT_EQ(RecordOf(items, after).ancestor, 0u);
  TakeCalls();
}

}  // namespace

// Every kind of rocTX call: a mark, a thread range, a process range, the
// thread ID query and a naming request.
void EveryRocTxCall() {
  roctxMarkA("mark");
  EXPECT_EQ(roctxRangePushA("push"), 0);
  EXPECT_EQ(roctxRangePop(), 0);
  const roctx_range_id_t range = roctxRangeStartA("start");
  roctxRangeStop(range);
  roctx_thread_id_t tid = 0;
  EXPECT_EQ(roctxGetThreadId(&tid), 0);
  EXPECT_EQ(roctxNameOsThread("thread"), 0);
}

// As in rocprofiler-sdk 1.0.0, a rocTX call no context traces takes no
// correlation ID: a tool tracing only HSA (or HIP) calls sees its calls'
// IDs consecutive with rocTX calls between them, the thread ranges and
// process ranges being watched for good (an earlier context traced them).
TEST_F(MarkerRangeIds, UntracedRocTxCallsTakeNoCorrelationId) {
  EXPECT_EQ(roctxRangePushA("watched for good"), 0);
  EXPECT_EQ(roctxRangePop(), 0);
  ASSERT_EQ(rocprofiler_stop_context(g_ctx), ROCPROFILER_STATUS_SUCCESS);
  ASSERT_EQ(rocprofiler_start_context(g_hsa_ctx), ROCPROFILER_STATUS_SUCCESS);
  TakeItems();
  const uint64_t before = HsaCall();
  EveryRocTxCall();
  const uint64_t after = HsaCall();
  const auto items = TakeItems();
  ASSERT_EQ(rocprofiler_stop_context(g_hsa_ctx), ROCPROFILER_STATUS_SUCCESS);
  ASSERT_EQ(rocprofiler_start_context(g_ctx), ROCPROFILER_STATUS_SUCCESS);
  EXPECT_EQ(after, before + 1);
  const auto hsa = OfKind(items, kHsa);
  ASSERT_EQ(hsa.size(), 2u);
  EXPECT_EQ(hsa[0].id, before);
  EXPECT_EQ(hsa[1].id, after);
}

// Tracing the ranges but not the rocTX calls: each range (a mark, a thread
// range, a process range, a thread ID query) takes one ID, the calls none.
TEST_F(MarkerRangeIds, OnlyTracedRangesTakeIdsWhenTheCallsAreUntraced) {
  ASSERT_EQ(rocprofiler_stop_context(g_ctx), ROCPROFILER_STATUS_SUCCESS);
  ASSERT_EQ(rocprofiler_start_context(g_range_ctx), ROCPROFILER_STATUS_SUCCESS);
  TakeItems();
  const uint64_t before = HsaCall();
  EveryRocTxCall();
  const uint64_t after = HsaCall();
  const auto items = TakeItems();
  ASSERT_EQ(rocprofiler_stop_context(g_range_ctx), ROCPROFILER_STATUS_SUCCESS);
  ASSERT_EQ(rocprofiler_start_context(g_ctx), ROCPROFILER_STATUS_SUCCESS);
  EXPECT_EQ(after, before + 5);
  const auto ranges = OfKind(items, kRange);
  ASSERT_EQ(ranges.size(), 4u);
  std::set<uint64_t> ids;
  for (const Item& r : ranges) {
    EXPECT_GT(r.id, before);
    EXPECT_LT(r.id, after);
    EXPECT_EQ(r.ancestor, 0u);
    ids.insert(r.id);
  }
  EXPECT_EQ(ids.size(), 4u);
}

int main(int argc, char** argv) {
  return sdk_test::RunWithTool(argc, argv, &ToolConfigure);
}
