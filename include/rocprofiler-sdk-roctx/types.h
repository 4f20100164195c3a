/* rocTX's data types as rocprofiler-sdk-roctx declares them. C99 and C++. */
#ifndef ROCPROFILER_SDK_ROCTX_TYPES_H_
#define ROCPROFILER_SDK_ROCTX_TYPES_H_

#include <stdint.h>

/* Also declared by roctx.h (see there). */
#ifndef ROCTX_RANGE_ID_T_DECLARED_
#define ROCTX_RANGE_ID_T_DECLARED_
typedef uint64_t roctx_range_id_t;
#endif

/* An OS thread, numbered as rocprofiler_get_thread_id numbers it (the
 * kernel's thread ID). */
typedef uint64_t roctx_thread_id_t;

#endif /* ROCPROFILER_SDK_ROCTX_TYPES_H_ */
