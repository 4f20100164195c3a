// The one lock of the SDK front end: configuration, start/stop and interest
// changes. Never taken on the traced-call path.
#ifndef ROCPROFILER_SDK_IMPL_CONFIG_LOCK_H_
#define ROCPROFILER_SDK_IMPL_CONFIG_LOCK_H_

#include <mutex>

namespace rocprofiler_sdk {

std::mutex& ConfigMutex() noexcept;

}  // namespace rocprofiler_sdk

#endif  // ROCPROFILER_SDK_IMPL_CONFIG_LOCK_H_
