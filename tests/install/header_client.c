/* Built by install_test.sh with the system gcc and its default flags: the
 * headers a C client of ROCm's roctracer includes compile as C. */
#include <roctracer_hip.h>
#include <roctracer_hsa.h>
#include <roctracer_plugin.h>
#include <stdio.h>
#include <string.h>

int main(void) {
  int failures = 0;
  hip_api_data_t hip;
  hsa_api_data_t hsa;
  roctracer_hip_api_cid_t cid = HIP_API_ID_hipMalloc;
  memset(&hip, 0, sizeof(hip));
  memset(&hsa, 0, sizeof(hsa));
  failures += strcmp(hip_api_name(cid), "hipMalloc") != 0;
  failures += hipApiIdByName("hipFree") != HIP_API_ID_hipFree;
  failures += hip.correlation_id != 0 || hsa.correlation_id != 0;
  failures += HSA_EVT_ID_CODEOBJ != 5;
  printf("header_client_c: %d failures\n", failures);
  return failures == 0 ? 0 : 1;
}
