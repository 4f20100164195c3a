// The GOT patcher (runtime/linking/got_patch.h) against a library dlopen'ed
// after the process started: its calls are redirected to the stubs only after a
// rescan, RestoreAll puts them back, an unloaded library is forgotten, and
// calls made while another thread patches and restores always reach the
// runtime. The stubs and the patcher are linked into this test binary (the
// patcher skips the object it lives in, as in libroctracer64.so).
#include "runtime/linking/got_patch.h"

#include <dlfcn.h>
#include <gtest/gtest.h>
#include <hip/hip_runtime_api.h>

#include <atomic>
#include <cstring>
#include <thread>

#include "hip_api_id.h"
#include "runtime/intercept/api_hook.h"
#include "tests/codegen/hook_recorder.h"

namespace {

constexpr const char* kTarget = "tests/intercept/libgot_patch_target.so";
using ErrorStringFn = const char* (*)(int);

int TracedHipCalls() {
  int n = 0;
  for (const auto& c : hook_recorder::Take())
    n += c.enter && c.domain == roctracer::hook::kDomainHipApi &&
         c.op == HIP_API_ID_hipGetErrorString;
  return n;
}

const char* RealErrorString(int e) {
  void* hip = dlopen("libamdhip64.so.5", RTLD_NOW | RTLD_NOLOAD);
  auto fn = reinterpret_cast<const char* (*)(hipError_t)>(
      dlsym(hip, "hipGetErrorString"));
  return fn(static_cast<hipError_t>(e));
}

// Declared first so that it runs before any fixture arms the patcher: a
// process that links the patcher without libroctracer64.so's load-time step
// (the runtime's unit tests) keeps its GOT whatever rescans are asked for.
TEST(GotPatchUnarmed, RescansPatchNothingUntilArmed) {
  void* lib = dlopen(kTarget, RTLD_NOW | RTLD_LOCAL);
  ASSERT_NE(nullptr, lib) << dlerror();
  auto fn = reinterpret_cast<ErrorStringFn>(dlsym(lib, "target_error_string"));
  ASSERT_NE(nullptr, fn);
  hook_recorder::SetActive(roctracer::hook::kDomainHipApi,
                           HIP_API_ID_hipGetErrorString, true);
  hook_recorder::Take();

  roctracer::got::RescanIfChanged();
  EXPECT_EQ(0u, roctracer::got::GetStats().scans);
  EXPECT_EQ(0u, roctracer::got::GetStats().slots_patched);
  EXPECT_STREQ(RealErrorString(2), fn(2));
  EXPECT_EQ(0, TracedHipCalls());

  roctracer::got::Arm();
  roctracer::got::RescanIfChanged();
  EXPECT_GT(roctracer::got::GetStats().slots_patched, 0u);
  EXPECT_STREQ(RealErrorString(2), fn(2));
  EXPECT_EQ(1, TracedHipCalls());

  hook_recorder::DisableAll();
  dlclose(lib);
  roctracer::got::RescanIfChanged();
}

class GotPatchTest : public ::testing::Test {
 protected:
  void SetUp() override {
    roctracer::got::Arm();  // as libroctracer64.so does at load
    roctracer::got::RescanIfChanged();
    lib_ = dlopen(kTarget, RTLD_NOW | RTLD_LOCAL);
    ASSERT_NE(nullptr, lib_) << dlerror();
    fn_ = reinterpret_cast<ErrorStringFn>(dlsym(lib_, "target_error_string"));
    ASSERT_NE(nullptr, fn_);
    hook_recorder::SetActive(roctracer::hook::kDomainHipApi,
                             HIP_API_ID_hipGetErrorString, true);
    hook_recorder::Take();
  }
  void TearDown() override {
    hook_recorder::DisableAll();
    if (lib_ != nullptr) dlclose(lib_);
    roctracer::got::RescanIfChanged();
  }
  void* lib_ = nullptr;
  ErrorStringFn fn_ = nullptr;
};

TEST_F(GotPatchTest, LibraryLoadedLaterIsTracedAfterARescan) {
  EXPECT_STREQ(RealErrorString(1), fn_(1));
  EXPECT_EQ(0, TracedHipCalls()) << "not patched yet: straight to HIP";

  const size_t before = roctracer::got::GetStats().slots_patched;
  roctracer::got::RescanIfChanged();
  EXPECT_GT(roctracer::got::GetStats().slots_patched, before);
  EXPECT_STREQ(RealErrorString(1), fn_(1));
  EXPECT_EQ(1, TracedHipCalls());
}

TEST_F(GotPatchTest, RestoreAllPutsTheOriginalsBack) {
  roctracer::got::RescanIfChanged();
  roctracer::got::RestoreAll();
  EXPECT_EQ(0u, roctracer::got::GetStats().slots_patched);
  EXPECT_STREQ(RealErrorString(2), fn_(2));
  EXPECT_EQ(0, TracedHipCalls());

  roctracer::got::RescanIfChanged();  // everything is scanned afresh
  EXPECT_STREQ(RealErrorString(2), fn_(2));
  EXPECT_EQ(1, TracedHipCalls());
}

TEST_F(GotPatchTest, UnloadedLibraryIsForgottenAndALaterLoadPatched) {
  roctracer::got::RescanIfChanged();
  const size_t objects = roctracer::got::GetStats().objects_scanned;
  ASSERT_EQ(0, dlclose(lib_));
  lib_ = nullptr;
  roctracer::got::RescanIfChanged();
  EXPECT_LT(roctracer::got::GetStats().objects_scanned, objects);

  lib_ = dlopen(kTarget, RTLD_NOW | RTLD_LOCAL);
  ASSERT_NE(nullptr, lib_);
  fn_ = reinterpret_cast<ErrorStringFn>(dlsym(lib_, "target_error_string"));
  roctracer::got::RescanIfChanged();
  EXPECT_STREQ(RealErrorString(3), fn_(3));
  EXPECT_EQ(1, TracedHipCalls());
}

TEST_F(GotPatchTest, CallsWhilePatchingAndRestoringReachTheRuntime) {
  hook_recorder::DisableAll();  // only the slot's value changes under calls
  const char* expected = RealErrorString(1);
  std::atomic<bool> stop{false};
  std::atomic<int> wrong{0};
  std::thread caller([&] {
    while (!stop.load(std::memory_order_relaxed)) {
      if (std::strcmp(fn_(1), expected) != 0) wrong.fetch_add(1);
    }
  });
  for (int i = 0; i < 200; ++i) {
    roctracer::got::RescanIfChanged();
    roctracer::got::RestoreAll();
  }
  stop.store(true);
  caller.join();
  EXPECT_EQ(0, wrong.load());
}

}  // namespace
