// The GOT patcher (runtime/linking/got_patch.h) against the loader: threads
// dlopen, look up and dlclose plugins while other threads look up symbols
// (each lookup rescans, through the patcher's dlsym hook) and enable and
// disable a HIP callback (each enable rescans). A scan that wrote into an
// object ld.so had listed but not finished relocating corrupted a lazily
// bound slot (ld.so then added its base to our stub's address) or made its
// RELRO pages read-only under ld.so's writes: the process died of SIGSEGV.
// Here every plugin call must return HIP's own text, and a plugin loaded
// during the race must still be traced once looked up.
//
// Bounded: 3000 load cycles, or fewer if the time budget below runs out
// first (the sanitizer builds are slower); the cycles done are printed.
#include <dlfcn.h>
#include <gtest/gtest.h>
#include <hip/hip_runtime_api.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <thread>
#include <vector>

#include "hip_api_id.h"
#include "roctracer.h"
#include "roctracer_hip.h"
#include "runtime/linking/got_patch.h"

// Under ThreadSanitizer: the dynamic loader's own bookkeeping (its
// allocations in dlopen and dlclose, made under a lock of ld.so's that TSan
// does not see) shows as races between the test's loading threads. They are
// ld.so's, not the tracer's: ignored where a frame is in ld.so.
extern "C" const char* __tsan_default_suppressions() {
  return "race:ld-linux-x86-64.so.2\n";
}

namespace {

constexpr const char* kPlugins[] = {
    "tests/intercept/libgot_race_plugin_lazy.so",
    "tests/intercept/libgot_race_plugin_now.so",
    "tests/intercept/libgot_race_plugin_lazy_b.so",
    "tests/intercept/libgot_race_plugin_now_b.so",
};
constexpr const char* kLookup = "tests/intercept/libgot_race_lookup.so";
constexpr int kLoaders = 2;
constexpr int kCyclesPerLoader = 1500;
constexpr auto kBudget = std::chrono::seconds(25);

using LookupFn = void* (*)(void*, const char*);
using ErrorStringFn = const char* (*)(int);

std::atomic<int> g_traced{0};

void CountCall(uint32_t, uint32_t, const void* data, void*) {
  const auto* d = static_cast<const hip_api_data_t*>(data);
  if (d->phase == ACTIVITY_API_PHASE_ENTER) g_traced.fetch_add(1);
}

const char* RealErrorString(int e) {
  void* hip = dlopen("libamdhip64.so.5", RTLD_NOW | RTLD_NOLOAD);
  auto fn = reinterpret_cast<const char* (*)(hipError_t)>(
      dlsym(hip, "hipGetErrorString"));
  return fn(static_cast<hipError_t>(e));
}

class GotLoaderRaceTest : public ::testing::Test {
 protected:
  void SetUp() override {
    roctracer::got::Arm();  // as libroctracer64.so does at load
    lookup_lib_ = dlopen(kLookup, RTLD_NOW | RTLD_LOCAL);
    ASSERT_NE(nullptr, lookup_lib_) << dlerror();
    lookup_ = reinterpret_cast<LookupFn>(dlsym(lookup_lib_, "race_lookup"));
    ASSERT_NE(nullptr, lookup_);
    roctracer::got::RescanIfChanged();  // hooks the lookup library's dlsym
  }
  void TearDown() override {
    roctracer_disable_op_callback(ACTIVITY_DOMAIN_HIP_API,
                                  HIP_API_ID_hipGetErrorString);
    if (lookup_lib_ != nullptr) dlclose(lookup_lib_);
  }
  void* lookup_lib_ = nullptr;
  LookupFn lookup_ = nullptr;
};

TEST_F(GotLoaderRaceTest, LoadsLookupsAndEnablesNeverCorruptASlot) {
  const char* expected = RealErrorString(1);
  const auto deadline = std::chrono::steady_clock::now() + kBudget;
  std::atomic<int> loaders_left{kLoaders};
  std::atomic<int> cycles{0}, wrong{0}, failed_loads{0};

  std::vector<std::thread> threads;
  for (int t = 0; t < kLoaders; ++t) {
    threads.emplace_back([&, t] {
      for (int i = 0;
           i < kCyclesPerLoader && std::chrono::steady_clock::now() < deadline;
           ++i) {
        const char* path = kPlugins[(i + t) % 4];
        void* h = dlopen(path, RTLD_LAZY | RTLD_LOCAL);
        if (h == nullptr) {
          failed_loads.fetch_add(1);
          continue;
        }
        auto fn =
            reinterpret_cast<ErrorStringFn>(lookup_(h, "plugin_error_string"));
        if (fn == nullptr || std::strcmp(fn(1), expected) != 0)
          wrong.fetch_add(1);
        dlclose(h);
        cycles.fetch_add(1);
      }
      loaders_left.fetch_sub(1);
    });
  }
  // Lookups from another object: each one rescans first.
  threads.emplace_back([&] {
    while (loaders_left.load() > 0) {
      if (lookup_(RTLD_DEFAULT, "hipGetErrorString") == nullptr)
        wrong.fetch_add(1);
    }
  });
  // Enables: each enable after a disable rescans too.
  threads.emplace_back([&] {
    while (loaders_left.load() > 0) {
      roctracer_enable_op_callback(ACTIVITY_DOMAIN_HIP_API,
                                   HIP_API_ID_hipGetErrorString, CountCall,
                                   nullptr);
      roctracer_disable_op_callback(ACTIVITY_DOMAIN_HIP_API,
                                    HIP_API_ID_hipGetErrorString);
    }
  });
  for (auto& th : threads) th.join();

  std::printf("%d load cycles\n", cycles.load());
  EXPECT_EQ(0, failed_loads.load());
  EXPECT_EQ(0, wrong.load());
  EXPECT_GE(cycles.load(), 100) << "too few cycles to have raced";
}

TEST_F(GotLoaderRaceTest, APluginLoadedWhileOthersScanIsTracedOnceLookedUp) {
  std::atomic<bool> stop{false};
  std::thread scanner([&] {
    while (!stop.load()) lookup_(RTLD_DEFAULT, "hipGetErrorString");
  });
  void* h = dlopen(kPlugins[0], RTLD_LAZY | RTLD_LOCAL);
  ASSERT_NE(nullptr, h) << dlerror();
  auto fn = reinterpret_cast<ErrorStringFn>(lookup_(h, "plugin_error_string"));
  stop.store(true);
  scanner.join();
  ASSERT_NE(nullptr, fn);

  g_traced.store(0);
  ASSERT_EQ(ROCTRACER_STATUS_SUCCESS,
            roctracer_enable_op_callback(ACTIVITY_DOMAIN_HIP_API,
                                         HIP_API_ID_hipGetErrorString,
                                         CountCall, nullptr));
  EXPECT_STREQ(RealErrorString(2), fn(2));
  EXPECT_EQ(1, g_traced.load()) << "the plugin's call did not reach the stub";
  roctracer_disable_op_callback(ACTIVITY_DOMAIN_HIP_API,
                                HIP_API_ID_hipGetErrorString);
  dlclose(h);
}

}  // namespace
