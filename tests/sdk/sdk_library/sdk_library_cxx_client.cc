// A C++ client of librocprofiler-sdk.so.1 using the header-only helpers, as
// Kineto's rocprofiler-sdk backend does: kind/operation names, agent IDs as
// unordered_map keys; join for log lines, as the SDK's samples do.
#include <rocprofiler-sdk/rocprofiler.h>

#include <cstdio>
#include <cstring>
#include <rocprofiler-sdk/cxx/details/join.hpp>
#include <rocprofiler-sdk/cxx/hash.hpp>
#include <rocprofiler-sdk/cxx/name_info.hpp>
#include <rocprofiler-sdk/cxx/operators.hpp>
#include <string>
#include <unordered_map>
#include <vector>

int main() {
  int failures = 0;
  auto check = [&failures](bool ok, const char* what) {
    std::printf("%s: %s\n", ok ? "ok" : "FAILED", what);
    failures += ok ? 0 : 1;
  };
  const auto cb = rocprofiler::sdk::get_callback_tracing_names();
  const auto buf = rocprofiler::sdk::get_buffer_tracing_names();
  check(std::string(cb[ROCPROFILER_CALLBACK_TRACING_HIP_RUNTIME_API].name) ==
            "HIP_RUNTIME_API",
        "callback kind name");
  check(std::string(cb[ROCPROFILER_CALLBACK_TRACING_HSA_CORE_API]
                        .operations[ROCPROFILER_HSA_CORE_API_ID_hsa_init]) ==
            "hsa_init",
        "callback operation name");
  check(std::string(buf[ROCPROFILER_BUFFER_TRACING_KERNEL_DISPATCH].name) ==
            "KERNEL_DISPATCH",
        "buffer kind name");
  std::unordered_map<rocprofiler_agent_id_t, int> agents;
  agents[rocprofiler_agent_id_t{1}] = 1;
  check(agents.count(rocprofiler_agent_id_t{1}) == 1, "agent IDs as keys");
  check(rocprofiler::sdk::join::join(
            ", ", cb[ROCPROFILER_CALLBACK_TRACING_HSA_CORE_API].name,
            std::vector<int>{1, 2}) == "HSA_CORE_API, [1, 2]",
        "join");
  return failures == 0 ? 0 : 1;
}
