// The tool slot (domain_registry.h: ActivityPools, ToolCallbackFor) for a
// tracer outside libroctracer64.so.4 that wraps a whole program: roctrace's
// libroctrace_tool.so. Its records and callbacks then keep flowing whatever
// the program does with roctracer's public API (its own pools, callbacks,
// enables, disables, roctracer_stop), and the program's own keep flowing to
// it.
//
// Exported under the private version node ROCTRACER_PRIVATE
// (runtime/capi/roctracer.map). Plain C types: a tool built against another
// build of the library links or fails to, it never misreads.
#ifndef RUNTIME_PRIVATE_TOOL_ACTIVITY_H_
#define RUNTIME_PRIVATE_TOOL_ACTIVITY_H_

#include <roctracer.h>

extern "C" {
// Like roctracer_enable_op_activity_expl / _domain_activity_expl, into the
// tool slot. `pool` must be open (there is no default-pool fallback: the
// default pool is the program's). Closing the pool
// (roctracer_close_pool_expl) disables what it was enabled for.
// ROCTRACER_STATUS_ERROR_INVALID_DOMAIN_ID / _INVALID_ARGUMENT otherwise,
// with roctracer_error_string() saying why.
__attribute__((visibility("default"))) roctracer_status_t
roctracer_internal_tool_enable_op_activity(activity_domain_t domain,
                                           uint32_t op, roctracer_pool_t* pool);
__attribute__((visibility("default"))) roctracer_status_t
roctracer_internal_tool_enable_domain_activity(activity_domain_t domain,
                                               roctracer_pool_t* pool);

// The tool's callback of an API op, beside the program's
// (roctracer_enable_op_callback), which it neither replaces nor is replaced
// by. Called at EXIT only (phase ACTIVITY_API_PHASE_EXIT, the arguments and
// the result in `data`), from the calling thread with tracing suspended on
// it; not gated by roctracer_start/stop, paused by roctxProfilerPause. A
// later call replaces the op's tool callback; disable removes it.
// ROCTRACER_STATUS_ERROR_INVALID_DOMAIN_ID / _INVALID_ARGUMENT (NULL
// callback, op out of range) otherwise.
__attribute__((visibility("default"))) roctracer_status_t
roctracer_internal_tool_enable_op_callback(activity_domain_t domain,
                                           uint32_t op,
                                           activity_rtapi_callback_t callback,
                                           void* arg);
__attribute__((visibility("default"))) roctracer_status_t
roctracer_internal_tool_disable_op_callback(activity_domain_t domain,
                                            uint32_t op);

// `finalize(arg)` once when the program exits, as the last step of the
// library's exit handling (runtime/pool/process_exit.h): after the GPU work
// in flight has been waited for and reported (to the tool's observers too)
// and every pool has been closed, its records delivered. False when it
// could not be registered (out of memory): the tool must finalize by other
// means.
__attribute__((visibility("default"))) bool
roctracer_internal_tool_finalize_at_exit(void (*finalize)(void* arg),
                                         void* arg);

// Pauses (true) or resumes (false) the tool slot, as roctxProfilerPause /
// roctxProfilerResume do (which also pause and resume it, whatever this
// set last): a tool that traces only the program's marked regions starts
// paused. The program's own roctracer use is not affected.
__attribute__((visibility("default"))) void roctracer_internal_tool_set_paused(
    bool paused);
}

#endif  // RUNTIME_PRIVATE_TOOL_ACTIVITY_H_
