// ROCm >= 6.2's registration path, against stand-ins (no runtime here is built
// with rocprofiler-register): a runtime registers its HsaApiTable with
// rocprofiler-register at hsa_init, which hands it to libroctracer64.so.4's
// rocprofiler_set_api_table (ROCPROFILER_REGISTER_LIBRARY names it); the
// generated wrappers go into the table. The program links the tracer ahead of
// the runtime, so its own hsa_* calls pass a symbol stub AND the table
// wrapper: each call must still be traced once. The runtime's exported
// functions reached directly (dlsym on the runtime) pass the table only.
#include <dlfcn.h>
#include <gtest/gtest.h>
#include <hsa/hsa_api_trace.h>
#include <roctracer.h>
#include <roctracer_hsa.h>

#include <mutex>
#include <string>
#include <vector>

#include "tests/core/reset.h"

extern "C" HsaApiTable* standin_table(int* status);

namespace {

struct Seen {
  uint32_t op;
  uint32_t phase;
  uint64_t correlation_id;
};

std::mutex g_mutex;
std::vector<Seen> g_seen;

void Record(uint32_t, uint32_t op, const void* data, void*) {
  const auto* d = static_cast<const hsa_api_data_t*>(data);
  std::lock_guard<std::mutex> lock(g_mutex);
  g_seen.push_back(Seen{op, d->phase, d->correlation_id});
}

std::vector<Seen> TakeSeen() {
  std::lock_guard<std::mutex> lock(g_mutex);
  std::vector<Seen> seen;
  seen.swap(g_seen);
  return seen;
}

using SetApiTable = int (*)(const char*, uint64_t, uint64_t, void**, uint64_t);

class RegistrationTest : public roctracer_test::TracerTest {
 protected:
  void SetUp() override {
    runtime_ =
        dlopen("libstandin_registering_runtime.so", RTLD_NOW | RTLD_NOLOAD);
    ASSERT_NE(runtime_, nullptr) << dlerror();
    tracer_ = dlopen("libroctracer64.so.4", RTLD_NOW | RTLD_NOLOAD);
    ASSERT_NE(tracer_, nullptr) << dlerror();
    // The runtime's own exports, not the tracer's stubs.
    runtime_init_ =
        reinterpret_cast<decltype(&hsa_init)>(dlsym(runtime_, "hsa_init"));
    runtime_get_info_ = reinterpret_cast<decltype(&hsa_system_get_info)>(
        dlsym(runtime_, "hsa_system_get_info"));
    ASSERT_NE(runtime_init_, nullptr);
    ASSERT_NE(runtime_get_info_, nullptr);
    ASSERT_EQ(runtime_init_(), HSA_STATUS_SUCCESS);  // registers (once)
    table_ = standin_table(&status_);
    TakeSeen();
  }
  void TearDown() override {
    roctracer_test::TracerTest::TearDown();
    dlclose(tracer_);
    dlclose(runtime_);
  }

  void* runtime_ = nullptr;
  void* tracer_ = nullptr;
  decltype(&hsa_init) runtime_init_ = nullptr;
  decltype(&hsa_system_get_info) runtime_get_info_ = nullptr;
  HsaApiTable* table_ = nullptr;
  int status_ = -1;
};

std::string ObjectOf(const void* fn) {
  Dl_info where{};
  if (dladdr(fn, &where) == 0 || where.dli_fname == nullptr) return "";
  return where.dli_fname;
}

TEST_F(RegistrationTest, TheRegisteredTableCarriesTheTracersWrappers) {
  EXPECT_EQ(status_, 0);  // ROCP_REG_SUCCESS: the tool took the table
  const CoreApiTable& core = *table_->core_;
  for (const void* slot :
       {reinterpret_cast<const void*>(core.hsa_init_fn),
        reinterpret_cast<const void*>(core.hsa_system_get_info_fn),
        reinterpret_cast<const void*>(core.hsa_status_string_fn)}) {
    EXPECT_NE(ObjectOf(slot).find("libroctracer64"), std::string::npos)
        << ObjectOf(slot);
  }
  // Slots the runtime left empty stay empty.
  EXPECT_EQ(core.hsa_queue_create_fn, nullptr);
}

TEST_F(RegistrationTest, EachCallIsTracedOnceOnEitherPath) {
  ASSERT_EQ(roctracer_enable_domain_callback(ACTIVITY_DOMAIN_HSA_API, &Record,
                                             nullptr),
            ROCTRACER_STATUS_SUCCESS);
  // The table only.
  uint16_t major = 0;
  EXPECT_EQ(runtime_get_info_(HSA_SYSTEM_INFO_VERSION_MAJOR, &major),
            HSA_STATUS_SUCCESS);
  EXPECT_EQ(major, 42);
  std::vector<Seen> seen = TakeSeen();
  ASSERT_EQ(seen.size(), 2u);
  EXPECT_EQ(seen[0].op, HSA_API_ID_hsa_system_get_info);
  EXPECT_EQ(seen[0].phase, ACTIVITY_API_PHASE_ENTER);
  EXPECT_EQ(seen[1].phase, ACTIVITY_API_PHASE_EXIT);
  EXPECT_EQ(seen[0].correlation_id, seen[1].correlation_id);

  // The program's own call: stub, the runtime's export, the table wrapper.
  ASSERT_NE(ObjectOf(reinterpret_cast<const void*>(&hsa_system_get_info))
                .find("libroctracer64"),
            std::string::npos);
  major = 0;
  EXPECT_EQ(hsa_system_get_info(HSA_SYSTEM_INFO_VERSION_MAJOR, &major),
            HSA_STATUS_SUCCESS);
  EXPECT_EQ(major, 42);
  seen = TakeSeen();
  ASSERT_EQ(seen.size(), 2u) << "traced twice";
  EXPECT_EQ(seen[0].op, HSA_API_ID_hsa_system_get_info);
  EXPECT_EQ(seen[0].correlation_id, seen[1].correlation_id);
  const char* text = nullptr;
  EXPECT_EQ(hsa_status_string(HSA_STATUS_ERROR, &text), HSA_STATUS_SUCCESS);
  EXPECT_STREQ(text, "stand-in status");
  EXPECT_EQ(TakeSeen().size(), 2u);
}

hsa_status_t MarkFreeze(hsa_executable_t, const char*) {
  return HSA_STATUS_ERROR;
}

hsa_status_t MarkQueueCreate(hsa_agent_t, uint32_t, hsa_queue_type32_t,
                             void (*)(hsa_status_t, hsa_queue_t*, void*), void*,
                             uint32_t, uint32_t, hsa_queue_t**) {
  return HSA_STATUS_ERROR;
}

TEST_F(RegistrationTest, TheToolPathOnTheSameTableChangesNothing) {
  auto on_load =
      reinterpret_cast<bool (*)(HsaApiTable*, uint64_t, uint64_t,
                                const char* const*)>(dlsym(tracer_, "OnLoad"));
  ASSERT_NE(on_load, nullptr);
  const auto before = table_->core_->hsa_system_get_info_fn;
  EXPECT_TRUE(on_load(table_, 0, 0, nullptr));
  EXPECT_EQ(table_->core_->hsa_system_get_info_fn, before);
  // Another table while this one is traced: refused, left as it is.
  CoreApiTable core = *table_->core_;
  HsaApiTable other = *table_;
  other.core_ = &core;
  core.hsa_shut_down_fn = nullptr;
  // Slots the GPU half would replace, marked: a refused table is not
  // installed at all (its functions saved as the runtime's would make the
  // traced table's wrappers call the marks, or themselves).
  core.hsa_executable_freeze_fn = &MarkFreeze;
  core.hsa_queue_create_fn = &MarkQueueCreate;
  // (With an AMD extension table offering queue interception: the one case
  // where the GPU half replaces those slots.)
  AmdExtTable amd{};
  amd.version = {HSA_AMD_EXT_API_TABLE_MAJOR_VERSION, sizeof(AmdExtTable), 0,
                 0};
  other.amd_ext_ = &amd;
  auto set = reinterpret_cast<SetApiTable>(
      dlsym(tracer_, "rocprofiler_set_api_table"));
  ASSERT_NE(set, nullptr);
  void* tables[] = {&other};
  EXPECT_EQ(set("hsa", 60200, 1, tables, 1), 0);
  EXPECT_EQ(core.hsa_system_get_info_fn, before);  // the copy, untouched
  EXPECT_EQ(core.hsa_executable_freeze_fn, &MarkFreeze);
  EXPECT_EQ(core.hsa_queue_create_fn, &MarkQueueCreate);
  // Nor through OnLoad.
  EXPECT_FALSE(on_load(&other, 0, 0, nullptr));
  EXPECT_EQ(core.hsa_executable_freeze_fn, &MarkFreeze);
  EXPECT_EQ(core.hsa_queue_create_fn, &MarkQueueCreate);
  ASSERT_EQ(roctracer_enable_domain_callback(ACTIVITY_DOMAIN_HSA_API, &Record,
                                             nullptr),
            ROCTRACER_STATUS_SUCCESS);
  uint16_t major = 0;
  EXPECT_EQ(runtime_get_info_(HSA_SYSTEM_INFO_VERSION_MAJOR, &major),
            HSA_STATUS_SUCCESS);
  EXPECT_EQ(TakeSeen().size(), 2u);
}

TEST_F(RegistrationTest, OtherLibrariesAndBadArguments) {
  auto set = reinterpret_cast<SetApiTable>(
      dlsym(tracer_, "rocprofiler_set_api_table"));
  ASSERT_NE(set, nullptr);
  // HIP's two dispatch tables: taken, left as they are (no HIP table
  // wrappers are generated).
  void* hip_runtime[8] = {};
  void* hip_compiler[8] = {};
  hip_runtime[1] = reinterpret_cast<void*>(&hip_compiler);
  void* hip_tables[] = {hip_runtime, hip_compiler};
  EXPECT_EQ(set("hip", 60200, 0, hip_tables, 2), 0);
  EXPECT_EQ(hip_runtime[1], reinterpret_cast<void*>(&hip_compiler));
  EXPECT_EQ(set("roctx", 60200, 0, hip_tables, 1), 0);
  EXPECT_EQ(set(nullptr, 60200, 0, hip_tables, 1), -1);
  EXPECT_EQ(set("hsa", 60200, 0, nullptr, 1), -1);
  EXPECT_EQ(set("hsa", 60200, 0, hip_tables, 0), -1);
  void* null_table[] = {nullptr};
  EXPECT_EQ(set("hsa", 60200, 0, null_table, 1), -1);
}

}  // namespace
