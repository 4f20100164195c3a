// A rocprofiler-sdk tool as the SDK's samples and Kineto write one, built
// by install_test.sh with the system g++, -I<prefix>/include only (no
// include/roctracer), and linked with a RUNPATH to <prefix>/lib only (no
// LD_LIBRARY_PATH). It uses what they use: the C++ helpers (name_info by
// kind and operation, version.hpp, the triplet operators), assert and printf
// with no header of their own (rocprofiler-sdk's headers bring them), and
// rocprofiler_at_internal_thread_create.
#include <rocprofiler-sdk/registration.h>
#include <rocprofiler-sdk/rocprofiler.h>

#include <rocprofiler-sdk/cxx/name_info.hpp>
#include <rocprofiler-sdk/cxx/operators.hpp>
#include <rocprofiler-sdk/cxx/version.hpp>
#include <string_view>

namespace {

int g_failures = 0;
int g_thread_notes = 0;
uint32_t g_version = 0;

void Check(bool ok, const char* what) {
  if (!ok) {
    printf("FAIL: %s\n", what);
    ++g_failures;
  }
}

void Note(rocprofiler_runtime_library_t, void*) { ++g_thread_notes; }

void Deliver(rocprofiler_context_id_t, rocprofiler_buffer_id_t,
             rocprofiler_record_header_t**, size_t, void*, uint64_t) {}

int Init(rocprofiler_client_finalize_t, void*) {
  rocprofiler_context_id_t ctx{0};
  rocprofiler_buffer_id_t buffer{0};
  assert(rocprofiler_create_context(&ctx) == ROCPROFILER_STATUS_SUCCESS);
  Check(rocprofiler_create_buffer(
            ctx, 4096, 1024, ROCPROFILER_BUFFER_POLICY_LOSSLESS, &Deliver,
            nullptr, &buffer) == ROCPROFILER_STATUS_SUCCESS,
        "create_buffer");
  return 0;
}

rocprofiler_tool_configure_result_t* Configure(uint32_t version, const char*,
                                               uint32_t,
                                               rocprofiler_client_id_t* id) {
  id->name = "sdk_tool_client";
  g_version = version;
  Check(rocprofiler_at_internal_thread_create(&Note, &Note, ROCPROFILER_LIBRARY,
                                              nullptr) ==
            ROCPROFILER_STATUS_SUCCESS,
        "at_internal_thread_create");
  static rocprofiler_tool_configure_result_t result{
      sizeof(rocprofiler_tool_configure_result_t), &Init, nullptr, nullptr};
  return &result;
}

}  // namespace

int main() {
  Check(rocprofiler_force_configure(&Configure) == ROCPROFILER_STATUS_SUCCESS,
        "force_configure");
  // A buffer's delivery thread, announced before and after.
  Check(g_thread_notes == 2, "internal thread notifications");

  rocprofiler_version_triplet_t runtime{};
  rocprofiler_get_version_triplet(&runtime);
  Check(
      rocprofiler::sdk::version::compute_version_triplet(g_version) == runtime,
      "compute_version_triplet");
  Check(runtime != rocprofiler_version_triplet_t{0, 9, 0} &&
            rocprofiler_version_triplet_t{0, 9, 0} < runtime,
        "triplet operators");

  const auto names = rocprofiler::sdk::get_callback_tracing_names();
  const std::string_view kind =
      names.at(ROCPROFILER_CALLBACK_TRACING_MARKER_CORE_API);
  Check(kind == "MARKER_CORE_API", "kind name");
  Check(names[ROCPROFILER_CALLBACK_TRACING_MARKER_CORE_API]
             [ROCPROFILER_MARKER_CORE_API_ID_roctxRangePushA] ==
            "roctxRangePushA",
        "operation name by index");
  Check(names.at(ROCPROFILER_CALLBACK_TRACING_MARKER_CORE_API,
                 ROCPROFILER_MARKER_CORE_API_ID_roctxMarkA) == "roctxMarkA",
        "operation name by at()");
  size_t operations = 0;
  for (const auto& k : names) {
    for (auto [op, name] : k.items()) {
      Check(k[static_cast<size_t>(op)] == *name, "items()");
      ++operations;
    }
  }
  Check(operations > 100, "operations listed");
  const auto buffer_names = rocprofiler::sdk::get_buffer_tracing_names();
  Check(buffer_names.at(ROCPROFILER_BUFFER_TRACING_KERNEL_DISPATCH) ==
            "KERNEL_DISPATCH",
        "buffer kind name");

  printf("sdk_tool_client: %d failures\n", g_failures);
  return g_failures == 0 ? 0 : 1;
}
