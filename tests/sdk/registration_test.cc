// Registration paths that end a process: each case runs in a fresh child
// (threadsafe death tests re-execute the binary), since registration happens
// once per process.
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "gtest/gtest.h"
#include "rocprofiler-sdk/rocprofiler.h"

namespace {

rocprofiler_context_id_t g_ctx;
rocprofiler_client_finalize_t g_fini = nullptr;
rocprofiler_client_id_t* g_client = nullptr;
int g_finalized = 0;
int g_configure_calls = 0;

rocprofiler_tool_configure_result_t* Configure(
    rocprofiler_tool_initialize_t init, uint32_t priority,
    rocprofiler_client_id_t* id) {
  static rocprofiler_tool_configure_result_t result;
  result.size = sizeof(result);
  result.initialize = init;
  result.finalize = [](void*) {
    std::fprintf(stderr, "finalize %d\n", ++g_finalized);
  };
  result.tool_data = nullptr;
  static rocprofiler_client_id_t saved{0, nullptr, 0};
  (void)priority;
  // rocprofiler-sdk 1.0.0's client ID starts with its size.
  if (id->size != sizeof(rocprofiler_client_id_t)) {
    std::fprintf(stderr, "client id size %zu\n", id->size);
    std::exit(2);
  }
  g_client = &saved;
  std::memcpy(static_cast<void*>(&saved), id, sizeof(saved));
  return &result;
}

int FailingInit(rocprofiler_client_finalize_t, void*) {
  rocprofiler_create_context(&g_ctx);
  rocprofiler_configure_callback_tracing_service(
      g_ctx, ROCPROFILER_CALLBACK_TRACING_HSA_CORE_API, nullptr, 0,
      [](rocprofiler_callback_tracing_record_t, rocprofiler_user_data_t*,
         void*) {},
      nullptr);
  return -1;
}

int GoodInit(rocprofiler_client_finalize_t fini, void*) {
  g_fini = fini;
  rocprofiler_create_context(&g_ctx);
  return rocprofiler_start_context(g_ctx) == ROCPROFILER_STATUS_SUCCESS ? 0
                                                                        : -1;
}

void Check(bool ok, const char* what) {
  if (!ok) {
    std::fprintf(stderr, "check failed: %s\n", what);
    std::exit(1);
  }
}

TEST(Registration, FailedInitializeInvalidatesItsContextsAndSkipsFinalize) {
  EXPECT_EXIT(
      {
        Check(rocprofiler_force_configure([](uint32_t, const char*, uint32_t p,
                                             rocprofiler_client_id_t* id) {
                return Configure(&FailingInit, p, id);
              }) == ROCPROFILER_STATUS_SUCCESS,
              "force_configure");
        int s = -1;
        Check(rocprofiler_context_is_valid(g_ctx, &s) ==
                      ROCPROFILER_STATUS_ERROR_CONTEXT_INVALID &&
                  s == 0,
              "is_valid");
        Check(rocprofiler_start_context(g_ctx) ==
                  ROCPROFILER_STATUS_ERROR_CONTEXT_INVALID,
              "start");
        std::fprintf(stderr, "checked\n");
        std::exit(0);
      },
      testing::ExitedWithCode(0), "^checked\n$");
}

TEST(Registration, ExplicitFinalizeRunsOnceAndStopsTheToolsContexts) {
  EXPECT_EXIT(
      {
        Check(rocprofiler_force_configure([](uint32_t, const char*, uint32_t p,
                                             rocprofiler_client_id_t* id) {
                return Configure(&GoodInit, p, id);
              }) == ROCPROFILER_STATUS_SUCCESS,
              "force_configure");
        int s = 0;
        Check(rocprofiler_context_is_active(g_ctx, &s) ==
                      ROCPROFILER_STATUS_SUCCESS &&
                  s == 1,
              "active");
        Check(g_fini != nullptr, "fini given");
        g_fini(*g_client);
        Check(rocprofiler_context_is_active(g_ctx, &s) ==
                      ROCPROFILER_STATUS_SUCCESS &&
                  s == 0,
              "stopped");
        g_fini(*g_client);  // a second explicit call does nothing
        std::fprintf(stderr, "explicit done\n");
        std::exit(0);  // and the exit handler does not finalize again
      },
      testing::ExitedWithCode(0), "^finalize 1\nexplicit done\n$");
}

TEST(Registration, FinalizeRunsAtExitAndIsFinalizedReportsIt) {
  EXPECT_EXIT(
      {
        rocprofiler_force_configure(
            [](uint32_t, const char*, uint32_t p, rocprofiler_client_id_t* id) {
              return Configure(&GoodInit, p, id);
            });
        int s = -1;
        rocprofiler_is_finalized(&s);
        Check(s == 0, "not finalized yet");
        std::exit(0);
      },
      testing::ExitedWithCode(0), "^finalize 1\n$");
}

TEST(Registration, DecliningToolLeavesRegistrationOpen) {
  EXPECT_EXIT(
      {
        Check(
            rocprofiler_force_configure([](uint32_t, const char*, uint32_t,
                                           rocprofiler_client_id_t*) {
              ++g_configure_calls;
              return static_cast<rocprofiler_tool_configure_result_t*>(nullptr);
            }) == ROCPROFILER_STATUS_SUCCESS,
            "declined");
        int s = -1;
        rocprofiler_is_initialized(&s);
        Check(s == 0 && g_configure_calls == 1, "still open");
        Check(rocprofiler_force_configure([](uint32_t, const char*, uint32_t p,
                                             rocprofiler_client_id_t* id) {
                return Configure(&GoodInit, p, id);
              }) == ROCPROFILER_STATUS_SUCCESS,
              "second registration");
        rocprofiler_is_initialized(&s);
        Check(s == 1, "initialized");
        std::fprintf(stderr, "ok\n");
        std::exit(0);
      },
      testing::ExitedWithCode(0), "^ok\nfinalize 1\n$");
}

}  // namespace

int main(int argc, char** argv) {
  testing::InitGoogleTest(&argc, argv);
  testing::GTEST_FLAG(death_test_style) = "threadsafe";
  return RUN_ALL_TESTS();
}
