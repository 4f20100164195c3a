// Async copies: hsa_amd_memory_async_copy, _copy_rect (and _copy_on_engine
// where the runtime's headers have it) run with a completion signal the
// tracer owns; when it completes, the tracer reports the copy and then
// changes the application's signal as the runtime would have (down by one,
// or to the error value the runtime stored). A thread waiting on a traced
// copy's application signal waits for the tracer's and reports the copy
// itself.
#ifndef RUNTIME_GPU_COPY_INTERCEPT_H_
#define RUNTIME_GPU_COPY_INTERCEPT_H_

#include <hsa/hsa_api_trace.h>

namespace roctracer::gpu {

// Puts the copy wrappers into `amd`, and the signal waits that complete a
// traced copy on the waiting thread into `core` (the slots the table has).
void InstallCopyWrappers(const HsaApiTable* table, CoreApiTable* core,
                         AmdExtTable* amd);

// Puts the runtime's functions (runtime_table.h) back.
void RestoreCopyWrappers(CoreApiTable* core, AmdExtTable* amd);

// Profiling of copies stays on while the tracer needs it; the application's
// request to turn it off is answered SUCCESS.
hsa_status_t CopyProfilingEnable(bool enable);

// The runtime shut down: copy profiling must be enabled again after the
// next hsa_init.
void ResetCopyProfiling();

}  // namespace roctracer::gpu

#endif  // RUNTIME_GPU_COPY_INTERCEPT_H_
