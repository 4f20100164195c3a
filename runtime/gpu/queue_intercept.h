// Kernel dispatches and barriers: every queue the application creates is an
// intercept queue of the runtime (hsa_amd_queue_intercept_create, with the
// tracer's packet handler registered), so every AQL packet the application
// submits passes the tracer on the thread that rings the doorbell, before it
// reaches the queue that runs it. See runtime/gpu/README.md for the rewrite.
#ifndef RUNTIME_GPU_QUEUE_INTERCEPT_H_
#define RUNTIME_GPU_QUEUE_INTERCEPT_H_

#include <hsa/hsa.h>

namespace roctracer::gpu {

// The table slots (installed by gpu_tool.cc).
hsa_status_t QueueCreate(hsa_agent_t agent, uint32_t size,
                         hsa_queue_type32_t type,
                         void (*callback)(hsa_status_t, hsa_queue_t*, void*),
                         void* data, uint32_t private_segment_size,
                         uint32_t group_segment_size, hsa_queue_t** queue);
hsa_status_t QueueDestroy(hsa_queue_t* queue);
// Profiling stays on for a traced queue (its times are the records'); the
// application's request to turn it off is answered SUCCESS.
hsa_status_t ProfilerEnable(hsa_queue_t* queue, int enable);

}  // namespace roctracer::gpu

#endif  // RUNTIME_GPU_QUEUE_INTERCEPT_H_
