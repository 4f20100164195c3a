/* Stand-in for the generator's hip_api_id.h (see hsa_api_id.h). */
#ifndef FAKE_HIP_API_ID_H_
#define FAKE_HIP_API_ID_H_
enum hip_api_id_t { HIP_API_ID_hipMalloc = 0, HIP_API_ID_NUMBER = 1 };
#endif
