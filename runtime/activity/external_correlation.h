// The per-thread stack of external correlation IDs
// (roctracer_activity_push/pop_external_correlation_id).
#ifndef RUNTIME_ACTIVITY_EXTERNAL_CORRELATION_H_
#define RUNTIME_ACTIVITY_EXTERNAL_CORRELATION_H_

#include <cstdint>

#include "runtime/platform/hot_tls.h"

namespace roctracer::activity {

namespace external_correlation_internal {
// This thread's stack: its depth and its top (0 when empty); the IDs below
// the top are in external_correlation.cc. Initial-exec (hot_tls.h), so the
// check every API activity record makes is one %fs-relative load, inline.
ROCTRACER_HOT_TLS_EXTERN uint32_t t_depth;
ROCTRACER_HOT_TLS_EXTERN uint64_t t_top;
}  // namespace external_correlation_internal

// False when this thread's stack cannot grow (out of memory).
bool PushExternalId(uint64_t id) noexcept;
// False when this thread's stack is empty.
bool PopExternalId(uint64_t* id) noexcept;
// Top of this thread's stack; false when empty. Inline: checked on every API
// activity record.
inline bool TopExternalId(uint64_t* id) noexcept {
  if (__builtin_expect(external_correlation_internal::t_depth == 0, 1)) {
    return false;
  }
  *id = external_correlation_internal::t_top;
  return true;
}

}  // namespace roctracer::activity

#endif  // RUNTIME_ACTIVITY_EXTERNAL_CORRELATION_H_
