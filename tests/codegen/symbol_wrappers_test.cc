// Generated C-symbol wrappers linked into this test binary interpose the real
// libhsa-runtime64 / libamdhip64 functions: they must forward to
// the real definitions (dlsym RTLD_NEXT) with arguments and results intact, and
// report Enter/Exit only for enabled ops.
#include <dlfcn.h>
#include <gtest/gtest.h>
#include <hip/hip_runtime_api.h>
#include <hsa/hsa.h>

#include "hip_api_id.h"
#include "hsa_api_id.h"
#include "runtime/intercept/api_hook.h"
#include "tests/codegen/hook_recorder.h"

namespace {

using roctracer::hook::kDomainHipApi;
using roctracer::hook::kDomainHsaApi;

// The library's own definition of `name`, bypassing this binary's wrapper.
template <class Fn>
Fn Real(const char* library, const char* name) {
  void* handle = dlopen(library, RTLD_NOW | RTLD_NOLOAD);
  EXPECT_NE(nullptr, handle) << library;
  void* p = handle ? dlsym(handle, name) : nullptr;
  EXPECT_NE(nullptr, p) << name;
  return reinterpret_cast<Fn>(p);
}

constexpr const char* kHsa = "libhsa-runtime64.so.1";
constexpr const char* kHip = "libamdhip64.so.5";

class SymbolWrappersTest : public ::testing::Test {
 protected:
  void SetUp() override {
    hook_recorder::DisableAll();
    hook_recorder::Take();
  }
  void TearDown() override { hook_recorder::DisableAll(); }
};

TEST_F(SymbolWrappersTest, WrappersInterposeTheLibraries) {
  auto real = Real<const char* (*)(hipError_t)>(kHip, "hipGetErrorString");
  EXPECT_NE(reinterpret_cast<void*>(real),
            reinterpret_cast<void*>(&hipGetErrorString));
  auto real_hsa = Real<hsa_status_t (*)(hsa_status_t, const char**)>(
      kHsa, "hsa_status_string");
  EXPECT_NE(reinterpret_cast<void*>(real_hsa),
            reinterpret_cast<void*>(&hsa_status_string));
}

TEST_F(SymbolWrappersTest, HsaForwardsArgumentsAndResults) {
  auto real = Real<hsa_status_t (*)(hsa_status_t, const char**)>(
      kHsa, "hsa_status_string");
  for (hsa_status_t s : {HSA_STATUS_SUCCESS, HSA_STATUS_ERROR_INVALID_ARGUMENT,
                         HSA_STATUS_ERROR_OUT_OF_RESOURCES}) {
    const char* want = nullptr;
    const char* got = nullptr;
    EXPECT_EQ(real(s, &want), hsa_status_string(s, &got));
    EXPECT_EQ(want, got);  // the very same string the library returns
    EXPECT_NE(nullptr, got);
  }
  EXPECT_TRUE(hook_recorder::Take().empty());
}

TEST_F(SymbolWrappersTest, HsaActiveOpReportsArgsAndResult) {
  hook_recorder::SetActive(kDomainHsaApi, HSA_API_ID_hsa_status_string, true);
  const char* got = nullptr;
  const hsa_status_t status =
      hsa_status_string(HSA_STATUS_ERROR_INVALID_QUEUE, &got);
  auto calls = hook_recorder::Take();
  ASSERT_EQ(2u, calls.size());
  EXPECT_TRUE(calls[0].enter);
  EXPECT_EQ(kDomainHsaApi, calls[0].domain);
  EXPECT_EQ(static_cast<uint32_t>(HSA_API_ID_hsa_status_string), calls[0].op);
  EXPECT_EQ(HSA_STATUS_ERROR_INVALID_QUEUE,
            calls[0].hsa_data().args.hsa_status_string.status);
  EXPECT_EQ(&got, calls[0].hsa_data().args.hsa_status_string.status_string);
  EXPECT_FALSE(calls[1].enter);
  EXPECT_EQ(status, calls[1].hsa_data().hsa_status_t_retval);
}

TEST_F(SymbolWrappersTest, HipForwardsArgumentsAndResults) {
  auto real_string =
      Real<const char* (*)(hipError_t)>(kHip, "hipGetErrorString");
  EXPECT_EQ(real_string(hipErrorInvalidValue),
            hipGetErrorString(hipErrorInvalidValue));
  EXPECT_EQ(real_string(hipErrorOutOfMemory),
            hipGetErrorString(hipErrorOutOfMemory));

  auto real_version = Real<hipError_t (*)(int*)>(kHip, "hipRuntimeGetVersion");
  int want = -1, got = -2;
  EXPECT_EQ(real_version(&want), hipRuntimeGetVersion(&got));
  EXPECT_EQ(want, got);

  auto real_count = Real<hipError_t (*)(int*)>(kHip, "hipGetDeviceCount");
  int want_count = -1, got_count = -2;
  EXPECT_EQ(real_count(&want_count), hipGetDeviceCount(&got_count));
  EXPECT_EQ(want_count, got_count);
}

TEST_F(SymbolWrappersTest, HipActiveOpReportsArgsAndResult) {
  hook_recorder::SetActive(kDomainHipApi, HIP_API_ID_hipGetErrorString, true);
  const char* text = hipGetErrorString(hipErrorNotReady);
  auto calls = hook_recorder::Take();
  ASSERT_EQ(2u, calls.size());
  EXPECT_EQ(kDomainHipApi, calls[0].domain);
  EXPECT_EQ(static_cast<uint32_t>(HIP_API_ID_hipGetErrorString), calls[0].op);
  EXPECT_EQ(hipErrorNotReady,
            calls[0].hip_data().args.hipGetErrorString.hipError);
  EXPECT_FALSE(calls[1].enter);
  EXPECT_EQ(text, calls[1].hip_data().const_char_ptr_retval);

  // A disabled op right after is not reported.
  hook_recorder::SetActive(kDomainHipApi, HIP_API_ID_hipGetErrorString, false);
  hipGetErrorString(hipErrorNotReady);
  EXPECT_TRUE(hook_recorder::Take().empty());
}

}  // namespace
