// rocTX annotations made from inside callbacks are the application's: a HIP
// or HSA API callback (roctracer's or a rocprofiler-sdk tool's) that calls
// roctxRangePushA / roctxRangePop has its ranges reach every rocTX consumer
// (roctracer's rocTX callback and activity records, the SDK's MARKER_CORE_API
// callback), while a rocTX consumer annotating from its own rocTX delivery
// is never called again for that annotation (no recursion). The tracer, its
// C-symbol stubs, libroctx and the SDK front end are linked statically in
// front of the real ROCm runtimes; hsa_status_string and hipGetErrorString
// answer without a GPU.
#include <gtest/gtest.h>
#include <hip/hip_runtime_api.h>
#include <hsa/hsa.h>
#include <roctracer.h>
#include <roctracer_hip.h>
#include <roctracer_hsa.h>
#include <roctracer_roctx.h>
#include <roctx.h>

#include <algorithm>
#include <atomic>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "rocprofiler-sdk/rocprofiler.h"
#include "runtime/private/roctx_link.h"
#include "tests/core/reset.h"
#include "tests/sdk/run_with_tool.h"
#include "tests/sdk/tool_configure.h"

extern "C" roctracer::RoctxLink* roctx_internal_link(void);

namespace roctracer_test {
namespace {

struct Mark {
  uint32_t op;
  std::string message;
};

std::mutex g_mutex;
std::vector<Mark> g_roctx_callbacks;  // roctracer's rocTX callback
int g_api_callbacks = 0;              // the HSA / HIP API callback
int g_roctx_depth = 0;                // rocTX callbacks in progress
int g_max_roctx_depth = 0;

// The application's API callback: a range around the call, as Caliper opens
// its HIP regions.
void AnnotatingApiCallback(uint32_t, uint32_t, const void* data, void*) {
  const auto* d = static_cast<const hsa_api_data_t*>(data);
  ++g_api_callbacks;
  if (d->phase == ACTIVITY_API_PHASE_ENTER) {
    roctxRangePushA("hsa_status_string range");
  } else {
    roctxRangePop();
  }
}

// A rocTX consumer that annotates too: its own mark must not come back to it.
void AnnotatingRoctxCallback(uint32_t domain, uint32_t op, const void* data,
                             void*) {
  EXPECT_EQ(domain, ACTIVITY_DOMAIN_ROCTX);
  const auto* d = static_cast<const roctx_api_data_t*>(data);
  {
    std::lock_guard<std::mutex> lock(g_mutex);
    g_roctx_callbacks.push_back(
        {op, d->args.message != nullptr ? d->args.message : ""});
  }
  ++g_roctx_depth;
  if (g_roctx_depth > g_max_roctx_depth) g_max_roctx_depth = g_roctx_depth;
  roctxMarkA("from the rocTX callback");
  --g_roctx_depth;
}

// The rocprofiler-sdk tool: a HIP callback annotating, a MARKER_CORE_API
// callback annotating from inside its own delivery.
struct SdkEvent {
  rocprofiler_callback_tracing_kind_t kind;
  int32_t op;
  rocprofiler_callback_phase_t phase;
  std::string message;
};
std::vector<SdkEvent> g_sdk_events;
bool g_sdk_annotates = false;
int g_marker_depth = 0;
int g_max_marker_depth = 0;
rocprofiler_context_id_t g_context;

void SdkCallback(rocprofiler_callback_tracing_record_t r,
                 rocprofiler_user_data_t*, void*) {
  if (!g_sdk_annotates) return;
  SdkEvent e{r.kind, r.operation, r.phase, ""};
  if (r.kind == ROCPROFILER_CALLBACK_TRACING_MARKER_CORE_API &&
      r.operation == ROCPROFILER_MARKER_CORE_API_ID_roctxMarkA) {
    e.message =
        static_cast<rocprofiler_callback_tracing_marker_api_data_t*>(r.payload)
            ->args.roctxMarkA.message;
  }
  {
    std::lock_guard<std::mutex> lock(g_mutex);
    g_sdk_events.push_back(e);
  }
  if (r.kind == ROCPROFILER_CALLBACK_TRACING_HIP_RUNTIME_API &&
      r.phase == ROCPROFILER_CALLBACK_PHASE_ENTER) {
    roctxMarkA("from the SDK's HIP callback");
  }
  if (r.kind == ROCPROFILER_CALLBACK_TRACING_MARKER_CORE_API) {
    ++g_marker_depth;
    if (g_marker_depth > g_max_marker_depth) {
      g_max_marker_depth = g_marker_depth;
    }
    roctxMarkA("from the SDK's marker callback");
    --g_marker_depth;
  }
}

int ToolInit(rocprofiler_client_finalize_t, void*) {
  if (rocprofiler_create_context(&g_context) != ROCPROFILER_STATUS_SUCCESS) {
    return -1;
  }
  const rocprofiler_tracing_operation_t error_string[] = {
      ROCPROFILER_HIP_RUNTIME_API_ID_hipGetErrorString};
  const rocprofiler_tracing_operation_t mark[] = {
      ROCPROFILER_MARKER_CORE_API_ID_roctxMarkA};
  if (rocprofiler_configure_callback_tracing_service(
          g_context, ROCPROFILER_CALLBACK_TRACING_HIP_RUNTIME_API, error_string,
          1, &SdkCallback, nullptr) != ROCPROFILER_STATUS_SUCCESS ||
      rocprofiler_configure_callback_tracing_service(
          g_context, ROCPROFILER_CALLBACK_TRACING_MARKER_CORE_API, mark, 1,
          &SdkCallback, nullptr) != ROCPROFILER_STATUS_SUCCESS) {
    return -1;
  }
  return rocprofiler_start_context(g_context) == ROCPROFILER_STATUS_SUCCESS
             ? 0
             : -1;
}

}  // namespace

rocprofiler_tool_configure_result_t* ToolConfigure(
    uint32_t, const char*, uint32_t, rocprofiler_client_id_t* id) {
  return sdk_test::Configure<&ToolInit>(id, "roctx_in_callbacks_test");
}

namespace {

class RoctxInCallbacks : public TracerTest {
 protected:
  static void SetUpTestSuite() {
    roctracer::AttachRoctx(roctx_internal_link());
  }
  void SetUp() override {
    std::lock_guard<std::mutex> lock(g_mutex);
    g_roctx_callbacks.clear();
    g_sdk_events.clear();
    g_api_callbacks = 0;
    g_max_roctx_depth = 0;
    g_max_marker_depth = 0;
  }
  void TearDown() override {
    g_sdk_annotates = false;
    TracerTest::TearDown();
  }
};

TEST_F(RoctxInCallbacks, ApiCallbackRangesReachRoctxCallbackAndRecords) {
  Collector& records = NewCollector();
  roctracer_properties_t props = records.Properties();
  ASSERT_EQ(roctracer_open_pool(&props), ROCTRACER_STATUS_SUCCESS);
  ASSERT_EQ(roctracer_enable_domain_activity(ACTIVITY_DOMAIN_ROCTX),
            ROCTRACER_STATUS_SUCCESS);
  ASSERT_EQ(roctracer_enable_domain_callback(ACTIVITY_DOMAIN_ROCTX,
                                             &AnnotatingRoctxCallback, nullptr),
            ROCTRACER_STATUS_SUCCESS);
  ASSERT_EQ(roctracer_enable_op_callback(ACTIVITY_DOMAIN_HSA_API,
                                         HSA_API_ID_hsa_status_string,
                                         &AnnotatingApiCallback, nullptr),
            ROCTRACER_STATUS_SUCCESS);

  const char* text = nullptr;
  EXPECT_EQ(hsa_status_string(HSA_STATUS_SUCCESS, &text), HSA_STATUS_SUCCESS);
  EXPECT_EQ(g_api_callbacks, 2);  // ENTER and EXIT, each once

  // The rocTX callback sees the range, once each, and not its own marks.
  ASSERT_EQ(g_roctx_callbacks.size(), 2u);
  EXPECT_EQ(g_roctx_callbacks[0].op, ROCTX_API_ID_roctxRangePushA);
  EXPECT_EQ(g_roctx_callbacks[0].message, "hsa_status_string range");
  EXPECT_EQ(g_roctx_callbacks[1].op, ROCTX_API_ID_roctxRangePop);
  EXPECT_EQ(g_max_roctx_depth, 1);

  // The records have the range and the rocTX callback's marks (recorded: only
  // the callback that made them is skipped). Each mark is recorded before the
  // annotation whose callback made it, which is recorded after its callback.
  ASSERT_EQ(roctracer_flush_activity(), ROCTRACER_STATUS_SUCCESS);
  std::vector<std::pair<uint32_t, std::string>> ops;
  for (const Collected& c : records.records()) {
    if (c.record.domain == ACTIVITY_DOMAIN_ROCTX) {
      ops.emplace_back(c.record.op, c.message);
    }
  }
  const std::vector<std::pair<uint32_t, std::string>> want = {
      {ROCTX_API_ID_roctxMarkA, "from the rocTX callback"},
      {ROCTX_API_ID_roctxRangePushA, "hsa_status_string range"},
      {ROCTX_API_ID_roctxMarkA, "from the rocTX callback"},
      {ROCTX_API_ID_roctxRangePop, ""},
  };
  EXPECT_EQ(ops, want);
}

TEST_F(RoctxInCallbacks, RangesAreRecordedWithoutARoctxCallback) {
  Collector& records = NewCollector();
  roctracer_properties_t props = records.Properties();
  ASSERT_EQ(roctracer_open_pool(&props), ROCTRACER_STATUS_SUCCESS);
  ASSERT_EQ(roctracer_enable_domain_activity(ACTIVITY_DOMAIN_ROCTX),
            ROCTRACER_STATUS_SUCCESS);
  ASSERT_EQ(roctracer_enable_domain_callback(ACTIVITY_DOMAIN_HSA_API,
                                             &AnnotatingApiCallback, nullptr),
            ROCTRACER_STATUS_SUCCESS);
  const char* text = nullptr;
  for (int i = 0; i < 3; ++i) hsa_status_string(HSA_STATUS_SUCCESS, &text);
  ASSERT_EQ(roctracer_flush_activity(), ROCTRACER_STATUS_SUCCESS);
  int pushes = 0, pops = 0;
  for (const Collected& c : records.records()) {
    if (c.record.domain != ACTIVITY_DOMAIN_ROCTX) continue;
    if (c.record.op == ROCTX_API_ID_roctxRangePushA) ++pushes;
    if (c.record.op == ROCTX_API_ID_roctxRangePop) ++pops;
  }
  EXPECT_EQ(pushes, 3);
  EXPECT_EQ(pops, 3);
}

// A buffer callback that annotates each delivery, into the pool it reads:
// its marks are recorded (delivered later), and a flush still ends.
std::atomic<int> g_buffer_marks{0};
std::atomic<int> g_buffer_deliveries{0};
void AnnotatingBufferCallback(const char* begin, const char* end, void*) {
  g_buffer_deliveries.fetch_add(1);
  for (auto* r = reinterpret_cast<const activity_record_t*>(begin);
       r < reinterpret_cast<const activity_record_t*>(end); ++r) {
    if (r->domain == ACTIVITY_DOMAIN_ROCTX &&
        r->op == ROCTX_API_ID_roctxMarkA) {
      g_buffer_marks.fetch_add(1);
    }
  }
  roctxMarkA("from the buffer callback");
}

TEST_F(RoctxInCallbacks, BufferCallbackMarksAreRecordedAndFlushEnds) {
  roctracer_properties_t props{};
  props.buffer_size = 4096;
  props.buffer_callback_fun = &AnnotatingBufferCallback;
  ASSERT_EQ(roctracer_open_pool(&props), ROCTRACER_STATUS_SUCCESS);
  ASSERT_EQ(roctracer_enable_domain_activity(ACTIVITY_DOMAIN_ROCTX),
            ROCTRACER_STATUS_SUCCESS);
  roctxMarkA("from the program");
  ASSERT_EQ(roctracer_flush_activity(), ROCTRACER_STATUS_SUCCESS);
  ASSERT_EQ(roctracer_flush_activity(), ROCTRACER_STATUS_SUCCESS);
  ASSERT_EQ(roctracer_close_pool(), ROCTRACER_STATUS_SUCCESS);
  // The program's mark, then at least the first delivery's.
  EXPECT_GE(g_buffer_marks.load(), 2);
  EXPECT_GE(g_buffer_deliveries.load(), 2);
}

TEST_F(RoctxInCallbacks, SdkCallbackMarksReachBothFrontEnds) {
  ASSERT_EQ(roctracer_enable_op_callback(ACTIVITY_DOMAIN_ROCTX,
                                         ROCTX_API_ID_roctxMarkA,
                                         &AnnotatingRoctxCallback, nullptr),
            ROCTRACER_STATUS_SUCCESS);
  g_sdk_annotates = true;
  hipGetErrorString(hipSuccess);
  g_sdk_annotates = false;

  // The SDK's HIP ENTER marks. roctracer's rocTX callback gets that mark
  // first and marks too: the SDK's marker callback gets both marks (ENTER,
  // EXIT), the rocTX callback's nested in the HIP callback's, and never its
  // own (no recursion).
  std::vector<std::pair<int32_t, std::string>> markers;
  int hip = 0;
  for (const SdkEvent& e : g_sdk_events) {
    if (e.kind == ROCPROFILER_CALLBACK_TRACING_HIP_RUNTIME_API) ++hip;
    if (e.kind == ROCPROFILER_CALLBACK_TRACING_MARKER_CORE_API) {
      markers.emplace_back(e.phase, e.message);
    }
  }
  EXPECT_EQ(hip, 2);
  const std::vector<std::pair<int32_t, std::string>> want_sdk = {
      {ROCPROFILER_CALLBACK_PHASE_ENTER, "from the rocTX callback"},
      {ROCPROFILER_CALLBACK_PHASE_EXIT, "from the rocTX callback"},
      {ROCPROFILER_CALLBACK_PHASE_ENTER, "from the SDK's HIP callback"},
      {ROCPROFILER_CALLBACK_PHASE_EXIT, "from the SDK's HIP callback"},
  };
  EXPECT_EQ(markers, want_sdk);
  EXPECT_EQ(g_max_marker_depth, 1);

  // roctracer's rocTX callback gets the SDK's marks, its own never.
  std::vector<std::string> seen;
  for (const Mark& m : g_roctx_callbacks) seen.push_back(m.message);
  std::sort(seen.begin(), seen.end());
  const std::vector<std::string> want_roctracer = {
      "from the SDK's HIP callback", "from the SDK's marker callback",
      "from the SDK's marker callback"};
  EXPECT_EQ(seen, want_roctracer);
  EXPECT_EQ(g_max_roctx_depth, 1);
}

}  // namespace
}  // namespace roctracer_test

int main(int argc, char** argv) {
  return sdk_test::RunWithTool(argc, argv, &roctracer_test::ToolConfigure);
}
