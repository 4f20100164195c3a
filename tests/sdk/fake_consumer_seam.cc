#include "tests/sdk/fake_consumer_seam.h"

#include <deque>
#include <vector>

#include "ext/prof_protocol.h"
#include "runtime/activity/domain_registry.h"
#include "runtime/clock/clock.h"
#include "runtime/intercept/trace_guard.h"
#include "runtime/intercept/traced_call.h"

namespace fake_seam {
namespace {

// The calls on the record consumer's path in progress on this thread, as
// the interception layer keeps them in its frames (api_hook.cc), chained
// from the thread's `top` as there (the SDK looks a call's start up in
// them). A deque: the chain points into it.
using RecordedCall = roctracer::hook::TracedCall;
thread_local std::deque<RecordedCall> t_recorded;
// Every call in progress on this thread, innermost last: the parent
// correlation ID the layer hands over is the innermost one's.
thread_local std::vector<uint64_t> t_open;

uint64_t Parent(uint32_t phase, uint64_t correlation_id) {
  if (phase == ACTIVITY_API_PHASE_ENTER) {
    const uint64_t parent = t_open.empty() ? 0 : t_open.back();
    t_open.push_back(correlation_id);
    return parent;
  }
  if (!t_open.empty() && t_open.back() == correlation_id) t_open.pop_back();
  return t_open.empty() ? 0 : t_open.back();
}

}  // namespace

roctracer::ApiConsumerFn Consumer() { return roctracer::InstalledConsumer(); }

bool Interested(uint32_t domain, uint32_t op) {
  return roctracer::activity::ConsumerWants(domain, op);
}

void Call(uint32_t domain, uint32_t op, uint32_t phase, uint64_t correlation_id,
          void* api_data) {
  auto& hook_thread = roctracer::hook::Thread();
  const roctracer::ApiCallInfo info{
      domain,  op, phase, correlation_id, Parent(phase, correlation_id),
      api_data};
  if (phase != ACTIVITY_API_PHASE_ENTER && !t_recorded.empty() &&
      t_recorded.back().info.correlation_id == correlation_id) {
    // An EXIT of a call whose ENTER took the record path: the path was
    // chosen at ENTER, whatever is installed now.
    const RecordedCall c = t_recorded.back();
    t_recorded.pop_back();
    const uint64_t end_ns = roctracer::clock::TimestampNs();
    hook_thread.top = c.enclosing;
    hook_thread.record_top_id = c.record_parent;
    c.record(info, c.begin_ns, end_ns, c.record_parent);
    return;
  }
  roctracer::ApiConsumerFn fn = roctracer::ConsumerFor(domain, op);
  if (fn == nullptr) return;
  const roctracer::ApiRecordFn record = roctracer::InstalledRecordConsumer();
  if (phase == ACTIVITY_API_PHASE_ENTER && record != nullptr &&
      domain != roctracer::kRoctxRequestDomain &&
      domain != ACTIVITY_DOMAIN_ROCTX) {
    RecordedCall& c = t_recorded.emplace_back();
    c.info = info;
    c.enclosing = static_cast<RecordedCall*>(hook_thread.top);
    c.record_parent = hook_thread.record_top_id;
    c.record = record;
    hook_thread.top = &c;
    hook_thread.record_top_id = correlation_id;
    c.begin_ns = roctracer::clock::TimestampNs();
    return;
  }
  fn(info);
}

void CallUnfiltered(uint32_t domain, uint32_t op, uint32_t phase,
                    uint64_t correlation_id, void* api_data) {
  const uint64_t parent = Parent(phase, correlation_id);
  roctracer::ApiConsumerFn fn = roctracer::InstalledConsumer();
  if (fn == nullptr) return;
  fn(roctracer::ApiCallInfo{domain, op, phase, correlation_id, parent,
                            api_data});
}

}  // namespace fake_seam
