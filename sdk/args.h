// Argument iteration shared by the callback and buffer services (args.cc).
#ifndef ROCPROFILER_SDK_IMPL_ARGS_H_
#define ROCPROFILER_SDK_IMPL_ARGS_H_

#include "rocprofiler-sdk/buffer_tracing.h"

namespace rocprofiler_sdk {

// The arguments a HIP_RUNTIME_API_EXT / HIP_COMPILER_API_EXT record holds,
// one callback each (values as recorded; no pointer followed). Nothing for
// an operation the kind does not have.
void IterateHipExtRecordArgs(
    const rocprofiler_buffer_tracing_hip_api_ext_record_t& record,
    rocprofiler_buffer_tracing_operation_args_cb_t callback,
    void* user_data) noexcept;

}  // namespace rocprofiler_sdk

#endif  // ROCPROFILER_SDK_IMPL_ARGS_H_
