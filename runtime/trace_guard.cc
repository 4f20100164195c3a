#include "runtime/trace_guard.h"

namespace roctracer::hook {

__thread ThreadState t_thread_state
    __attribute__((tls_model("initial-exec"))) = {};

}  // namespace roctracer::hook
