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
  uint64_t phase_data;  // data->phase_data points here
  uint64_t begin_ns;    // 0: no activity record for this call
  uint64_t id;
  uint64_t parent_id;
  TracedCall* enclosing;
  const activity::CallbackEntry* callback;
  ApiConsumerFn consumer;
  uint64_t arena_mark;
  const void* data;  // the call's <domain>_api_data_t (InnermostStream)
  uint32_t op;
  uint16_t domain;
  uint16_t flags;
};

}  // namespace roctracer::hook

#endif  // RUNTIME_INTERCEPT_TRACED_CALL_H_
