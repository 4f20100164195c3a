// rocprofiler_iterate_buffer_tracing_record_args, for a library built
// without buffer-record argument iteration: every function of
// rocprofiler-sdk 1.0.0 is exported, and this one then answers
// NOT_IMPLEMENTED (after the NULL check the SDK documents). It is a weak
// definition, so a full implementation linked into the same library takes
// its place. Only fwd.h is included: the callback's type is not needed to
// reject a call, and the C symbol does not depend on it.
#include "rocprofiler-sdk/defines.h"
#include "rocprofiler-sdk/fwd.h"

extern "C" {

__attribute__((weak)) ROCPROFILER_API rocprofiler_status_t
rocprofiler_iterate_buffer_tracing_record_args(rocprofiler_record_header_t,
                                               void* callback, void*) {
  if (callback == nullptr) return ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT;
  return ROCPROFILER_STATUS_ERROR_NOT_IMPLEMENTED;
}

}  // extern "C"
