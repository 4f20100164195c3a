// roctracer_op_string gives the names ROCm's roctracer gives: what a client
// prints for a record must not change when it switches libraries.
#include <dlfcn.h>
#include <gtest/gtest.h>
#include <roctracer.h>
#include <roctracer_ext.h>
#include <roctracer_hip.h>
#include <roctracer_hsa.h>

#include <string>

namespace {

TEST(OpNames, ExtApiOpsAreNamedExtApi) {
  EXPECT_STREQ(
      roctracer_op_string(ACTIVITY_DOMAIN_EXT_API, ACTIVITY_EXT_OP_MARK, 0),
      "EXT_API");
  EXPECT_STREQ(roctracer_op_string(ACTIVITY_DOMAIN_EXT_API,
                                   ACTIVITY_EXT_OP_EXTERN_ID, 0),
               "EXT_API");
  // roctracer_op_code still tells them apart (ROCm's rejects the domain).
  uint32_t op = 99;
  ASSERT_EQ(
      roctracer_op_code(ACTIVITY_DOMAIN_EXT_API, "EXTERN_ID", &op, nullptr),
      ROCTRACER_STATUS_SUCCESS);
  EXPECT_EQ(op, uint32_t{ACTIVITY_EXT_OP_EXTERN_ID});
  EXPECT_EQ(roctracer_op_string(ACTIVITY_DOMAIN_EXT_API, 2, 0), nullptr);
}

TEST(OpNames, HsaOps) {
  EXPECT_STREQ(
      roctracer_op_string(ACTIVITY_DOMAIN_HSA_OPS, HSA_OP_ID_DISPATCH, 0),
      "DISPATCH");
  EXPECT_STREQ(roctracer_op_string(ACTIVITY_DOMAIN_HSA_OPS, HSA_OP_ID_COPY, 0),
               "COPY");
  EXPECT_STREQ(
      roctracer_op_string(ACTIVITY_DOMAIN_HSA_OPS, HSA_OP_ID_BARRIER, 0),
      "BARRIER");
  EXPECT_STREQ(
      roctracer_op_string(ACTIVITY_DOMAIN_HSA_OPS, HSA_OP_ID_RESERVED1, 0),
      "PCSAMPLE");
}

TEST(OpNames, HsaEvents) {
  const char* expected[] = {"ALLOCATE", "DEVICE",  "MEMCOPY",
                            "SUBMIT",   "KSYMBOL", "CODEOBJ"};
  for (uint32_t op = 0; op < HSA_EVT_ID_NUMBER; ++op) {
    EXPECT_STREQ(roctracer_op_string(ACTIVITY_DOMAIN_HSA_EVT, op, 0),
                 expected[op]);
  }
}

TEST(OpNames, HipOpsAreNamedByCommandKind) {
  EXPECT_STREQ(
      roctracer_op_string(ACTIVITY_DOMAIN_HIP_OPS, HIP_OP_ID_DISPATCH, 0x11F0),
      "KernelExecution");
  EXPECT_STREQ(
      roctracer_op_string(ACTIVITY_DOMAIN_HIP_OPS, HIP_OP_ID_COPY, 0x11F4),
      "CopyHostToDevice");
  EXPECT_STREQ(
      roctracer_op_string(ACTIVITY_DOMAIN_HIP_OPS, HIP_OP_ID_COPY, 0x1207),
      "FillBuffer");
  EXPECT_STREQ(
      roctracer_op_string(ACTIVITY_DOMAIN_HIP_OPS, HIP_OP_ID_BARRIER, 0x11FE),
      "Marker");
  EXPECT_STREQ(roctracer_op_string(ACTIVITY_DOMAIN_HIP_OPS, HIP_OP_ID_COPY, 0),
               "InternalMarker");
  EXPECT_STREQ(
      roctracer_op_string(ACTIVITY_DOMAIN_HIP_OPS, HIP_OP_ID_COPY, 0xFFFFFFFFu),
      "Unknown command type");
  // The op is still checked.
  EXPECT_EQ(
      roctracer_op_string(ACTIVITY_DOMAIN_HIP_OPS, HIP_OP_ID_NUMBER, 0x11F0),
      nullptr);
}

// Our table against the installed HIP's own hipGetCmdName, every kind up to
// well past the last CL_COMMAND_* value. A HIP upgrade that adds a command
// type fails here until the table learns it.
TEST(OpNames, HipOpsMatchTheInstalledHip) {
  void* hip = dlopen("libamdhip64.so.5", RTLD_NOW | RTLD_LOCAL);
  if (hip == nullptr) hip = dlopen("libamdhip64.so", RTLD_NOW | RTLD_LOCAL);
  if (hip == nullptr) GTEST_SKIP() << "libamdhip64 not loadable: " << dlerror();
  using CmdNameFn = const char* (*)(unsigned);
  auto hip_name = reinterpret_cast<CmdNameFn>(dlsym(hip, "hipGetCmdName"));
  ASSERT_NE(hip_name, nullptr);
  int mismatches = 0;
  for (uint32_t kind = 0; kind < 0x20000 && mismatches < 5; ++kind) {
    const char* theirs = hip_name(kind);
    const char* ours =
        roctracer_op_string(ACTIVITY_DOMAIN_HIP_OPS, HIP_OP_ID_COPY, kind);
    ASSERT_NE(ours, nullptr);
    if (theirs == nullptr || std::string(theirs) != ours) {
      ++mismatches;
      ADD_FAILURE() << "kind " << kind << ": HIP says "
                    << (theirs ? theirs : "(null)") << ", we say " << ours;
    }
  }
  // HIP stays loaded: dlclose of libamdhip64 is not supported by HIP itself.
}

}  // namespace
