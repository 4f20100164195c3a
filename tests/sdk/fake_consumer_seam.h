// Test-only driver of the real consumer seam
// (runtime/intercept/api_consumer.cc): the SDK front end is linked with the
// roctracer core and the interception layer's domain registration, and the
// tests call its consumer with synthetic calls the way the interception hooks
// would.
#ifndef TESTS_SDK_FAKE_CONSUMER_SEAM_H_
#define TESTS_SDK_FAKE_CONSUMER_SEAM_H_

#include <cstdint>

#include "runtime/intercept/api_consumer.h"

namespace fake_seam {

roctracer::ApiConsumerFn Consumer();
bool Interested(uint32_t domain, uint32_t op);

// Calls the consumer like the interception layer would (no-op when no
// consumer or no interest in (domain, op)): while a record consumer is
// installed (SetApiRecordConsumer), an HSA or HIP call's ENTER only takes a
// timestamp and its EXIT calls the record consumer, as the layer's record
// path does (the calls in progress on it chained from hook::Thread().top,
// traced_call.h, with their starts).
void Call(uint32_t domain, uint32_t op, uint32_t phase, uint64_t correlation_id,
          void* api_data);

// Calls the consumer whatever its interest: the real layer also calls it for
// ops roctracer's own callbacks enabled, so the consumer must filter itself.
void CallUnfiltered(uint32_t domain, uint32_t op, uint32_t phase,
                    uint64_t correlation_id, void* api_data);

}  // namespace fake_seam

#endif  // TESTS_SDK_FAKE_CONSUMER_SEAM_H_
