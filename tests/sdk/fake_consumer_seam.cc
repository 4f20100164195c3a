#include "tests/sdk/fake_consumer_seam.h"

#include "runtime/activity/domain_registry.h"
#include "runtime/intercept/trace_guard.h"

namespace fake_seam {

roctracer::ApiConsumerFn Consumer() { return roctracer::InstalledConsumer(); }

bool Interested(uint32_t domain, uint32_t op) {
  return roctracer::activity::ConsumerWants(domain, op);
}

void Call(uint32_t domain, uint32_t op, uint32_t phase, uint64_t correlation_id,
          void* api_data) {
  roctracer::ApiConsumerFn fn = roctracer::ConsumerFor(domain, op);
  if (fn == nullptr) return;
  fn(roctracer::ApiCallInfo{domain, op, phase, correlation_id, 0, api_data});
}

void CallUnfiltered(uint32_t domain, uint32_t op, uint32_t phase,
                    uint64_t correlation_id, void* api_data) {
  roctracer::ApiConsumerFn fn = roctracer::InstalledConsumer();
  if (fn == nullptr) return;
  fn(roctracer::ApiCallInfo{domain, op, phase, correlation_id, 0, api_data});
}

}  // namespace fake_seam
