// Correlation IDs of MARKER_CORE_RANGE_API traced with MARKER_CORE_API and
// CORRELATION_ID_RETIREMENT, as rocprofiler-sdk 1.0.0 gives them: a range
// (or mark) has an ID of its own, distinct from the rocTX calls' IDs; a
// range opened inside an open thread range has that range as its ancestor;
// every ID is retired exactly once, after all its records, ranges included.
// libroctx's functions and the tracer's rocTX bridge in one process.
#include <gtest/gtest.h>

#include <map>
#include <mutex>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "rocprofiler-sdk-roctx/roctx.h"
#include "rocprofiler-sdk/rocprofiler.h"
#include "runtime/private/roctx_link.h"
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
               kind == ROCPROFILER_BUFFER_TRACING_MARKER_CORE_RANGE_API) {
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
  rocprofiler_context_id_t ctx{};
  EXPECT_EQ(rocprofiler_create_context(&ctx), ROCPROFILER_STATUS_SUCCESS);
  EXPECT_EQ(rocprofiler_create_buffer(ctx, 1 << 16, 1 << 15,
                                      ROCPROFILER_BUFFER_POLICY_LOSSLESS,
                                      &OnRecords, nullptr, &g_buffer),
            ROCPROFILER_STATUS_SUCCESS);
  for (auto kind : {ROCPROFILER_CALLBACK_TRACING_MARKER_CORE_API,
                    ROCPROFILER_CALLBACK_TRACING_MARKER_CORE_RANGE_API}) {
    EXPECT_EQ(rocprofiler_configure_callback_tracing_service(
                  ctx, kind, nullptr, 0, &OnCall, nullptr),
              ROCPROFILER_STATUS_SUCCESS);
  }
  for (auto kind : {ROCPROFILER_BUFFER_TRACING_MARKER_CORE_API,
                    ROCPROFILER_BUFFER_TRACING_MARKER_CORE_RANGE_API,
                    ROCPROFILER_BUFFER_TRACING_CORRELATION_ID_RETIREMENT}) {
    EXPECT_EQ(rocprofiler_configure_buffer_tracing_service(ctx, kind, nullptr,
                                                           0, g_buffer),
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

// The marker records (core and range) and retirements delivered since the
// last call, after a flush.
std::vector<Item> TakeItems() {
  EXPECT_EQ(rocprofiler_flush_buffer(g_buffer), ROCPROFILER_STATUS_SUCCESS);
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
  std::thread([id] { roctxRangeStop(id); }).join();
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
  ExpectRetiredOnceAfterItsRecords(items, {across.id});
}

}  // namespace

int main(int argc, char** argv) {
  return sdk_test::RunWithTool(argc, argv, &ToolConfigure);
}
