/* What the C99 translation unit saw, for comparison with C++. */
#ifndef ROCTRACER_TESTS_CODEGEN_C99_HEADERS_H_
#define ROCTRACER_TESTS_CODEGEN_C99_HEADERS_H_

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

struct c_layout {
  size_t hsa_size, hsa_args_offset, hsa_phase_data_offset;
  size_t hip_size, hip_args_offset, hip_phase_data_offset;
  unsigned hsa_number, hip_number, hip_malloc;
  size_t kfd_size, kfd_phase_data_offset;
  unsigned kfd_number;
};

struct c_layout c99_layout(void);

#ifdef __cplusplus
}
#endif

#endif
