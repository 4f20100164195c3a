// The GPU kinds of callback tracing: KERNEL_DISPATCH, MEMORY_COPY and
// CODE_OBJECT, delivered from the GPU half's observer seam
// (runtime/private/gpu_events.h), not from API calls.
#ifndef ROCPROFILER_SDK_IMPL_GPU_KINDS_H_
#define ROCPROFILER_SDK_IMPL_GPU_KINDS_H_

#include <cstdint>

#include "rocprofiler-sdk/callback_tracing.h"

namespace rocprofiler_sdk {

// Registers the SDK's observer with the GPU half (once; later calls do
// nothing), and tells it what is loaded already, so kernel IDs exist for
// every loaded kernel. False when the seam has no free observer slot.
// Called when a context configures a GPU kind, before the configuration
// lock is taken (the replay takes the code-object tracker's lock, under
// which code-object callbacks run, and those may stop contexts).
bool EnableGpuKinds() noexcept;

// Argument iteration over a GPU kind's (or MEMORY_ALLOCATION's) payload: one "argument" per field of
// the record, named as the field.
void IterateGpuPayload(
    const rocprofiler_callback_tracing_record_t& record,
    rocprofiler_callback_tracing_operation_args_cb_t callback,
    int32_t max_dereference_count, void* user_data) noexcept;

}  // namespace rocprofiler_sdk

#endif  // ROCPROFILER_SDK_IMPL_GPU_KINDS_H_
