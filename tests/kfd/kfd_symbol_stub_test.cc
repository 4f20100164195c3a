// The generated hsaKmt* stubs linked into this test binary interpose the real
// libhsakmt (loaded as libhsa-runtime64's dependency): they forward to the
// real definition and report Enter/Exit only for enabled ops.
#include <dlfcn.h>
#include <gtest/gtest.h>

#include "kfd_api_data.h"
#include "kfd_api_id.h"
#include "runtime/intercept/api_hook.h"
#include "tests/codegen/hook_recorder.h"

namespace {

using roctracer::hook::kDomainKfdApi;

// The library's own definition of `name`, bypassing this binary's stub.
template <class Fn>
Fn Real(const char* library, const char* name) {
  void* handle = dlopen(library, RTLD_NOW | RTLD_NOLOAD);
  EXPECT_NE(nullptr, handle) << library;
  void* p = handle ? dlsym(handle, name) : nullptr;
  EXPECT_NE(nullptr, p) << name;
  return reinterpret_cast<Fn>(p);
}

class KfdSymbolStubTest : public ::testing::Test {
 protected:
  void SetUp() override {
    hook_recorder::DisableAll();
    hook_recorder::Take();
  }
  void TearDown() override { hook_recorder::DisableAll(); }
};

// libhsakmt's stubs: the real library answers (no /dev/kfd here: the
// driver-not-open status), through the stub the same as directly.
TEST_F(KfdSymbolStubTest, ActiveOpReportsArgsAndResult) {
  auto real = Real<HSAKMT_STATUS (*)(HsaVersionInfo*)>("libhsakmt.so.1",
                                                       "hsaKmtGetVersion");
  EXPECT_NE(reinterpret_cast<void*>(real),
            reinterpret_cast<void*>(&hsaKmtGetVersion));
  HsaVersionInfo want{}, got{};
  const HSAKMT_STATUS direct = real(&want);
  EXPECT_EQ(direct, hsaKmtGetVersion(&got));
  EXPECT_TRUE(hook_recorder::Take().empty());  // not enabled: not reported

  hook_recorder::SetActive(kDomainKfdApi, KFD_API_ID_hsaKmtGetVersion, true);
  const HSAKMT_STATUS status = hsaKmtGetVersion(&got);
  auto calls = hook_recorder::Take();
  EXPECT_EQ(direct, status);
  ASSERT_EQ(2u, calls.size());
  EXPECT_TRUE(calls[0].enter);
  EXPECT_EQ(kDomainKfdApi, calls[0].domain);
  EXPECT_EQ(static_cast<uint32_t>(KFD_API_ID_hsaKmtGetVersion), calls[0].op);
  EXPECT_EQ(&got, calls[0].kfd_data().args.hsaKmtGetVersion.VersionInfo);
  EXPECT_FALSE(calls[1].enter);
  EXPECT_EQ(status, calls[1].kfd_data().HSAKMT_STATUS_retval);
}

}  // namespace
