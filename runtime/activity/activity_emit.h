// How the interception layer writes an API call's activity record: into the
// pools enabled for (domain, op) (the program's and the tool's,
// domain_registry.h), each copy preceded by an EXT_API record when the calling
// thread has an external correlation ID pushed.
#ifndef RUNTIME_ACTIVITY_EMIT_H_
#define RUNTIME_ACTIVITY_EMIT_H_

#include <roctracer.h>

#include <cstddef>

#include "runtime/activity/domain_registry.h"

namespace roctracer {

// Writes `record` (domain/op/correlation_id/timestamps/ids filled by the
// caller) to the pools of (record.domain, record.op), each after the EXT_API
// record {domain EXT_API, op ACTIVITY_EXT_OP_EXTERN_ID, correlation_id of
// `record`, external_id = top of this thread's stack} when that stack is not
// empty; the pair is written as one unit (delivered or dropped together).
// `text` (optional) is copied by the pool and becomes record.mark_message /
// kernel_name. Returns false when no pool took the record (none enabled,
// tracing stopped, or dropped).
bool EmitApiActivity(const activity_record_t& record,
                     const char* text = nullptr, size_t text_len = 0) noexcept;

// Same, into one pool the caller already looked up.
bool EmitApiActivityTo(Pool* pool, const activity_record_t& record,
                       const char* text = nullptr,
                       size_t text_len = 0) noexcept;
// Same, into the pools the caller already looked up with ActivityPoolsFor().
bool EmitApiActivityTo(const ActivityPools& pools,
                       const activity_record_t& record,
                       const char* text = nullptr,
                       size_t text_len = 0) noexcept;

// An instantaneous record (a marker: begin_ns == end_ns == now) of
// (domain, op) with `correlation_id`, this thread's IDs and a copy of
// `message` (NULL: none), written like EmitApiActivityTo.
bool EmitInstantActivityTo(const ActivityPools& pools, uint32_t domain,
                           uint32_t op, uint64_t correlation_id,
                           const char* message) noexcept;

}  // namespace roctracer

#endif  // RUNTIME_ACTIVITY_EMIT_H_
