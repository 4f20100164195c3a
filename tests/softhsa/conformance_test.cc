// Conformance of softhsa's libhsa-runtime64.so.1 to the HSA Runtime
// Programmer's Reference 1.2 and ROCR's documented behaviour. The test links
// the library as an application does and calls only the public API.
#include <dirent.h>
#include <dlfcn.h>
#include <errno.h>
#include <gtest/gtest.h>
#include <hsa/hsa.h>
#include <hsa/hsa_ext_amd.h>
#include <hsa/hsa_ven_amd_loader.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "tests/softhsa/hsa_test_util.h"

namespace {

using hsa_test::Header;

constexpr char kKernels[] = "tests/softhsa/libtest_kernels.so";

struct FillArgs {
  uint32_t* out;
  uint32_t base;
};

class HsaTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_EQ(hsa_init(), HSA_STATUS_SUCCESS);
    gpus_ = hsa_test::Agents(HSA_DEVICE_TYPE_GPU);
    cpus_ = hsa_test::Agents(HSA_DEVICE_TYPE_CPU);
    ASSERT_FALSE(gpus_.empty());
    ASSERT_EQ(cpus_.size(), 1u);
    gpu_ = gpus_[0];
    kernarg_ = hsa_test::KernargPool();
    ASSERT_NE(kernarg_.handle, 0u);
  }
  void TearDown() override { EXPECT_EQ(hsa_shut_down(), HSA_STATUS_SUCCESS); }

  void* Alloc(size_t size) {
    void* p = nullptr;
    EXPECT_EQ(hsa_amd_memory_pool_allocate(kernarg_, size, 0, &p),
              HSA_STATUS_SUCCESS);
    return p;
  }
  hsa_signal_t Signal(hsa_signal_value_t v) {
    hsa_signal_t s;
    EXPECT_EQ(hsa_signal_create(v, 0, nullptr, &s), HSA_STATUS_SUCCESS);
    return s;
  }
  hsa_queue_t* Queue(uint32_t size = 64) {
    hsa_queue_t* q = nullptr;
    EXPECT_EQ(hsa_queue_create(gpu_, size, HSA_QUEUE_TYPE_MULTI, nullptr,
                               nullptr, 0, 0, &q),
              HSA_STATUS_SUCCESS);
    return q;
  }
  void Load() {
    ASSERT_EQ(hsa_test::LoadFile(kKernels, gpu_, &loaded_), HSA_STATUS_SUCCESS);
  }
  uint64_t Kernel(const char* name) {
    return hsa_test::KernelObject(loaded_.executable, gpu_, name);
  }
  void Wait(hsa_signal_t s, hsa_signal_value_t until = 0) {
    ASSERT_EQ(hsa_signal_wait_scacquire(s, HSA_SIGNAL_CONDITION_EQ, until,
                                        UINT64_MAX, HSA_WAIT_STATE_BLOCKED),
              until);
  }

  std::vector<hsa_agent_t> gpus_, cpus_;
  hsa_agent_t gpu_{0};
  hsa_amd_memory_pool_t kernarg_{0};
  hsa_test::Loaded loaded_;
};

// --- initialisation --------------------------------------------------------

TEST(Init, CallsBeforeInitAndAfterTheLastShutDownAreRefused) {
  uint16_t major = 0;
  EXPECT_EQ(hsa_system_get_info(HSA_SYSTEM_INFO_VERSION_MAJOR, &major),
            HSA_STATUS_ERROR_NOT_INITIALIZED);
  EXPECT_EQ(hsa_shut_down(), HSA_STATUS_ERROR_NOT_INITIALIZED);
  const char* text = nullptr;  // hsa_status_string works without hsa_init
  EXPECT_EQ(hsa_status_string(HSA_STATUS_ERROR_INVALID_AGENT, &text),
            HSA_STATUS_SUCCESS);
  EXPECT_NE(std::string(text).find("INVALID_AGENT"), std::string::npos);

  ASSERT_EQ(hsa_init(), HSA_STATUS_SUCCESS);
  ASSERT_EQ(hsa_init(), HSA_STATUS_SUCCESS);
  EXPECT_EQ(hsa_shut_down(), HSA_STATUS_SUCCESS);
  // Still initialised: one reference is left.
  EXPECT_EQ(hsa_system_get_info(HSA_SYSTEM_INFO_VERSION_MAJOR, &major),
            HSA_STATUS_SUCCESS);
  EXPECT_EQ(major, 1);
  EXPECT_EQ(hsa_shut_down(), HSA_STATUS_SUCCESS);
  EXPECT_EQ(hsa_system_get_info(HSA_SYSTEM_INFO_VERSION_MAJOR, &major),
            HSA_STATUS_ERROR_NOT_INITIALIZED);
  EXPECT_EQ(hsa_shut_down(), HSA_STATUS_ERROR_NOT_INITIALIZED);
}

TEST(Init, KernelAgentCountComesFromTheEnvironment) {
  setenv("SOFTHSA_GPU_COUNT", "3", 1);
  ASSERT_EQ(hsa_init(), HSA_STATUS_SUCCESS);
  auto gpus = hsa_test::Agents(HSA_DEVICE_TYPE_GPU);
  EXPECT_EQ(gpus.size(), 3u);
  std::vector<uint32_t> nodes;
  for (hsa_agent_t a : gpus) {
    uint32_t node = 0;
    hsa_agent_get_info(a, HSA_AGENT_INFO_NODE, &node);
    nodes.push_back(node);
  }
  EXPECT_EQ(nodes, (std::vector<uint32_t>{1, 2, 3}));
  EXPECT_EQ(hsa_shut_down(), HSA_STATUS_SUCCESS);
  unsetenv("SOFTHSA_GPU_COUNT");
}

// SOFTHSA_SYSTEM_CLOCK=rocr / monotonic: the system domain in a host clock's
// nanoseconds (ROCR's CLOCK_MONOTONIC_RAW; CLOCK_MONOTONIC, which the HIP
// runtime subtracts host times in), dispatch times converted into it.
TEST(Init, SystemClockCanBeAHostClocksNanoseconds) {
  for (auto [mode, clock] :
       {std::pair<const char*, clockid_t>{"rocr", CLOCK_MONOTONIC_RAW},
        {"monotonic", CLOCK_MONOTONIC}}) {
    SCOPED_TRACE(mode);
    setenv("SOFTHSA_SYSTEM_CLOCK", mode, 1);
    ASSERT_EQ(hsa_init(), HSA_STATUS_SUCCESS);
    uint64_t freq = 0, ticks = 0;
    EXPECT_EQ(hsa_system_get_info(HSA_SYSTEM_INFO_TIMESTAMP_FREQUENCY, &freq),
              HSA_STATUS_SUCCESS);
    EXPECT_EQ(freq, 1'000'000'000u);
    timespec before, after;
    clock_gettime(clock, &before);
    hsa_system_get_info(HSA_SYSTEM_INFO_TIMESTAMP, &ticks);
    clock_gettime(clock, &after);
    auto ns = [](const timespec& t) {
      return uint64_t(t.tv_sec) * 1'000'000'000u + uint64_t(t.tv_nsec);
    };
    EXPECT_LE(ns(before), ticks);
    EXPECT_LE(ticks, ns(after));
    // A device tick converts to the same timeline.
    hsa_agent_t gpu = hsa_test::Agents(HSA_DEVICE_TYPE_GPU)[0];
    uint64_t converted = 0;
    ASSERT_EQ(hsa_amd_profiling_convert_tick_to_system_domain(
                  gpu, 25'000'000u * 20, &converted),  // 20 s of device ticks
              HSA_STATUS_SUCCESS);
    EXPECT_EQ(converted, 3'000'000'000u);  // the device epoch is 17 s ahead
    EXPECT_EQ(hsa_shut_down(), HSA_STATUS_SUCCESS);
  }
  unsetenv("SOFTHSA_SYSTEM_CLOCK");
  // The next initialisation is back to the default domain.
  ASSERT_EQ(hsa_init(), HSA_STATUS_SUCCESS);
  uint64_t freq = 0;
  hsa_system_get_info(HSA_SYSTEM_INFO_TIMESTAMP_FREQUENCY, &freq);
  EXPECT_EQ(freq, 100'000'000u);
  EXPECT_EQ(hsa_shut_down(), HSA_STATUS_SUCCESS);
}

// --- system and agents -----------------------------------------------------

TEST_F(HsaTest, SystemInfo) {
  uint16_t major = 0, minor = 0;
  EXPECT_EQ(hsa_system_get_info(HSA_SYSTEM_INFO_VERSION_MAJOR, &major),
            HSA_STATUS_SUCCESS);
  EXPECT_EQ(hsa_system_get_info(HSA_SYSTEM_INFO_VERSION_MINOR, &minor),
            HSA_STATUS_SUCCESS);
  EXPECT_EQ(major, 1);
  EXPECT_EQ(minor, 1);
  uint64_t freq = 0, t0 = 0, t1 = 0;
  EXPECT_EQ(hsa_system_get_info(HSA_SYSTEM_INFO_TIMESTAMP_FREQUENCY, &freq),
            HSA_STATUS_SUCCESS);
  EXPECT_EQ(freq, 100'000'000u);
  hsa_system_get_info(HSA_SYSTEM_INFO_TIMESTAMP, &t0);
  usleep(2000);
  hsa_system_get_info(HSA_SYSTEM_INFO_TIMESTAMP, &t1);
  EXPECT_GE(t1 - t0, freq / 1000);  // 2 ms at least 1 ms of ticks
  // Not CLOCK_BOOTTIME nanoseconds, nor BOOTTIME at that frequency.
  timespec ts;
  clock_gettime(CLOCK_BOOTTIME, &ts);
  uint64_t boot_ns = uint64_t(ts.tv_sec) * 1'000'000'000u + ts.tv_nsec;
  EXPECT_GT(t1 * (1'000'000'000u / freq), boot_ns + 100'000'000'000u);
  uint8_t ext[128] = {};
  EXPECT_EQ(hsa_system_get_info(HSA_SYSTEM_INFO_EXTENSIONS, ext),
            HSA_STATUS_SUCCESS);
  EXPECT_TRUE(ext[HSA_EXTENSION_AMD_LOADER / 8] &
              (1 << (HSA_EXTENSION_AMD_LOADER % 8)));
  EXPECT_EQ(hsa_system_get_info(HSA_SYSTEM_INFO_VERSION_MAJOR, nullptr),
            HSA_STATUS_ERROR_INVALID_ARGUMENT);
}

TEST_F(HsaTest, KernelAgentInfo) {
  char name[64] = {};
  EXPECT_EQ(hsa_agent_get_info(gpu_, HSA_AGENT_INFO_NAME, name),
            HSA_STATUS_SUCCESS);
  EXPECT_STREQ(name, "gfx90a");
  hsa_agent_feature_t feature{};
  hsa_agent_get_info(gpu_, HSA_AGENT_INFO_FEATURE, &feature);
  EXPECT_TRUE(feature & HSA_AGENT_FEATURE_KERNEL_DISPATCH);
  hsa_agent_get_info(cpus_[0], HSA_AGENT_INFO_FEATURE, &feature);
  EXPECT_FALSE(feature & HSA_AGENT_FEATURE_KERNEL_DISPATCH);
  uint32_t min = 0, max = 0, node = 99;
  hsa_agent_get_info(gpu_, HSA_AGENT_INFO_QUEUE_MIN_SIZE, &min);
  hsa_agent_get_info(gpu_, HSA_AGENT_INFO_QUEUE_MAX_SIZE, &max);
  hsa_agent_get_info(cpus_[0], HSA_AGENT_INFO_NODE, &node);
  EXPECT_EQ(node, 0u);
  EXPECT_GT(min, 0u);
  EXPECT_GE(max, min);
  hsa_isa_t isa{0};
  EXPECT_EQ(hsa_agent_get_info(gpu_, HSA_AGENT_INFO_ISA, &isa),
            HSA_STATUS_SUCCESS);
  uint32_t len = 0;
  hsa_isa_get_info_alt(isa, HSA_ISA_INFO_NAME_LENGTH, &len);
  std::string isa_name(len, '\0');
  hsa_isa_get_info_alt(isa, HSA_ISA_INFO_NAME, isa_name.data());
  EXPECT_EQ(isa_name.c_str(), std::string("amdgcn-amd-amdhsa--gfx90a"));
  uint32_t cus = 0, driver_node = 0;
  EXPECT_EQ(hsa_agent_get_info(gpu_,
                               static_cast<hsa_agent_info_t>(
                                   HSA_AMD_AGENT_INFO_COMPUTE_UNIT_COUNT),
                               &cus),
            HSA_STATUS_SUCCESS);
  EXPECT_GT(cus, 0u);
  hsa_agent_get_info(
      gpu_, static_cast<hsa_agent_info_t>(HSA_AMD_AGENT_INFO_DRIVER_NODE_ID),
      &driver_node);
  EXPECT_EQ(driver_node, 1u);
  char product[64] = {};
  EXPECT_EQ(
      hsa_agent_get_info(
          gpu_, static_cast<hsa_agent_info_t>(HSA_AMD_AGENT_INFO_PRODUCT_NAME),
          product),
      HSA_STATUS_SUCCESS);
  EXPECT_EQ(hsa_agent_get_info(hsa_agent_t{12345}, HSA_AGENT_INFO_NAME, name),
            HSA_STATUS_ERROR_INVALID_AGENT);
}

TEST_F(HsaTest, IterationStopsAtTheFirstNonSuccess) {
  int calls = 0;
  EXPECT_EQ(hsa_iterate_agents(
                [](hsa_agent_t, void* d) {
                  ++*static_cast<int*>(d);
                  return HSA_STATUS_INFO_BREAK;
                },
                &calls),
            HSA_STATUS_INFO_BREAK);
  EXPECT_EQ(calls, 1);
}

// --- memory ----------------------------------------------------------------

TEST_F(HsaTest, MemoryPools) {
  auto gpu_pools = hsa_test::Pools(gpu_);
  ASSERT_FALSE(gpu_pools.empty());
  uint32_t flags = 0;
  hsa_amd_memory_pool_get_info(gpu_pools[0],
                               HSA_AMD_MEMORY_POOL_INFO_GLOBAL_FLAGS, &flags);
  EXPECT_TRUE(flags & HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_COARSE_GRAINED);
  bool alloc_ok = false;
  hsa_amd_memory_pool_get_info(
      gpu_pools[0], HSA_AMD_MEMORY_POOL_INFO_RUNTIME_ALLOC_ALLOWED, &alloc_ok);
  EXPECT_TRUE(alloc_ok);
  hsa_amd_memory_pool_access_t access{};
  hsa_amd_agent_memory_pool_get_info(
      cpus_[0], gpu_pools[0], HSA_AMD_AGENT_MEMORY_POOL_INFO_ACCESS, &access);
  EXPECT_EQ(access, HSA_AMD_MEMORY_POOL_ACCESS_DISALLOWED_BY_DEFAULT);

  void* p = nullptr;
  EXPECT_EQ(hsa_amd_memory_pool_allocate(gpu_pools[0], 0, 0, &p),
            HSA_STATUS_ERROR_INVALID_ARGUMENT);
  ASSERT_EQ(hsa_amd_memory_pool_allocate(gpu_pools[0], 1000, 0, &p),
            HSA_STATUS_SUCCESS);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(p) % 4096, 0u);
  EXPECT_EQ(hsa_amd_agents_allow_access(1, &cpus_[0], nullptr, p),
            HSA_STATUS_SUCCESS);

  hsa_amd_pointer_info_t info{};
  info.size = sizeof(info);
  uint32_t count = 0;
  hsa_agent_t* accessible = nullptr;
  ASSERT_EQ(hsa_amd_pointer_info(static_cast<char*>(p) + 10, &info, malloc,
                                 &count, &accessible),
            HSA_STATUS_SUCCESS);
  EXPECT_EQ(info.type, HSA_EXT_POINTER_TYPE_HSA);
  EXPECT_EQ(info.agentBaseAddress, p);
  EXPECT_EQ(info.sizeInBytes, 1000u);
  EXPECT_EQ(info.agentOwner.handle, gpu_.handle);
  EXPECT_EQ(count, 2u);  // its owner, and the CPU once allowed
  free(accessible);

  EXPECT_EQ(hsa_amd_memory_pool_free(p), HSA_STATUS_SUCCESS);
  EXPECT_EQ(hsa_amd_memory_pool_free(p), HSA_STATUS_ERROR_INVALID_ALLOCATION);
  int local = 0;
  ASSERT_EQ(hsa_amd_pointer_info(&local, &info, nullptr, nullptr, nullptr),
            HSA_STATUS_SUCCESS);
  EXPECT_EQ(info.type, HSA_EXT_POINTER_TYPE_UNKNOWN);
}

// ROCR gives every kernel agent a GROUP-segment pool (its LDS per
// workgroup) beside its global ones; HIP sizes __shared__ memory from it.
TEST_F(HsaTest, KernelAgentHasAGroupSegmentPoolWithoutAllocation) {
  std::vector<hsa_amd_memory_pool_t> group;
  for (hsa_amd_memory_pool_t p : hsa_test::Pools(gpu_)) {
    hsa_amd_segment_t segment{};
    ASSERT_EQ(hsa_amd_memory_pool_get_info(p, HSA_AMD_MEMORY_POOL_INFO_SEGMENT,
                                           &segment),
              HSA_STATUS_SUCCESS);
    if (segment == HSA_AMD_SEGMENT_GROUP) group.push_back(p);
  }
  ASSERT_EQ(group.size(), 1u);
  size_t size = 0, granule = 1;
  uint32_t flags = 1;
  bool alloc_ok = true;
  EXPECT_EQ(hsa_amd_memory_pool_get_info(group[0],
                                         HSA_AMD_MEMORY_POOL_INFO_SIZE, &size),
            HSA_STATUS_SUCCESS);
  EXPECT_EQ(size, 64u * 1024);
  hsa_amd_memory_pool_get_info(group[0], HSA_AMD_MEMORY_POOL_INFO_GLOBAL_FLAGS,
                               &flags);
  EXPECT_EQ(flags, 0u);  // not a global segment
  hsa_amd_memory_pool_get_info(
      group[0], HSA_AMD_MEMORY_POOL_INFO_RUNTIME_ALLOC_ALLOWED, &alloc_ok);
  EXPECT_FALSE(alloc_ok);
  hsa_amd_memory_pool_get_info(
      group[0], HSA_AMD_MEMORY_POOL_INFO_RUNTIME_ALLOC_GRANULE, &granule);
  EXPECT_EQ(granule, 0u);
  void* p = nullptr;
  EXPECT_EQ(hsa_amd_memory_pool_allocate(group[0], 64, 0, &p),
            HSA_STATUS_ERROR_INVALID_ALLOCATION);
  // The same pool seen as a region.
  hsa_region_segment_t region_segment{};
  EXPECT_EQ(hsa_region_get_info(hsa_region_t{group[0].handle},
                                HSA_REGION_INFO_SEGMENT, &region_segment),
            HSA_STATUS_SUCCESS);
  EXPECT_EQ(region_segment, HSA_REGION_SEGMENT_GROUP);
  // The CPU has none.
  for (hsa_amd_memory_pool_t c : hsa_test::Pools(cpus_[0])) {
    hsa_amd_segment_t segment{};
    hsa_amd_memory_pool_get_info(c, HSA_AMD_MEMORY_POOL_INFO_SEGMENT, &segment);
    EXPECT_EQ(segment, HSA_AMD_SEGMENT_GLOBAL);
  }
}

// ROCR's system attributes: a build string, and no SVM (hsa_amd_svm_* are
// not implemented, so HIP must not use them).
TEST_F(HsaTest, AmdSystemInfo) {
  const char* build = nullptr;
  ASSERT_EQ(hsa_system_get_info(HSA_AMD_SYSTEM_INFO_BUILD_VERSION, &build),
            HSA_STATUS_SUCCESS);
  ASSERT_NE(build, nullptr);
  EXPECT_GT(strlen(build), 0u);
  bool svm = true, by_default = true;
  EXPECT_EQ(hsa_system_get_info(HSA_AMD_SYSTEM_INFO_SVM_SUPPORTED, &svm),
            HSA_STATUS_SUCCESS);
  EXPECT_FALSE(svm);
  EXPECT_EQ(hsa_system_get_info(HSA_AMD_SYSTEM_INFO_SVM_ACCESSIBLE_BY_DEFAULT,
                                &by_default),
            HSA_STATUS_SUCCESS);
  EXPECT_FALSE(by_default);
}

// hsa_amd_memory_lock_to_pool: a host range locked as one of the CPU's
// pools; any other pool, or non-zero flags, is an invalid argument.
TEST_F(HsaTest, LockToPool) {
  std::vector<char> host(8192);
  void* agent_ptr = nullptr;
  auto cpu_pools = hsa_test::Pools(cpus_[0]);
  ASSERT_FALSE(cpu_pools.empty());
  EXPECT_EQ(
      hsa_amd_memory_lock_to_pool(host.data(), host.size(), nullptr, 0,
                                  hsa_test::Pools(gpu_)[0], 0, &agent_ptr),
      HSA_STATUS_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(hsa_amd_memory_lock_to_pool(host.data(), host.size(), nullptr, 0,
                                        cpu_pools[0], 1, &agent_ptr),
            HSA_STATUS_ERROR_INVALID_ARGUMENT);
  hsa_agent_t bogus{12345};
  EXPECT_EQ(hsa_amd_memory_lock_to_pool(host.data(), host.size(), &bogus, 1,
                                        cpu_pools.back(), 0, &agent_ptr),
            HSA_STATUS_ERROR_INVALID_AGENT);
  ASSERT_EQ(hsa_amd_memory_lock_to_pool(host.data(), host.size(), &gpu_, 1,
                                        cpu_pools.back(), 0, &agent_ptr),
            HSA_STATUS_SUCCESS);
  EXPECT_EQ(agent_ptr, host.data());
  hsa_amd_pointer_info_t info{};
  info.size = sizeof(info);
  ASSERT_EQ(
      hsa_amd_pointer_info(host.data() + 100, &info, nullptr, nullptr, nullptr),
      HSA_STATUS_SUCCESS);
  EXPECT_EQ(info.type, HSA_EXT_POINTER_TYPE_LOCKED);
  EXPECT_EQ(hsa_amd_memory_unlock(host.data()), HSA_STATUS_SUCCESS);
}

TEST_F(HsaTest, RegionsMirrorPools) {
  std::vector<hsa_region_t> regions;
  hsa_agent_iterate_regions(
      cpus_[0],
      [](hsa_region_t r, void* d) {
        static_cast<std::vector<hsa_region_t>*>(d)->push_back(r);
        return HSA_STATUS_SUCCESS;
      },
      &regions);
  ASSERT_FALSE(regions.empty());
  uint32_t flags = 0;
  hsa_region_get_info(regions[0], HSA_REGION_INFO_GLOBAL_FLAGS, &flags);
  EXPECT_TRUE(flags & HSA_REGION_GLOBAL_FLAG_KERNARG);
  void* p = nullptr;
  ASSERT_EQ(hsa_memory_allocate(regions[0], 64, &p), HSA_STATUS_SUCCESS);
  EXPECT_EQ(hsa_memory_free(p), HSA_STATUS_SUCCESS);
}

// --- signals ---------------------------------------------------------------

TEST_F(HsaTest, SignalOperations) {
  hsa_signal_t s = Signal(10);
  EXPECT_EQ(hsa_signal_load_relaxed(s), 10);
  hsa_signal_add_scacq_screl(s, 5);
  hsa_signal_subtract_relaxed(s, 3);
  EXPECT_EQ(hsa_signal_load_scacquire(s), 12);
  hsa_signal_and_screlease(s, 0b1000);
  EXPECT_EQ(hsa_signal_load_relaxed(s), 8);
  hsa_signal_or_scacquire(s, 1);
  hsa_signal_xor_relaxed(s, 0b1001 ^ 0b0110);
  EXPECT_EQ(hsa_signal_load_relaxed(s), 0b0110);
  EXPECT_EQ(hsa_signal_exchange_scacq_screl(s, 40), 0b0110);
  EXPECT_EQ(hsa_signal_cas_screlease(s, 40, 41), 40);
  EXPECT_EQ(hsa_signal_cas_relaxed(s, 40, 42), 41);  // failed: unchanged
  EXPECT_EQ(hsa_signal_load_relaxed(s), 41);
  hsa_signal_store_screlease(s, -7);
  EXPECT_EQ(hsa_signal_load_relaxed(s), -7);
  // The deprecated names are the same operations.
  hsa_signal_add_acq_rel(s, 7);
  EXPECT_EQ(hsa_signal_load_acquire(s), 0);
  EXPECT_EQ(hsa_signal_destroy(s), HSA_STATUS_SUCCESS);
  EXPECT_EQ(hsa_signal_destroy(s), HSA_STATUS_ERROR_INVALID_SIGNAL);
  EXPECT_EQ(hsa_signal_destroy(hsa_signal_t{0}),
            HSA_STATUS_ERROR_INVALID_ARGUMENT);
}

TEST_F(HsaTest, WaitConditionsAndTimeouts) {
  hsa_signal_t s = Signal(5);
  EXPECT_EQ(hsa_signal_wait_relaxed(s, HSA_SIGNAL_CONDITION_EQ, 5, 0,
                                    HSA_WAIT_STATE_ACTIVE),
            5);
  EXPECT_EQ(hsa_signal_wait_relaxed(s, HSA_SIGNAL_CONDITION_NE, 4, 0,
                                    HSA_WAIT_STATE_ACTIVE),
            5);
  EXPECT_EQ(hsa_signal_wait_relaxed(s, HSA_SIGNAL_CONDITION_LT, 6, 0,
                                    HSA_WAIT_STATE_ACTIVE),
            5);
  EXPECT_EQ(hsa_signal_wait_relaxed(s, HSA_SIGNAL_CONDITION_GTE, 5, 0,
                                    HSA_WAIT_STATE_ACTIVE),
            5);
  // Unsatisfied with a timeout: returns the current value once it expires.
  uint64_t freq = 0;
  hsa_system_get_info(HSA_SYSTEM_INFO_TIMESTAMP_FREQUENCY, &freq);
  EXPECT_EQ(hsa_signal_wait_scacquire(s, HSA_SIGNAL_CONDITION_EQ, 0, freq / 100,
                                      HSA_WAIT_STATE_BLOCKED),
            5);
  // Satisfied by another thread while blocked.
  std::thread t([s] {
    usleep(20000);
    hsa_signal_store_screlease(s, 0);
  });
  EXPECT_EQ(hsa_signal_wait_scacquire(s, HSA_SIGNAL_CONDITION_EQ, 0, UINT64_MAX,
                                      HSA_WAIT_STATE_BLOCKED),
            0);
  t.join();
  hsa_signal_destroy(s);
}

TEST_F(HsaTest, WaitAny) {
  hsa_signal_t s[2] = {Signal(1), Signal(1)};
  hsa_signal_condition_t conds[2] = {HSA_SIGNAL_CONDITION_EQ,
                                     HSA_SIGNAL_CONDITION_EQ};
  hsa_signal_value_t values[2] = {0, 0};
  std::thread t([&] {
    usleep(20000);
    hsa_signal_store_relaxed(s[1], 0);
  });
  hsa_signal_value_t v = 99;
  EXPECT_EQ(hsa_amd_signal_wait_any(2, s, conds, values, UINT64_MAX,
                                    HSA_WAIT_STATE_BLOCKED, &v),
            1u);
  EXPECT_EQ(v, 0);
  t.join();
  hsa_signal_store_relaxed(s[1], 1);
  EXPECT_EQ(hsa_amd_signal_wait_any(2, s, conds, values, 1000,
                                    HSA_WAIT_STATE_BLOCKED, &v),
            UINT32_MAX);
  hsa_signal_destroy(s[0]);
  hsa_signal_destroy(s[1]);
}

// A signal group's wait returns one of its signals that satisfies its
// condition, with the value seen; a destroyed group is refused.
TEST_F(HsaTest, SignalGroupWaitAny) {
  hsa_signal_t s[2] = {Signal(1), Signal(1)};
  hsa_signal_group_t group{0};
  EXPECT_EQ(hsa_signal_group_create(2, s, 0, nullptr, &group),
            HSA_STATUS_ERROR_INVALID_ARGUMENT);
  ASSERT_EQ(hsa_signal_group_create(2, s, 1, &gpu_, &group),
            HSA_STATUS_SUCCESS);
  const hsa_signal_condition_t conds[2] = {HSA_SIGNAL_CONDITION_EQ,
                                           HSA_SIGNAL_CONDITION_EQ};
  const hsa_signal_value_t values[2] = {0, 0};
  std::thread t([&] {
    usleep(20000);
    hsa_signal_store_relaxed(s[1], 0);
  });
  hsa_signal_t found{0};
  hsa_signal_value_t v = 99;
  EXPECT_EQ(hsa_signal_group_wait_any_scacquire(
                group, conds, values, HSA_WAIT_STATE_BLOCKED, &found, &v),
            HSA_STATUS_SUCCESS);
  t.join();
  EXPECT_EQ(found.handle, s[1].handle);
  EXPECT_EQ(v, 0);
  EXPECT_EQ(hsa_signal_group_wait_any_relaxed(
                group, conds, values, HSA_WAIT_STATE_ACTIVE, &found, nullptr),
            HSA_STATUS_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(hsa_signal_group_destroy(group), HSA_STATUS_SUCCESS);
  EXPECT_EQ(hsa_signal_group_destroy(group),
            HSA_STATUS_ERROR_INVALID_SIGNAL_GROUP);
  EXPECT_EQ(hsa_signal_group_wait_any_relaxed(
                group, conds, values, HSA_WAIT_STATE_ACTIVE, &found, &v),
            HSA_STATUS_ERROR_INVALID_SIGNAL_GROUP);
  hsa_signal_destroy(s[0]);
  hsa_signal_destroy(s[1]);
}

// A wait_any sleeps on its own signals, as ROCR's waits on their events:
// changes of a signal another wait_any watches do not wake it.
TEST_F(HsaTest, WaitAnyIsNotWokenByOtherSignalsChanges) {
  hsa_signal_t mine = Signal(1), other = Signal(1);
  hsa_signal_condition_t eq = HSA_SIGNAL_CONDITION_EQ;
  hsa_signal_value_t zero = 0;
  std::thread other_waiter([&] {
    EXPECT_EQ(hsa_amd_signal_wait_any(1, &other, &eq, &zero, UINT64_MAX,
                                      HSA_WAIT_STATE_BLOCKED, nullptr),
              0u);
  });
  std::atomic<long> sleeps{-1};
  std::thread waiter([&] {
    rusage before{}, after{};
    getrusage(RUSAGE_THREAD, &before);
    EXPECT_EQ(hsa_amd_signal_wait_any(1, &mine, &eq, &zero, UINT64_MAX,
                                      HSA_WAIT_STATE_BLOCKED, nullptr),
              0u);
    getrusage(RUSAGE_THREAD, &after);
    sleeps = after.ru_nvcsw - before.ru_nvcsw;
  });
  usleep(10000);
  constexpr int kChanges = 100;
  for (int i = 0; i < kChanges; ++i) {
    hsa_signal_store_relaxed(other, 2 + i % 2);  // never 0: keeps waiting
    usleep(200);                                 // the waiters are asleep again
  }
  hsa_signal_store_relaxed(mine, 0);
  waiter.join();
  hsa_signal_store_relaxed(other, 0);
  other_waiter.join();
  // Woken once, by its own signal (give or take a spurious wake-up).
  EXPECT_LT(sleeps.load(), kChanges / 4);
  hsa_signal_destroy(mine);
  hsa_signal_destroy(other);
}

// A kernel without futex_waitv (Linux < 5.16; here a seccomp filter makes
// it answer ENOSYS, in a child process): wait_any falls back to the word
// every watched signal's change bumps, and is still woken by its signal's
// store, its first call (which finds futex_waitv missing) and later ones.
int WaitAnyWithoutFutexWaitv() {
#if defined(__x86_64__)
  sock_filter filter[] = {
      BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(seccomp_data, arch)),
      BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, AUDIT_ARCH_X86_64, 1, 0),
      BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
      BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(seccomp_data, nr)),
      BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_futex_waitv, 0, 1),
      BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | ENOSYS),
      BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
  };
  sock_fprog prog{static_cast<unsigned short>(std::size(filter)), filter};
  if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0 ||
      prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog) != 0) {
    return 10;
  }
  if (syscall(SYS_futex_waitv, nullptr, 0, 0, nullptr, 0) != -1 ||
      errno != ENOSYS) {
    return 11;
  }
  hsa_signal_t s[2];
  for (hsa_signal_t& signal : s) {
    if (hsa_signal_create(1, 0, nullptr, &signal) != HSA_STATUS_SUCCESS) {
      return 12;
    }
  }
  hsa_signal_condition_t conds[2] = {HSA_SIGNAL_CONDITION_EQ,
                                     HSA_SIGNAL_CONDITION_EQ};
  hsa_signal_value_t values[2] = {0, 0};
  for (uint32_t round = 0; round < 4; ++round) {
    const uint32_t which = round % 2;
    std::thread t([&] {
      usleep(20000);
      hsa_signal_store_screlease(s[which], 0);
    });
    rusage before{}, after{};
    getrusage(RUSAGE_THREAD, &before);
    const uint32_t found = hsa_amd_signal_wait_any(
        2, s, conds, values, UINT64_MAX, HSA_WAIT_STATE_BLOCKED, nullptr);
    getrusage(RUSAGE_THREAD, &after);
    t.join();
    if (found != which) return 20 + static_cast<int>(round);
    // It slept (rather than spinning on the refused system call).
    if (after.ru_nvcsw == before.ru_nvcsw) return 25 + static_cast<int>(round);
    hsa_signal_store_relaxed(s[which], 1);
  }
  // A timeout still ends it.
  if (hsa_amd_signal_wait_any(2, s, conds, values, 1000, HSA_WAIT_STATE_BLOCKED,
                              nullptr) != UINT32_MAX) {
    return 30;
  }
  return 0;
#else
  return 0;
#endif
}

TEST_F(HsaTest, WaitAnyWithoutFutexWaitv) {
#if defined(__SANITIZE_THREAD__)
  GTEST_SKIP() << "a thread started in a forked child: not under TSan";
#endif
  std::fflush(nullptr);
  const pid_t pid = fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) _exit(WaitAnyWithoutFutexWaitv());
  int status = 0;
  bool ended = false;
  for (int i = 0; i < 3000 && !ended; ++i) {
    ended = waitpid(pid, &status, WNOHANG) == pid;
    if (!ended) usleep(10000);
  }
  if (!ended) {
    kill(pid, SIGKILL);
    waitpid(pid, &status, 0);
    FAIL() << "the child hung in wait_any";
  }
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 0);
}

struct HandlerState {
  std::atomic<int> calls{0};
  std::atomic<std::thread::id> thread{};
  hsa_signal_t done;
  int rearm_until = 0;
};

bool CountingHandler(hsa_signal_value_t, void* arg) {
  auto* h = static_cast<HandlerState*>(arg);
  h->thread.store(std::this_thread::get_id());
  int n = ++h->calls;
  hsa_signal_store_screlease(h->done, n);
  return n < h->rearm_until;
}

TEST_F(HsaTest, AsyncHandlerRunsOnARuntimeThreadAndIsReArmed) {
  hsa_signal_t s = Signal(1);
  HandlerState h;
  h.done = Signal(0);
  h.rearm_until = 3;
  ASSERT_EQ(hsa_amd_signal_async_handler(s, HSA_SIGNAL_CONDITION_EQ, 0,
                                         CountingHandler, &h),
            HSA_STATUS_SUCCESS);
  usleep(10000);
  EXPECT_EQ(h.calls.load(), 0);  // not before the condition holds
  hsa_signal_store_screlease(s, 0);
  // true twice (re-armed, the condition still holds), then false.
  Wait(h.done, 3);
  usleep(20000);
  EXPECT_EQ(h.calls.load(), 3);
  EXPECT_NE(h.thread.load(), std::this_thread::get_id());
  EXPECT_EQ(
      hsa_amd_signal_async_handler(hsa_signal_t{0}, HSA_SIGNAL_CONDITION_EQ, 0,
                                   CountingHandler, &h),
      HSA_STATUS_ERROR_INVALID_SIGNAL);
  hsa_signal_destroy(s);
  hsa_signal_destroy(h.done);
}

// --- queues and packets ----------------------------------------------------

TEST_F(HsaTest, QueueCreationChecksSizeAgentAndType) {
  hsa_queue_t* q = nullptr;
  EXPECT_EQ(hsa_queue_create(gpu_, 100, HSA_QUEUE_TYPE_MULTI, nullptr, nullptr,
                             0, 0, &q),
            HSA_STATUS_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(hsa_queue_create(gpu_, 1u << 30, HSA_QUEUE_TYPE_MULTI, nullptr,
                             nullptr, 0, 0, &q),
            HSA_STATUS_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(hsa_queue_create(cpus_[0], 64, HSA_QUEUE_TYPE_MULTI, nullptr,
                             nullptr, 0, 0, &q),
            HSA_STATUS_ERROR_INVALID_QUEUE_CREATION);
  EXPECT_EQ(hsa_queue_create(hsa_agent_t{1}, 64, HSA_QUEUE_TYPE_MULTI, nullptr,
                             nullptr, 0, 0, &q),
            HSA_STATUS_ERROR_INVALID_AGENT);
  q = Queue(128);
  ASSERT_NE(q, nullptr);
  EXPECT_EQ(q->size, 128u);
  EXPECT_NE(q->doorbell_signal.handle, 0u);
  EXPECT_NE(q->base_address, nullptr);
  // Every slot starts INVALID.
  for (uint32_t i = 0; i < q->size; ++i) {
    auto* header = reinterpret_cast<uint16_t*>(
        static_cast<char*>(q->base_address) + i * 64);
    EXPECT_EQ(*header & 0xff, HSA_PACKET_TYPE_INVALID);
  }
  EXPECT_EQ(hsa_queue_load_write_index_relaxed(q), 0u);
  EXPECT_EQ(hsa_queue_add_write_index_relaxed(q, 3), 0u);
  EXPECT_EQ(hsa_queue_cas_write_index_scacq_screl(q, 3, 1), 3u);
  EXPECT_EQ(hsa_queue_load_write_index_scacquire(q), 1u);
  hsa_queue_store_write_index_relaxed(q, 0);
  EXPECT_EQ(hsa_queue_destroy(q), HSA_STATUS_SUCCESS);
  EXPECT_EQ(hsa_queue_destroy(q), HSA_STATUS_ERROR_INVALID_QUEUE);
}

TEST_F(HsaTest, KernelDispatchRunsEveryWorkgroupAndCompletes) {
  Load();
  uint64_t fill = Kernel("fill");
  ASSERT_NE(fill, 0u);
  constexpr uint32_t kItems = 1000;
  auto* out = static_cast<uint32_t*>(Alloc(kItems * 4));
  auto* args = static_cast<FillArgs*>(Alloc(sizeof(FillArgs)));
  *args = FillArgs{out, 7};
  hsa_queue_t* q = Queue();
  hsa_signal_t done = Signal(1);
  auto p = hsa_test::DispatchPacket(fill, args, kItems, 64, done);
  uint64_t index = hsa_test::Submit(q, &p);
  Wait(done);
  for (uint32_t i = 0; i < kItems; ++i) ASSERT_EQ(out[i], 7 + i) << i;
  // The processor moved past the packet and gave its slot back.
  EXPECT_EQ(hsa_queue_load_read_index_scacquire(q), index + 1);
  auto* header = reinterpret_cast<uint16_t*>(
      static_cast<char*>(q->base_address) + (index % q->size) * 64);
  EXPECT_EQ(__atomic_load_n(header, __ATOMIC_ACQUIRE) & 0xff,
            HSA_PACKET_TYPE_INVALID);
  hsa_queue_destroy(q);
  hsa_signal_destroy(done);
  hsa_test::Unload(&loaded_);
}

TEST_F(HsaTest, ThreeDimensionalGridCallsEachWorkgroupOnce) {
  Load();
  uint64_t count = Kernel("count_workgroups");
  ASSERT_NE(count, 0u);
  std::atomic<uint64_t> counter{0};
  auto** args = static_cast<std::atomic<uint64_t>**>(Alloc(sizeof(void*)));
  *args = &counter;
  hsa_queue_t* q = Queue();
  hsa_signal_t done = Signal(1);
  auto p = hsa_test::DispatchPacket(count, args, 10, 4, done);
  p.setup = 3 << HSA_KERNEL_DISPATCH_PACKET_SETUP_DIMENSIONS;
  p.grid_size_y = 6;
  p.workgroup_size_y = 3;
  p.grid_size_z = 5;
  p.workgroup_size_z = 2;
  hsa_test::Submit(q, &p);
  Wait(done);
  EXPECT_EQ(counter.load(), 3u * 2u * 3u);  // ceil(10/4)*(6/3)*ceil(5/2)
  hsa_queue_destroy(q);
  hsa_signal_destroy(done);
  hsa_test::Unload(&loaded_);
}

TEST_F(HsaTest, PacketsCompleteInOrderAndBarrierAndWaitsForItsDependencies) {
  Load();
  uint64_t fill = Kernel("fill");
  auto* out = static_cast<uint32_t*>(Alloc(4));
  auto* args = static_cast<FillArgs*>(Alloc(sizeof(FillArgs)));
  *args = FillArgs{out, 5};
  hsa_queue_t* q = Queue();
  hsa_signal_t gate = Signal(1), barrier_done = Signal(1), done = Signal(1);
  hsa_barrier_and_packet_t b{};
  b.header = Header(HSA_PACKET_TYPE_BARRIER_AND, true);
  b.dep_signal[2] = gate;
  b.completion_signal = barrier_done;
  hsa_test::Submit(q, &b);
  auto p = hsa_test::DispatchPacket(fill, args, 1, 1, done);
  hsa_test::Submit(q, &p);
  usleep(20000);
  // The barrier holds back the dispatch behind it.
  EXPECT_EQ(hsa_signal_load_relaxed(barrier_done), 1);
  EXPECT_EQ(hsa_signal_load_relaxed(done), 1);
  EXPECT_EQ(hsa_queue_load_read_index_relaxed(q), 0u);
  hsa_signal_store_screlease(gate, 0);
  Wait(done);
  EXPECT_EQ(hsa_signal_load_relaxed(barrier_done), 0);
  EXPECT_EQ(out[0], 5u);
  hsa_queue_destroy(q);
  for (auto s : {gate, barrier_done, done}) hsa_signal_destroy(s);
  hsa_test::Unload(&loaded_);
}

TEST_F(HsaTest, BarrierOrCompletesWhenAnyDependencyIsZero) {
  hsa_queue_t* q = Queue();
  hsa_signal_t a = Signal(1), b = Signal(1), done = Signal(1);
  hsa_barrier_or_packet_t p{};
  p.header = Header(HSA_PACKET_TYPE_BARRIER_OR);
  p.dep_signal[0] = a;
  p.dep_signal[4] = b;
  p.completion_signal = done;
  hsa_test::Submit(q, &p);
  usleep(10000);
  EXPECT_EQ(hsa_signal_load_relaxed(done), 1);
  hsa_signal_store_screlease(b, 0);
  Wait(done);
  hsa_queue_destroy(q);
  for (auto s : {a, b, done}) hsa_signal_destroy(s);
}

// Destroying a queue drops the packets it has not run, as a GPU's queue
// destruction does: a barrier-AND or -OR still waiting for its dependencies
// does not hold up hsa_queue_destroy and never completes (before, the
// destroy waited for it forever).
TEST_F(HsaTest, ABarrierStillWaitingIsDroppedWhenItsQueueIsDestroyed) {
  for (hsa_packet_type_t type :
       {HSA_PACKET_TYPE_BARRIER_AND, HSA_PACKET_TYPE_BARRIER_OR}) {
    hsa_queue_t* q = Queue();
    hsa_signal_t never = Signal(1), done = Signal(1);
    hsa_barrier_and_packet_t b{};  // the OR packet has the same layout
    b.header = Header(type);
    b.dep_signal[1] = never;
    b.completion_signal = done;
    hsa_test::Submit(q, &b);
    usleep(10000);
    EXPECT_EQ(hsa_queue_destroy(q), HSA_STATUS_SUCCESS);
    hsa_signal_store_screlease(never, 0);
    usleep(10000);
    EXPECT_EQ(hsa_signal_load_relaxed(done), 1);
    for (auto s : {never, done}) hsa_signal_destroy(s);
  }
}

TEST_F(HsaTest, AmdBarrierValuePacketWaitsForTheMaskedCondition) {
  hsa_queue_t* q = Queue();
  hsa_signal_t s = Signal(0), done = Signal(1);
  hsa_amd_barrier_value_packet_t p{};
  p.header.header = Header(HSA_PACKET_TYPE_VENDOR_SPECIFIC);
  p.header.AmdFormat = HSA_AMD_PACKET_TYPE_BARRIER_VALUE;
  p.signal = s;
  p.value = 0x10;
  p.mask = 0xf0;
  p.cond = HSA_SIGNAL_CONDITION_EQ;
  p.completion_signal = done;
  hsa_test::Submit(q, &p);
  hsa_signal_store_screlease(s, 0x2f);  // masked 0x20: not yet
  usleep(10000);
  EXPECT_EQ(hsa_signal_load_relaxed(done), 1);
  hsa_signal_store_screlease(s, 0x1f);
  Wait(done);
  hsa_queue_destroy(q);
  hsa_signal_destroy(s);
  hsa_signal_destroy(done);
}

struct ErrorSeen {
  std::atomic<int> calls{0};
  std::atomic<hsa_status_t> status{HSA_STATUS_SUCCESS};
  std::atomic<hsa_queue_t*> queue{nullptr};
};

void OnQueueError(hsa_status_t status, hsa_queue_t* q, void* data) {
  auto* e = static_cast<ErrorSeen*>(data);
  e->status = status;
  e->queue = q;
  ++e->calls;
}

TEST_F(HsaTest, InvalidPacketGoesToTheQueueErrorCallback) {
  ErrorSeen seen;
  hsa_queue_t* q = nullptr;
  ASSERT_EQ(hsa_queue_create(gpu_, 64, HSA_QUEUE_TYPE_SINGLE, OnQueueError,
                             &seen, 0, 0, &q),
            HSA_STATUS_SUCCESS);
  hsa_signal_t done = Signal(1);
  // A dispatch of something that is no kernel object.
  auto p = hsa_test::DispatchPacket(0xdead0, nullptr, 1, 1, done);
  hsa_test::Submit(q, &p);
  for (int i = 0; i < 1000 && seen.calls.load() == 0; ++i) usleep(1000);
  EXPECT_EQ(seen.calls.load(), 1);
  EXPECT_EQ(seen.status.load(), HSA_STATUS_ERROR_INVALID_PACKET_FORMAT);
  EXPECT_EQ(seen.queue.load(), q);
  EXPECT_EQ(hsa_signal_load_relaxed(done), 1);  // never completed
  hsa_queue_destroy(q);
  hsa_signal_destroy(done);
}

TEST_F(HsaTest, DispatchTimesAreInTheSystemDomain) {
  Load();
  hsa_queue_t* q = Queue();
  ASSERT_EQ(hsa_amd_profiling_set_profiler_enabled(q, 1), HSA_STATUS_SUCCESS);
  hsa_signal_t done = Signal(1);
  uint64_t before = 0, after = 0;
  hsa_system_get_info(HSA_SYSTEM_INFO_TIMESTAMP, &before);
  auto p = hsa_test::DispatchPacket(Kernel("empty"), nullptr, 1, 1, done);
  hsa_test::Submit(q, &p);
  Wait(done);
  hsa_system_get_info(HSA_SYSTEM_INFO_TIMESTAMP, &after);
  hsa_amd_profiling_dispatch_time_t t{};
  ASSERT_EQ(hsa_amd_profiling_get_dispatch_time(gpu_, done, &t),
            HSA_STATUS_SUCCESS);
  // Device ticks converted: within the host's own readings (the device clock
  // is coarser: allow one device tick, 4 system ticks, either side).
  EXPECT_GE(t.start + 4, before);
  EXPECT_LE(t.start, t.end);
  EXPECT_LE(t.end, after + 4);
  uint64_t sys = 0;
  ASSERT_EQ(
      hsa_amd_profiling_convert_tick_to_system_domain(gpu_, 25'000'000, &sys),
      HSA_STATUS_SUCCESS);
  uint64_t sys2 = 0;
  hsa_amd_profiling_convert_tick_to_system_domain(gpu_, 50'000'000, &sys2);
  EXPECT_EQ(sys2 - sys, 100'000'000u);  // one device second in system ticks
  hsa_queue_destroy(q);
  hsa_signal_destroy(done);
  hsa_test::Unload(&loaded_);
}

// --- executables and the loader extension -----------------------------------

TEST_F(HsaTest, ExecutableSymbols) {
  Load();
  std::vector<std::string> names;
  hsa_executable_iterate_agent_symbols(
      loaded_.executable, gpu_,
      [](hsa_executable_t, hsa_agent_t, hsa_executable_symbol_t s, void* d) {
        uint32_t len = 0;
        hsa_executable_symbol_get_info(
            s, HSA_EXECUTABLE_SYMBOL_INFO_NAME_LENGTH, &len);
        std::string name(len, '\0');
        hsa_executable_symbol_get_info(s, HSA_EXECUTABLE_SYMBOL_INFO_NAME,
                                       name.data());
        static_cast<std::vector<std::string>*>(d)->push_back(name);
        return HSA_STATUS_SUCCESS;
      },
      &names);
  std::sort(names.begin(), names.end());
  EXPECT_EQ(names,
            (std::vector<std::string>{"count_workgroups", "empty", "fill"}));
  hsa_executable_symbol_t sym;
  ASSERT_EQ(hsa_executable_get_symbol_by_name(loaded_.executable, "fill", &gpu_,
                                              &sym),
            HSA_STATUS_SUCCESS);
  uint32_t kernarg = 0, group = 0, priv = 0;
  hsa_symbol_kind_t kind{};
  hsa_executable_symbol_get_info(sym, HSA_EXECUTABLE_SYMBOL_INFO_TYPE, &kind);
  hsa_executable_symbol_get_info(
      sym, HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_KERNARG_SEGMENT_SIZE, &kernarg);
  hsa_executable_symbol_get_info(
      sym, HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_GROUP_SEGMENT_SIZE, &group);
  hsa_executable_symbol_get_info(
      sym, HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_PRIVATE_SEGMENT_SIZE, &priv);
  EXPECT_EQ(kind, HSA_SYMBOL_KIND_KERNEL);
  EXPECT_EQ(kernarg, sizeof(FillArgs));
  EXPECT_EQ(group, 256u);
  EXPECT_EQ(priv, 32u);
  hsa_executable_symbol_t kd;  // code object v3 spelling
  EXPECT_EQ(hsa_executable_get_symbol_by_name(loaded_.executable, "fill.kd",
                                              &gpu_, &kd),
            HSA_STATUS_SUCCESS);
  EXPECT_EQ(kd.handle, sym.handle);
  EXPECT_EQ(hsa_executable_get_symbol_by_name(loaded_.executable, "nope", &gpu_,
                                              &sym),
            HSA_STATUS_ERROR_INVALID_SYMBOL_NAME);
  // Frozen: no more code objects.
  EXPECT_EQ(hsa_executable_load_agent_code_object(
                loaded_.executable, gpu_, loaded_.reader, nullptr, nullptr),
            HSA_STATUS_ERROR_FROZEN_EXECUTABLE);
  hsa_executable_t exec = loaded_.executable;
  hsa_test::Unload(&loaded_);
  EXPECT_EQ(hsa_executable_destroy(exec), HSA_STATUS_ERROR_INVALID_EXECUTABLE);
}

TEST_F(HsaTest, LoadFromMemoryAndRejectNonCodeObjects) {
  std::ifstream f(kKernels, std::ios::binary);
  std::vector<char> bytes((std::istreambuf_iterator<char>(f)),
                          std::istreambuf_iterator<char>());
  ASSERT_FALSE(bytes.empty());
  hsa_code_object_reader_t reader;
  ASSERT_EQ(hsa_code_object_reader_create_from_memory(bytes.data(),
                                                      bytes.size(), &reader),
            HSA_STATUS_SUCCESS);
  hsa_executable_t exec;
  ASSERT_EQ(
      hsa_executable_create(HSA_PROFILE_FULL, HSA_EXECUTABLE_STATE_UNFROZEN,
                            nullptr, &exec),
      HSA_STATUS_SUCCESS);
  EXPECT_EQ(hsa_executable_load_agent_code_object(exec, gpu_, reader, nullptr,
                                                  nullptr),
            HSA_STATUS_SUCCESS);
  EXPECT_EQ(hsa_executable_load_agent_code_object(exec, cpus_[0], reader,
                                                  nullptr, nullptr),
            HSA_STATUS_ERROR_INVALID_AGENT);
  const char junk[] = "not an ELF file at all, not at all";
  hsa_code_object_reader_t bad;
  ASSERT_EQ(hsa_code_object_reader_create_from_memory(junk, sizeof(junk), &bad),
            HSA_STATUS_SUCCESS);
  EXPECT_EQ(
      hsa_executable_load_agent_code_object(exec, gpu_, bad, nullptr, nullptr),
      HSA_STATUS_ERROR_INVALID_CODE_OBJECT);
  EXPECT_NE(hsa_test::KernelObject(exec, gpu_, "empty"), 0u);
  EXPECT_EQ(hsa_executable_destroy(exec), HSA_STATUS_SUCCESS);
  EXPECT_EQ(hsa_code_object_reader_destroy(reader), HSA_STATUS_SUCCESS);
  EXPECT_EQ(hsa_code_object_reader_destroy(bad), HSA_STATUS_SUCCESS);
  EXPECT_EQ(hsa_code_object_reader_destroy(bad),
            HSA_STATUS_ERROR_INVALID_CODE_OBJECT_READER);
}

// What a tool does with a kernel object from a dispatch packet: find its
// executable, then the symbol whose kernel object it is, and its name.
TEST_F(HsaTest, LoaderExtensionMapsAKernelObjectToItsName) {
  Load();
  hsa_ven_amd_loader_1_01_pfn_t loader{};
  ASSERT_EQ(hsa_system_get_major_extension_table(HSA_EXTENSION_AMD_LOADER, 1,
                                                 sizeof(loader), &loader),
            HSA_STATUS_SUCCESS);
  uint64_t object = Kernel("fill");
  hsa_executable_t exec{0};
  ASSERT_EQ(loader.hsa_ven_amd_loader_query_executable(
                reinterpret_cast<const void*>(object), &exec),
            HSA_STATUS_SUCCESS);
  EXPECT_EQ(exec.handle, loaded_.executable.handle);
  // The kernel object is its descriptor's device address, which the host
  // cannot read (write() from it fails with EFAULT instead of crashing);
  // query_host_address gives the host copy: a code object v3 kernel
  // descriptor, its segment sizes and fill's declared registers encoded
  // for gfx90a (test_kernels.cc: 37 VGPRs, 10 AGPRs, 20 SGPRs: 40 + 10 in
  // blocks of 8 is field 6, ACCUM_OFFSET 40 / 4 - 1 = 9, SGPR field
  // 2 * (2 - 1) = 2).
  int pipe_fds[2];
  ASSERT_EQ(pipe(pipe_fds), 0);
  errno = 0;
  EXPECT_EQ(write(pipe_fds[1], reinterpret_cast<const void*>(object), 64), -1);
  EXPECT_EQ(errno, EFAULT);
  close(pipe_fds[0]);
  close(pipe_fds[1]);
  const void* host = nullptr;
  ASSERT_EQ(loader.hsa_ven_amd_loader_query_host_address(
                reinterpret_cast<const void*>(object), &host),
            HSA_STATUS_SUCCESS);
  ASSERT_NE(host, nullptr);
  EXPECT_NE(host, reinterpret_cast<const void*>(object));
  uint32_t fields[16];
  std::memcpy(fields, host, sizeof(fields));
  EXPECT_EQ(fields[0], 256u);                   // group_segment_fixed_size
  EXPECT_EQ(fields[1], 32u);                    // private_segment_fixed_size
  EXPECT_EQ(fields[2], sizeof(FillArgs));       // kernarg_size
  EXPECT_EQ(fields[11], 9u);                    // compute_pgm_rsrc3
  EXPECT_EQ(fields[12] & 0x3ff, 6u | 2u << 6);  // compute_pgm_rsrc1
  // Any address inside a loaded segment maps; others, and null arguments,
  // are invalid arguments, as in ROCR.
  const void* inside = nullptr;
  EXPECT_EQ(loader.hsa_ven_amd_loader_query_host_address(
                reinterpret_cast<const void*>(object + 12), &inside),
            HSA_STATUS_SUCCESS);
  EXPECT_EQ(inside, static_cast<const uint8_t*>(host) + 12);
  EXPECT_EQ(loader.hsa_ven_amd_loader_query_host_address(&inside, &inside),
            HSA_STATUS_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(loader.hsa_ven_amd_loader_query_host_address(nullptr, &inside),
            HSA_STATUS_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(loader.hsa_ven_amd_loader_query_host_address(
                reinterpret_cast<const void*>(object), nullptr),
            HSA_STATUS_ERROR_INVALID_ARGUMENT);
  struct Find {
    uint64_t object;
    std::string name;
  } find{object, {}};
  hsa_executable_iterate_symbols(
      exec,
      [](hsa_executable_t, hsa_executable_symbol_t s, void* d) {
        auto* f = static_cast<Find*>(d);
        uint64_t o = 0;
        hsa_executable_symbol_get_info(
            s, HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_OBJECT, &o);
        if (o != f->object) return HSA_STATUS_SUCCESS;
        uint32_t len = 0;
        hsa_executable_symbol_get_info(
            s, HSA_EXECUTABLE_SYMBOL_INFO_NAME_LENGTH, &len);
        f->name.resize(len);
        hsa_executable_symbol_get_info(s, HSA_EXECUTABLE_SYMBOL_INFO_NAME,
                                       f->name.data());
        return HSA_STATUS_INFO_BREAK;
      },
      &find);
  EXPECT_EQ(find.name, "fill");

  size_t count = 0;
  ASSERT_EQ(
      loader.hsa_ven_amd_loader_query_segment_descriptors(nullptr, &count),
      HSA_STATUS_SUCCESS);
  ASSERT_EQ(count, 1u);
  hsa_ven_amd_loader_segment_descriptor_t d{};
  ASSERT_EQ(loader.hsa_ven_amd_loader_query_segment_descriptors(&d, &count),
            HSA_STATUS_SUCCESS);
  EXPECT_EQ(d.executable.handle, exec.handle);
  EXPECT_LE(reinterpret_cast<uintptr_t>(d.segment_base), object);
  EXPECT_LT(object,
            reinterpret_cast<uintptr_t>(d.segment_base) + d.segment_size);

  std::vector<hsa_loaded_code_object_t> lcos;
  loader.hsa_ven_amd_loader_executable_iterate_loaded_code_objects(
      exec,
      [](hsa_executable_t, hsa_loaded_code_object_t l, void* v) {
        static_cast<std::vector<hsa_loaded_code_object_t>*>(v)->push_back(l);
        return HSA_STATUS_SUCCESS;
      },
      &lcos);
  ASSERT_EQ(lcos.size(), 1u);
  uint32_t uri_len = 0;
  loader.hsa_ven_amd_loader_loaded_code_object_get_info(
      lcos[0], HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_INFO_URI_LENGTH, &uri_len);
  std::string uri(uri_len, '\0');
  loader.hsa_ven_amd_loader_loaded_code_object_get_info(
      lcos[0], HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_INFO_URI, uri.data());
  EXPECT_EQ(uri.rfind("file://", 0), 0u) << uri;
  EXPECT_NE(uri.find("libtest_kernels.so"), std::string::npos) << uri;

  hsa_test::Unload(&loaded_);
  EXPECT_EQ(loader.hsa_ven_amd_loader_query_executable(
                reinterpret_cast<const void*>(object), &exec),
            HSA_STATUS_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(loader.hsa_ven_amd_loader_query_host_address(
                reinterpret_cast<const void*>(object), &host),
            HSA_STATUS_ERROR_INVALID_ARGUMENT);
}

// --- copies ------------------------------------------------------------------

TEST_F(HsaTest, AsyncCopyWaitsForItsDependencies) {
  constexpr size_t kSize = 1 << 16;
  auto* src = static_cast<uint8_t*>(Alloc(kSize));
  void* dst = nullptr;
  ASSERT_EQ(
      hsa_amd_memory_pool_allocate(hsa_test::Pools(gpu_)[0], kSize, 0, &dst),
      HSA_STATUS_SUCCESS);
  for (size_t i = 0; i < kSize; ++i) src[i] = static_cast<uint8_t>(i * 7);
  hsa_signal_t dep = Signal(1), done = Signal(1);
  ASSERT_EQ(hsa_amd_profiling_async_copy_enable(true), HSA_STATUS_SUCCESS);
  ASSERT_EQ(
      hsa_amd_memory_async_copy(dst, gpu_, src, cpus_[0], kSize, 1, &dep, done),
      HSA_STATUS_SUCCESS);
  usleep(10000);
  EXPECT_EQ(hsa_signal_load_relaxed(done), 1);
  uint64_t before = 0, after = 0;
  hsa_system_get_info(HSA_SYSTEM_INFO_TIMESTAMP, &before);
  hsa_signal_store_screlease(dep, 0);
  Wait(done);
  hsa_system_get_info(HSA_SYSTEM_INFO_TIMESTAMP, &after);
  EXPECT_EQ(memcmp(dst, src, kSize), 0);
  hsa_amd_profiling_async_copy_time_t t{};
  ASSERT_EQ(hsa_amd_profiling_get_async_copy_time(done, &t),
            HSA_STATUS_SUCCESS);
  EXPECT_GE(t.start + 4, before);
  EXPECT_LE(t.start, t.end);
  EXPECT_LE(t.end, after + 4);
  EXPECT_EQ(hsa_amd_memory_async_copy(dst, gpu_, src, cpus_[0], kSize, 0,
                                      nullptr, hsa_signal_t{0}),
            HSA_STATUS_ERROR_INVALID_SIGNAL);
  hsa_amd_memory_pool_free(dst);
  hsa_signal_destroy(dep);
  hsa_signal_destroy(done);
}

// The thread id of the runtime thread named `name`; 0 when there is none.
pid_t ThreadNamed(const std::string& name) {
  DIR* dir = opendir("/proc/self/task");
  pid_t found = 0;
  while (dirent* e = dir ? readdir(dir) : nullptr) {
    std::ifstream comm(std::string("/proc/self/task/") + e->d_name + "/comm");
    std::string line;
    if (std::getline(comm, line) && line == name) found = atoi(e->d_name);
  }
  if (dir) closedir(dir);
  return found;
}

// ROCR's waits spin while a GPU's copy engine works beside them; here the
// engine is a thread, which a spinning waiter can keep off its CPU. A waiter
// then does the engine's next copy itself: with the engine thread on the
// waiter's CPU and at SCHED_IDLE (so it does not run while the waiter
// spins), a short wait, as HIP's active waits for the copy before are,
// still sees each copy complete.
TEST_F(HsaTest, AWaiterRunsTheCopyTheEngineCannotRun) {
  constexpr int kCopies = 20;
  auto* src = static_cast<uint8_t*>(Alloc(64));
  auto* dst = static_cast<uint8_t*>(Alloc(64 * kCopies));
  for (int i = 0; i < 64; ++i) src[i] = static_cast<uint8_t>(i + 1);
  uint64_t hz = 0;
  ASSERT_EQ(hsa_system_get_info(HSA_SYSTEM_INFO_TIMESTAMP_FREQUENCY, &hz),
            HSA_STATUS_SUCCESS);
  const uint64_t timeout_20us = hz / 50000;
  hsa_signal_t done = Signal(1);
  // The engine thread starts at the first copy.
  ASSERT_EQ(
      hsa_amd_memory_async_copy(dst, gpu_, src, gpu_, 64, 0, nullptr, done),
      HSA_STATUS_SUCCESS);
  Wait(done);
  // It names itself once running (this thread may have run the copy).
  pid_t engine = 0;
  for (int i = 0; i < 2000 && engine == 0; ++i) {
    engine = ThreadNamed("softhsa-copy");
    if (engine == 0) usleep(1000);
  }
  ASSERT_NE(engine, 0);
  std::vector<hsa_signal_value_t> seen;
  std::thread waiter([&] {
    cpu_set_t one;
    CPU_ZERO(&one);
    CPU_SET(sched_getcpu(), &one);
    ASSERT_EQ(sched_setaffinity(0, sizeof(one), &one), 0);
    ASSERT_EQ(sched_setaffinity(engine, sizeof(one), &one), 0);
    sched_param idle{};
    ASSERT_EQ(sched_setscheduler(engine, SCHED_IDLE, &idle), 0);
    usleep(20000);  // the engine moved and back asleep
    for (int i = 0; i < kCopies; ++i) {
      hsa_signal_store_relaxed(done, 1);
      ASSERT_EQ(hsa_amd_memory_async_copy(dst + 64 * i, gpu_, src, gpu_, 64, 0,
                                          nullptr, done),
                HSA_STATUS_SUCCESS);
      seen.push_back(hsa_signal_wait_scacquire(done, HSA_SIGNAL_CONDITION_EQ, 0,
                                               timeout_20us,
                                               HSA_WAIT_STATE_ACTIVE));
      Wait(done);  // when the short wait gave up: the engine runs once
                   // this thread sleeps
    }
  });
  waiter.join();
  EXPECT_EQ(seen, std::vector<hsa_signal_value_t>(kCopies, 0));
  for (int i = 0; i < kCopies; ++i) {
    EXPECT_EQ(memcmp(dst + 64 * i, src, 64), 0) << "copy " << i;
  }
  hsa_signal_destroy(done);
}

TEST_F(HsaTest, RectCopy) {
  // A 3x2x2 box out of a 8-byte pitch, 32-byte slice source.
  auto* src = static_cast<uint8_t*>(Alloc(64));
  auto* dst = static_cast<uint8_t*>(Alloc(64));
  for (int i = 0; i < 64; ++i) src[i] = static_cast<uint8_t>(i);
  memset(dst, 0xff, 64);
  hsa_pitched_ptr_t s{src, 8, 32}, d{dst, 4, 8};
  hsa_dim3_t soff{1, 1, 0}, doff{0, 0, 0}, range{3, 2, 2};
  hsa_signal_t done = Signal(1);
  ASSERT_EQ(hsa_amd_memory_async_copy_rect(&d, &doff, &s, &soff, &range, gpu_,
                                           hsaHostToHost, 0, nullptr, done),
            HSA_STATUS_SUCCESS);
  Wait(done);
  for (uint32_t z = 0; z < 2; ++z) {
    for (uint32_t y = 0; y < 2; ++y) {
      for (uint32_t x = 0; x < 3; ++x) {
        EXPECT_EQ(dst[z * 8 + y * 4 + x], src[z * 32 + (y + 1) * 8 + x + 1]);
      }
      EXPECT_EQ(dst[z * 8 + y * 4 + 3], 0xff);
    }
  }
  hsa_signal_destroy(done);
}

// As ROCR (5.2 through 7.x): a copy of 0 bytes is accepted and does
// nothing, its completion signal included (a tool cannot chain one to
// complete a signal). An invalid signal is still refused.
TEST_F(HsaTest, EmptyCopyIsAcceptedAndSignalsNothing) {
  auto* src = static_cast<uint8_t*>(Alloc(64));
  auto* dst = static_cast<uint8_t*>(Alloc(64));
  hsa_signal_t dep = Signal(0), done = Signal(1);
  ASSERT_EQ(hsa_amd_memory_async_copy(dst, gpu_, src, gpu_, 0, 1, &dep, done),
            HSA_STATUS_SUCCESS);
  usleep(20000);
  EXPECT_EQ(hsa_signal_load_relaxed(done), 1);
  EXPECT_EQ(hsa_amd_memory_async_copy(dst, gpu_, src, gpu_, 0, 0, nullptr,
                                      hsa_signal_t{0}),
            HSA_STATUS_ERROR_INVALID_SIGNAL);
  hsa_signal_destroy(dep);
  hsa_signal_destroy(done);
}

}  // namespace
