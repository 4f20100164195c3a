/* Flags of the HSA runtime's scratch-memory allocations (SCRATCH_MEMORY
 * records). C99 and C++. */
#ifndef ROCPROFILER_SDK_HSA_SCRATCH_MEMORY_ID_H_
#define ROCPROFILER_SDK_HSA_SCRATCH_MEMORY_ID_H_

typedef enum rocprofiler_scratch_alloc_flag_t {
  ROCPROFILER_SCRATCH_ALLOC_FLAG_NONE = 0,
  ROCPROFILER_SCRATCH_ALLOC_FLAG_USE_ONCE = (1 << 0),
  ROCPROFILER_SCRATCH_ALLOC_FLAG_ALT = (1 << 1)
} rocprofiler_scratch_alloc_flag_t;

#endif /* ROCPROFILER_SDK_HSA_SCRATCH_MEMORY_ID_H_ */
