// roctracer_hsa.h and roctracer_hip.h compile against the installed ROCm
// headers (with stand-ins for the generated ID/data headers) and keep 4.1's
// values. Replace the stand-ins with the generator's headers at merge.
#include <roctracer/roctracer_hip.h>
#include <roctracer_hsa.h>

static_assert(HSA_OP_ID_COPY == 1 && HSA_OP_ID_NUMBER == 4, "hsa_op_id_t");
static_assert(HSA_EVT_ID_CODEOBJ == 5 && HSA_EVT_ID_NUMBER == 6,
              "hsa_evt_id_t");
static_assert(HIP_OP_ID_BARRIER == 2 && HIP_OP_ID_NUMBER == 3, "hip_op_id_t");
static_assert(sizeof(hsa_ops_properties_t) == 4 * sizeof(void*), "");

int main() {
  hsa_evt_data_t evt{};
  evt.codeobj.uri_length = 3;
  return evt.codeobj.uri_length == 3 ? 0 : 1;
}
