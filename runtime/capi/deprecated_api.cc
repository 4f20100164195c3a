// Functions libroctracer64.so has exported since roctracer 4.0: the set-up
// calls ROCm 5.2.3's roctracer.h declares, and roctracer_mark, which
// programs declare themselves.
#include <roctracer.h>
#include <roctracer_ext.h>

#include "runtime/activity/activity_emit.h"
#include "runtime/activity/correlation.h"
#include "runtime/activity/domain_registry.h"

extern "C" {

// Tracing is ready as soon as the library is loaded: report "loaded".
ROCTRACER_API bool roctracer_load(void) { return true; }

ROCTRACER_API void roctracer_unload(void) {}

// The old name for flushing the default pool.
ROCTRACER_API void roctracer_flush_buf(void) { roctracer_flush_activity(); }

// A user marker in the EXT_API domain (op ACTIVITY_EXT_OP_MARK): the callback
// receives the string as its data; the record carries a copy in mark_message
// and draws a correlation ID, as roctracer did.
ROCTRACER_API void roctracer_mark(const char* str) {
  const uint32_t domain = ACTIVITY_DOMAIN_EXT_API;
  const uint32_t op = ACTIVITY_EXT_OP_MARK;
  if (const roctracer::activity::CallbackEntry* cb =
          roctracer::activity::CallbackFor(domain, op)) {
    cb->fn(domain, op, str, cb->arg);
  }
  const roctracer::activity::ActivityPools pools =
      roctracer::activity::ActivityPoolsFor(domain, op);
  if (pools.any()) {
    roctracer::activity::EmitInstantActivityTo(
        pools, domain, op, roctracer::activity::NextCorrelationId(), str);
  }
}

}  // extern "C"
