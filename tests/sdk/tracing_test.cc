// Callback tracing semantics, driven through the consumer seam with
// synthetic calls built from the real generated data structs.
#include <sys/syscall.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstring>
#include <mutex>
#include <thread>
#include <vector>

#include "ext/prof_protocol.h"
#include "gtest/gtest.h"
#include "hip_api_data.h"
#include "hsa_api_data.h"
#include "rocprofiler-sdk/rocprofiler.h"
#include "roctracer_roctx.h"
#include "tests/sdk/fake_consumer_seam.h"
#include "tests/sdk/run_with_tool.h"
#include "tests/sdk/tool_configure.h"

namespace {

constexpr uint32_t kHsa = ACTIVITY_DOMAIN_HSA_API;
constexpr uint32_t kHip = ACTIVITY_DOMAIN_HIP_API;
constexpr uint32_t kRoctx = ACTIVITY_DOMAIN_ROCTX;
constexpr uint32_t kEnter = ACTIVITY_API_PHASE_ENTER;
constexpr uint32_t kExit = ACTIVITY_API_PHASE_EXIT;

struct Event {
  uint64_t context;
  rocprofiler_callback_tracing_kind_t kind;
  int32_t op;
  rocprofiler_callback_phase_t phase;
  uint64_t correlation;
  uint64_t ancestor;
  uint64_t external;
  uint64_t thread;
  uint64_t user_in;  // user_data as the callback found it
  int32_t hsa_attribute;
  int32_t hsa_status;
  const char* message;
};

std::mutex g_mutex;
std::vector<Event> g_events;

// Statuses seen inside the tool's initialize.
struct InitResults {
  int calls = 0;
  void* tool_data = nullptr;
  uint32_t version = 0;
  uint32_t priority = 99;
  rocprofiler_status_t twice, unknown_context, code_object, kernel_dispatch,
      memory_copy, scratch, hip_stream, ompt, rocdecode, rocjpeg, rccl,
      bad_kind, op_last, op_negative, null_callback, empty_list, force_inside;
} g_init;
int g_tool_data = 1234;

rocprofiler_context_id_t g_a, g_b, g_c, g_idle;
// Behaviours switched on by individual tests.
bool g_push_in_enter = false;
bool g_a_stops_b = false;
bool g_c_stops_itself = false;

void Record(rocprofiler_callback_tracing_record_t r,
            rocprofiler_user_data_t* user) {
  Event e{};
  e.context = r.context_id.handle;
  e.kind = r.kind;
  e.op = r.operation;
  e.phase = r.phase;
  e.correlation = r.correlation_id.internal;
  e.ancestor = r.correlation_id.ancestor;
  e.external = r.correlation_id.external.value;
  e.thread = r.thread_id;
  e.user_in = user->value;
  if (r.kind == ROCPROFILER_CALLBACK_TRACING_HSA_CORE_API) {
    auto* p =
        static_cast<rocprofiler_callback_tracing_hsa_api_data_t*>(r.payload);
    EXPECT_EQ(p->size, sizeof(*p));
    if (r.operation == ROCPROFILER_HSA_CORE_API_ID_hsa_system_get_info) {
      e.hsa_attribute = p->args.hsa_system_get_info.attribute;
    }
    e.hsa_status = p->retval.hsa_status_t_retval;
  }
  if (r.kind == ROCPROFILER_CALLBACK_TRACING_MARKER_CORE_API &&
      r.operation == ROCPROFILER_MARKER_CORE_API_ID_roctxRangePushA) {
    e.message =
        static_cast<rocprofiler_callback_tracing_marker_api_data_t*>(r.payload)
            ->args.roctxRangePushA.message;
  }
  std::lock_guard<std::mutex> lock(g_mutex);
  g_events.push_back(e);
}

void CallbackA(rocprofiler_callback_tracing_record_t r,
               rocprofiler_user_data_t* user, void* data) {
  EXPECT_EQ(data, &g_a);
  Record(r, user);
  if (r.phase == ROCPROFILER_CALLBACK_PHASE_ENTER) {
    user->value = r.correlation_id.internal * 100 + r.context_id.handle;
    if (g_push_in_enter) {
      EXPECT_EQ(ROCPROFILER_STATUS_SUCCESS,
                rocprofiler_push_external_correlation_id(
                    r.context_id, r.thread_id, rocprofiler_user_data_t{555}));
    }
    if (g_a_stops_b) rocprofiler_stop_context(g_b);
  } else if (g_push_in_enter) {
    rocprofiler_user_data_t v{};
    EXPECT_EQ(
        ROCPROFILER_STATUS_SUCCESS,
        rocprofiler_pop_external_correlation_id(r.context_id, r.thread_id, &v));
    EXPECT_EQ(v.value, 555u);
  }
}

// Set by StopWaitsForCallbacksOtherThreadsStarted: B's ENTER callback
// announces itself, then takes its time.
std::atomic<bool> g_b_slow{false};
std::atomic<bool> g_b_entered{false};
std::atomic<bool> g_b_finished{false};

void CallbackB(rocprofiler_callback_tracing_record_t r,
               rocprofiler_user_data_t* user, void*) {
  Record(r, user);
  if (r.phase == ROCPROFILER_CALLBACK_PHASE_ENTER) {
    user->value = r.correlation_id.internal * 100 + r.context_id.handle;
    if (g_b_slow) {
      g_b_entered = true;
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
      g_b_finished = true;
    }
  }
}

void CallbackC(rocprofiler_callback_tracing_record_t r,
               rocprofiler_user_data_t* user, void*) {
  Record(r, user);
  if (g_c_stops_itself) rocprofiler_stop_context(r.context_id);
}

int ToolInit(rocprofiler_client_finalize_t, void* tool_data) {
  g_init.calls++;
  g_init.tool_data = tool_data;
  const rocprofiler_tracing_operation_t get_info[] = {
      ROCPROFILER_HSA_CORE_API_ID_hsa_system_get_info};
  const rocprofiler_tracing_operation_t error_string[] = {
      ROCPROFILER_HIP_RUNTIME_API_ID_hipGetErrorString};
  for (auto* c : {&g_a, &g_b, &g_c, &g_idle}) {
    EXPECT_EQ(ROCPROFILER_STATUS_SUCCESS, rocprofiler_create_context(c));
  }
  auto configure = [](rocprofiler_context_id_t c,
                      rocprofiler_callback_tracing_kind_t k,
                      const rocprofiler_tracing_operation_t* ops, size_t n,
                      rocprofiler_callback_tracing_cb_t cb, void* data) {
    return rocprofiler_configure_callback_tracing_service(c, k, ops, n, cb,
                                                          data);
  };
  const auto core = ROCPROFILER_CALLBACK_TRACING_HSA_CORE_API;
  EXPECT_EQ(ROCPROFILER_STATUS_SUCCESS,
            configure(g_a, core, nullptr, 0, CallbackA, &g_a));
  EXPECT_EQ(ROCPROFILER_STATUS_SUCCESS,
            configure(g_a, ROCPROFILER_CALLBACK_TRACING_HIP_RUNTIME_API,
                      error_string, 1, CallbackA, &g_a));
  EXPECT_EQ(ROCPROFILER_STATUS_SUCCESS,
            configure(g_a, ROCPROFILER_CALLBACK_TRACING_MARKER_CORE_API,
                      nullptr, 0, CallbackA, &g_a));
  EXPECT_EQ(ROCPROFILER_STATUS_SUCCESS,
            configure(g_b, core, get_info, 1, CallbackB, nullptr));
  EXPECT_EQ(ROCPROFILER_STATUS_SUCCESS,
            configure(g_c, core, get_info, 1, CallbackC, nullptr));
  EXPECT_EQ(ROCPROFILER_STATUS_SUCCESS,
            configure(g_idle, core, nullptr, 0, CallbackB, nullptr));

  g_init.twice = configure(g_a, core, get_info, 1, CallbackA, &g_a);
  g_init.unknown_context = configure(rocprofiler_context_id_t{999}, core,
                                     nullptr, 0, CallbackA, nullptr);
  g_init.code_object = configure(g_b, ROCPROFILER_CALLBACK_TRACING_CODE_OBJECT,
                                 nullptr, 0, CallbackB, nullptr);
  g_init.kernel_dispatch =
      configure(g_b, ROCPROFILER_CALLBACK_TRACING_KERNEL_DISPATCH, nullptr, 0,
                CallbackB, nullptr);
  g_init.memory_copy = configure(g_b, ROCPROFILER_CALLBACK_TRACING_MEMORY_COPY,
                                 nullptr, 0, CallbackB, nullptr);
  g_init.scratch = configure(g_b, ROCPROFILER_CALLBACK_TRACING_SCRATCH_MEMORY,
                             nullptr, 0, CallbackB, nullptr);
  g_init.hip_stream = configure(g_b, ROCPROFILER_CALLBACK_TRACING_HIP_STREAM,
                                nullptr, 0, CallbackB, nullptr);
  // Libraries this tracer does not intercept: named, not served.
  const rocprofiler_tracing_operation_t ompt_ops[] = {
      ROCPROFILER_OMPT_ID_thread_begin, ROCPROFILER_OMPT_ID_target_emi};
  g_init.ompt = configure(g_b, ROCPROFILER_CALLBACK_TRACING_OMPT, ompt_ops, 2,
                          CallbackB, nullptr);
  g_init.rocdecode = configure(g_b, ROCPROFILER_CALLBACK_TRACING_ROCDECODE_API,
                               nullptr, 0, CallbackB, nullptr);
  g_init.rocjpeg = configure(g_b, ROCPROFILER_CALLBACK_TRACING_ROCJPEG_API,
                             nullptr, 0, CallbackB, nullptr);
  g_init.rccl = configure(g_b, ROCPROFILER_CALLBACK_TRACING_RCCL_API, nullptr,
                          0, CallbackB, nullptr);
  g_init.bad_kind =
      configure(g_b, static_cast<rocprofiler_callback_tracing_kind_t>(999),
                nullptr, 0, CallbackB, nullptr);
  const rocprofiler_tracing_operation_t last[] = {
      ROCPROFILER_HIP_COMPILER_API_ID_LAST};
  const rocprofiler_tracing_operation_t negative[] = {-1};
  g_init.op_last = configure(g_b, ROCPROFILER_CALLBACK_TRACING_HIP_COMPILER_API,
                             last, 1, CallbackB, nullptr);
  g_init.op_negative =
      configure(g_b, ROCPROFILER_CALLBACK_TRACING_HIP_COMPILER_API, negative, 1,
                CallbackB, nullptr);
  g_init.null_callback =
      configure(g_b, ROCPROFILER_CALLBACK_TRACING_HIP_RUNTIME_API, nullptr, 0,
                nullptr, nullptr);
  g_init.empty_list =
      configure(g_b, ROCPROFILER_CALLBACK_TRACING_HIP_RUNTIME_API, error_string,
                0, CallbackB, nullptr);
  g_init.force_inside = rocprofiler_force_configure(nullptr);
  EXPECT_EQ(ROCPROFILER_STATUS_SUCCESS, rocprofiler_start_context(g_a));
  EXPECT_EQ(ROCPROFILER_STATUS_SUCCESS, rocprofiler_start_context(g_b));
  return 0;
}

rocprofiler_tool_configure_result_t* ToolConfigure(
    uint32_t version, const char*, uint32_t priority,
    rocprofiler_client_id_t* id) {
  g_init.version = version;
  g_init.priority = priority;
  return sdk_test::Configure<&ToolInit>(id, "tracing_test", &g_tool_data);
}

std::vector<Event> Take() {
  std::lock_guard<std::mutex> lock(g_mutex);
  std::vector<Event> out;
  out.swap(g_events);
  return out;
}

hsa_api_data_t GetInfo(hsa_system_info_t attr, hsa_status_t status) {
  hsa_api_data_t d;
  std::memset(&d, 0, sizeof(d));
  d.args.hsa_system_get_info.attribute = attr;
  d.hsa_status_t_retval = status;
  return d;
}

void TracedCall(uint32_t domain, uint32_t op, uint64_t corr, void* data) {
  fake_seam::Call(domain, op, kEnter, corr, data);
  fake_seam::Call(domain, op, kExit, corr, data);
}

class Tracing : public testing::Test {
 protected:
  void SetUp() override {
    Take();
    g_push_in_enter = g_a_stops_b = g_c_stops_itself = false;
  }
};

TEST_F(Tracing, RegistrationRanTheToolOnceWithItsData) {
  EXPECT_EQ(g_init.calls, 1);
  EXPECT_EQ(g_init.tool_data, &g_tool_data);
  EXPECT_EQ(g_init.version, static_cast<uint32_t>(ROCPROFILER_VERSION));
  EXPECT_EQ(g_init.priority, 0u);
  int status = 0;
  EXPECT_EQ(ROCPROFILER_STATUS_SUCCESS, rocprofiler_is_initialized(&status));
  EXPECT_EQ(status, 1);
}

TEST_F(Tracing, ConfigurationStatusesInsideInitialize) {
  EXPECT_EQ(g_init.twice, ROCPROFILER_STATUS_ERROR_SERVICE_ALREADY_CONFIGURED);
  EXPECT_EQ(g_init.unknown_context, ROCPROFILER_STATUS_ERROR_CONTEXT_NOT_FOUND);
  // The GPU kinds are configured (they deliver only where the GPU half is
  // installed: tests/gpu:sdk_gpu_kinds_test), scratch memory too (its
  // events exist only with ROCm >= 6.1 headers, as in rocprofiler-sdk the
  // kind is configured whatever the runtime), HIP streams too.
  EXPECT_EQ(g_init.code_object, ROCPROFILER_STATUS_SUCCESS);
  EXPECT_EQ(g_init.kernel_dispatch, ROCPROFILER_STATUS_SUCCESS);
  EXPECT_EQ(g_init.memory_copy, ROCPROFILER_STATUS_SUCCESS);
  EXPECT_EQ(g_init.scratch, ROCPROFILER_STATUS_SUCCESS);
  EXPECT_EQ(g_init.hip_stream, ROCPROFILER_STATUS_SUCCESS);
  EXPECT_EQ(g_init.ompt, ROCPROFILER_STATUS_ERROR_NOT_IMPLEMENTED);
  EXPECT_EQ(g_init.rocdecode, ROCPROFILER_STATUS_ERROR_NOT_IMPLEMENTED);
  EXPECT_EQ(g_init.rocjpeg, ROCPROFILER_STATUS_ERROR_NOT_IMPLEMENTED);
  EXPECT_EQ(g_init.rccl, ROCPROFILER_STATUS_ERROR_NOT_IMPLEMENTED);
  EXPECT_EQ(g_init.bad_kind, ROCPROFILER_STATUS_ERROR_KIND_NOT_FOUND);
  EXPECT_EQ(g_init.op_last, ROCPROFILER_STATUS_ERROR_OPERATION_NOT_FOUND);
  EXPECT_EQ(g_init.op_negative, ROCPROFILER_STATUS_ERROR_OPERATION_NOT_FOUND);
  EXPECT_EQ(g_init.null_callback, ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(g_init.empty_list, ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(g_init.force_inside, ROCPROFILER_STATUS_ERROR_CONFIGURATION_LOCKED);
}

TEST_F(Tracing, ConfigurationIsLockedAfterInitialize) {
  rocprofiler_context_id_t c{0};
  EXPECT_EQ(ROCPROFILER_STATUS_ERROR_CONFIGURATION_LOCKED,
            rocprofiler_create_context(&c));
  EXPECT_EQ(ROCPROFILER_STATUS_ERROR_CONFIGURATION_LOCKED,
            rocprofiler_configure_callback_tracing_service(
                g_b, ROCPROFILER_CALLBACK_TRACING_HIP_RUNTIME_API, nullptr, 0,
                CallbackB, nullptr));
  EXPECT_EQ(ROCPROFILER_STATUS_ERROR_CONFIGURATION_LOCKED,
            rocprofiler_force_configure(&ToolConfigure));
  EXPECT_EQ(g_init.calls, 1);
}

TEST_F(Tracing, ContextQueries) {
  int s = -1;
  EXPECT_EQ(ROCPROFILER_STATUS_SUCCESS, rocprofiler_context_is_active(g_a, &s));
  EXPECT_EQ(s, 1);
  EXPECT_EQ(ROCPROFILER_STATUS_SUCCESS,
            rocprofiler_context_is_active(g_idle, &s));
  EXPECT_EQ(s, 0);
  EXPECT_EQ(ROCPROFILER_STATUS_SUCCESS,
            rocprofiler_context_is_valid(g_idle, &s));
  EXPECT_EQ(s, 1);
  const rocprofiler_context_id_t bogus[] = {
      {0}, {999}, ROCPROFILER_CONTEXT_NONE};
  for (auto c : bogus) {
    EXPECT_EQ(ROCPROFILER_STATUS_ERROR_CONTEXT_NOT_FOUND,
              rocprofiler_context_is_valid(c, &s));
    EXPECT_EQ(s, 0);
    EXPECT_EQ(ROCPROFILER_STATUS_ERROR_CONTEXT_NOT_FOUND,
              rocprofiler_context_is_active(c, &s));
    EXPECT_EQ(ROCPROFILER_STATUS_ERROR_CONTEXT_NOT_FOUND,
              rocprofiler_start_context(c));
    EXPECT_EQ(ROCPROFILER_STATUS_ERROR_CONTEXT_NOT_FOUND,
              rocprofiler_stop_context(c));
  }
  // The header marks `status` nonnull; the library still checks. Called
  // through a plain function pointer (no attribute), as a C tool built
  // without the attribute would.
  rocprofiler_status_t (*is_valid)(rocprofiler_context_id_t, int*) =
      &rocprofiler_context_is_valid;
  rocprofiler_status_t (*is_active)(rocprofiler_context_id_t, int*) =
      &rocprofiler_context_is_active;
  rocprofiler_status_t (*create)(rocprofiler_context_id_t*) =
      &rocprofiler_create_context;
  EXPECT_EQ(ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT, is_valid(g_a, nullptr));
  EXPECT_EQ(ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT, is_active(g_a, nullptr));
  EXPECT_EQ(ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT, create(nullptr));
}

TEST_F(Tracing, InterestFollowsStartedContextsOperations) {
  EXPECT_TRUE(fake_seam::Interested(kHsa, HSA_API_ID_hsa_init));
  EXPECT_TRUE(fake_seam::Interested(kHsa, HSA_API_ID_hsa_system_get_info));
  EXPECT_TRUE(fake_seam::Interested(kHip, HIP_API_ID_hipGetErrorString));
  EXPECT_FALSE(fake_seam::Interested(kHip, HIP_API_ID_hipMalloc));
  EXPECT_FALSE(
      fake_seam::Interested(kHsa, HSA_API_ID_hsa_amd_memory_pool_allocate));
  EXPECT_TRUE(fake_seam::Interested(kRoctx, ROCTX_API_ID_roctxMarkA));

  ASSERT_EQ(ROCPROFILER_STATUS_SUCCESS, rocprofiler_stop_context(g_a));
  EXPECT_FALSE(fake_seam::Interested(kHsa, HSA_API_ID_hsa_init));
  EXPECT_TRUE(fake_seam::Interested(kHsa, HSA_API_ID_hsa_system_get_info));
  EXPECT_FALSE(fake_seam::Interested(kHip, HIP_API_ID_hipGetErrorString));
  ASSERT_EQ(ROCPROFILER_STATUS_SUCCESS, rocprofiler_start_context(g_a));
  // Starting twice counts once: one stop removes the interest again.
  ASSERT_EQ(ROCPROFILER_STATUS_SUCCESS, rocprofiler_start_context(g_a));
  EXPECT_TRUE(fake_seam::Interested(kHsa, HSA_API_ID_hsa_init));
}

TEST_F(Tracing, EnterAndExitCarryTheCallsDataAndSameCorrelationId) {
  hsa_api_data_t d = GetInfo(HSA_SYSTEM_INFO_TIMESTAMP, HSA_STATUS_SUCCESS);
  fake_seam::Call(kHsa, HSA_API_ID_hsa_system_get_info, kEnter, 41, &d);
  d.hsa_status_t_retval = HSA_STATUS_ERROR_NOT_INITIALIZED;
  fake_seam::Call(kHsa, HSA_API_ID_hsa_system_get_info, kExit, 41, &d);
  const auto ev = Take();
  // A and B trace hsa_system_get_info; ENTER of both, then EXIT of both.
  ASSERT_EQ(ev.size(), 4u);
  const uint64_t tid = static_cast<uint64_t>(syscall(SYS_gettid));
  for (size_t i = 0; i < ev.size(); ++i) {
    const Event& e = ev[i];
    EXPECT_EQ(e.context, (i % 2 == 0 ? g_a : g_b).handle);
    EXPECT_EQ(e.kind, ROCPROFILER_CALLBACK_TRACING_HSA_CORE_API);
    EXPECT_EQ(e.op, ROCPROFILER_HSA_CORE_API_ID_hsa_system_get_info);
    EXPECT_EQ(e.phase, i < 2 ? ROCPROFILER_CALLBACK_PHASE_ENTER
                             : ROCPROFILER_CALLBACK_PHASE_EXIT);
    EXPECT_EQ(e.correlation, 41u);
    EXPECT_EQ(e.thread, tid);
    EXPECT_EQ(e.hsa_attribute, HSA_SYSTEM_INFO_TIMESTAMP);
  }
  EXPECT_EQ(ev[0].hsa_status, 0);  // not yet returned at ENTER
  EXPECT_EQ(ev[2].hsa_status, HSA_STATUS_ERROR_NOT_INITIALIZED);
  // user_data: zero at ENTER, what ENTER stored at EXIT, per context.
  EXPECT_EQ(ev[0].user_in, 0u);
  EXPECT_EQ(ev[1].user_in, 0u);
  EXPECT_EQ(ev[2].user_in, 41 * 100 + g_a.handle);
  EXPECT_EQ(ev[3].user_in, 41 * 100 + g_b.handle);
}

TEST_F(Tracing, OnlySelectedOperationsOfOnlyActiveContexts) {
  hsa_api_data_t d = GetInfo(HSA_SYSTEM_INFO_TIMESTAMP, HSA_STATUS_SUCCESS);
  TracedCall(kHsa, HSA_API_ID_hsa_init, 7, &d);
  auto ev = Take();
  ASSERT_EQ(ev.size(), 2u);  // A only: B and C select get_info, idle stopped
  EXPECT_EQ(ev[0].context, g_a.handle);
  EXPECT_EQ(ev[0].op, ROCPROFILER_HSA_CORE_API_ID_hsa_init);

  // The interception layer may call the consumer for ops roctracer enabled:
  // no context asked for hipMalloc.
  // HIP's data holds types with constructors: uninitialised storage.
  union HipData {
    HipData() {}
    hip_api_data_t value;
  } storage;
  hip_api_data_t& h = storage.value;
  std::memset(static_cast<void*>(&h), 0, sizeof(h));
  fake_seam::CallUnfiltered(kHip, HIP_API_ID_hipMalloc, kEnter, 8, &h);
  fake_seam::CallUnfiltered(kHip, HIP_API_ID_hipMalloc, kExit, 8, &h);
  EXPECT_TRUE(Take().empty());

  TracedCall(kHip, HIP_API_ID_hipGetErrorString, 9, &h);
  ev = Take();
  ASSERT_EQ(ev.size(), 2u);
  EXPECT_EQ(ev[0].kind, ROCPROFILER_CALLBACK_TRACING_HIP_RUNTIME_API);
  EXPECT_EQ(ev[0].op, ROCPROFILER_HIP_RUNTIME_API_ID_hipGetErrorString);
}

TEST_F(Tracing, ExternalIdPushedInEnterIsSeenAtExit) {
  rocprofiler_thread_id_t tid = 0;
  rocprofiler_get_thread_id(&tid);
  ASSERT_EQ(ROCPROFILER_STATUS_SUCCESS,
            rocprofiler_push_external_correlation_id(
                g_a, tid, rocprofiler_user_data_t{7}));
  g_push_in_enter = true;
  hsa_api_data_t d = GetInfo(HSA_SYSTEM_INFO_TIMESTAMP, HSA_STATUS_SUCCESS);
  TracedCall(kHsa, HSA_API_ID_hsa_init, 12, &d);
  g_push_in_enter = false;
  const auto ev = Take();
  ASSERT_EQ(ev.size(), 2u);
  EXPECT_EQ(ev[0].external, 7u);
  EXPECT_EQ(ev[1].external, 555u);
  rocprofiler_user_data_t v{};
  EXPECT_EQ(ROCPROFILER_STATUS_SUCCESS,
            rocprofiler_pop_external_correlation_id(g_a, tid, &v));
  EXPECT_EQ(v.value, 7u);
  // Stacks are per context: B never saw a push.
  EXPECT_EQ(ROCPROFILER_STATUS_ERROR,
            rocprofiler_pop_external_correlation_id(g_b, tid, &v));
  EXPECT_EQ(v.value, 0u);
}

TEST_F(Tracing, ExternalIdStatuses) {
  rocprofiler_thread_id_t tid = 0;
  rocprofiler_get_thread_id(&tid);
  EXPECT_EQ(
      ROCPROFILER_STATUS_ERROR_CONTEXT_NOT_FOUND,
      rocprofiler_push_external_correlation_id(
          rocprofiler_context_id_t{999}, tid, rocprofiler_user_data_t{1}));
  EXPECT_EQ(ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT,
            rocprofiler_push_external_correlation_id(
                g_a, tid + 1, rocprofiler_user_data_t{1}));
  EXPECT_EQ(ROCPROFILER_STATUS_ERROR_CONTEXT_NOT_FOUND,
            rocprofiler_pop_external_correlation_id(
                rocprofiler_context_id_t{999}, tid, nullptr));
  EXPECT_EQ(ROCPROFILER_STATUS_ERROR,
            rocprofiler_pop_external_correlation_id(g_a, tid, nullptr));
  int pushed = 0;
  while (rocprofiler_push_external_correlation_id(g_a, tid,
                                                  rocprofiler_user_data_t{1}) ==
             ROCPROFILER_STATUS_SUCCESS &&
         pushed < 1000) {
    ++pushed;
  }
  EXPECT_EQ(pushed, 16);
  EXPECT_EQ(ROCPROFILER_STATUS_ERROR_OUT_OF_RESOURCES,
            rocprofiler_push_external_correlation_id(
                g_a, tid, rocprofiler_user_data_t{1}));
  while (pushed-- > 0)
    rocprofiler_pop_external_correlation_id(g_a, tid, nullptr);
}

TEST_F(Tracing, StoppingAContextStopsItsCallbacksAtOnce) {
  // A (lower index, called first) stops B inside A's ENTER callback: B gets
  // neither ENTER nor EXIT of this call.
  g_a_stops_b = true;
  hsa_api_data_t d = GetInfo(HSA_SYSTEM_INFO_TIMESTAMP, HSA_STATUS_SUCCESS);
  TracedCall(kHsa, HSA_API_ID_hsa_system_get_info, 20, &d);
  g_a_stops_b = false;
  auto ev = Take();
  ASSERT_EQ(ev.size(), 2u);
  EXPECT_EQ(ev[0].context, g_a.handle);
  EXPECT_EQ(ev[1].context, g_a.handle);
  int s = 1;
  rocprofiler_context_is_active(g_b, &s);
  EXPECT_EQ(s, 0);

  // C stops itself in its ENTER: no EXIT for C, nothing afterwards.
  ASSERT_EQ(ROCPROFILER_STATUS_SUCCESS, rocprofiler_start_context(g_c));
  g_c_stops_itself = true;
  fake_seam::Call(kHsa, HSA_API_ID_hsa_system_get_info, kEnter, 21, &d);
  fake_seam::Call(kHsa, HSA_API_ID_hsa_system_get_info, kExit, 21, &d);
  g_c_stops_itself = false;
  ev = Take();
  ASSERT_EQ(ev.size(), 3u);  // A enter, C enter, A exit
  EXPECT_EQ(ev[1].context, g_c.handle);
  EXPECT_EQ(ev[1].phase, ROCPROFILER_CALLBACK_PHASE_ENTER);
  EXPECT_EQ(ev[2].context, g_a.handle);

  ASSERT_EQ(ROCPROFILER_STATUS_SUCCESS, rocprofiler_start_context(g_b));
  TracedCall(kHsa, HSA_API_ID_hsa_system_get_info, 22, &d);
  EXPECT_EQ(Take().size(), 4u);  // A and B again
}

// A callback another thread already started when the context is stopped
// finishes before rocprofiler_stop_context returns, so the tool may free
// what its callbacks use as soon as stop returns.
TEST_F(Tracing, StopWaitsForCallbacksOtherThreadsStarted) {
  g_b_slow = true;
  std::thread caller([] {
    hsa_api_data_t d = GetInfo(HSA_SYSTEM_INFO_TIMESTAMP, HSA_STATUS_SUCCESS);
    fake_seam::Call(kHsa, HSA_API_ID_hsa_system_get_info, kEnter, 30, &d);
    fake_seam::Call(kHsa, HSA_API_ID_hsa_system_get_info, kExit, 30, &d);
  });
  while (!g_b_entered) std::this_thread::yield();
  ASSERT_EQ(ROCPROFILER_STATUS_SUCCESS, rocprofiler_stop_context(g_b));
  EXPECT_TRUE(g_b_finished.load());
  caller.join();
  g_b_slow = false;
  Take();
  ASSERT_EQ(ROCPROFILER_STATUS_SUCCESS, rocprofiler_start_context(g_b));
}

TEST_F(Tracing, NestedCallsKeepTheirOwnUserData) {
  hsa_api_data_t outer = GetInfo(HSA_SYSTEM_INFO_TIMESTAMP, HSA_STATUS_SUCCESS);
  hsa_api_data_t inner =
      GetInfo(HSA_SYSTEM_INFO_ENDIANNESS, HSA_STATUS_SUCCESS);
  fake_seam::Call(kHsa, HSA_API_ID_hsa_init, kEnter, 30, &outer);
  fake_seam::Call(kHsa, HSA_API_ID_hsa_system_get_info, kEnter, 31, &inner);
  fake_seam::Call(kHsa, HSA_API_ID_hsa_system_get_info, kExit, 31, &inner);
  fake_seam::Call(kHsa, HSA_API_ID_hsa_init, kExit, 30, &outer);
  const auto ev = Take();
  ASSERT_EQ(ev.size(), 6u);
  // A enter 30, A enter 31, B enter 31, A exit 31, B exit 31, A exit 30.
  // The inner call's ancestor is the outer call; the outer call has none.
  for (size_t i : {0u, 5u}) EXPECT_EQ(ev[i].ancestor, 0u) << i;
  for (size_t i : {1u, 2u, 3u, 4u}) EXPECT_EQ(ev[i].ancestor, 30u) << i;
  EXPECT_EQ(ev[3].correlation, 31u);
  EXPECT_EQ(ev[3].user_in, 31 * 100 + g_a.handle);
  EXPECT_EQ(ev[4].user_in, 31 * 100 + g_b.handle);
  EXPECT_EQ(ev[5].correlation, 30u);
  EXPECT_EQ(ev[5].user_in, 30 * 100 + g_a.handle);
}

// An inner call whose EXIT never comes (an exception through it) does not
// misalign the outer call's EXIT or later calls.
TEST_F(Tracing, LostInnerExitIsRecoveredAtTheOuterExit) {
  hsa_api_data_t d = GetInfo(HSA_SYSTEM_INFO_TIMESTAMP, HSA_STATUS_SUCCESS);
  fake_seam::Call(kHsa, HSA_API_ID_hsa_init, kEnter, 50, &d);
  fake_seam::Call(kHsa, HSA_API_ID_hsa_shut_down, kEnter, 51, &d);
  fake_seam::Call(kHsa, HSA_API_ID_hsa_init, kExit, 50, &d);
  auto ev = Take();
  ASSERT_EQ(ev.size(), 3u);
  EXPECT_EQ(ev[2].phase, ROCPROFILER_CALLBACK_PHASE_EXIT);
  EXPECT_EQ(ev[2].correlation, 50u);
  EXPECT_EQ(ev[2].user_in, 50 * 100 + g_a.handle);
  // An EXIT nobody entered changes nothing.
  fake_seam::Call(kHsa, HSA_API_ID_hsa_init, kExit, 49, &d);
  EXPECT_TRUE(Take().empty());
  TracedCall(kHsa, HSA_API_ID_hsa_init, 52, &d);
  ev = Take();
  ASSERT_EQ(ev.size(), 2u);
  EXPECT_EQ(ev[1].user_in, 52 * 100 + g_a.handle);
}

TEST_F(Tracing, MarkerCalls) {
  roctx_api_data_t r;
  std::memset(&r, 0, sizeof(r));
  r.args.roctxRangePushA.message = "outer range";
  TracedCall(kRoctx, ROCTX_API_ID_roctxRangePushA, 40, &r);
  const auto ev = Take();
  ASSERT_EQ(ev.size(), 2u);
  EXPECT_EQ(ev[0].kind, ROCPROFILER_CALLBACK_TRACING_MARKER_CORE_API);
  EXPECT_EQ(ev[0].op, ROCPROFILER_MARKER_CORE_API_ID_roctxRangePushA);
  EXPECT_EQ(ev[0].message, r.args.roctxRangePushA.message);
  EXPECT_EQ(ev[1].correlation, 40u);
}

TEST_F(Tracing, ConcurrentThreadsGetTheirOwnThreadIdAndUserData) {
  constexpr int kThreads = 4, kCalls = 200;
  std::vector<std::thread> threads;
  std::vector<uint64_t> tids(kThreads);
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([t, &tids] {
      tids[t] = static_cast<uint64_t>(syscall(SYS_gettid));
      hsa_api_data_t d = GetInfo(HSA_SYSTEM_INFO_TIMESTAMP, HSA_STATUS_SUCCESS);
      for (int i = 0; i < kCalls; ++i) {
        TracedCall(kHsa, HSA_API_ID_hsa_init, 1000000 * (t + 1) + i, &d);
      }
    });
  }
  for (auto& th : threads) th.join();
  const auto ev = Take();
  ASSERT_EQ(ev.size(), static_cast<size_t>(kThreads * kCalls * 2));
  for (const Event& e : ev) {
    const int t = static_cast<int>(e.correlation / 1000000) - 1;
    ASSERT_GE(t, 0);
    ASSERT_LT(t, kThreads);
    EXPECT_EQ(e.thread, tids[t]);
    if (e.phase == ROCPROFILER_CALLBACK_PHASE_EXIT) {
      EXPECT_EQ(e.user_in, e.correlation * 100 + g_a.handle);
    }
  }
}

// Start/stop from another thread while calls are in flight: a context gets
// EXIT only for calls whose ENTER it got (its user_data is always the one
// its ENTER wrote), and never a torn or stale service.
TEST_F(Tracing, StartStopRacesWithCalls) {
  std::atomic<bool> done{false};
  std::thread toggler([&done] {
    for (int i = 0; i < 300; ++i) {
      rocprofiler_stop_context(g_b);
      rocprofiler_start_context(g_b);
    }
    done = true;
  });
  std::vector<std::thread> callers;
  for (int t = 0; t < 2; ++t) {
    callers.emplace_back([t, &done] {
      hsa_api_data_t d = GetInfo(HSA_SYSTEM_INFO_TIMESTAMP, HSA_STATUS_SUCCESS);
      for (uint64_t i = 0; !done || i < 100; ++i) {
        TracedCall(kHsa, HSA_API_ID_hsa_system_get_info, 1000000 * (t + 1) + i,
                   &d);
      }
    });
  }
  toggler.join();
  for (auto& th : callers) th.join();
  int active = 0;
  rocprofiler_context_is_active(g_b, &active);
  EXPECT_EQ(active, 1);
  for (const Event& e : Take()) {
    if (e.phase == ROCPROFILER_CALLBACK_PHASE_EXIT) {
      EXPECT_EQ(e.user_in, e.correlation * 100 + e.context);
    }
  }
}

}  // namespace

int main(int argc, char** argv) {
  return sdk_test::RunWithTool(argc, argv, &ToolConfigure);
}
