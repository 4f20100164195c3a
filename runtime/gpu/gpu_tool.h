// The GPU half as part of the HSA tool (runtime/capi/hsa_tool.cc):
// OnLoad installs it into the runtime's table before the API wrappers go in
// (so a traced API call encloses the tracer's interception and its
// correlation ID is the operation's), OnUnload takes it out after them.
#ifndef RUNTIME_GPU_GPU_TOOL_H_
#define RUNTIME_GPU_GPU_TOOL_H_

#include <hsa/hsa_api_trace.h>

namespace roctracer::gpu {

// Saves the runtime's functions and replaces queue creation/destruction,
// profiling switches, async copies and executable freeze/destroy. Without
// the queue-intercept slots, queues stay untraced (one line on stderr).
// ROCTRACER_GPU=0 in the environment: does nothing (the table keeps the
// runtime's functions; HSA_OPS stays empty).
void Install(HsaApiTable* table);
// Reports what completes within the drain timeout, forgets the rest,
// destroys the tracer's signals and puts the runtime's functions back.
void Uninstall();

}  // namespace roctracer::gpu

#endif  // RUNTIME_GPU_GPU_TOOL_H_
