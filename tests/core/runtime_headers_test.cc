// roctracer_hsa.h and roctracer_hip.h compile against the installed ROCm
// headers and the generated ID/data headers, and keep 4.1's values and the
// IDs existing roctracer users compiled against.
#include <roctracer/roctracer_hip.h>
#include <roctracer_hsa.h>

#include <cstddef>

static_assert(HSA_OP_ID_COPY == 1 && HSA_OP_ID_NUMBER == 4, "hsa_op_id_t");
static_assert(HSA_EVT_ID_CODEOBJ == 5 && HSA_EVT_ID_NUMBER == 6,
              "hsa_evt_id_t");
static_assert(HIP_OP_ID_BARRIER == 2 && HIP_OP_ID_NUMBER == 3, "hip_op_id_t");
static_assert(sizeof(hsa_ops_properties_t) == 4 * sizeof(void*), "");
// HSA IDs are ROCm 5.2.3's table order; HIP IDs are HIP's own hip_prof_str.h.
static_assert(HSA_API_ID_hsa_init == 0, "first CoreApi slot");
static_assert(HIP_API_ID_hipMalloc == 108, "hip_prof_str.h value");
static_assert(offsetof(hsa_api_data_t, correlation_id) == 0, "");
static_assert(offsetof(hip_api_data_t, correlation_id) == 0, "");

int main() {
  hsa_evt_data_t evt{};
  evt.codeobj.uri_length = 3;
  return evt.codeobj.uri_length == 3 ? 0 : 1;
}
