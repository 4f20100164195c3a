// Payloads of the rocprofiler-sdk-roctx requests (runtime/private/roctx_link.h)
// as the MARKER_CORE (roctxGetThreadId), MARKER_CONTROL and MARKER_NAME kinds
// deliver them.
#ifndef ROCPROFILER_SDK_IMPL_MARKER_REQUESTS_H_
#define ROCPROFILER_SDK_IMPL_MARKER_REQUESTS_H_

#include <cstdint>

#include "rocprofiler-sdk/marker/api_args.h"

namespace rocprofiler_sdk {

// Fills the member of `args` that `request` (a roctracer::RoctxRequest) uses
// from `request_args` (a roctracer::RoctxRequestArgs*).
void FillMarkerRequestArgs(uint32_t request, const void* request_args,
                           rocprofiler_marker_api_args_t* args) noexcept;

}  // namespace rocprofiler_sdk

#endif  // ROCPROFILER_SDK_IMPL_MARKER_REQUESTS_H_
