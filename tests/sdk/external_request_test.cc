// The external-correlation request service, driven through the consumer
// seam with synthetic calls: which contexts are asked, when, with what, and
// the external ID their callback and buffer records then carry.
#include <cstdint>
#include <cstring>
#include <mutex>
#include <string>
#include <vector>

#include "ext/prof_protocol.h"
#include "gtest/gtest.h"
#include "hip_api_data.h"
#include "hip_api_id.h"
#include "hsa_api_data.h"
#include "rocprofiler-sdk/rocprofiler.h"
#include "tests/sdk/fake_consumer_seam.h"
#include "tests/sdk/run_with_tool.h"
#include "tests/sdk/tool_configure.h"

namespace {

constexpr uint32_t kHsa = ACTIVITY_DOMAIN_HSA_API;
constexpr uint32_t kHip = ACTIVITY_DOMAIN_HIP_API;

// What happened, in order: "request <ctx>" or "enter <ctx>"/"exit <ctx>".
struct Event {
  std::string what;
  uint64_t context;
  int32_t kind;
  int32_t op;
  uint64_t internal;
  uint64_t external;
  uint64_t thread;
};
std::mutex g_mutex;
std::vector<Event> g_events;
std::vector<uint64_t> g_buffered_external;  // (internal << 32) | external

rocprofiler_context_id_t g_a, g_b, g_c;
rocprofiler_buffer_id_t g_buffer;

struct InitStatuses {
  rocprofiler_status_t twice, unknown_context, null_callback, null_kinds,
      empty_kinds, kind_last, kind_none;
} g_init;

// Gives 1000 + the internal ID; for context C only for even internal IDs
// (odd ones decline: the records then carry 0).
int Request(rocprofiler_thread_id_t thread, rocprofiler_context_id_t context,
            rocprofiler_external_correlation_id_request_kind_t kind,
            rocprofiler_tracing_operation_t op, uint64_t internal,
            rocprofiler_user_data_t* external, void* data) {
  EXPECT_EQ(data, &g_init);
  std::lock_guard<std::mutex> lock(g_mutex);
  g_events.push_back({"request", context.handle, static_cast<int32_t>(kind), op,
                      internal, 0, thread});
  if (context.handle == g_c.handle && internal % 2 == 1) return 1;
  external->value = 1000 + internal;
  return 0;
}

void OnCall(rocprofiler_callback_tracing_record_t r, rocprofiler_user_data_t*,
            void*) {
  std::lock_guard<std::mutex> lock(g_mutex);
  g_events.push_back(
      {r.phase == ROCPROFILER_CALLBACK_PHASE_ENTER ? "enter" : "exit",
       r.context_id.handle, r.kind, r.operation, r.correlation_id.internal,
       r.correlation_id.external.value, r.thread_id});
}

void OnBuffer(rocprofiler_context_id_t, rocprofiler_buffer_id_t,
              rocprofiler_record_header_t** headers, size_t n, void*,
              uint64_t) {
  std::lock_guard<std::mutex> lock(g_mutex);
  for (size_t i = 0; i < n; ++i) {
    const auto* r =
        static_cast<const rocprofiler_buffer_tracing_hsa_api_record_t*>(
            headers[i]->payload);
    g_buffered_external.push_back((r->correlation_id.internal << 32) |
                                  r->correlation_id.external.value);
  }
}

int Initialize(rocprofiler_client_finalize_t, void*) {
  const rocprofiler_external_correlation_id_request_kind_t hsa_only[] = {
      ROCPROFILER_EXTERNAL_CORRELATION_REQUEST_HSA_CORE_API};
  bool ok = true;
  for (auto* c : {&g_a, &g_b, &g_c}) {
    ok &= rocprofiler_create_context(c) == ROCPROFILER_STATUS_SUCCESS;
  }
  // A: callbacks of HSA core and HIP runtime calls, asks for HSA core only.
  for (auto kind : {ROCPROFILER_CALLBACK_TRACING_HSA_CORE_API,
                    ROCPROFILER_CALLBACK_TRACING_HIP_RUNTIME_API}) {
    ok &= rocprofiler_configure_callback_tracing_service(g_a, kind, nullptr, 0,
                                                         &OnCall, nullptr) ==
          ROCPROFILER_STATUS_SUCCESS;
  }
  ok &= rocprofiler_configure_external_correlation_id_request_service(
            g_a, hsa_only, 1, &Request, &g_init) == ROCPROFILER_STATUS_SUCCESS;
  g_init.twice = rocprofiler_configure_external_correlation_id_request_service(
      g_a, hsa_only, 1, &Request, &g_init);
  // B: the same callbacks, no request service.
  ok &= rocprofiler_configure_callback_tracing_service(
            g_b, ROCPROFILER_CALLBACK_TRACING_HSA_CORE_API, nullptr, 0, &OnCall,
            nullptr) == ROCPROFILER_STATUS_SUCCESS;
  // C: buffer records of HSA core calls, asks for every kind.
  ok &= rocprofiler_create_buffer(
            g_c, 4096, 0, ROCPROFILER_BUFFER_POLICY_LOSSLESS, &OnBuffer,
            nullptr, &g_buffer) == ROCPROFILER_STATUS_SUCCESS;
  ok &= rocprofiler_configure_buffer_tracing_service(
            g_c, ROCPROFILER_BUFFER_TRACING_HSA_CORE_API, nullptr, 0,
            g_buffer) == ROCPROFILER_STATUS_SUCCESS;
  ok &= rocprofiler_configure_external_correlation_id_request_service(
            g_c, nullptr, 0, &Request, &g_init) == ROCPROFILER_STATUS_SUCCESS;
  // Bad input.
  rocprofiler_context_id_t unknown{12345};
  g_init.unknown_context =
      rocprofiler_configure_external_correlation_id_request_service(
          unknown, hsa_only, 1, &Request, nullptr);
  g_init.null_callback =
      rocprofiler_configure_external_correlation_id_request_service(
          g_b, hsa_only, 1, nullptr, nullptr);
  g_init.null_kinds =
      rocprofiler_configure_external_correlation_id_request_service(
          g_b, nullptr, 3, &Request, nullptr);
  g_init.empty_kinds =
      rocprofiler_configure_external_correlation_id_request_service(
          g_b, hsa_only, 0, &Request, nullptr);
  const rocprofiler_external_correlation_id_request_kind_t last[] = {
      ROCPROFILER_EXTERNAL_CORRELATION_REQUEST_LAST};
  g_init.kind_last =
      rocprofiler_configure_external_correlation_id_request_service(
          g_b, last, 1, &Request, nullptr);
  const rocprofiler_external_correlation_id_request_kind_t none[] = {
      ROCPROFILER_EXTERNAL_CORRELATION_REQUEST_NONE};
  g_init.kind_none =
      rocprofiler_configure_external_correlation_id_request_service(
          g_b, none, 1, &Request, nullptr);
  for (auto c : {g_a, g_b, g_c}) {
    ok &= rocprofiler_start_context(c) == ROCPROFILER_STATUS_SUCCESS;
  }
  return ok ? 0 : 1;
}

rocprofiler_tool_configure_result_t* Configure(uint32_t, const char*, uint32_t,
                                               rocprofiler_client_id_t* id) {
  return sdk_test::Configure<&Initialize>(id, nullptr);
}

void HsaCall(uint64_t correlation) {
  hsa_api_data_t d;
  std::memset(&d, 0, sizeof(d));
  fake_seam::Call(kHsa, HSA_API_ID_hsa_system_get_info,
                  ACTIVITY_API_PHASE_ENTER, correlation, &d);
  fake_seam::Call(kHsa, HSA_API_ID_hsa_system_get_info, ACTIVITY_API_PHASE_EXIT,
                  correlation, &d);
}

std::vector<Event> Take() {
  std::lock_guard<std::mutex> lock(g_mutex);
  std::vector<Event> out;
  out.swap(g_events);
  return out;
}

std::vector<uint64_t> TakeBuffered() {
  rocprofiler_flush_buffer(g_buffer);
  std::lock_guard<std::mutex> lock(g_mutex);
  std::vector<uint64_t> out;
  out.swap(g_buffered_external);
  return out;
}

int32_t HsaSystemGetInfoOp() {
  const char* name = nullptr;
  for (int32_t op = 0; op < 1024; ++op) {
    if (rocprofiler_query_callback_tracing_kind_operation_name(
            ROCPROFILER_CALLBACK_TRACING_HSA_CORE_API, op, &name, nullptr) ==
            ROCPROFILER_STATUS_SUCCESS &&
        std::strcmp(name, "hsa_system_get_info") == 0) {
      return op;
    }
  }
  return -1;
}

TEST(ExternalRequest, StatusesOfConfiguration) {
  EXPECT_EQ(g_init.twice, ROCPROFILER_STATUS_ERROR_SERVICE_ALREADY_CONFIGURED);
  EXPECT_EQ(g_init.unknown_context, ROCPROFILER_STATUS_ERROR_CONTEXT_NOT_FOUND);
  EXPECT_EQ(g_init.null_callback, ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(g_init.null_kinds, ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(g_init.empty_kinds, ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(g_init.kind_last, ROCPROFILER_STATUS_ERROR_KIND_NOT_FOUND);
  EXPECT_EQ(g_init.kind_none, ROCPROFILER_STATUS_ERROR_KIND_NOT_FOUND);
  // Outside initialize.
  EXPECT_EQ(rocprofiler_configure_external_correlation_id_request_service(
                g_b, nullptr, 0, &Request, nullptr),
            ROCPROFILER_STATUS_ERROR_CONFIGURATION_LOCKED);
}

TEST(ExternalRequest, AskedBeforeEnterWithTheCallsIdsAndCarriedToItsRecords) {
  Take();
  TakeBuffered();
  HsaCall(42);
  const std::vector<Event> ev = Take();
  rocprofiler_thread_id_t tid = 0;
  rocprofiler_get_thread_id(&tid);
  // A and C are asked (in context order) before any ENTER callback; B is not.
  ASSERT_EQ(ev.size(), 6u);
  EXPECT_EQ(ev[0].what, "request");
  EXPECT_EQ(ev[0].context, g_a.handle);
  EXPECT_EQ(ev[0].kind, ROCPROFILER_EXTERNAL_CORRELATION_REQUEST_HSA_CORE_API);
  EXPECT_EQ(ev[0].op, HsaSystemGetInfoOp());
  EXPECT_EQ(ev[0].internal, 42u);
  EXPECT_EQ(ev[0].thread, tid);
  EXPECT_EQ(ev[1].what, "request");
  EXPECT_EQ(ev[1].context, g_c.handle);
  for (size_t i = 2; i < ev.size(); ++i) {
    EXPECT_NE(ev[i].what, "request");
    EXPECT_EQ(ev[i].internal, 42u);
    // A's records carry what its request gave, B's nothing.
    EXPECT_EQ(ev[i].external, ev[i].context == g_a.handle ? 1042u : 0u)
        << ev[i].what << " " << ev[i].context;
  }
  EXPECT_EQ(TakeBuffered(), std::vector<uint64_t>{(uint64_t{42} << 32) | 1042});
  // A declined request (C, odd ID): the record carries 0.
  HsaCall(43);
  EXPECT_EQ(TakeBuffered(), std::vector<uint64_t>{uint64_t{43} << 32});
}

TEST(ExternalRequest, NotAskedWhenAnIdIsPushedOrTheKindWasNotRequested) {
  rocprofiler_thread_id_t tid = 0;
  rocprofiler_get_thread_id(&tid);
  ASSERT_EQ(rocprofiler_push_external_correlation_id(g_a, tid, {77}),
            ROCPROFILER_STATUS_SUCCESS);
  Take();
  HsaCall(50);
  std::vector<Event> ev = Take();
  int requests = 0;
  for (const Event& e : ev) {
    if (e.what == "request") {
      ++requests;
      EXPECT_EQ(e.context, g_c.handle);  // A has an ID pushed
    } else if (e.context == g_a.handle) {
      EXPECT_EQ(e.external, 77u);
    }
  }
  EXPECT_EQ(requests, 1);
  rocprofiler_user_data_t popped{};
  ASSERT_EQ(rocprofiler_pop_external_correlation_id(g_a, tid, &popped),
            ROCPROFILER_STATUS_SUCCESS);
  // A traces HIP calls but asked for HSA core only.
  // HIP's data has members with constructors (dim3): raw storage.
  union HipStorage {
    HipStorage() {}
    hip_api_data_t value;
  } storage;
  hip_api_data_t& d = storage.value;
  std::memset(static_cast<void*>(&d), 0, sizeof(d));
  fake_seam::Call(kHip, HIP_API_ID_hipGetErrorString, ACTIVITY_API_PHASE_ENTER,
                  60, &d);
  fake_seam::Call(kHip, HIP_API_ID_hipGetErrorString, ACTIVITY_API_PHASE_EXIT,
                  60, &d);
  ev = Take();
  ASSERT_EQ(ev.size(), 2u);
  for (const Event& e : ev) {
    EXPECT_NE(e.what, "request");
    EXPECT_EQ(e.external, 0u);
  }
}

TEST(ExternalRequest, AStoppedContextIsNotAsked) {
  ASSERT_EQ(rocprofiler_stop_context(g_a), ROCPROFILER_STATUS_SUCCESS);
  Take();
  HsaCall(70);
  for (const Event& e : Take()) EXPECT_NE(e.context, g_a.handle);
  ASSERT_EQ(rocprofiler_start_context(g_a), ROCPROFILER_STATUS_SUCCESS);
}

}  // namespace

int main(int argc, char** argv) {
  return sdk_test::RunWithTool(argc, argv, &Configure);
}
