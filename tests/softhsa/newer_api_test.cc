// softhsa's answers to what newer ROCR releases added (AMD extension
// interface 1.2 and later: ROCm 5.7's headers on, which HIP 5.7 to 7.2 ask
// for), checked against the headers' documentation and ROCR's behaviour.
// Built from older headers (ROCm 5.2.3's), the same attributes must be
// refused, as that release's ROCR refuses attributes it does not know.
#include <gtest/gtest.h>
#include <hsa/hsa.h>
#include <hsa/hsa_ext_amd.h>
#include <unistd.h>

#include <cstring>
#include <vector>

#include "tests/softhsa/hsa_test_util.h"

namespace {

class NewerApi : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_EQ(hsa_init(), HSA_STATUS_SUCCESS);
    gpus_ = hsa_test::Agents(HSA_DEVICE_TYPE_GPU);
    cpus_ = hsa_test::Agents(HSA_DEVICE_TYPE_CPU);
    ASSERT_FALSE(gpus_.empty());
    ASSERT_EQ(cpus_.size(), 1u);
    gpu_ = gpus_[0];
    cpu_ = cpus_[0];
  }
  void TearDown() override { EXPECT_EQ(hsa_shut_down(), HSA_STATUS_SUCCESS); }

  template <typename T>
  hsa_status_t AgentInfo(hsa_agent_t agent, int attribute, T* value) {
    return hsa_agent_get_info(agent, static_cast<hsa_agent_info_t>(attribute),
                              value);
  }
  void* DeviceAlloc(size_t size) {
    void* p = nullptr;
    EXPECT_EQ(
        hsa_amd_memory_pool_allocate(hsa_test::Pools(gpu_)[0], size, 0, &p),
        HSA_STATUS_SUCCESS);
    return p;
  }

  std::vector<hsa_agent_t> gpus_, cpus_;
  hsa_agent_t gpu_{0}, cpu_{0};
};

// Available in every release: ROCR keeps every handler registered.
TEST_F(NewerApi, SystemEventHandlersRegister) {
  auto handler = [](const hsa_amd_event_t*, void*) {
    return HSA_STATUS_SUCCESS;
  };
  EXPECT_EQ(hsa_amd_register_system_event_handler(nullptr, nullptr),
            HSA_STATUS_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(hsa_amd_register_system_event_handler(handler, nullptr),
            HSA_STATUS_SUCCESS);
  int data = 0;
  EXPECT_EQ(hsa_amd_register_system_event_handler(handler, &data),
            HSA_STATUS_SUCCESS);
}

#if HSA_AMD_INTERFACE_VERSION_MINOR >= 4

TEST_F(NewerApi, SystemAttributes) {
  uint16_t major = 0, minor = 0;
  ASSERT_EQ(hsa_system_get_info(HSA_AMD_SYSTEM_INFO_EXT_VERSION_MAJOR, &major),
            HSA_STATUS_SUCCESS);
  ASSERT_EQ(hsa_system_get_info(HSA_AMD_SYSTEM_INFO_EXT_VERSION_MINOR, &minor),
            HSA_STATUS_SUCCESS);
  EXPECT_EQ(major, HSA_AMD_INTERFACE_VERSION_MAJOR);
  EXPECT_EQ(minor, HSA_AMD_INTERFACE_VERSION_MINOR);
  // Neither virtual memory, dma-buf export, XNACK nor MWAITX here: HIP
  // then keeps to what softhsa implements.
  for (hsa_system_info_t a :
       {HSA_AMD_SYSTEM_INFO_VIRTUAL_MEM_API_SUPPORTED,
        HSA_AMD_SYSTEM_INFO_DMABUF_SUPPORTED, HSA_AMD_SYSTEM_INFO_XNACK_ENABLED,
        HSA_AMD_SYSTEM_INFO_MWAITX_ENABLED}) {
    bool b = true;
    ASSERT_EQ(hsa_system_get_info(a, &b), HSA_STATUS_SUCCESS) << a;
    EXPECT_FALSE(b) << a;
  }
}

TEST_F(NewerApi, AgentAttributes) {
  // The timestamp frequency: 1-400 MHz for a kernel agent (the header's
  // range); a CPU answers the system timestamp's, as ROCR.
  uint64_t gpu_hz = 0, cpu_hz = 0, system_hz = 0;
  ASSERT_EQ(AgentInfo(gpu_, HSA_AMD_AGENT_INFO_TIMESTAMP_FREQUENCY, &gpu_hz),
            HSA_STATUS_SUCCESS);
  EXPECT_GE(gpu_hz, 1'000'000u);
  EXPECT_LE(gpu_hz, 400'000'000u);
  ASSERT_EQ(AgentInfo(cpu_, HSA_AMD_AGENT_INFO_TIMESTAMP_FREQUENCY, &cpu_hz),
            HSA_STATUS_SUCCESS);
  ASSERT_EQ(
      hsa_system_get_info(HSA_SYSTEM_INFO_TIMESTAMP_FREQUENCY, &system_hz),
      HSA_STATUS_SUCCESS);
  EXPECT_EQ(cpu_hz, system_hz);

  // gfx90a is a GFX9 ("AI") processor for the kernel driver.
  uint32_t family = 0;
  ASSERT_EQ(AgentInfo(gpu_, HSA_AMD_AGENT_INFO_ASIC_FAMILY_ID, &family),
            HSA_STATUS_SUCCESS);
  EXPECT_EQ(family, 141u);

  uint32_t sdma = 0, xgmi = 7, xcc = 0, uid = 0, cpu_sdma = 7;
  ASSERT_EQ(AgentInfo(gpu_, HSA_AMD_AGENT_INFO_NUM_SDMA_ENG, &sdma),
            HSA_STATUS_SUCCESS);
  EXPECT_GE(sdma, 1u);
  ASSERT_EQ(AgentInfo(cpu_, HSA_AMD_AGENT_INFO_NUM_SDMA_ENG, &cpu_sdma),
            HSA_STATUS_SUCCESS);
  EXPECT_EQ(cpu_sdma, 0u);
  ASSERT_EQ(AgentInfo(gpu_, HSA_AMD_AGENT_INFO_NUM_SDMA_XGMI_ENG, &xgmi),
            HSA_STATUS_SUCCESS);
  EXPECT_EQ(xgmi, 0u);
  ASSERT_EQ(AgentInfo(gpu_, HSA_AMD_AGENT_INFO_NUM_XCC, &xcc),
            HSA_STATUS_SUCCESS);
  EXPECT_EQ(xcc, 1u);
  ASSERT_EQ(AgentInfo(gpu_, HSA_AMD_AGENT_INFO_DRIVER_UID, &uid),
            HSA_STATUS_SUCCESS);
  EXPECT_NE(uid, 0u);

  hsa_amd_iommu_version_t iommu = HSA_IOMMU_SUPPORT_V2;
  ASSERT_EQ(AgentInfo(gpu_, HSA_AMD_AGENT_INFO_IOMMU_SUPPORT, &iommu),
            HSA_STATUS_SUCCESS);
  EXPECT_EQ(iommu, HSA_IOMMU_SUPPORT_NONE);

  // A GPU's nearest CPU is the CPU agent; a CPU has none (handle 0).
  hsa_agent_t nearest{0}, none{1};
  ASSERT_EQ(AgentInfo(gpu_, HSA_AMD_AGENT_INFO_NEAREST_CPU, &nearest),
            HSA_STATUS_SUCCESS);
  EXPECT_EQ(nearest.handle, cpu_.handle);
  ASSERT_EQ(AgentInfo(cpu_, HSA_AMD_AGENT_INFO_NEAREST_CPU, &none),
            HSA_STATUS_SUCCESS);
  EXPECT_EQ(none.handle, 0u);

  // Memory properties: 8 bytes of flags, not an APU.
  uint8_t props[8];
  memset(props, 0xff, sizeof(props));
  ASSERT_EQ(AgentInfo(gpu_, HSA_AMD_AGENT_INFO_MEMORY_PROPERTIES, props),
            HSA_STATUS_SUCCESS);
  for (uint8_t b : props) EXPECT_EQ(b, 0);
}

TEST_F(NewerApi, MemoryAvailableFallsWithAllocationsAndRisesWithFrees) {
  uint64_t before = 0, during = 0, after = 0;
  ASSERT_EQ(AgentInfo(gpu_, HSA_AMD_AGENT_INFO_MEMORY_AVAIL, &before),
            HSA_STATUS_SUCCESS);
  constexpr size_t kSize = 1 << 20;
  void* p = DeviceAlloc(kSize);
  ASSERT_EQ(AgentInfo(gpu_, HSA_AMD_AGENT_INFO_MEMORY_AVAIL, &during),
            HSA_STATUS_SUCCESS);
  EXPECT_EQ(before - during, kSize);
  hsa_amd_memory_pool_free(p);
  ASSERT_EQ(AgentInfo(gpu_, HSA_AMD_AGENT_INFO_MEMORY_AVAIL, &after),
            HSA_STATUS_SUCCESS);
  EXPECT_EQ(after, before);
  // A kernel agent's attribute only (ROCR's CPU agent refuses it).
  EXPECT_EQ(AgentInfo(cpu_, HSA_AMD_AGENT_INFO_MEMORY_AVAIL, &after),
            HSA_STATUS_ERROR_INVALID_ARGUMENT);
}

TEST_F(NewerApi, CopyEngineStatusNamesTheEnginesOfADirection) {
  uint32_t h2d = 0, d2h = 0;
  ASSERT_EQ(hsa_amd_memory_copy_engine_status(gpu_, cpu_, &h2d),
            HSA_STATUS_SUCCESS);
  ASSERT_EQ(hsa_amd_memory_copy_engine_status(cpu_, gpu_, &d2h),
            HSA_STATUS_SUCCESS);
  // Host to device on engine 0; device to host on engine 1, and on gfx90a
  // not on engine 0 (which takes host-to-device copies only there).
  EXPECT_TRUE(h2d & HSA_AMD_SDMA_ENGINE_0);
  EXPECT_TRUE(d2h & HSA_AMD_SDMA_ENGINE_1);
  EXPECT_FALSE(d2h & HSA_AMD_SDMA_ENGINE_0);
  uint32_t mask = 0;
  EXPECT_EQ(hsa_amd_memory_copy_engine_status(gpu_, gpu_, &mask),
            HSA_STATUS_ERROR_INVALID_AGENT);
  EXPECT_EQ(hsa_amd_memory_copy_engine_status(gpu_, hsa_agent_t{1}, &mask),
            HSA_STATUS_ERROR_INVALID_AGENT);
}

TEST_F(NewerApi, CopyOnEngineCopiesAfterItsDependenciesAndChecksTheEngine) {
  constexpr size_t kSize = 4096;
  // Host memory the GPU reaches: the CPU's fine-grained pool.
  uint8_t* host = nullptr;
  ASSERT_EQ(hsa_amd_memory_pool_allocate(hsa_test::KernargPool(), kSize, 0,
                                         reinterpret_cast<void**>(&host)),
            HSA_STATUS_SUCCESS);
  for (size_t i = 0; i < kSize; ++i) host[i] = static_cast<uint8_t>(i * 3);
  auto* dev = static_cast<uint8_t*>(DeviceAlloc(kSize));
  hsa_signal_t dep, done;
  ASSERT_EQ(hsa_signal_create(1, 0, nullptr, &dep), HSA_STATUS_SUCCESS);
  ASSERT_EQ(hsa_signal_create(1, 0, nullptr, &done), HSA_STATUS_SUCCESS);
  ASSERT_EQ(
      hsa_amd_memory_async_copy_on_engine(dev, gpu_, host, cpu_, kSize, 1, &dep,
                                          done, HSA_AMD_SDMA_ENGINE_0, false),
      HSA_STATUS_SUCCESS);
  hsa_signal_store_screlease(dep, 0);
  ASSERT_EQ(hsa_signal_wait_scacquire(done, HSA_SIGNAL_CONDITION_EQ, 0,
                                      UINT64_MAX, HSA_WAIT_STATE_BLOCKED),
            0);
  EXPECT_EQ(memcmp(dev, host, kSize), 0);

  auto copy = [&](uint32_t engine, void* dst, hsa_agent_t dst_agent,
                  const void* src, hsa_agent_t src_agent, uint32_t deps,
                  const hsa_signal_t* dep_list) {
    return hsa_amd_memory_async_copy_on_engine(
        dst, dst_agent, src, src_agent, kSize, deps, dep_list, done,
        static_cast<hsa_amd_sdma_engine_id_t>(engine), false);
  };
  // One engine, one bit, among the agent's (two here, no xGMI ones).
  EXPECT_EQ(copy(0, dev, gpu_, host, cpu_, 0, nullptr),
            HSA_STATUS_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(copy(3, dev, gpu_, host, cpu_, 0, nullptr),
            HSA_STATUS_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(copy(HSA_AMD_SDMA_ENGINE_2, dev, gpu_, host, cpu_, 0, nullptr),
            HSA_STATUS_ERROR_INVALID_ARGUMENT);
  // gfx90a: engine 0 copies host to device only.
  EXPECT_EQ(copy(HSA_AMD_SDMA_ENGINE_0, host, cpu_, dev, gpu_, 0, nullptr),
            HSA_STATUS_ERROR_INVALID_ARGUMENT);
  // Dependencies: a count without a list (and the reverse) is refused.
  EXPECT_EQ(copy(HSA_AMD_SDMA_ENGINE_1, host, cpu_, dev, gpu_, 1, nullptr),
            HSA_STATUS_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(copy(HSA_AMD_SDMA_ENGINE_1, host, cpu_, dev, gpu_, 0, &dep),
            HSA_STATUS_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(copy(HSA_AMD_SDMA_ENGINE_1, nullptr, cpu_, dev, gpu_, 0, nullptr),
            HSA_STATUS_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(
      copy(HSA_AMD_SDMA_ENGINE_1, host, hsa_agent_t{1}, dev, gpu_, 0, nullptr),
      HSA_STATUS_ERROR_INVALID_AGENT);
  hsa_amd_memory_pool_free(dev);
  hsa_amd_memory_pool_free(host);
  hsa_signal_destroy(dep);
  hsa_signal_destroy(done);
}

TEST_F(NewerApi, ScratchLimitIsAKernelAgentsAndBounded) {
  EXPECT_EQ(hsa_amd_agent_set_async_scratch_limit(cpu_, 0),
            HSA_STATUS_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(hsa_amd_agent_set_async_scratch_limit(hsa_agent_t{1}, 0),
            HSA_STATUS_ERROR_INVALID_AGENT);
#if HSA_AMD_INTERFACE_VERSION_MINOR >= 7
  uint64_t max = 0, current = 0;
  ASSERT_EQ(AgentInfo(gpu_, HSA_AMD_AGENT_INFO_SCRATCH_LIMIT_MAX, &max),
            HSA_STATUS_SUCCESS);
  ASSERT_GT(max, 0u);
  EXPECT_EQ(hsa_amd_agent_set_async_scratch_limit(gpu_, max + 1),
            HSA_STATUS_ERROR_INVALID_ARGUMENT);
  ASSERT_EQ(hsa_amd_agent_set_async_scratch_limit(gpu_, 12345),
            HSA_STATUS_SUCCESS);
  ASSERT_EQ(AgentInfo(gpu_, HSA_AMD_AGENT_INFO_SCRATCH_LIMIT_CURRENT, &current),
            HSA_STATUS_SUCCESS);
  EXPECT_EQ(current, 12345u);
  uint64_t cpu_max = 1;
  ASSERT_EQ(AgentInfo(cpu_, HSA_AMD_AGENT_INFO_SCRATCH_LIMIT_MAX, &cpu_max),
            HSA_STATUS_SUCCESS);
  EXPECT_EQ(cpu_max, 0u);
#else
  ASSERT_EQ(hsa_amd_agent_set_async_scratch_limit(gpu_, 12345),
            HSA_STATUS_SUCCESS);
#endif
}

TEST_F(NewerApi, VirtualMemoryHandlesAreAllInvalid) {
  hsa_amd_memory_pool_t pool{0};
  hsa_amd_memory_type_t type;
  EXPECT_EQ(hsa_amd_vmem_get_alloc_properties_from_handle(
                hsa_amd_vmem_alloc_handle_t{42}, &pool, &type),
            HSA_STATUS_ERROR_INVALID_ALLOCATION);
}

// The system says it has no virtual memory API: ROCR then refuses every
// reservation and handle with HSA_STATUS_ERROR_INVALID_ARGUMENT (after its
// argument checks), and every other call names a range or handle that does
// not exist (the status the header documents for that).
TEST_F(NewerApi, VirtualMemoryIsRefusedAsROCRRefusesItWithoutSupport) {
  bool supported = true;
  ASSERT_EQ(
      hsa_system_get_info(static_cast<hsa_system_info_t>(
                              HSA_AMD_SYSTEM_INFO_VIRTUAL_MEM_API_SUPPORTED),
                          &supported),
      HSA_STATUS_SUCCESS);
  EXPECT_FALSE(supported);
  void* va = &supported;
  EXPECT_EQ(hsa_amd_vmem_address_reserve(&va, 1 << 21, 0, 0),
            HSA_STATUS_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(va, nullptr);
#if HSA_AMD_INTERFACE_VERSION_MINOR >= 6
  EXPECT_EQ(hsa_amd_vmem_address_reserve_align(&va, 1 << 21, 0, 4096, 0),
            HSA_STATUS_ERROR_INVALID_ARGUMENT);
#endif
  hsa_amd_vmem_alloc_handle_t handle{7};
  EXPECT_EQ(hsa_amd_vmem_handle_create(hsa_test::Pools(gpu_)[0], 1 << 21,
                                       MEMORY_TYPE_NONE, 0, &handle),
            HSA_STATUS_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(handle.handle, 0u);
  char byte = 0;
  void* p = &byte;
  EXPECT_EQ(hsa_amd_vmem_address_free(p, 4096),
            HSA_STATUS_ERROR_INVALID_ALLOCATION);
  EXPECT_EQ(hsa_amd_vmem_address_free(nullptr, 4096),
            HSA_STATUS_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(hsa_amd_vmem_handle_release(handle),
            HSA_STATUS_ERROR_INVALID_ALLOCATION);
  EXPECT_EQ(hsa_amd_vmem_map(p, 4096, 0, handle, 0),
            HSA_STATUS_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(hsa_amd_vmem_unmap(p, 4096), HSA_STATUS_ERROR_INVALID_ALLOCATION);
  EXPECT_EQ(hsa_amd_vmem_unmap(p, 0), HSA_STATUS_ERROR_INVALID_ARGUMENT);
  hsa_amd_memory_access_desc_t desc{HSA_ACCESS_PERMISSION_RW, gpu_};
  EXPECT_EQ(hsa_amd_vmem_set_access(p, 4096, &desc, 1),
            HSA_STATUS_ERROR_INVALID_ARGUMENT);
  hsa_access_permission_t perms;
  EXPECT_EQ(hsa_amd_vmem_get_access(p, &perms, gpu_),
            HSA_STATUS_ERROR_INVALID_ALLOCATION);
  int fd = -1;
  EXPECT_EQ(hsa_amd_vmem_export_shareable_handle(&fd, handle, 0),
            HSA_STATUS_ERROR_INVALID_ALLOCATION);
  EXPECT_EQ(hsa_amd_vmem_import_shareable_handle(0, &handle),
            HSA_STATUS_ERROR_INVALID_ALLOCATION);
  EXPECT_EQ(hsa_amd_vmem_import_shareable_handle(-1, &handle),
            HSA_STATUS_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(hsa_amd_vmem_retain_alloc_handle(&handle, p),
            HSA_STATUS_ERROR_INVALID_ALLOCATION);
}

// No dma-buf export either: an allocation is memory of an agent that
// cannot export it, anything else no allocation.
TEST_F(NewerApi, DmaBufExportIsRefused) {
  bool supported = true;
  ASSERT_EQ(hsa_system_get_info(static_cast<hsa_system_info_t>(
                                    HSA_AMD_SYSTEM_INFO_DMABUF_SUPPORTED),
                                &supported),
            HSA_STATUS_SUCCESS);
  EXPECT_FALSE(supported);
  void* device = DeviceAlloc(1 << 16);
  int fd = -1;
  uint64_t offset = 0;
  EXPECT_EQ(hsa_amd_portable_export_dmabuf(device, 1 << 16, &fd, &offset),
            HSA_STATUS_ERROR_INVALID_AGENT);
  char byte = 0;
  EXPECT_EQ(hsa_amd_portable_export_dmabuf(&byte, 1, &fd, &offset),
            HSA_STATUS_ERROR_INVALID_ALLOCATION);
  EXPECT_EQ(hsa_amd_portable_export_dmabuf(device, 0, &fd, &offset),
            HSA_STATUS_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(hsa_amd_portable_export_dmabuf(device, 16, nullptr, &offset),
            HSA_STATUS_ERROR_INVALID_ARGUMENT);
#if HSA_AMD_INTERFACE_VERSION_MINOR >= 9
  EXPECT_EQ(hsa_amd_portable_export_dmabuf_v2(device, 1 << 16, &fd, &offset, 0),
            HSA_STATUS_ERROR_INVALID_AGENT);
#endif
  EXPECT_EQ(fd, -1);
  // Not one of the runtime's descriptors: refused, and left open.
  const int mine = dup(2);
  ASSERT_GE(mine, 0);
  EXPECT_EQ(hsa_amd_portable_close_dmabuf(mine),
            HSA_STATUS_ERROR_RESOURCE_FREE);
  EXPECT_EQ(close(mine), 0);
  EXPECT_EQ(hsa_amd_memory_pool_free(device), HSA_STATUS_SUCCESS);
}

TEST(NewerApiClosed, VirtualMemoryAndDmaBufNeedTheRuntime) {
  void* va = nullptr;
  EXPECT_EQ(hsa_amd_vmem_address_reserve(&va, 4096, 0, 0),
            HSA_STATUS_ERROR_NOT_INITIALIZED);
  EXPECT_EQ(hsa_amd_vmem_unmap(&va, 4096), HSA_STATUS_ERROR_NOT_INITIALIZED);
  int fd = -1;
  uint64_t offset = 0;
  EXPECT_EQ(hsa_amd_portable_export_dmabuf(&va, 8, &fd, &offset),
            HSA_STATUS_ERROR_NOT_INITIALIZED);
}

#if HSA_AMD_INTERFACE_VERSION_MINOR >= 11
TEST_F(NewerApi, ClockCountersAreReadTogether) {
  hsa_amd_clock_counters_t a{}, b{}, cpu{};
  ASSERT_EQ(AgentInfo(gpu_, HSA_AMD_AGENT_INFO_CLOCK_COUNTERS, &a),
            HSA_STATUS_SUCCESS);
  ASSERT_EQ(AgentInfo(gpu_, HSA_AMD_AGENT_INFO_CLOCK_COUNTERS, &b),
            HSA_STATUS_SUCCESS);
  EXPECT_EQ(a.system_clock_frequency, 1'000'000'000u);
  EXPECT_LE(a.gpu_clock_counter, b.gpu_clock_counter);
  EXPECT_LE(a.cpu_clock_counter, b.cpu_clock_counter);
  EXPECT_LE(a.system_clock_counter, b.system_clock_counter);
  EXPECT_NE(a.gpu_clock_counter, 0u);
  ASSERT_EQ(AgentInfo(cpu_, HSA_AMD_AGENT_INFO_CLOCK_COUNTERS, &cpu),
            HSA_STATUS_SUCCESS);
  EXPECT_EQ(cpu.gpu_clock_counter, 0u);
  EXPECT_EQ(cpu.system_clock_frequency, 0u);
}
#endif

#else  // headers older than interface 1.4 (ROCm 5.2.3)

TEST_F(NewerApi, AttributesOfNewerReleasesAreRefused) {
  uint64_t v = 0;
  // HSA_AMD_AGENT_INFO_TIMESTAMP_FREQUENCY, _NUM_SDMA_ENG, _NEAREST_CPU.
  for (int attribute : {0xA016, 0xA10A, 0xA113}) {
    EXPECT_EQ(AgentInfo(gpu_, attribute, &v), HSA_STATUS_ERROR_INVALID_ARGUMENT)
        << std::hex << attribute;
  }
  // HSA_AMD_SYSTEM_INFO_VIRTUAL_MEM_API_SUPPORTED, _EXT_VERSION_MAJOR.
  for (int attribute : {0x205, 0x207}) {
    EXPECT_EQ(
        hsa_system_get_info(static_cast<hsa_system_info_t>(attribute), &v),
        HSA_STATUS_ERROR_INVALID_ARGUMENT)
        << std::hex << attribute;
  }
}

#endif

}  // namespace
