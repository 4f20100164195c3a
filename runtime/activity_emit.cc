#include "runtime/activity_emit.h"

#include <roctracer_ext.h>

#include "runtime/domain_registry.h"
#include "runtime/external_correlation.h"
#include "runtime/pool/pool.h"

namespace roctracer {

bool EmitApiActivityTo(Pool* pool, const activity_record_t& record,
                       const char* text, size_t text_len) noexcept {
  if (pool == nullptr) return false;
  uint64_t external_id;
  if (TopExternalId(&external_id)) {
    activity_record_t ext{};
    ext.domain = ACTIVITY_DOMAIN_EXT_API;
    ext.op = ACTIVITY_EXT_OP_EXTERN_ID;
    ext.correlation_id = record.correlation_id;
    ext.external_id = external_id;
    // The pair stays together: an API record is never delivered without the
    // EXT_API record that tags it (in discard mode the tag may be dropped).
    if (!pool->Write(ext)) {
      pool->CountSkipped();
      return false;
    }
  }
  return pool->Write(record, text, text_len);
}

bool EmitApiActivity(const activity_record_t& record, const char* text,
                     size_t text_len) noexcept {
  return EmitApiActivityTo(ActivityPoolFor(record.domain, record.op), record,
                           text, text_len);
}

}  // namespace roctracer
