/* The public generated headers, compiled as C99 with -Wall -Wextra -Werror. */
#include "c99_headers.h"

#include <stddef.h>

#include "hip_api_data.h"
#include "hip_api_id.h"
#include "hsa_api_data.h"
#include "hsa_api_id.h"
#include "kfd_api_data.h"
#include "kfd_api_id.h"

struct c_layout c99_layout(void) {
  struct c_layout l;
  hsa_api_data_t hsa;
  hip_api_data_t hip;
  hsa.args.hsa_agent_get_info.attribute = HSA_AGENT_INFO_NAME;
  hsa.hsa_status_t_retval = HSA_STATUS_SUCCESS;
  hip.args.hipMalloc.size = 3;
  hip.hipError_t_retval = hipSuccess;
  (void)hsa;
  (void)hip;
  l.hsa_size = sizeof(hsa_api_data_t);
  l.hsa_args_offset = offsetof(hsa_api_data_t, args);
  l.hsa_phase_data_offset = offsetof(hsa_api_data_t, phase_data);
  l.hip_size = sizeof(hip_api_data_t);
  l.hip_args_offset = offsetof(hip_api_data_t, args);
  l.hip_phase_data_offset = offsetof(hip_api_data_t, phase_data);
  l.hsa_number = HSA_API_ID_NUMBER;
  l.hip_number = HIP_API_ID_NUMBER;
  l.hip_malloc = HIP_API_ID_hipMalloc;
  l.kfd_size = sizeof(kfd_api_data_t);
  l.kfd_phase_data_offset = offsetof(kfd_api_data_t, phase_data);
  l.kfd_number = KFD_API_ID_NUMBER;
  return l;
}
