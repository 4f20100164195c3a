// softhsa loads AMDGPU code objects as ROCR does (symbols, kernel
// descriptors where the compiler put them, variables) and runs each kernel's
// host twin: a GPU compiler's output (hipcc --cuda-device-only) is loaded
// through the executable API and dispatched.
#include <gtest/gtest.h>
#include <hsa/hsa.h>
#include <hsa/hsa_ext_amd.h>
#include <hsa/hsa_ven_amd_loader.h>

#include <cstring>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "tests/softhsa/hsa_test_util.h"

// The twin of `scale` (float* data, float factor, int n: kernarg offsets 0,
// 8, 12), found among the test's exported symbols (-rdynamic).
extern "C" void softhsa_twin_scale(const void* kernarg,
                                   const hsa_kernel_dispatch_packet_t* packet,
                                   uint32_t wx, uint32_t, uint32_t) {
  float* data;
  float factor;
  int n;
  memcpy(&data, kernarg, 8);
  memcpy(&factor, static_cast<const char*>(kernarg) + 8, 4);
  memcpy(&n, static_cast<const char*>(kernarg) + 12, 4);
  for (uint32_t l = 0; l < packet->workgroup_size_x; ++l) {
    int i = static_cast<int>(wx * packet->workgroup_size_x + l);
    if (i < n) data[i] *= factor;
  }
}

namespace {

constexpr char kCodeObject[] = "tests/realhip/kernels_gfx90a.co";

class AmdgpuCodeObjectTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_EQ(hsa_init(), HSA_STATUS_SUCCESS);
    gpu_ = hsa_test::Agents(HSA_DEVICE_TYPE_GPU)[0];
    kernarg_ = hsa_test::KernargPool();
    ASSERT_EQ(hsa_test::LoadFile(kCodeObject, gpu_, &loaded_),
              HSA_STATUS_SUCCESS);
  }
  void TearDown() override {
    hsa_test::Unload(&loaded_);
    EXPECT_EQ(hsa_shut_down(), HSA_STATUS_SUCCESS);
  }
  hsa_executable_symbol_t Symbol(const char* name) {
    hsa_executable_symbol_t s{0};
    EXPECT_EQ(
        hsa_executable_get_symbol_by_name(loaded_.executable, name, &gpu_, &s),
        HSA_STATUS_SUCCESS)
        << name;
    return s;
  }
  uint32_t Info32(hsa_executable_symbol_t s, hsa_executable_symbol_info_t a) {
    uint32_t v = ~0u;
    EXPECT_EQ(hsa_executable_symbol_get_info(s, a, &v), HSA_STATUS_SUCCESS);
    return v;
  }
  // Dispatches `object` over `grid` work-items and waits for it.
  void Run(uint64_t object, void* kernarg, uint32_t grid, uint16_t wg) {
    hsa_queue_t* q = nullptr;
    ASSERT_EQ(hsa_queue_create(gpu_, 64, HSA_QUEUE_TYPE_MULTI, nullptr, nullptr,
                               0, 0, &q),
              HSA_STATUS_SUCCESS);
    hsa_signal_t done;
    ASSERT_EQ(hsa_signal_create(1, 0, nullptr, &done), HSA_STATUS_SUCCESS);
    auto p = hsa_test::DispatchPacket(object, kernarg, grid, wg, done);
    hsa_test::Submit(q, &p);
    EXPECT_EQ(hsa_signal_wait_scacquire(done, HSA_SIGNAL_CONDITION_EQ, 0,
                                        UINT64_MAX, HSA_WAIT_STATE_BLOCKED),
              0);
    hsa_signal_destroy(done);
    hsa_queue_destroy(q);
  }

  hsa_agent_t gpu_{0};
  hsa_amd_memory_pool_t kernarg_{0};
  hsa_test::Loaded loaded_;
};

// Kernels are named by their descriptors ("f.kd"), as ROCR names them for
// code object v3+; the sizes are the descriptor's, which the compiler wrote
// (scale: 16 bytes of arguments, no LDS, no scratch).
TEST_F(AmdgpuCodeObjectTest, KernelSymbolsAreTheCompilersDescriptors) {
  hsa_executable_symbol_t s = Symbol("scale.kd");
  hsa_symbol_kind_t kind{};
  hsa_executable_symbol_get_info(s, HSA_EXECUTABLE_SYMBOL_INFO_TYPE, &kind);
  EXPECT_EQ(kind, HSA_SYMBOL_KIND_KERNEL);
  uint32_t length = Info32(s, HSA_EXECUTABLE_SYMBOL_INFO_NAME_LENGTH);
  std::string name(length, '\0');
  hsa_executable_symbol_get_info(s, HSA_EXECUTABLE_SYMBOL_INFO_NAME,
                                 name.data());
  EXPECT_EQ(name, "scale.kd");
  EXPECT_EQ(Info32(s, HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_KERNARG_SEGMENT_SIZE),
            16u);
  EXPECT_EQ(Info32(s, HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_GROUP_SEGMENT_SIZE),
            0u);
  EXPECT_EQ(Info32(s, HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_PRIVATE_SEGMENT_SIZE),
            0u);
  uint64_t object = 0;
  hsa_executable_symbol_get_info(s, HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_OBJECT,
                                 &object);
  ASSERT_NE(object, 0u);
  // The descriptor a tool reads through the loader extension is the
  // compiler's: kernarg_size at offset 8, and the code entry offset (at 16)
  // points back into the loaded image, at the kernel's code.
  hsa_ven_amd_loader_1_01_pfn_t loader{};
  ASSERT_EQ(
      hsa_system_get_extension_table(HSA_EXTENSION_AMD_LOADER, 1, 1, &loader),
      HSA_STATUS_SUCCESS);
  const void* host = nullptr;
  ASSERT_EQ(loader.hsa_ven_amd_loader_query_host_address(
                reinterpret_cast<const void*>(object), &host),
            HSA_STATUS_SUCCESS);
  uint32_t kernarg_size = 0;
  int64_t entry = 0;
  memcpy(&kernarg_size, static_cast<const char*>(host) + 8, 4);
  memcpy(&entry, static_cast<const char*>(host) + 16, 8);
  EXPECT_EQ(kernarg_size, 16u);
  EXPECT_GT(entry, 0);
  hsa_executable_t owner{0};
  ASSERT_EQ(loader.hsa_ven_amd_loader_query_executable(
                reinterpret_cast<const void*>(object), &owner),
            HSA_STATUS_SUCCESS);
  EXPECT_EQ(owner.handle, loaded_.executable.handle);
  // A C++ kernel keeps its mangled name; the name without ".kd" is not a
  // symbol of an AMDGPU code object.
  Symbol("_Z9untwinnedPi.kd");
  hsa_executable_symbol_t none;
  EXPECT_EQ(hsa_executable_get_symbol_by_name(loaded_.executable, "scale",
                                              &gpu_, &none),
            HSA_STATUS_ERROR_INVALID_SYMBOL_NAME);
}

TEST_F(AmdgpuCodeObjectTest, DeviceVariablesHaveAnAddressAndASize) {
  hsa_executable_symbol_t s = Symbol("table");
  hsa_symbol_kind_t kind{};
  hsa_executable_symbol_get_info(s, HSA_EXECUTABLE_SYMBOL_INFO_TYPE, &kind);
  EXPECT_EQ(kind, HSA_SYMBOL_KIND_VARIABLE);
  EXPECT_EQ(Info32(s, HSA_EXECUTABLE_SYMBOL_INFO_VARIABLE_SIZE), 16u);
  uint64_t address = 0;
  ASSERT_EQ(hsa_executable_symbol_get_info(
                s, HSA_EXECUTABLE_SYMBOL_INFO_VARIABLE_ADDRESS, &address),
            HSA_STATUS_SUCCESS);
  ASSERT_NE(address, 0u);
  int values[4] = {1, 2, 3, 4}, back[4] = {};
  // HIP writes __device__ variables with copies: the address is memory.
  ASSERT_EQ(hsa_memory_copy(reinterpret_cast<void*>(address), values, 16),
            HSA_STATUS_SUCCESS);
  ASSERT_EQ(hsa_memory_copy(back, reinterpret_cast<void*>(address), 16),
            HSA_STATUS_SUCCESS);
  EXPECT_EQ(back[3], 4);
  uint64_t object = 0;
  EXPECT_EQ(hsa_executable_symbol_get_info(
                s, HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_OBJECT, &object),
            HSA_STATUS_ERROR_INVALID_ARGUMENT);
}

TEST_F(AmdgpuCodeObjectTest, ADispatchRunsTheKernelsHostTwin) {
  constexpr int kN = 1000;
  void* mem = nullptr;
  ASSERT_EQ(hsa_amd_memory_pool_allocate(kernarg_, kN * sizeof(float), 0, &mem),
            HSA_STATUS_SUCCESS);
  auto* data = static_cast<float*>(mem);
  for (int i = 0; i < kN; ++i) data[i] = static_cast<float>(i);
  void* kernarg = nullptr;
  ASSERT_EQ(hsa_amd_memory_pool_allocate(kernarg_, 16, 0, &kernarg),
            HSA_STATUS_SUCCESS);
  float factor = 3;
  int n = kN;
  memcpy(kernarg, &data, 8);
  memcpy(static_cast<char*>(kernarg) + 8, &factor, 4);
  memcpy(static_cast<char*>(kernarg) + 12, &n, 4);
  Run(hsa_test::KernelObject(loaded_.executable, gpu_, "scale.kd"), kernarg,
      1024, 256);
  EXPECT_EQ(data[0], 0.0f);
  EXPECT_EQ(data[1], 3.0f);
  EXPECT_EQ(data[kN - 1], 3.0f * (kN - 1));
  hsa_amd_memory_pool_free(kernarg);
  hsa_amd_memory_pool_free(mem);
}

// Without a twin a kernel completes without running, reported once.
TEST_F(AmdgpuCodeObjectTest, AKernelWithoutATwinCompletesAndIsReportedOnce) {
  int out[64] = {};
  void* kernarg = nullptr;
  ASSERT_EQ(hsa_amd_memory_pool_allocate(kernarg_, 8, 0, &kernarg),
            HSA_STATUS_SUCCESS);
  int* p = out;
  memcpy(kernarg, &p, 8);
  uint64_t object =
      hsa_test::KernelObject(loaded_.executable, gpu_, "_Z9untwinnedPi.kd");
  testing::internal::CaptureStderr();
  Run(object, kernarg, 64, 64);
  Run(object, kernarg, 64, 64);
  std::string err = testing::internal::GetCapturedStderr();
  EXPECT_EQ(out[0], 0);
  const std::string line = "kernel _Z9untwinnedPi has no host twin";
  size_t at = err.find(line);
  ASSERT_NE(at, std::string::npos) << err;
  EXPECT_EQ(err.find(line, at + 1), std::string::npos) << err;
  hsa_amd_memory_pool_free(kernarg);
  // The last hsa_shut_down reports the count (and starts it again).
  hsa_test::Unload(&loaded_);
  testing::internal::CaptureStderr();
  ASSERT_EQ(hsa_shut_down(), HSA_STATUS_SUCCESS);
  err = testing::internal::GetCapturedStderr();
  EXPECT_NE(err.find("kernel _Z9untwinnedPi: 2 dispatches completed without "
                     "running (no host twin)"),
            std::string::npos)
      << err;
  ASSERT_EQ(hsa_init(), HSA_STATUS_SUCCESS);  // for TearDown's shut-down
}

// A damaged code object is refused whole, never half loaded.
TEST_F(AmdgpuCodeObjectTest, TruncatedCodeObjectsAreInvalid) {
  std::ifstream f(kCodeObject, std::ios::binary);
  std::vector<char> bytes((std::istreambuf_iterator<char>(f)),
                          std::istreambuf_iterator<char>());
  ASSERT_GT(bytes.size(), 1000u);
  for (size_t size :
       {size_t{64}, size_t{200}, bytes.size() / 2, bytes.size() - 1}) {
    hsa_code_object_reader_t reader;
    ASSERT_EQ(
        hsa_code_object_reader_create_from_memory(bytes.data(), size, &reader),
        HSA_STATUS_SUCCESS);
    hsa_executable_t exec;
    ASSERT_EQ(hsa_executable_create_alt(HSA_PROFILE_FULL,
                                        HSA_DEFAULT_FLOAT_ROUNDING_MODE_DEFAULT,
                                        nullptr, &exec),
              HSA_STATUS_SUCCESS);
    EXPECT_EQ(hsa_executable_load_agent_code_object(exec, gpu_, reader, nullptr,
                                                    nullptr),
              HSA_STATUS_ERROR_INVALID_CODE_OBJECT)
        << size;
    hsa_executable_symbol_t none;
    EXPECT_EQ(hsa_executable_get_symbol_by_name(exec, "scale.kd", &gpu_, &none),
              HSA_STATUS_ERROR_INVALID_SYMBOL_NAME);
    hsa_executable_destroy(exec);
    hsa_code_object_reader_destroy(reader);
  }
}

}  // namespace
