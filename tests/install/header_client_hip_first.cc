// Built by install_test.sh like header_client.cc, with HIP's own
// hip/amd_detail/hip_prof_str.h included before ours: its enum, record and
// helpers are the definitions, and ours add no second one.
#include <hip/hip_runtime_api.h>
// HIP's record needs HIP's API header before it.
#include <hip/amd_detail/hip_prof_str.h>
// Ours after it.
#include <roctracer_hip.h>
#include <roctracer_hsa.h>

#include <cstdio>
#include <cstring>

int main() {
  int failures = 0;
  hip_api_data_t data{};
  data.args.hipMalloc.size = 7;
  failures += data.args.hipMalloc.size != 7;
  failures += std::strcmp(hip_api_name(HIP_API_ID_hipMalloc), "hipMalloc");
  failures += hipApiIdByName("hipMalloc") != HIP_API_ID_hipMalloc;
  failures += std::strcmp(
      roctracer_op_string(ACTIVITY_DOMAIN_HIP_API, HIP_API_ID_hipMalloc, 0),
      "hipMalloc");
  std::printf("header_client_hip_first: %d failures\n", failures);
  return failures == 0 ? 0 : 1;
}
