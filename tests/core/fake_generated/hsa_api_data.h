/* Stand-in for the generator's hsa_api_data.h (see hsa_api_id.h). */
#ifndef FAKE_HSA_API_DATA_H_
#define FAKE_HSA_API_DATA_H_
#include <stdint.h>
typedef struct {
  uint64_t correlation_id;
  uint32_t phase;
} hsa_api_data_t;
#endif
