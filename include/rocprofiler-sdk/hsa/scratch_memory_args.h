/* What each HSA scratch-memory event carries (the `args` of a SCRATCH_MEMORY
 * callback payload): the member named after the event in the payload's
 * `args_kind`. C99 and C++. */
#ifndef ROCPROFILER_SDK_HSA_SCRATCH_MEMORY_ARGS_H_
#define ROCPROFILER_SDK_HSA_SCRATCH_MEMORY_ARGS_H_

#include <stddef.h>
#include <stdint.h>

#include "rocprofiler-sdk/defines.h"

ROCPROFILER_EXTERN_C_INIT

/* An event without data. One byte, so that C and C++ agree on its size (an
 * empty struct has size 0 in C and 1 in C++). */
typedef struct rocprofiler_scratch_memory_no_args {
  char empty;
} rocprofiler_scratch_memory_no_args;

typedef union rocprofiler_scratch_memory_args_t {
  /* ALLOC, phase ENTER: the dispatch that needs the memory. */
  struct {
    uint64_t dispatch_id;
  } alloc_start;
  /* ALLOC, phase EXIT: that dispatch, the bytes allocated and the number of
   * waves (slots) they cover. */
  struct {
    uint64_t dispatch_id;
    size_t size;
    size_t num_slots;
  } alloc_end;
  struct {
    rocprofiler_scratch_memory_no_args no_args;
  } free_start;
  struct {
    rocprofiler_scratch_memory_no_args no_args;
  } free_end;
  struct {
    rocprofiler_scratch_memory_no_args no_args;
  } async_reclaim_start;
  struct {
    rocprofiler_scratch_memory_no_args no_args;
  } async_reclaim_end;
} rocprofiler_scratch_memory_args_t;

ROCPROFILER_EXTERN_C_FINI

#endif /* ROCPROFILER_SDK_HSA_SCRATCH_MEMORY_ARGS_H_ */
