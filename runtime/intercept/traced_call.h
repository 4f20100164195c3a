// A traced call in progress, as the runtime lays it out in the generated
// stub's CallFrame (api_hook.h): api_hook.cc fills it at ENTER and reads it
// at EXIT; trace_guard.cc walks a thread's chain of them to answer which
// call, and which stream, the thread is inside.
#ifndef RUNTIME_INTERCEPT_TRACED_CALL_H_
#define RUNTIME_INTERCEPT_TRACED_CALL_H_

#include <cstdint>

#include "runtime/activity/domain_registry.h"
#include "runtime/intercept/api_consumer.h"

namespace roctracer::hook {

struct TracedCall {
  // api_hook.cc's FrameFlags, the FrameRoute bits (api_hook.h) among them:
  // first, where the stubs' inline Exit reads them.
  uint16_t flags;
  uint64_t phase_data;  // data->phase_data points here
  uint64_t begin_ns;    // 0: no activity record for this call
  // The call as the consumer sees it: domain, op, correlation ID and the
  // enclosing call's, the call's <domain>_api_data_t (InnermostStream).
  // Filled once at ENTER; EXIT hands the same one over with only `phase`
  // changed.
  ApiCallInfo info;
  TracedCall* enclosing;
  union {
    const activity::CallbackEntry* callback;
    // A call on the record consumer's path (which has no callback): the
    // thread's record_top_id before it (trace_guard.h).
    uint64_t record_parent;
  };
  union {
    ApiConsumerFn consumer;
    ApiRecordFn record;  // a call on the record consumer's path
  };
  uint64_t arena_mark;
};

}  // namespace roctracer::hook

#endif  // RUNTIME_INTERCEPT_TRACED_CALL_H_
