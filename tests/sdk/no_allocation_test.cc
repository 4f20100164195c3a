// The traced-call path allocates nothing: global operator new is replaced
// with a counting one and 1000 traced calls (two contexts, ENTER and EXIT,
// HSA, HIP and marker) must not move the count. (rocprofiler-sdk itself
// heap-allocates a map per call.) Not under ASan, which owns operator new.
#include <cstdlib>
#include <cstring>
#include <new>
#include <string>

#include "ext/prof_protocol.h"
#include "gtest/gtest.h"
#include "hip_api_data.h"
#include "hsa_api_data.h"
#include "rocprofiler-sdk/rocprofiler.h"
#include "roctracer_roctx.h"
#include "tests/sdk/fake_consumer_seam.h"
#include "tests/sdk/tool_configure.h"

namespace {
size_t g_allocations = 0;
}  // namespace

void* operator new(size_t n) {
  ++g_allocations;
  if (void* p = std::malloc(n == 0 ? 1 : n)) return p;
  throw std::bad_alloc();
}
void operator delete(void* p) noexcept { std::free(p); }
void operator delete(void* p, size_t) noexcept { std::free(p); }

namespace {

int g_calls = 0;

void Callback(rocprofiler_callback_tracing_record_t,
              rocprofiler_user_data_t* user, void*) {
  ++g_calls;
  user->value++;
}

int Init(rocprofiler_client_finalize_t, void*) {
  for (int i = 0; i < 2; ++i) {
    rocprofiler_context_id_t c;
    rocprofiler_create_context(&c);
    for (auto kind : {ROCPROFILER_CALLBACK_TRACING_HSA_CORE_API,
                      ROCPROFILER_CALLBACK_TRACING_HIP_RUNTIME_API,
                      ROCPROFILER_CALLBACK_TRACING_MARKER_CORE_API}) {
      rocprofiler_configure_callback_tracing_service(c, kind, nullptr, 0,
                                                     &Callback, nullptr);
    }
    rocprofiler_start_context(c);
  }
  return 0;
}

rocprofiler_tool_configure_result_t* Configure(uint32_t, const char*, uint32_t,
                                               rocprofiler_client_id_t* id) {
  return sdk_test::Configure<&Init>(id, nullptr);
}

TEST(NoAllocation, CounterSeesAllocations) {
  const size_t before = g_allocations;
  std::string* s = new std::string(100, 'x');
  delete s;
  EXPECT_GT(g_allocations, before);
}

TEST(NoAllocation, TracedCallsAllocateNothing) {
  ASSERT_EQ(ROCPROFILER_STATUS_SUCCESS,
            rocprofiler_force_configure(&Configure));
  hsa_api_data_t hsa;
  std::memset(&hsa, 0, sizeof(hsa));
  union HipStorage {
    HipStorage() {}
    hip_api_data_t d;
  } hip;
  std::memset(static_cast<void*>(&hip.d), 0, sizeof(hip.d));
  roctx_api_data_t roctx;
  std::memset(&roctx, 0, sizeof(roctx));
  roctx.args.roctxMarkA.message = "m";
  // First call on this thread: warm-up (TLS block, lazily built tables).
  fake_seam::Call(ACTIVITY_DOMAIN_HSA_API, HSA_API_ID_hsa_init,
                  ACTIVITY_API_PHASE_ENTER, 1, &hsa);
  fake_seam::Call(ACTIVITY_DOMAIN_HSA_API, HSA_API_ID_hsa_init,
                  ACTIVITY_API_PHASE_EXIT, 1, &hsa);
  roctracer::ApiConsumerFn consume = fake_seam::Consumer();
  ASSERT_NE(consume, nullptr);
  g_calls = 0;
  const size_t before = g_allocations;
  for (uint64_t i = 0; i < 1000; ++i) {
    struct {
      uint32_t domain, op;
      void* data;
    } calls[] = {
        {ACTIVITY_DOMAIN_HSA_API, HSA_API_ID_hsa_system_get_info, &hsa},
        {ACTIVITY_DOMAIN_HIP_API, HIP_API_ID_hipGetErrorString, &hip.d},
        {ACTIVITY_DOMAIN_ROCTX, ROCTX_API_ID_roctxMarkA, &roctx},
    };
    for (auto& c : calls) {
      roctracer::ApiCallInfo info{c.domain, c.op, ACTIVITY_API_PHASE_ENTER,
                                  i + 10,   0,    c.data};
      consume(info);
      info.phase = ACTIVITY_API_PHASE_EXIT;
      consume(info);
    }
  }
  EXPECT_EQ(g_allocations, before);
  EXPECT_EQ(g_calls, 1000 * 3 * 2 * 2);
}

}  // namespace
