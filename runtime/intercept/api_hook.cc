// roctracer::hook::Enter / Exit (api_hook.h): what happens around every
// intercepted HSA or HIP call whose active byte is set.
//
// Per call, in the stub's CallFrame (no allocation): correlation ID and the
// parent's, the callback chosen at ENTER (EXIT uses the same one, so every
// ENTER has its EXIT even if callbacks change meanwhile), the consumer, the
// begin timestamp, the `phase_data` slot, and the link to the enclosing traced
// call. The per-thread stack of calls is that linked list (trace_guard.h).
//
// Guards, checked at ENTER (a guarded call forwards untraced; Exit then does
// nothing):
//  - tracer code is running on this thread (a user callback, the consumer, a
//    pool write, the tracer's own calls into a runtime; UntracedScope): a
//    traced API called from a callback is not traced, which makes unbounded
//    recursion impossible and keeps callbacks from seeing their own calls;
//  - the innermost traced call is the same (domain, op): the call reached a
//    second wrapper of itself (C-symbol stub -> runtime trampoline -> our
//    HSA table wrapper), so it is traced once, by the outer wrapper.
// Different calls nested inside a traced call (libamdhip64's hipMemcpy calling
// hsa_*, or HIP calling its own exported hip* through the PLT) are traced
// with their own IDs and the enclosing call as parent.
#include "runtime/intercept/api_hook.h"

#include <roctracer.h>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <new>

#include "api_domain_tables.h"
#include "runtime/activity/activity_emit.h"
#include "runtime/activity/correlation.h"
#include "runtime/activity/domain_registry.h"
#include "runtime/activity/op_slots.h"
#include "runtime/clock/clock.h"
#include "runtime/intercept/api_consumer.h"
#include "runtime/intercept/string_arena.h"
#include "runtime/intercept/trace_guard.h"
#include "runtime/intercept/traced_call.h"

namespace roctracer::hook {

using activity::ActivityPools;
using activity::CallbackEntry;
using activity::EmitFilledActivityTo;
using activity::NextCorrelationId;
using activity::OpTargets;
using activity::StoreThreadRecord;
using activity::TargetsFor;
using activity::ToolCallbackFor;

namespace {

enum FrameFlags : uint16_t {
  kSkip = 1,          // guarded or nothing to do: Exit returns at once
  kStrings = 2,       // string arguments were copied: release the arena at EXIT
  kToolCallback = 4,  // a tool callback was set at ENTER: look it up at EXIT
  // kToolCallback, a callback or a consumer: EXIT has something to call
  // (one test for an activity-only call instead of three).
  kCalls = 8,
};

// The runtime's view of a CallFrame.
using Frame = TracedCall;
static_assert(sizeof(Frame) <= sizeof(CallFrame), "CallFrame too small");
static_assert(alignof(Frame) <= alignof(CallFrame), "CallFrame alignment");

// Copies the string arguments the callbacks will see into the thread's arena,
// so that the data a callback receives points only at storage the tracer owns
// for the whole ENTER..EXIT span. The stub forwards its own parameters, not
// these copies, so the runtime still gets the caller's pointers.
template <class Data, uint32_t kMax, auto kStringArgs>
void CopyStrings(Frame* f, Data* data) {
  const char** slots[kMax];
  const uint32_t n = kStringArgs(f->op, data, slots);
  if (n == 0) return;
  StringArena* arena = StringArena::ForThisThread();
  if (arena == nullptr) return;
  f->arena_mark = arena->Mark();
  f->flags |= kStrings;
  for (uint32_t i = 0; i < n; ++i) *slots[i] = arena->Copy(*slots[i]);
}

// kStringArgs: the domain's string-argument table (generated
// <d>_api::StringArgs), a template argument so that its switch is compiled
// into the hook.
template <class Data, uint32_t kMax, auto kStringArgs>
void EnterImpl(uint32_t domain, uint32_t op, Data* data, Frame* f) noexcept {
  ThreadState& t = Thread();
  auto* top = static_cast<Frame*>(t.top);
  if (t.untraced != 0 ||
      (top != nullptr && top->op == op && top->domain == domain)) {
    f->flags = kSkip;
    return;
  }
  const OpTargets targets = TargetsFor(domain, op);
  const CallbackEntry* cb = targets.callback;
  ApiConsumerFn consumer =
      targets.consumer_wanted ? InstalledConsumer() : nullptr;
  const bool activity = targets.pools.any();
  if (cb == nullptr && consumer == nullptr && !activity &&
      !targets.tool_callback) {
    f->flags = kSkip;  // disabled since the stub read the active byte
    return;
  }
  f->flags = targets.tool_callback ? kToolCallback | kCalls : 0;
  f->domain = static_cast<uint16_t>(domain);
  f->op = op;
  f->id = NextCorrelationId();
  f->parent_id = t.top_id;
  f->enclosing = top;
  f->callback = cb;
  f->consumer = consumer;
  t.top = f;
  t.top_id = f->id;

  data->correlation_id = f->id;
  data->phase_data = &f->phase_data;
  f->data = data;
  if (cb != nullptr || consumer != nullptr) {
    f->flags |= kCalls;
    CopyStrings<Data, kMax, kStringArgs>(f, data);
    UntracedScope untraced;
    data->phase = ACTIVITY_API_PHASE_ENTER;
    if (cb != nullptr) cb->fn(domain, op, data, cb->arg);
    if (consumer != nullptr) {
      consumer(ApiCallInfo{domain, op, ACTIVITY_API_PHASE_ENTER, f->id,
                           f->parent_id, data});
    }
  }
  // Taken last, so the record spans the runtime's work, not the callbacks'.
  if (activity) f->begin_ns = clock::TimestampNs();
}

template <class Data, int64_t (*kStatus)(uint32_t, const Data*) noexcept>
void ExitImpl(uint32_t domain, uint32_t op, Data* data, Frame* f) noexcept {
  if (f->flags & kSkip) return;
  const uint64_t end_ns = f->begin_ns != 0 ? clock::TimestampNs() : 0;
  ThreadState& t = Thread();
  {
    UntracedScope untraced;
    data->phase = ACTIVITY_API_PHASE_EXIT;
    if (f->flags & kCalls) {
      if (f->consumer != nullptr) {
        f->consumer(ApiCallInfo{domain, op, ACTIVITY_API_PHASE_EXIT, f->id,
                                f->parent_id, data});
      }
      if (f->callback != nullptr) {
        f->callback->fn(domain, op, data, f->callback->arg);
      }
      if (f->flags & kToolCallback) {
        // Looked up again, as the pools are: removed during the call, not
        // run.
        if (const CallbackEntry* tool = ToolCallbackFor(domain, op)) {
          tool->fn(domain, op, data, tool->arg);
        }
      }
    }
    if (end_ns != 0) {
      // Looked up again: a pool closed during the call gets no record.
      const ActivityPools pools = activity::registry::PoolsFor(domain, op);
      if (pools.any()) {
        // Made in the pool's buffer, not on this stack and copied.
        const uint64_t id = f->id;
        const uint64_t begin_ns = f->begin_ns;
        const int64_t status = kStatus(op, data);
        EmitFilledActivityTo(pools, [=](void* dst) noexcept {
          StoreThreadRecord(dst, domain, op, id, begin_ns, end_ns, status);
        });
      }
    }
  }
  if ((f->flags & kStrings) && t.arena != nullptr) {
    t.arena->Release(f->arena_mark);
  }
  t.top = f->enclosing;
  t.top_id = f->parent_id;
}

}  // namespace

// Each domain's data type and tables, from the generated domain list; the
// domain is a constant here, so the visit folds to the one domain's code.
template <uint32_t kDomain>
void EnterDomain(uint32_t op, void* data, CallFrame* frame) noexcept {
  auto* f = reinterpret_cast<Frame*>(frame);
  VisitApiDomain(
      kDomain,
      [&](auto d) {
        using D = decltype(d);
        EnterImpl<typename D::Data, D::kMaxStringArgs, D::StringArgs>(
            kDomain, op, static_cast<typename D::Data*>(data), f);
      },
      [&] { f->flags = kSkip; });
}

template <uint32_t kDomain>
void ExitDomain(uint32_t op, void* data, CallFrame* frame) noexcept {
  auto* f = reinterpret_cast<Frame*>(frame);
  VisitApiDomain(
      kDomain,
      [&](auto d) {
        using D = decltype(d);
        ExitImpl<typename D::Data, D::ReturnedStatus>(
            kDomain, op, static_cast<typename D::Data*>(data), f);
      },
      [] {});
}

#define ROCTRACER_INSTANTIATE_HOOKS(d, value)                             \
  template void EnterDomain<value>(uint32_t, void*, CallFrame*) noexcept; \
  template void ExitDomain<value>(uint32_t, void*, CallFrame*) noexcept;
ROCTRACER_FOR_EACH_API_DOMAIN(ROCTRACER_INSTANTIATE_HOOKS)
#undef ROCTRACER_INSTANTIATE_HOOKS

void EnterUnknownDomain(CallFrame* frame) noexcept {
  reinterpret_cast<Frame*>(frame)->flags = kSkip;
}

}  // namespace roctracer::hook
