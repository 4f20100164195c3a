// The HSA tool path on softhsa (//softhsa, the HSA runtime on the CPU): the
// runtime loads libroctracer64.so.4 named in HSA_TOOLS_LIB at hsa_init and
// calls its OnLoad with the runtime's own table, through which every
// exported hsa_* function dispatches, as ROCR does; OnUnload at the last
// hsa_shut_down. The program links softhsa ahead of the tracer and the GOT
// patcher is off (ROCTRACER_GOT_PATCH=0), so the table is the only way its
// calls reach the tracer. A probe tool loaded before the tracer shows the
// table as the runtime filled it.
#include <dlfcn.h>
#include <gtest/gtest.h>
#include <hsa/hsa_api_trace.h>
#include <roctracer.h>
#include <roctracer_hsa.h>

#include <cstdlib>
#include <cstring>
#include <mutex>
#include <string>
#include <vector>

#include "tests/core/collector.h"
#include "tests/core/reset.h"

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

using ProbeTableFn = HsaApiTable* (*)(const CoreApiTable**, const AmdExtTable**,
                                      int*);
using OnLoadFn = bool (*)(HsaApiTable*, uint64_t, uint64_t, const char* const*);

class HsaToolTest : public roctracer_test::TracerTest {
 protected:
  void SetUp() override {
    // Both tools by SONAME: the tracer is the copy this program links.
    setenv("HSA_TOOLS_LIB",
           "libroctracer64.so.4 tests/intercept/libtable_probe_tool.so", 1);
    ASSERT_EQ(hsa_init(), HSA_STATUS_SUCCESS);
    probe_ = dlopen("tests/intercept/libtable_probe_tool.so",
                    RTLD_NOW | RTLD_NOLOAD);
    ASSERT_NE(probe_, nullptr) << dlerror();
    auto probe_table =
        reinterpret_cast<ProbeTableFn>(dlsym(probe_, "ProbeTable"));
    ASSERT_NE(probe_table, nullptr);
    int loads = 0;
    table_ = probe_table(&originals_core_, &originals_amd_ext_, &loads);
    ASSERT_NE(table_, nullptr);
    ASSERT_GE(loads, 1);
    g_seen.clear();
  }
  void TearDown() override {
    if (initialized_) hsa_shut_down();
    roctracer_test::TracerTest::TearDown();
    if (probe_ != nullptr) dlclose(probe_);
  }

  HsaApiTable* table_ = nullptr;
  const CoreApiTable* originals_core_ = nullptr;
  const AmdExtTable* originals_amd_ext_ = nullptr;
  void* probe_ = nullptr;
  bool initialized_ = true;
};

TEST_F(HsaToolTest, RuntimeLoadsTheTracerAsATool) {
  void* tracer = dlopen("libroctracer64.so.4", RTLD_NOW | RTLD_NOLOAD);
  ASSERT_NE(tracer, nullptr);
  const auto* priority =
      static_cast<const uint32_t*>(dlsym(tracer, "HSA_AMD_TOOL_PRIORITY"));
  ASSERT_NE(priority, nullptr);
  EXPECT_GT(*priority, 10u);  // after the probe
  dlclose(tracer);
  // The program's hsa_* calls bind to softhsa, not to the tracer's stubs.
  Dl_info where{};
  ASSERT_NE(dladdr(reinterpret_cast<void*>(&hsa_system_get_info), &where), 0);
  EXPECT_NE(std::string(where.dli_fname).find("softhsa"), std::string::npos)
      << where.dli_fname;
}

TEST_F(HsaToolTest, OnLoadWrapsTheRuntimesSlotsAndOnUnloadRestoresThem) {
  const CoreApiTable& core = *table_->core_;
  const AmdExtTable& amd_ext = *table_->amd_ext_;
  EXPECT_NE(core.hsa_init_fn, originals_core_->hsa_init_fn);
  EXPECT_NE(core.hsa_system_get_info_fn,
            originals_core_->hsa_system_get_info_fn);
  EXPECT_NE(amd_ext.hsa_amd_memory_pool_get_info_fn,
            originals_amd_ext_->hsa_amd_memory_pool_get_info_fn);
  // The slots are the tracer's: they are functions of libroctracer64.
  Dl_info where{};
  ASSERT_NE(dladdr(reinterpret_cast<void*>(core.hsa_init_fn), &where), 0);
  EXPECT_NE(std::string(where.dli_fname).find("libroctracer64"),
            std::string::npos);
  // The last hsa_shut_down unloads the tools: the tracer's OnUnload puts
  // the runtime's functions back.
  ASSERT_EQ(hsa_shut_down(), HSA_STATUS_SUCCESS);
  initialized_ = false;
  EXPECT_EQ(std::memcmp(table_->core_, originals_core_, sizeof(CoreApiTable)),
            0);
  EXPECT_EQ(
      std::memcmp(table_->amd_ext_, originals_amd_ext_, sizeof(AmdExtTable)),
      0);
}

TEST_F(HsaToolTest, RefusesATableOfAnotherMajorVersion) {
  void* tracer = dlopen("libroctracer64.so.4", RTLD_NOW | RTLD_NOLOAD);
  ASSERT_NE(tracer, nullptr);
  auto on_load = reinterpret_cast<OnLoadFn>(dlsym(tracer, "OnLoad"));
  ASSERT_NE(on_load, nullptr);
  // A copy of the runtime's tables whose core table claims another layout.
  CoreApiTable core = *originals_core_;
  AmdExtTable amd_ext = *originals_amd_ext_;
  HsaApiTable root = *table_;
  root.core_ = &core;
  root.amd_ext_ = &amd_ext;
  core.version.major_id = HSA_CORE_API_TABLE_MAJOR_VERSION + 1;
  EXPECT_FALSE(on_load(&root, 0, 0, nullptr));
  EXPECT_EQ(core.hsa_init_fn, originals_core_->hsa_init_fn);
  EXPECT_FALSE(on_load(nullptr, 0, 0, nullptr));
  dlclose(tracer);
}

TEST_F(HsaToolTest, CallsThroughTheTableAreTracedWithRealResults) {
  // softhsa's answers, untraced (nothing enabled: the wrappers forward).
  const hsa_status_t init_direct = hsa_init();
  ASSERT_EQ(hsa_shut_down(), HSA_STATUS_SUCCESS);
  uint16_t major = 0;
  const hsa_status_t info_direct =
      hsa_system_get_info(HSA_SYSTEM_INFO_VERSION_MAJOR, &major);
  ASSERT_EQ(init_direct, HSA_STATUS_SUCCESS);
  ASSERT_EQ(info_direct, HSA_STATUS_SUCCESS);
  ASSERT_EQ(major, 1);

  auto& collector = NewCollector();
  roctracer_properties_t properties = collector.Properties();
  ASSERT_EQ(roctracer_open_pool(&properties), ROCTRACER_STATUS_SUCCESS);
  ASSERT_EQ(roctracer_enable_domain_callback(ACTIVITY_DOMAIN_HSA_API, &Record,
                                             nullptr),
            ROCTRACER_STATUS_SUCCESS);
  ASSERT_EQ(roctracer_enable_domain_activity(ACTIVITY_DOMAIN_HSA_API),
            ROCTRACER_STATUS_SUCCESS);

  roctracer_timestamp_t before = 0, after = 0;
  ASSERT_EQ(roctracer_get_timestamp(&before), ROCTRACER_STATUS_SUCCESS);
  EXPECT_EQ(hsa_init(), init_direct);  // nested: the count goes to 2
  major = 0;
  EXPECT_EQ(hsa_system_get_info(HSA_SYSTEM_INFO_VERSION_MAJOR, &major),
            info_direct);
  EXPECT_EQ(major, 1);
  const char* text = nullptr;
  EXPECT_EQ(hsa_status_string(HSA_STATUS_ERROR_INVALID_AGENT, &text),
            HSA_STATUS_SUCCESS);
  ASSERT_NE(text, nullptr);
  EXPECT_NE(std::string(text).find("HSA_STATUS_ERROR_INVALID_AGENT"),
            std::string::npos);
  char name[] = "kernel_symbol";
  hsa_executable_t executable{0x1234};
  hsa_agent_t agent{0x5678};
  hsa_executable_symbol_t symbol{0};
  const hsa_status_t by_name =
      hsa_executable_get_symbol_by_name(executable, name, &agent, &symbol);
  ASSERT_EQ(roctracer_get_timestamp(&after), ROCTRACER_STATUS_SUCCESS);
  ASSERT_EQ(roctracer_disable_domain_callback(ACTIVITY_DOMAIN_HSA_API),
            ROCTRACER_STATUS_SUCCESS);
  ASSERT_EQ(roctracer_disable_domain_activity(ACTIVITY_DOMAIN_HSA_API),
            ROCTRACER_STATUS_SUCCESS);
  ASSERT_EQ(hsa_shut_down(), HSA_STATUS_SUCCESS);  // the nested hsa_init
  EXPECT_EQ(by_name, originals_core_->hsa_executable_get_symbol_by_name_fn(
                         executable, name, &agent, &symbol));
  EXPECT_NE(by_name, HSA_STATUS_SUCCESS);
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
  uint16_t major = 0;
  EXPECT_EQ(hsa_system_get_info(HSA_SYSTEM_INFO_VERSION_MAJOR, &major),
            HSA_STATUS_SUCCESS);
  EXPECT_EQ(major, 1);
  std::lock_guard<std::mutex> lock(g_mutex);
  EXPECT_TRUE(g_seen.empty());
}

}  // namespace
