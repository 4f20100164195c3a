// HIP_STREAM (callback tracing): HIP's streams as rocprofiler-sdk 1.0.0
// reports them. Each HIP runtime call with a `hipStream_t*` parameter
// creates one: CREATE (phase NONE) after the call returns, with the stream
// it stored there (none, id 0, when the pointer is NULL). hipStreamDestroy:
// DESTROY (phase NONE) after the call. Every other call with a `hipStream_t`
// parameter: SET, ENTER before the call's own ENTER and EXIT after its
// EXIT. Stream IDs are numbered as 1.0.0 numbers them: the null stream 0,
// then each CREATE the next number (a stream handle created again gets a
// new one; a destroyed stream keeps its ID for later SETs). A stream never
// seen created (one created before tracing started, hipStreamPerThread) is
// given the next number when first seen (1.0.0 has no ID for it). The
// records carry no correlation ID (0, as in 1.0.0) and the thread's
// external ID. The buffer kind is accepted and never written, as in 1.0.0.
#ifndef ROCPROFILER_SDK_IMPL_HIP_STREAMS_H_
#define ROCPROFILER_SDK_IMPL_HIP_STREAMS_H_

#include <cstdint>

#include "runtime/intercept/api_consumer.h"
#include "sdk/context.h"
#include "sdk/thread_state.h"

namespace rocprofiler_sdk {

// At a HIP call's ENTER and EXIT, `depth` the index of its frame.
void HipStreamEnter(const roctracer::ApiCallInfo& info, ThreadState& t,
                    uint32_t depth) noexcept;
void HipStreamExit(const roctracer::ApiCallInfo& info, ThreadState& t,
                   uint32_t depth) noexcept;

// Whether `ctx` has a HIP_STREAM callback service.
bool TracesHipStreams(const Context& ctx) noexcept;

// The HIP calls `ctx`'s HIP_STREAM service needs: fn(domain, id, data).
void ForEachHipStreamCall(const Context& ctx,
                          void (*fn)(uint32_t domain, uint32_t id, void* data),
                          void* data) noexcept;

void ResetHipStreams(ThreadState& t) noexcept;

}  // namespace rocprofiler_sdk

#endif  // ROCPROFILER_SDK_IMPL_HIP_STREAMS_H_
