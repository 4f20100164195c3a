// Tells the interception layer which (domain, API ID) pairs the SDK wants,
// as the union over active contexts (reference counts, cold path).
#ifndef ROCPROFILER_SDK_IMPL_INTEREST_H_
#define ROCPROFILER_SDK_IMPL_INTEREST_H_

#include "sdk/context.h"

namespace rocprofiler_sdk {

// Called with the configuration lock held when `ctx` starts or stops.
void AddContextInterest(const Context& ctx) noexcept;
void RemoveContextInterest(const Context& ctx) noexcept;

}  // namespace rocprofiler_sdk

#endif  // ROCPROFILER_SDK_IMPL_INTEREST_H_
