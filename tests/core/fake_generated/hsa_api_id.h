/* Stand-in for the generator's hsa_api_id.h, only so roctracer_hsa.h can be
 * compile-checked before the generator is merged. */
#ifndef FAKE_HSA_API_ID_H_
#define FAKE_HSA_API_ID_H_
enum hsa_api_id_t { HSA_API_ID_hsa_init = 0, HSA_API_ID_NUMBER = 1 };
#endif
