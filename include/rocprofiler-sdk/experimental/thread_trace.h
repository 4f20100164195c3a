/* Every thread-trace header. C99 and C++. */
#ifndef ROCPROFILER_SDK_EXPERIMENTAL_THREAD_TRACE_H_
#define ROCPROFILER_SDK_EXPERIMENTAL_THREAD_TRACE_H_

#include "rocprofiler-sdk/experimental/thread-trace/agent.h"
#include "rocprofiler-sdk/experimental/thread-trace/core.h"
#include "rocprofiler-sdk/experimental/thread-trace/dispatch.h"
#include "rocprofiler-sdk/experimental/thread-trace/trace_decoder.h"

#endif /* ROCPROFILER_SDK_EXPERIMENTAL_THREAD_TRACE_H_ */
