#include "runtime/intercept/trace_guard.h"

namespace roctracer::hook {

ROCTRACER_HOT_TLS ThreadState t_thread_state = {};

}  // namespace roctracer::hook
