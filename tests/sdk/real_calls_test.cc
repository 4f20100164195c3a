// The C sample tool traces real HSA and HIP calls: the generated symbol
// stubs linked into this binary interpose libhsa-runtime64 / libamdhip64 and
// reach the SDK through a test-only stand-in of the interception layer
// (fake_interception.cc). Return values are the real libraries'.
#include <dlfcn.h>
#include <hip/hip_runtime_api.h>
#include <hsa/hsa.h>

#include <string>

#include "gtest/gtest.h"
#include "tests/sdk/sample_tool.h"

namespace {

template <class Fn>
Fn Real(const char* library, const char* name) {
  void* handle = dlopen(library, RTLD_NOW | RTLD_NOLOAD);
  return reinterpret_cast<Fn>(handle ? dlsym(handle, name) : nullptr);
}

TEST(RealCalls, HsaCallWithTheLibrarysReturnCode) {
  ASSERT_EQ(sample_tool_seen.initialized, 1);
  auto real = Real<hsa_status_t (*)(hsa_system_info_t, void*)>(
      "libhsa-runtime64.so.1", "hsa_system_get_info");
  ASSERT_NE(real, nullptr);
  ASSERT_NE(reinterpret_cast<void*>(real),
            reinterpret_cast<void*>(&hsa_system_get_info));
  uint64_t ts = 0;
  const hsa_status_t expected = real(HSA_SYSTEM_INFO_TIMESTAMP, &ts);
  const int before = sample_tool_seen.exits;
  const hsa_status_t rc = hsa_system_get_info(HSA_SYSTEM_INFO_TIMESTAMP, &ts);
  EXPECT_EQ(rc, expected);
  EXPECT_EQ(sample_tool_seen.exits, before + 1);
  EXPECT_EQ(sample_tool_seen.enters, sample_tool_seen.exits);
  EXPECT_STREQ(sample_tool_seen.last_kind, "HSA_CORE_API");
  EXPECT_STREQ(sample_tool_seen.last_op, "hsa_system_get_info");
  EXPECT_EQ(sample_tool_seen.last_hsa_status, rc);
  EXPECT_NE(sample_tool_seen.last_correlation_exit, 0u);
  EXPECT_EQ(sample_tool_seen.last_correlation_enter,
            sample_tool_seen.last_correlation_exit);
  EXPECT_EQ(sample_tool_seen.last_user_at_exit,
            sample_tool_seen.last_correlation_exit + 1);
  EXPECT_NE(std::string(sample_tool_seen.last_args)
                .find("hsa_system_info_t attribute=HSA_SYSTEM_INFO_TIMESTAMP"),
            std::string::npos)
      << sample_tool_seen.last_args;
}

TEST(RealCalls, HsaStatusStringReturnsTheLibrarysString) {
  const char* text = nullptr;
  const hsa_status_t rc = hsa_status_string(HSA_STATUS_ERROR, &text);
  EXPECT_EQ(rc, HSA_STATUS_SUCCESS);
  ASSERT_NE(text, nullptr);
  EXPECT_STREQ(sample_tool_seen.last_op, "hsa_status_string");
  EXPECT_EQ(sample_tool_seen.last_hsa_status, HSA_STATUS_SUCCESS);
  // At EXIT the out-parameter is followed: the tool printed the string.
  EXPECT_NE(std::string(sample_tool_seen.last_args).find(text),
            std::string::npos)
      << sample_tool_seen.last_args;
}

TEST(RealCalls, HipCallWithTheLibrarysReturnValue) {
  const uint64_t previous = sample_tool_seen.last_correlation_exit;
  const char* s = hipGetErrorString(hipErrorInvalidValue);
  ASSERT_NE(s, nullptr);
  EXPECT_STREQ(sample_tool_seen.last_kind, "HIP_RUNTIME_API");
  EXPECT_STREQ(sample_tool_seen.last_op, "hipGetErrorString");
  EXPECT_EQ(sample_tool_seen.last_hip_string_retval, s);
  EXPECT_GT(sample_tool_seen.last_correlation_exit, previous);
  EXPECT_NE(std::string(sample_tool_seen.last_args)
                .find("hipError=hipErrorInvalidValue"),
            std::string::npos)
      << sample_tool_seen.last_args;
}

}  // namespace
