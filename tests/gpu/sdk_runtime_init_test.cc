// RUNTIME_INITIALIZATION of HSA on softhsa without a table handed over
// through rocprofiler_set_api_table, as with Debian's ROCR: with
// libroctracer64.so.4 loaded as the HSA tool (HSA_TOOLS_LIB, OnLoad) when
// SDK_RUNTIME_INIT_AS_HSA_TOOL is set, else (ROCTRACER_AUTO_HSA_TOOL=0, so
// the tracer does not name itself the HSA tool) seen at hsa_init's EXIT
// through the tracer's exported hsa_init. Either way the callback and the buffer
// record carry the runtime's version as hsa_system_get_info answers it,
// encoded as a runtime that hands its tables over encodes its own
// (10000 * major + 100 * minor + patch, the patch 0: HSA answers no query
// for it; softhsa's 1.1 is 10100), and so does the intercept-table
// service's HSA table when OnLoad handed it over.
#include <gtest/gtest.h>
#include <hsa/hsa.h>

#include <cstdlib>
#include <mutex>
#include <vector>

#include "rocprofiler-sdk/rocprofiler.h"
#include "tests/gpu/gpu_test_util.h"
#include "tests/sdk/tool_configure.h"

namespace {

struct Init {
  int32_t operation;
  uint64_t version;
};

std::mutex g_mutex;
std::vector<Init> g_callbacks;
std::vector<Init> g_records;
rocprofiler_buffer_id_t g_buffer{0};
std::vector<uint64_t> g_table_versions;  // intercept-table service, HSA

void OnTable(rocprofiler_intercept_table_t, uint64_t version, uint64_t, void**,
             uint64_t, void*) {
  std::lock_guard<std::mutex> lock(g_mutex);
  g_table_versions.push_back(version);
}

void OnInit(rocprofiler_callback_tracing_record_t r, rocprofiler_user_data_t*,
            void*) {
  const auto* p = static_cast<
      const rocprofiler_callback_tracing_runtime_initialization_data_t*>(
      r.payload);
  std::lock_guard<std::mutex> lock(g_mutex);
  g_callbacks.push_back({r.operation, p->version});
}

void Deliver(rocprofiler_context_id_t, rocprofiler_buffer_id_t,
             rocprofiler_record_header_t** headers, size_t n, void*, uint64_t) {
  std::lock_guard<std::mutex> lock(g_mutex);
  for (size_t i = 0; i < n; ++i) {
    const auto* r = static_cast<
        const rocprofiler_buffer_tracing_runtime_initialization_record_t*>(
        headers[i]->payload);
    g_records.push_back({r->operation, r->version});
  }
}

int Initialize(rocprofiler_client_finalize_t, void*) {
  rocprofiler_context_id_t ctx{0};
  if (rocprofiler_at_intercept_table_registration(
          &OnTable, ROCPROFILER_HSA_TABLE, nullptr) !=
          ROCPROFILER_STATUS_SUCCESS ||
      rocprofiler_create_context(&ctx) != ROCPROFILER_STATUS_SUCCESS ||
      rocprofiler_configure_callback_tracing_service(
          ctx, ROCPROFILER_CALLBACK_TRACING_RUNTIME_INITIALIZATION, nullptr, 0,
          &OnInit, nullptr) != ROCPROFILER_STATUS_SUCCESS ||
      rocprofiler_create_buffer(
          ctx, 1 << 16, 1 << 12, ROCPROFILER_BUFFER_POLICY_LOSSLESS, &Deliver,
          nullptr, &g_buffer) != ROCPROFILER_STATUS_SUCCESS ||
      rocprofiler_configure_buffer_tracing_service(
          ctx, ROCPROFILER_BUFFER_TRACING_RUNTIME_INITIALIZATION, nullptr, 0,
          g_buffer) != ROCPROFILER_STATUS_SUCCESS) {
    return 1;
  }
  return rocprofiler_start_context(ctx) == ROCPROFILER_STATUS_SUCCESS ? 0 : 1;
}

rocprofiler_tool_configure_result_t* Configure(uint32_t, const char*, uint32_t,
                                               rocprofiler_client_id_t* id) {
  return sdk_test::Configure<&Initialize>(id, "sdk_runtime_init_test");
}

TEST(SdkRuntimeInit, HsasInitializationCarriesTheRuntimesVersion) {
  ASSERT_EQ(rocprofiler_force_configure(&Configure),
            ROCPROFILER_STATUS_SUCCESS);
  const bool as_tool = std::getenv("SDK_RUNTIME_INIT_AS_HSA_TOOL") != nullptr;
  if (as_tool) setenv("HSA_TOOLS_LIB", gpu_test::TracerPath().c_str(), 1);
  ASSERT_EQ(hsa_init(), HSA_STATUS_SUCCESS);
  uint16_t major = 0;
  uint16_t minor = 0;
  ASSERT_EQ(hsa_system_get_info(HSA_SYSTEM_INFO_VERSION_MAJOR, &major),
            HSA_STATUS_SUCCESS);
  ASSERT_EQ(hsa_system_get_info(HSA_SYSTEM_INFO_VERSION_MINOR, &minor),
            HSA_STATUS_SUCCESS);
  const uint64_t version = 10000ull * major + 100ull * minor;
  ASSERT_EQ(version, 10100u) << "softhsa answers HSA 1.1";
  ASSERT_EQ(rocprofiler_flush_buffer(g_buffer), ROCPROFILER_STATUS_SUCCESS);
  {
    std::lock_guard<std::mutex> lock(g_mutex);
    ASSERT_EQ(g_callbacks.size(), 1u);
    EXPECT_EQ(g_callbacks[0].operation, ROCPROFILER_RUNTIME_INITIALIZATION_HSA);
    EXPECT_EQ(g_callbacks[0].version, version);
    ASSERT_EQ(g_records.size(), 1u);
    EXPECT_EQ(g_records[0].operation, ROCPROFILER_RUNTIME_INITIALIZATION_HSA);
    EXPECT_EQ(g_records[0].version, version);
    EXPECT_EQ(g_table_versions, as_tool ? std::vector<uint64_t>{version}
                                        : std::vector<uint64_t>{});
  }
  hsa_shut_down();
}

}  // namespace
