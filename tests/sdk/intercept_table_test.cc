// The intercept-table service end to end through //:roctracer: the tool
// asks for the HSA table from rocprofiler_configure; a runtime hands the
// tracer its HsaApiTable through rocprofiler_set_api_table (as
// rocprofiler-register does), here one filled from the real
// libhsa-runtime64 with dlsym; the tool gets it after the tracer's wrappers
// are in, replaces a slot, and a call through the table then runs the
// tool's function, the traced call inside it, and the runtime's function.
#include <dlfcn.h>
#include <hsa/hsa.h>
#include <hsa/hsa_api_trace.h>

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "rocprofiler-sdk/rocprofiler.h"
#include "tests/sdk/tool_configure.h"

extern "C" int rocprofiler_set_api_table(const char* name, uint64_t version,
                                         uint64_t instance, void** tables,
                                         uint64_t num_tables);

namespace {

struct Seen {
  int table_calls = 0;
  rocprofiler_intercept_table_t type{};
  uint64_t version = 0, instance = 0, count = 0;
  void* table = nullptr;
  int wrapper_calls = 0;
  std::vector<std::string> traced;  // ENTER/EXIT of traced HSA core calls
  rocprofiler_status_t null_callback{}, no_libs{}, unknown_lib{};
  // RUNTIME_INITIALIZATION callbacks ("init OP VERSION INSTANCE") and table
  // callbacks ("table TYPE"), in order.
  std::vector<std::string> order;
} g_seen;
int g_data;
decltype(hsa_system_get_info)* g_next = nullptr;
rocprofiler_context_id_t g_context{};

hsa_status_t ToolWrapper(hsa_system_info_t attribute, void* value) {
  ++g_seen.wrapper_calls;
  return g_next(attribute, value);
}

void OnTables(rocprofiler_intercept_table_t type, uint64_t version,
              uint64_t instance, void** tables, uint64_t count, void* data) {
  EXPECT_EQ(data, &g_data);
  g_seen.order.push_back("table " + std::to_string(type));
  ++g_seen.table_calls;
  g_seen.type = type;
  g_seen.version = version;
  g_seen.instance = instance;
  g_seen.count = count;
  g_seen.table = tables[0];
  if (type != ROCPROFILER_HSA_TABLE) return;
  auto* table = static_cast<HsaApiTable*>(tables[0]);
  g_next = table->core_->hsa_system_get_info_fn;
  table->core_->hsa_system_get_info_fn = &ToolWrapper;
}

void OnCall(rocprofiler_callback_tracing_record_t r, rocprofiler_user_data_t*,
            void*) {
  if (r.kind == ROCPROFILER_CALLBACK_TRACING_RUNTIME_INITIALIZATION) {
    const auto* p = static_cast<
        const rocprofiler_callback_tracing_runtime_initialization_data_t*>(
        r.payload);
    EXPECT_EQ(r.phase, ROCPROFILER_CALLBACK_PHASE_NONE);
    EXPECT_EQ(r.correlation_id.internal, 0u);
    g_seen.order.push_back("init " + std::to_string(r.operation) + " " +
                           std::to_string(p->version) + " " +
                           std::to_string(p->instance));
    return;
  }
  const char* name = nullptr;
  rocprofiler_query_callback_tracing_kind_operation_name(r.kind, r.operation,
                                                         &name, nullptr);
  g_seen.traced.push_back(
      std::string(r.phase == ROCPROFILER_CALLBACK_PHASE_ENTER ? "enter "
                                                              : "exit ") +
      (name != nullptr ? name : "?"));
}

int Initialize(rocprofiler_client_finalize_t, void*) {
  if (rocprofiler_create_context(&g_context) != ROCPROFILER_STATUS_SUCCESS ||
      rocprofiler_configure_callback_tracing_service(
          g_context, ROCPROFILER_CALLBACK_TRACING_HSA_CORE_API, nullptr, 0,
          &OnCall, nullptr) != ROCPROFILER_STATUS_SUCCESS ||
      rocprofiler_configure_callback_tracing_service(
          g_context, ROCPROFILER_CALLBACK_TRACING_RUNTIME_INITIALIZATION,
          nullptr, 0, &OnCall, nullptr) != ROCPROFILER_STATUS_SUCCESS) {
    return 1;
  }
  return rocprofiler_start_context(g_context) == ROCPROFILER_STATUS_SUCCESS ? 0
                                                                            : 1;
}

}  // namespace

extern "C" __attribute__((visibility("default")))
rocprofiler_tool_configure_result_t*
rocprofiler_configure(uint32_t, const char*, uint32_t,
                      rocprofiler_client_id_t* id) {
  g_seen.null_callback = rocprofiler_at_intercept_table_registration(
      nullptr, ROCPROFILER_HSA_TABLE, nullptr);
  g_seen.no_libs =
      rocprofiler_at_intercept_table_registration(&OnTables, 0, nullptr);
  g_seen.unknown_lib = rocprofiler_at_intercept_table_registration(
      &OnTables, ROCPROFILER_TABLE_LAST << 1, nullptr);
  if (rocprofiler_at_intercept_table_registration(
          &OnTables, ROCPROFILER_HSA_TABLE | ROCPROFILER_HIP_RUNTIME_TABLE,
          &g_data) != ROCPROFILER_STATUS_SUCCESS) {
    return nullptr;
  }
  return sdk_test::Configure<&Initialize>(id, "intercept_table_test");
}

namespace {

TEST(InterceptTable, TheToolsSlotWrapsTheTracedCall) {
  // The runtimes' first call registers the tool.
  const char* text = nullptr;
  hsa_status_string(HSA_STATUS_ERROR, &text);
  int initialized = 0;
  rocprofiler_is_initialized(&initialized);
  ASSERT_EQ(initialized, 1);
  EXPECT_EQ(g_seen.null_callback, ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(g_seen.no_libs, ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(g_seen.unknown_lib, ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(rocprofiler_at_intercept_table_registration(
                &OnTables, ROCPROFILER_HSA_TABLE, nullptr),
            ROCPROFILER_STATUS_ERROR_CONFIGURATION_LOCKED);
  EXPECT_EQ(g_seen.table_calls, 0);

  // The runtime's table, as ROCR builds it: the real functions.
  void* hsa = dlopen("libhsa-runtime64.so.1", RTLD_NOW | RTLD_NOLOAD);
  if (hsa == nullptr) hsa = dlopen("libhsa-runtime64.so.1", RTLD_NOW);
  ASSERT_NE(hsa, nullptr);
  auto* real = reinterpret_cast<decltype(hsa_system_get_info)*>(
      dlsym(hsa, "hsa_system_get_info"));
  ASSERT_NE(real, nullptr);
  static CoreApiTable core;
  std::memset(&core, 0, sizeof(core));
  core.version.major_id = HSA_CORE_API_TABLE_MAJOR_VERSION;
  core.version.minor_id = sizeof(CoreApiTable);
  core.hsa_system_get_info_fn = real;
  static HsaApiTable table;
  std::memset(&table, 0, sizeof(table));
  table.version.major_id = HSA_API_TABLE_MAJOR_VERSION;
  table.version.minor_id = sizeof(HsaApiTable);
  table.core_ = &core;
  void* tables[1] = {&table};
  ASSERT_EQ(rocprofiler_set_api_table("hsa", 42, 3, tables, 1), 0);
  ASSERT_EQ(g_seen.table_calls, 1);
  EXPECT_EQ(g_seen.type, ROCPROFILER_HSA_TABLE);
  EXPECT_EQ(g_seen.version, 42u);
  EXPECT_EQ(g_seen.instance, 3u);
  EXPECT_EQ(g_seen.count, 1u);
  EXPECT_EQ(g_seen.table, &table);
  // The tool found the tracer's wrapper in the slot, not the runtime's.
  EXPECT_NE(g_next, real);

  g_seen.traced.clear();
  uint64_t ts = 0;
  const hsa_status_t direct = real(HSA_SYSTEM_INFO_TIMESTAMP, &ts);
  const hsa_status_t through =
      core.hsa_system_get_info_fn(HSA_SYSTEM_INFO_TIMESTAMP, &ts);
  EXPECT_EQ(through, direct);
  EXPECT_EQ(g_seen.wrapper_calls, 1);
  EXPECT_EQ(g_seen.traced,
            (std::vector<std::string>{"enter hsa_system_get_info",
                                      "exit hsa_system_get_info"}));

  // HIP's table (a registration for another of the tool's kinds) reaches it
  // too; a kind it did not ask for does not.
  void* hip_tables[1] = {&g_data};
  ASSERT_EQ(rocprofiler_set_api_table("hip", 7, 0, hip_tables, 1), 0);
  EXPECT_EQ(g_seen.table_calls, 2);
  EXPECT_EQ(g_seen.type, ROCPROFILER_HIP_RUNTIME_TABLE);
  ASSERT_EQ(rocprofiler_set_api_table("hip_compiler", 7, 0, hip_tables, 1), 0);
  EXPECT_EQ(g_seen.table_calls, 2);

  // Each runtime handing over its tables initialized: reported once, with
  // the version and instance it passed, before the tools get its tables (as
  // rocprofiler-sdk 1.0.0 does); the HIP compiler's table is no runtime of
  // its own. A runtime handing tables again is not reported again.
  ASSERT_EQ(rocprofiler_set_api_table("hip", 8, 1, hip_tables, 1), 0);
  EXPECT_EQ(
      g_seen.order,
      (std::vector<std::string>{
          "init " + std::to_string(ROCPROFILER_RUNTIME_INITIALIZATION_HSA) +
              " 42 3",
          "table " + std::to_string(ROCPROFILER_HSA_TABLE),
          "init " + std::to_string(ROCPROFILER_RUNTIME_INITIALIZATION_HIP) +
              " 7 0",
          "table " + std::to_string(ROCPROFILER_HIP_RUNTIME_TABLE),
          "table " + std::to_string(ROCPROFILER_HIP_RUNTIME_TABLE)}));
}

}  // namespace
