// Tells the interception layer which (domain, API ID) pairs the SDK wants,
// as the union over active contexts (reference counts, cold path).
#ifndef ROCPROFILER_SDK_IMPL_INTEREST_H_
#define ROCPROFILER_SDK_IMPL_INTEREST_H_

#include "runtime/intercept/api_consumer.h"
#include "sdk/context.h"

namespace rocprofiler_sdk {

// Called with the configuration lock held when `ctx` starts or stops.
void AddContextInterest(const Context& ctx) noexcept;
void RemoveContextInterest(const Context& ctx) noexcept;

// One more (+1) or one fewer (-1) reason to want (domain, API ID); with
// the configuration lock held.
void CountInterest(uint32_t domain, uint32_t id, int delta) noexcept;

// Tool registration waits for the runtimes' first call (registration.cc):
// until DisarmFirstUse, every HSA, HIP runtime and rocTX call reaches
// `first`. False when the API domains are not registered yet or a context
// already installed the consumer (nothing armed).
bool ArmFirstUse(roctracer::ApiConsumerFn first) noexcept;
// Back to the contexts' interest and the ordinary consumer.
void DisarmFirstUse() noexcept;
// Whether a started context wants (domain, API ID) (rocTX requests: whether
// any context was ever started).
bool ContextsWant(uint32_t domain, uint32_t id) noexcept;

}  // namespace rocprofiler_sdk

#endif  // ROCPROFILER_SDK_IMPL_INTEREST_H_
