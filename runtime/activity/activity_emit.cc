#include "runtime/activity/activity_emit.h"

#include <roctracer_ext.h>

#include <cstring>

#include "runtime/activity/domain_registry.h"
#include "runtime/activity/external_correlation.h"
#include "runtime/clock/clock.h"
#include "runtime/platform/thread_id.h"
#include "runtime/pool/pool.h"

namespace roctracer {

bool EmitApiActivityTo(Pool* pool, const activity_record_t& record,
                       const char* text, size_t text_len) noexcept {
  if (pool == nullptr) return false;
  uint64_t external_id;
  if (!TopExternalId(&external_id)) return pool->Write(record, text, text_len);
  activity_record_t tag{};
  tag.domain = ACTIVITY_DOMAIN_EXT_API;
  tag.op = ACTIVITY_EXT_OP_EXTERN_ID;
  tag.correlation_id = record.correlation_id;
  tag.external_id = external_id;
  // Written as one unit: a record never arrives without its tag, nor a tag
  // without its record, even when a discard-mode pool drops.
  return pool->WriteTagged(&tag, record, text, text_len);
}

bool EmitApiActivityTo(const ActivityPools& pools,
                       const activity_record_t& record, const char* text,
                       size_t text_len) noexcept {
  const bool program = EmitApiActivityTo(pools.program, record, text, text_len);
  const bool tool = EmitApiActivityTo(pools.tool, record, text, text_len);
  return program || tool;
}

bool EmitInstantActivityTo(const ActivityPools& pools, uint32_t domain,
                           uint32_t op, uint64_t correlation_id,
                           const char* message) noexcept {
  activity_record_t record{};
  record.domain = domain;
  record.op = op;
  record.correlation_id = correlation_id;
  record.begin_ns = record.end_ns = TimestampNs();
  record.process_id = ProcessId();
  record.thread_id = ThreadId();
  // The pool copies the message (with its NUL) into the same delivery, so
  // the caller's string may die as soon as this returns.
  const size_t len = message == nullptr ? 0 : std::strlen(message) + 1;
  return EmitApiActivityTo(pools, record, message, len);
}

bool EmitApiActivity(const activity_record_t& record, const char* text,
                     size_t text_len) noexcept {
  return EmitApiActivityTo(ActivityPoolsFor(record.domain, record.op), record,
                           text, text_len);
}

}  // namespace roctracer
