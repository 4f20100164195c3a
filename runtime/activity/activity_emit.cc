#include "runtime/activity/activity_emit.h"

#include <roctracer_ext.h>

#include <cstring>

#include "runtime/activity/domain_registry.h"
#include "runtime/activity/external_correlation.h"
#include "runtime/clock/clock.h"
#include "runtime/platform/thread_id.h"
#include "runtime/pool/pool.h"

namespace roctracer::activity {

using pool::Pool;

namespace {

// `record` preceded by its EXT_API tag carrying `external_id`, written as
// one unit: a record never arrives without its tag, nor a tag without its
// record, even when a discard-mode pool drops.
bool WriteWithTag(Pool* pool, const activity_record_t& record,
                  uint64_t external_id, const char* text,
                  size_t text_len) noexcept {
  activity_record_t tag{};
  tag.domain = ACTIVITY_DOMAIN_EXT_API;
  tag.op = ACTIVITY_EXT_OP_EXTERN_ID;
  tag.correlation_id = record.correlation_id;
  tag.external_id = external_id;
  return pool->WriteTagged(&tag, record, text, text_len);
}

// The program's pool first, then the tool's: the order every writer keeps.
template <class WriteOne>
bool ToEachPool(const ActivityPools& pools, WriteOne write_one) noexcept {
  const bool program = pools.program != nullptr && write_one(pools.program);
  const bool tool = pools.tool != nullptr && write_one(pools.tool);
  return program || tool;
}

}  // namespace

bool EmitApiActivityTo(Pool* pool, const activity_record_t& record,
                       const char* text, size_t text_len) noexcept {
  if (pool == nullptr) return false;
  uint64_t external_id;
  if (!TopExternalId(&external_id)) return pool->Write(record, text, text_len);
  return WriteWithTag(pool, record, external_id, text, text_len);
}

bool EmitTaggedActivityTo(const ActivityPools& pools,
                          const activity_record_t& record, uint64_t external_id,
                          const char* text, size_t text_len) noexcept {
  return ToEachPool(pools, [&](Pool* pool) {
    return WriteWithTag(pool, record, external_id, text, text_len);
  });
}

bool WriteRecordTo(const ActivityPools& pools, const activity_record_t& record,
                   const char* text, size_t text_len) noexcept {
  return ToEachPool(
      pools, [&](Pool* pool) { return pool->Write(record, text, text_len); });
}

bool EmitInstantActivityTo(const ActivityPools& pools, uint32_t domain,
                           uint32_t op, uint64_t correlation_id,
                           const char* message, size_t message_len) noexcept {
  const uint64_t now = clock::TimestampNs();
  const activity_record_t record =
      MakeThreadRecord(domain, op, correlation_id, now, now);
  // The pool copies the message and appends its NUL, into the same
  // delivery, so the caller's string may die as soon as this returns.
  return EmitApiActivityTo(pools, record, message,
                           message == nullptr ? 0 : message_len);
}

bool EmitInstantActivityTo(const ActivityPools& pools, uint32_t domain,
                           uint32_t op, uint64_t correlation_id,
                           const char* message) noexcept {
  return EmitInstantActivityTo(pools, domain, op, correlation_id, message,
                               message == nullptr ? 0 : std::strlen(message));
}

bool EmitApiActivity(const activity_record_t& record, const char* text,
                     size_t text_len) noexcept {
  return EmitApiActivityTo(ActivityPoolsFor(record.domain, record.op), record,
                           text, text_len);
}

}  // namespace roctracer::activity
