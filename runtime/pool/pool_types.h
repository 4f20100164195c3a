/* The roctracer 4.1 types the activity pool is defined in terms of: the
 * public headers, so the record layout has exactly one definition. */
#ifndef RUNTIME_POOL_POOL_TYPES_H_
#define RUNTIME_POOL_POOL_TYPES_H_

#include "ext/prof_protocol.h"
#include "roctracer.h"

#ifdef __cplusplus
static_assert(sizeof(activity_record_t) == 64,
              "activity_record_t must keep roctracer 4.1's 64-byte layout");
#else /* C99 has no static_assert: a negative array size fails instead. */
typedef char roctracer_pool_record_is_64_bytes[(sizeof(activity_record_t) == 64)
                                                   ? 1
                                                   : -1];
#endif

#endif /* RUNTIME_POOL_POOL_TYPES_H_ */
