/* Stand-in for the generator's hip_api_data.h (see hsa_api_id.h). */
#ifndef FAKE_HIP_API_DATA_H_
#define FAKE_HIP_API_DATA_H_
#include <stdint.h>
typedef struct {
  uint64_t correlation_id;
  uint32_t phase;
} hip_api_data_t;
#endif
