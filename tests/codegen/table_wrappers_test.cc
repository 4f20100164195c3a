// Generated HsaApiTable wrappers: installed only into covered, non-NULL
// slots; forward arguments and results bit for bit; report Enter/Exit with
// the right op and arguments once an op is enabled; restore the originals.
#include <gtest/gtest.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cstddef>
#include <cstring>

#include "hsa_api_id.h"
#include "hsa_table_wrappers.h"
#include "runtime/intercept/api_hook.h"
#include "tests/codegen/hook_recorder.h"

namespace {

using roctracer::hook::kDomainHsaApi;
namespace hsa_api = roctracer::hsa_api;

struct Seen {
  int calls = 0;
  hsa_system_info_t attribute{};
  void* value = nullptr;
  hsa_signal_t signal{};
  hsa_signal_value_t signal_value = 0;
  hsa_ext_control_directives_t directives{};
  const char* options = nullptr;
  hsa_code_object_t* code_object = nullptr;
  size_t size = 0;
} g_seen;

hsa_status_t FakeSystemGetInfo(hsa_system_info_t attribute, void* value) {
  ++g_seen.calls;
  g_seen.attribute = attribute;
  g_seen.value = value;
  return static_cast<hsa_status_t>(0x1234);
}

void FakeSignalStoreRelaxed(hsa_signal_t signal, hsa_signal_value_t value) {
  ++g_seen.calls;
  g_seen.signal = signal;
  g_seen.signal_value = value;
}

hsa_signal_value_t FakeSignalLoadRelaxed(hsa_signal_t signal) {
  ++g_seen.calls;
  return static_cast<hsa_signal_value_t>(signal.handle * 3 + 0x100000000LL);
}

hsa_status_t FakePoolAllocate(hsa_amd_memory_pool_t, size_t size, uint32_t,
                              void** ptr) {
  ++g_seen.calls;
  g_seen.size = size;
  *ptr = reinterpret_cast<void*>(0xabc0);
  return HSA_STATUS_SUCCESS;
}

hsa_status_t FakeSamplerDestroy(hsa_agent_t, hsa_ext_sampler_t) {
  ++g_seen.calls;
  return HSA_STATUS_ERROR_INVALID_INDEX;
}

hsa_status_t FakeProgramFinalize(hsa_ext_program_t, hsa_isa_t, int32_t,
                                 hsa_ext_control_directives_t directives,
                                 const char* options, hsa_code_object_type_t,
                                 hsa_code_object_t* code_object) {
  ++g_seen.calls;
  g_seen.directives = directives;
  g_seen.options = options;
  g_seen.code_object = code_object;
  return HSA_STATUS_INFO_BREAK;
}

class TableWrappersTest : public ::testing::Test {
 protected:
  void SetUp() override {
    g_seen = Seen{};
    hook_recorder::DisableAll();
    hook_recorder::Take();
    // The container's constructor sets versions and sizes only.
    Clear(&tables_.core);
    Clear(&tables_.amd_ext);
    Clear(&tables_.image_ext);
    Clear(&tables_.finalizer_ext);
    tables_.core.hsa_system_get_info_fn = &FakeSystemGetInfo;
    tables_.core.hsa_signal_store_relaxed_fn = &FakeSignalStoreRelaxed;
    tables_.core.hsa_signal_load_relaxed_fn = &FakeSignalLoadRelaxed;
    tables_.amd_ext.hsa_amd_memory_pool_allocate_fn = &FakePoolAllocate;
    tables_.image_ext.hsa_ext_sampler_destroy_fn = &FakeSamplerDestroy;
    tables_.finalizer_ext.hsa_ext_program_finalize_fn = &FakeProgramFinalize;
  }
  void TearDown() override {
    hsa_api::RestoreTableWrappers();
    hook_recorder::DisableAll();
  }

  template <class Table>
  static void Clear(Table* t) {
    std::memset(reinterpret_cast<char*>(t) + sizeof(ApiTableVersion), 0,
                sizeof(Table) - sizeof(ApiTableVersion));
  }

  // Only the slots set in SetUp hold functions.
  HsaApiTableContainer tables_;
};

TEST_F(TableWrappersTest, ReplacesExactlyTheNonNullSlots) {
  EXPECT_EQ(6, hsa_api::InstallTableWrappers(&tables_.root));
  EXPECT_NE(&FakeSystemGetInfo, tables_.core.hsa_system_get_info_fn);
  EXPECT_NE(&FakeProgramFinalize,
            tables_.finalizer_ext.hsa_ext_program_finalize_fn);
  EXPECT_EQ(nullptr, tables_.core.hsa_init_fn);  // NULL slots stay NULL
  EXPECT_EQ(&FakeSystemGetInfo,
            hsa_api::OriginalCoreApiTable().hsa_system_get_info_fn);
  EXPECT_EQ(&FakePoolAllocate,
            hsa_api::OriginalAmdExtTable().hsa_amd_memory_pool_allocate_fn);
  EXPECT_EQ(6, hsa_api::RestoreTableWrappers());
  EXPECT_EQ(&FakeSystemGetInfo, tables_.core.hsa_system_get_info_fn);
  EXPECT_EQ(&FakeSamplerDestroy, tables_.image_ext.hsa_ext_sampler_destroy_fn);
  EXPECT_EQ(0, hsa_api::RestoreTableWrappers());
}

TEST_F(TableWrappersTest, InstallingTwiceKeepsTheRealOriginals) {
  ASSERT_EQ(6, hsa_api::InstallTableWrappers(&tables_.root));
  EXPECT_EQ(0, hsa_api::InstallTableWrappers(&tables_.root));
  EXPECT_EQ(&FakeSystemGetInfo,
            hsa_api::OriginalCoreApiTable().hsa_system_get_info_fn);
  HsaApiTableContainer other;
  EXPECT_EQ(-1, hsa_api::InstallTableWrappers(&other.root));
  EXPECT_EQ(-1, hsa_api::InstallTableWrappers(nullptr));
}

TEST_F(TableWrappersTest, RespectsTableSizesAndNullSubTables) {
  // An older runtime's AmdExtTable that ends before the allocate slot.
  tables_.amd_ext.version.minor_id =
      offsetof(AmdExtTable, hsa_amd_memory_pool_allocate_fn);
  tables_.root.finalizer_ext_ = nullptr;
  EXPECT_EQ(4, hsa_api::InstallTableWrappers(&tables_.root));
  EXPECT_EQ(&FakePoolAllocate, tables_.amd_ext.hsa_amd_memory_pool_allocate_fn);
  EXPECT_EQ(&FakeProgramFinalize,
            tables_.finalizer_ext.hsa_ext_program_finalize_fn);
  // A root table too short to hold the image table pointer.
  hsa_api::RestoreTableWrappers();
  tables_.root.version.minor_id = offsetof(HsaApiTable, image_ext_);
  tables_.root.finalizer_ext_ = &tables_.finalizer_ext;
  EXPECT_EQ(4, hsa_api::InstallTableWrappers(&tables_.root));
  EXPECT_EQ(&FakeSamplerDestroy, tables_.image_ext.hsa_ext_sampler_destroy_fn);
}

// A runtime older than the headers hands over a shorter table: neither
// installing nor restoring may touch a byte past its size (here a guard page).
TEST_F(TableWrappersTest, NeverReadsPastAShortTable) {
  const size_t page = static_cast<size_t>(sysconf(_SC_PAGESIZE));
  void* mem = mmap(nullptr, 2 * page, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  ASSERT_NE(MAP_FAILED, mem);
  char* guard = static_cast<char*>(mem) + page;
  ASSERT_EQ(0, mprotect(guard, page, PROT_NONE));
  const size_t size =
      offsetof(AmdExtTable, hsa_amd_memory_pool_allocate_fn) + sizeof(void*);
  auto* shorter = reinterpret_cast<AmdExtTable*>(guard - size);
  std::memcpy(shorter, &tables_.amd_ext, size);
  shorter->version.minor_id = static_cast<uint32_t>(size);
  tables_.root.amd_ext_ = shorter;
  EXPECT_EQ(6, hsa_api::InstallTableWrappers(&tables_.root));
  EXPECT_NE(&FakePoolAllocate, shorter->hsa_amd_memory_pool_allocate_fn);
  EXPECT_EQ(6, hsa_api::RestoreTableWrappers());
  EXPECT_EQ(&FakePoolAllocate, shorter->hsa_amd_memory_pool_allocate_fn);
  munmap(mem, 2 * page);
}

TEST_F(TableWrappersTest, InactiveOpsForwardWithoutHook) {
  ASSERT_EQ(6, hsa_api::InstallTableWrappers(&tables_.root));
  int value = 0;
  EXPECT_EQ(
      static_cast<hsa_status_t>(0x1234),
      tables_.core.hsa_system_get_info_fn(HSA_SYSTEM_INFO_TIMESTAMP, &value));
  EXPECT_EQ(HSA_SYSTEM_INFO_TIMESTAMP, g_seen.attribute);
  EXPECT_EQ(&value, g_seen.value);
  EXPECT_EQ(1, g_seen.calls);
  EXPECT_TRUE(hook_recorder::Take().empty());
}

TEST_F(TableWrappersTest, ActiveOpReportsEnterAndExitWithArgsAndResult) {
  ASSERT_EQ(6, hsa_api::InstallTableWrappers(&tables_.root));
  hook_recorder::SetActive(kDomainHsaApi, HSA_API_ID_hsa_system_get_info, true);
  int value = 0;
  EXPECT_EQ(
      static_cast<hsa_status_t>(0x1234),
      tables_.core.hsa_system_get_info_fn(HSA_SYSTEM_INFO_ENDIANNESS, &value));
  std::vector<hook_recorder::Call> calls = hook_recorder::Take();
  ASSERT_EQ(2u, calls.size());
  for (const auto& c : calls) {
    EXPECT_EQ(kDomainHsaApi, c.domain);
    EXPECT_EQ(static_cast<uint32_t>(HSA_API_ID_hsa_system_get_info), c.op);
    EXPECT_EQ(HSA_SYSTEM_INFO_ENDIANNESS,
              c.hsa_data().args.hsa_system_get_info.attribute);
    EXPECT_EQ(&value, c.hsa_data().args.hsa_system_get_info.value);
  }
  EXPECT_TRUE(calls[0].enter);
  EXPECT_FALSE(calls[1].enter);
  EXPECT_EQ(calls[0].data_address, calls[1].data_address);  // one data per call
  EXPECT_EQ(calls[0].frame_address, calls[1].frame_address);
  EXPECT_EQ(static_cast<hsa_status_t>(0x1234),
            calls[1].hsa_data().hsa_status_t_retval);
  // Other ops stay untraced.
  tables_.core.hsa_signal_store_relaxed_fn(hsa_signal_t{5}, 6);
  EXPECT_TRUE(hook_recorder::Take().empty());
}

TEST_F(TableWrappersTest, ForwardsEveryArgumentKindBitForBit) {
  ASSERT_EQ(6, hsa_api::InstallTableWrappers(&tables_.root));
  for (bool active : {false, true}) {
    SCOPED_TRACE(active ? "active" : "inactive");
    hook_recorder::SetActive(kDomainHsaApi, HSA_API_ID_hsa_signal_store_relaxed,
                             active);
    hook_recorder::SetActive(kDomainHsaApi, HSA_API_ID_hsa_signal_load_relaxed,
                             active);
    hook_recorder::SetActive(kDomainHsaApi,
                             HSA_API_ID_hsa_amd_memory_pool_allocate, active);
    hook_recorder::SetActive(kDomainHsaApi, HSA_API_ID_hsa_ext_program_finalize,
                             active);
    g_seen = Seen{};

    tables_.core.hsa_signal_store_relaxed_fn(
        hsa_signal_t{0xfeedface12345678ull}, -0x7654321012345678LL);
    EXPECT_EQ(0xfeedface12345678ull, g_seen.signal.handle);
    EXPECT_EQ(-0x7654321012345678LL, g_seen.signal_value);

    EXPECT_EQ(static_cast<hsa_signal_value_t>(7 * 3 + 0x100000000LL),
              tables_.core.hsa_signal_load_relaxed_fn(hsa_signal_t{7}));

    void* ptr = nullptr;
    EXPECT_EQ(HSA_STATUS_SUCCESS,
              tables_.amd_ext.hsa_amd_memory_pool_allocate_fn(
                  hsa_amd_memory_pool_t{1}, 4096, 0, &ptr));
    EXPECT_EQ(reinterpret_cast<void*>(0xabc0), ptr);
    EXPECT_EQ(4096u, g_seen.size);

    // 144 bytes passed by value.
    hsa_ext_control_directives_t directives;
    unsigned char* bytes = reinterpret_cast<unsigned char*>(&directives);
    for (size_t i = 0; i < sizeof(directives); ++i)
      bytes[i] = static_cast<unsigned char>(i * 7 + 1);
    hsa_code_object_t object{};
    EXPECT_EQ(HSA_STATUS_INFO_BREAK,
              tables_.finalizer_ext.hsa_ext_program_finalize_fn(
                  hsa_ext_program_t{1}, hsa_isa_t{2}, 3, directives, "-O3",
                  HSA_CODE_OBJECT_TYPE_PROGRAM, &object));
    EXPECT_EQ(0,
              std::memcmp(&directives, &g_seen.directives, sizeof(directives)));
    EXPECT_STREQ("-O3", g_seen.options);
    EXPECT_EQ(&object, g_seen.code_object);
    EXPECT_EQ(4, g_seen.calls);

    std::vector<hook_recorder::Call> calls = hook_recorder::Take();
    if (!active) {
      EXPECT_TRUE(calls.empty());
      continue;
    }
    ASSERT_EQ(8u, calls.size());
    EXPECT_EQ(static_cast<uint32_t>(HSA_API_ID_hsa_signal_store_relaxed),
              calls[0].op);
    EXPECT_EQ(-0x7654321012345678LL,
              calls[0].hsa_data().args.hsa_signal_store_relaxed.value);
    EXPECT_EQ(static_cast<hsa_signal_value_t>(7 * 3 + 0x100000000LL),
              calls[3].hsa_data().hsa_signal_value_t_retval);
    EXPECT_EQ(static_cast<uint32_t>(HSA_API_ID_hsa_ext_program_finalize),
              calls[7].op);
    const auto& fin = calls[7].hsa_data().args.hsa_ext_program_finalize;
    EXPECT_EQ(0, std::memcmp(&directives, &fin.control_directives,
                             sizeof(directives)));
    EXPECT_EQ(3, fin.call_convention);
    EXPECT_EQ(HSA_STATUS_INFO_BREAK, calls[7].hsa_data().hsa_status_t_retval);
  }
}

TEST_F(TableWrappersTest, EveryTableAndSlotHasAnId) {
  // The image and finalizer wrappers report their own ops.
  ASSERT_EQ(6, hsa_api::InstallTableWrappers(&tables_.root));
  hook_recorder::SetActive(kDomainHsaApi, HSA_API_ID_hsa_ext_sampler_destroy,
                           true);
  EXPECT_EQ(HSA_STATUS_ERROR_INVALID_INDEX,
            tables_.image_ext.hsa_ext_sampler_destroy_fn(hsa_agent_t{1},
                                                         hsa_ext_sampler_t{2}));
  auto calls = hook_recorder::Take();
  ASSERT_EQ(2u, calls.size());
  EXPECT_EQ(static_cast<uint32_t>(HSA_API_ID_hsa_ext_sampler_destroy),
            calls[1].op);
  EXPECT_EQ(2u,
            calls[1].hsa_data().args.hsa_ext_sampler_destroy.sampler.handle);
}

}  // namespace
