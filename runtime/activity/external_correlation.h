// The per-thread stack of external correlation IDs
// (roctracer_activity_push/pop_external_correlation_id).
#ifndef RUNTIME_ACTIVITY_EXTERNAL_CORRELATION_H_
#define RUNTIME_ACTIVITY_EXTERNAL_CORRELATION_H_

#include <cstdint>

namespace roctracer {

// False when this thread's stack cannot grow (out of memory).
bool PushExternalId(uint64_t id) noexcept;
// False when this thread's stack is empty.
bool PopExternalId(uint64_t* id) noexcept;
// Top of this thread's stack; false when empty. Cheap: checked on every API
// activity record.
bool TopExternalId(uint64_t* id) noexcept;

}  // namespace roctracer

#endif  // RUNTIME_ACTIVITY_EXTERNAL_CORRELATION_H_
