// Per-thread, per-context stacks of external correlation IDs (fixed depth,
// thread-local, no allocation).
#ifndef ROCPROFILER_SDK_IMPL_EXTERNAL_STACK_H_
#define ROCPROFILER_SDK_IMPL_EXTERNAL_STACK_H_

#include <cstdint>

#include "rocprofiler-sdk/fwd.h"

namespace rocprofiler_sdk {

constexpr uint32_t kMaxExternalDepth = 16;

rocprofiler_user_data_t ExternalTop(int context_index) noexcept;

}  // namespace rocprofiler_sdk

#endif  // ROCPROFILER_SDK_IMPL_EXTERNAL_STACK_H_
