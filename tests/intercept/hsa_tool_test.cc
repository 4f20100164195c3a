// The HSA plugin path: an HsaApiTable filled from the real libhsa-runtime64
// by name (what ROCR hands a tool), OnLoad, calls through the table, OnUnload.
// The tracer is linked statically without its C-symbol wrappers, so the
// table is the only way calls reach it.
#include <dlfcn.h>
#include <gtest/gtest.h>
#include <hsa/hsa_api_trace.h>
#include <roctracer.h>
#include <roctracer_hsa.h>

#include <cstring>
#include <mutex>
#include <string>
#include <vector>

#include "hsa_table_fill.h"
#include "tests/core/collector.h"
#include "tests/core/reset.h"

extern "C" bool OnLoad(HsaApiTable* table, uint64_t runtime_version,
                       uint64_t failed_tool_count,
                       const char* const* failed_tool_names);
extern "C" void OnUnload();
extern "C" const uint32_t HSA_AMD_TOOL_PRIORITY;

namespace {

struct Seen {
  uint32_t op;
  uint32_t phase;
  uint64_t correlation_id;
  hsa_api_data_t data;
  std::string symbol_name;  // hsa_executable_get_symbol_by_name's string
  const char* symbol_name_ptr;
};

std::mutex g_mutex;
std::vector<Seen> g_seen;

void Record(uint32_t domain, uint32_t op, const void* callback_data, void*) {
  ASSERT_EQ(domain, ACTIVITY_DOMAIN_HSA_API);
  const auto* data = static_cast<const hsa_api_data_t*>(callback_data);
  Seen s{op, data->phase, data->correlation_id, *data, {}, nullptr};
  if (op == HSA_API_ID_hsa_executable_get_symbol_by_name) {
    s.symbol_name_ptr =
        data->args.hsa_executable_get_symbol_by_name.symbol_name;
    s.symbol_name = s.symbol_name_ptr;
  }
  std::lock_guard<std::mutex> lock(g_mutex);
  g_seen.push_back(s);
}

void* LookUp(const char* name, void* handle) { return dlsym(handle, name); }

class HsaToolTest : public roctracer_test::TracerTest {
 protected:
  void SetUp() override {
    handle_ = dlopen("libhsa-runtime64.so.1", RTLD_NOW | RTLD_LOCAL);
    ASSERT_NE(handle_, nullptr) << dlerror();
    filled_ = roctracer::hsa_api::FillHsaApiTable(&tables_, &LookUp, handle_);
    originals_ = tables_;
    g_seen.clear();
  }
  void TearDown() override {
    OnUnload();
    roctracer_test::TracerTest::TearDown();
  }

  void* handle_ = nullptr;
  int filled_ = 0;
  HsaApiTableContainer tables_;
  HsaApiTableContainer originals_;
};

TEST_F(HsaToolTest, ExportsTheToolInterface) {
  EXPECT_GT(HSA_AMD_TOOL_PRIORITY, 0u);
  // The table the real library yields: every exported function (the three
  // queue-intercept slots have no exported symbol).
  EXPECT_EQ(filled_, 189);
}

TEST_F(HsaToolTest, OnLoadWrapsEveryFilledSlotAndOnUnloadRestoresIt) {
  ASSERT_TRUE(OnLoad(&tables_.root, 0, 0, nullptr));
  EXPECT_NE(tables_.core.hsa_init_fn, originals_.core.hsa_init_fn);
  EXPECT_NE(tables_.amd_ext.hsa_amd_memory_pool_get_info_fn,
            originals_.amd_ext.hsa_amd_memory_pool_get_info_fn);
  EXPECT_NE(tables_.image_ext.hsa_ext_image_create_fn,
            originals_.image_ext.hsa_ext_image_create_fn);
  EXPECT_NE(tables_.finalizer_ext.hsa_ext_program_create_fn,
            originals_.finalizer_ext.hsa_ext_program_create_fn);
  // Slots ROCR left NULL stay NULL.
  EXPECT_EQ(tables_.amd_ext.hsa_amd_queue_intercept_create_fn, nullptr);
  OnUnload();
  EXPECT_EQ(std::memcmp(&tables_.core, &originals_.core, sizeof(CoreApiTable)),
            0);
  EXPECT_EQ(
      std::memcmp(&tables_.amd_ext, &originals_.amd_ext, sizeof(AmdExtTable)),
      0);
  EXPECT_EQ(std::memcmp(&tables_.image_ext, &originals_.image_ext,
                        sizeof(ImageExtTable)),
            0);
  EXPECT_EQ(std::memcmp(&tables_.finalizer_ext, &originals_.finalizer_ext,
                        sizeof(FinalizerExtTable)),
            0);
}

TEST_F(HsaToolTest, RefusesATableOfAnotherMajorVersion) {
  tables_.core.version.major_id = HSA_CORE_API_TABLE_MAJOR_VERSION + 1;
  EXPECT_FALSE(OnLoad(&tables_.root, 0, 0, nullptr));
  EXPECT_EQ(tables_.core.hsa_init_fn, originals_.core.hsa_init_fn);
  EXPECT_FALSE(OnLoad(nullptr, 0, 0, nullptr));
}

TEST_F(HsaToolTest, CallsThroughTheTableAreTracedWithRealResults) {
  // The real library's answers, called directly.
  const hsa_status_t init_direct = originals_.core.hsa_init_fn();
  uint16_t major = 0;
  const hsa_status_t info_direct = originals_.core.hsa_system_get_info_fn(
      HSA_SYSTEM_INFO_VERSION_MAJOR, &major);
  ASSERT_EQ(init_direct, HSA_STATUS_ERROR_OUT_OF_RESOURCES);
  ASSERT_EQ(info_direct, HSA_STATUS_ERROR_NOT_INITIALIZED);

  auto& collector = NewCollector();
  roctracer_properties_t properties = collector.Properties();
  ASSERT_EQ(roctracer_open_pool(&properties), ROCTRACER_STATUS_SUCCESS);
  ASSERT_EQ(roctracer_enable_domain_callback(ACTIVITY_DOMAIN_HSA_API, &Record,
                                             nullptr),
            ROCTRACER_STATUS_SUCCESS);
  ASSERT_EQ(roctracer_enable_domain_activity(ACTIVITY_DOMAIN_HSA_API),
            ROCTRACER_STATUS_SUCCESS);
  ASSERT_TRUE(OnLoad(&tables_.root, 0, 0, nullptr));

  roctracer_timestamp_t before = 0, after = 0;
  ASSERT_EQ(roctracer_get_timestamp(&before), ROCTRACER_STATUS_SUCCESS);
  EXPECT_EQ(tables_.core.hsa_init_fn(), init_direct);
  EXPECT_EQ(tables_.core.hsa_system_get_info_fn(HSA_SYSTEM_INFO_VERSION_MAJOR,
                                                &major),
            info_direct);
  const char* text = nullptr;
  EXPECT_EQ(
      tables_.core.hsa_status_string_fn(HSA_STATUS_ERROR_INVALID_AGENT, &text),
      HSA_STATUS_SUCCESS);
  ASSERT_NE(text, nullptr);
  EXPECT_NE(std::string(text).find("HSA_STATUS_ERROR_INVALID_AGENT"),
            std::string::npos);
  char name[] = "kernel_symbol";
  hsa_executable_t executable{0x1234};
  hsa_agent_t agent{0x5678};
  hsa_executable_symbol_t symbol{0};
  const hsa_status_t by_name =
      tables_.core.hsa_executable_get_symbol_by_name_fn(executable, name,
                                                        &agent, &symbol);
  ASSERT_EQ(roctracer_get_timestamp(&after), ROCTRACER_STATUS_SUCCESS);
  EXPECT_EQ(by_name, originals_.core.hsa_executable_get_symbol_by_name_fn(
                         executable, name, &agent, &symbol));
  ASSERT_EQ(roctracer_flush_activity(), ROCTRACER_STATUS_SUCCESS);

  std::vector<Seen> seen;
  {
    std::lock_guard<std::mutex> lock(g_mutex);
    seen = g_seen;
  }
  ASSERT_EQ(seen.size(), 8u);
  const uint32_t ops[] = {HSA_API_ID_hsa_init, HSA_API_ID_hsa_system_get_info,
                          HSA_API_ID_hsa_status_string,
                          HSA_API_ID_hsa_executable_get_symbol_by_name};
  for (size_t i = 0; i < 4; ++i) {
    const Seen& enter = seen[2 * i];
    const Seen& exit = seen[2 * i + 1];
    EXPECT_EQ(enter.op, ops[i]);
    EXPECT_EQ(exit.op, ops[i]);
    EXPECT_EQ(enter.phase, ACTIVITY_API_PHASE_ENTER);
    EXPECT_EQ(exit.phase, ACTIVITY_API_PHASE_EXIT);
    EXPECT_NE(enter.correlation_id, 0u);
    EXPECT_EQ(enter.correlation_id, exit.correlation_id);
    if (i > 0) {
      EXPECT_GT(enter.correlation_id, seen[2 * i - 1].correlation_id);
    }
  }
  EXPECT_EQ(seen[1].data.hsa_status_t_retval, init_direct);
  EXPECT_EQ(seen[2].data.args.hsa_system_get_info.attribute,
            HSA_SYSTEM_INFO_VERSION_MAJOR);
  EXPECT_EQ(seen[2].data.args.hsa_system_get_info.value, &major);
  EXPECT_EQ(seen[3].data.hsa_status_t_retval, info_direct);
  EXPECT_EQ(seen[4].data.args.hsa_status_string.status,
            HSA_STATUS_ERROR_INVALID_AGENT);
  EXPECT_EQ(seen[5].data.hsa_status_t_retval, HSA_STATUS_SUCCESS);
  const auto& args = seen[6].data.args.hsa_executable_get_symbol_by_name;
  EXPECT_EQ(args.executable.handle, executable.handle);
  EXPECT_EQ(args.agent, &agent);
  EXPECT_EQ(args.symbol, &symbol);
  // The string argument is a copy the tracer owns, equal to the caller's.
  EXPECT_EQ(seen[6].symbol_name, "kernel_symbol");
  EXPECT_NE(seen[6].symbol_name_ptr, name);
  EXPECT_EQ(seen[7].data.hsa_status_t_retval, by_name);

  // One activity record per call, with the callbacks' correlation IDs.
  std::vector<uint64_t> record_ids;
  for (const auto& c : collector.records()) {
    if (c.record.domain != ACTIVITY_DOMAIN_HSA_API) continue;
    record_ids.push_back(c.record.correlation_id);
    // In the clock of roctracer_get_timestamp, inside the calls' span.
    EXPECT_LE(before, c.record.begin_ns);
    EXPECT_LE(c.record.begin_ns, c.record.end_ns);
    EXPECT_LE(c.record.end_ns, after);
    EXPECT_EQ(c.record.kind, 0u);
  }
  ASSERT_EQ(record_ids.size(), 4u);
  for (size_t i = 0; i < 4; ++i) {
    EXPECT_EQ(record_ids[i], seen[2 * i].correlation_id);
  }
}

TEST_F(HsaToolTest, NothingEnabledForwardsUntraced) {
  ASSERT_TRUE(OnLoad(&tables_.root, 0, 0, nullptr));
  uint16_t major = 0;
  EXPECT_EQ(tables_.core.hsa_system_get_info_fn(HSA_SYSTEM_INFO_VERSION_MAJOR,
                                                &major),
            HSA_STATUS_ERROR_NOT_INITIALIZED);
  std::lock_guard<std::mutex> lock(g_mutex);
  EXPECT_TRUE(g_seen.empty());
}

}  // namespace
