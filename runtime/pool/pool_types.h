/* The roctracer 4.1 types the activity pool is defined in terms of.
 *
 * The public headers (include/roctracer.h, include/ext/prof_protocol.h)
 * define the very same types. Until the pool depends on them, this header
 * carries a private copy so the pool builds on its own. To switch over,
 * define ROCTRACER_POOL_USE_PUBLIC_HEADERS (or replace the #else branch
 * below by the two includes) and add the public header target to deps.
 * The copy also steps aside when it sees the public headers' include guards
 * (EXT_PROF_PROTOCOL_H_, ROCTRACER_H_) so both can meet in one translation
 * unit when the public headers are included first.
 *
 * Plain C on purpose: it must mean the same thing in C99 and C++. */
#ifndef RUNTIME_POOL_POOL_TYPES_H_
#define RUNTIME_POOL_POOL_TYPES_H_

#if defined(ROCTRACER_POOL_USE_PUBLIC_HEADERS)
#include "ext/prof_protocol.h"
#include "roctracer.h"
#else

#include <stddef.h>
#include <stdint.h>

#ifndef EXT_PROF_PROTOCOL_H_
/* 64 bytes; roctracer_next_record is `record + 1`. */
typedef struct activity_record_s {
  uint32_t domain;
  uint32_t kind;
  uint32_t op;
  union {
    struct {
      uint64_t correlation_id;
      uint64_t begin_ns;
      uint64_t end_ns;
    };
    struct {
      uint32_t se;
      uint64_t cycle;
      uint64_t pc;
    } pc_sample;
  };
  union {
    struct {
      int device_id;
      uint64_t queue_id;
    };
    struct {
      uint32_t process_id;
      uint32_t thread_id;
    };
    struct {
      uint64_t external_id;
    };
  };
  union {
    size_t bytes;
    const char* kernel_name;
    const char* mark_message;
  };
} activity_record_t;
#endif /* EXT_PROF_PROTOCOL_H_ */

#ifndef ROCTRACER_H_
/* *ptr == NULL: allocate size bytes into *ptr; *ptr != NULL and size != 0:
 * reallocate; size == 0: free *ptr. */
typedef void (*roctracer_allocator_t)(char** ptr, size_t size, void* arg);
typedef void (*roctracer_buffer_callback_t)(const char* begin, const char* end,
                                            void* arg);
typedef struct {
  uint32_t mode;
  size_t buffer_size;
  roctracer_allocator_t alloc_fun;
  void* alloc_arg;
  roctracer_buffer_callback_t buffer_callback_fun;
  void* buffer_callback_arg;
} roctracer_properties_t;
#endif /* ROCTRACER_H_ */

#endif /* ROCTRACER_POOL_USE_PUBLIC_HEADERS */

#ifdef __cplusplus
static_assert(sizeof(activity_record_t) == 64,
              "activity_record_t must keep roctracer 4.1's 64-byte layout");
#else /* C99 has no static_assert: a negative array size fails instead. */
typedef char roctracer_pool_record_is_64_bytes[(sizeof(activity_record_t) == 64)
                                                   ? 1
                                                   : -1];
#endif

#endif /* RUNTIME_POOL_POOL_TYPES_H_ */
