// rocprofiler_at_internal_thread_create's registry: the SDK front end calls
// NotifyInternalThread around each thread it starts (a buffer's delivery
// thread, a callback thread, a flush helper, the retirement thread), so a tool
// can tell those threads from the program's.
#ifndef ROCPROFILER_SDK_IMPL_INTERNAL_THREADING_H_
#define ROCPROFILER_SDK_IMPL_INTERNAL_THREADING_H_

namespace rocprofiler_sdk {

enum class ThreadCreation { kBefore, kAfter };

// Calls every registered precreate (kBefore) or postcreate (kAfter) callback
// whose libraries include ROCPROFILER_LIBRARY, in registration order, on the
// calling thread (the one about to start, or that just started, the thread).
void NotifyInternalThread(ThreadCreation stage) noexcept;

}  // namespace rocprofiler_sdk

#endif  // ROCPROFILER_SDK_IMPL_INTERNAL_THREADING_H_
