// The traced-call path: the ApiConsumerFn the SDK installs in the
// interception layer (runtime/api_consumer.h).
#ifndef ROCPROFILER_SDK_IMPL_DISPATCH_H_
#define ROCPROFILER_SDK_IMPL_DISPATCH_H_

#include <cstdint>

#include "rocprofiler-sdk/fwd.h"
#include "runtime/api_consumer.h"

namespace rocprofiler_sdk {

// Calls the callbacks of every active context tracing the call's (kind,
// operation). ENTER and EXIT of one call share a per-thread frame holding one
// user_data slot per context; a context gets EXIT only if it got ENTER and is
// still active. No lock, no allocation.
void Consume(const roctracer::ApiCallInfo& info) noexcept;

// Returns once no other thread is inside a callback of `context` (an index
// into g_contexts) that started before its active bit was cleared. The
// calling thread's own callback, if any, is not waited for (stopping a
// context from its own callback). Must be called without ConfigMutex held: a
// callback in flight may itself take it.
void WaitForDeliveries(int context) noexcept;

// Calls skipped because they nested deeper than kMaxCallDepth.
uint64_t SkippedCalls() noexcept;

}  // namespace rocprofiler_sdk

#endif  // ROCPROFILER_SDK_IMPL_DISPATCH_H_
