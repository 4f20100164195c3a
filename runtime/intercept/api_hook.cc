// roctracer::hook::Enter / Exit (api_hook.h): what happens around every
// intercepted HSA or HIP call whose active byte is set.
//
// Per call, in the stub's CallFrame (no allocation): correlation ID and the
// parent's, the callback chosen at ENTER (EXIT uses the same one, so every
// ENTER has its EXIT even if callbacks change meanwhile), the consumer, the
// begin timestamp, the `phase_data` slot, and the link to the enclosing traced
// call, and the ApiCallInfo a consumer gets (built once, at ENTER). The
// per-thread stack of calls is that linked list (trace_guard.h). The stub
// leaves the frame uninitialised: ENTER writes what it and EXIT read. While a
// record consumer is installed (api_consumer.h), a call only the consumer
// wants calls nothing at ENTER and the record consumer once at EXIT, with
// the begin timestamp ENTER kept in the frame.
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

namespace {

enum FrameFlags : uint16_t {
  kSkip = kFrameSkip,  // guarded or nothing to do: Exit returns at once
  kStrings = 2,       // string arguments were copied: release the arena at EXIT
  kToolCallback = 4,  // a tool callback was set at ENTER: look it up at EXIT
  // kToolCallback, a callback or a consumer: EXIT has something to call
  // (one test for an activity-only call instead of three).
  kCalls = 8,
  // Only the consumer gets the call (no callback, tool callback or record):
  // EXIT calls it and ends the frame, nothing else.
  kConsumerOnly = kFrameConsumerOnly,
  // With kConsumerOnly: the call takes the record consumer's path
  // (api_consumer.h): begin_ns taken at ENTER, `record` called at EXIT.
  kRecordOnly = 32,
};
static_assert(kActiveConsumerOnly == activity::kActiveConsumer,
              "the active byte's values (domain_registry.h)");

// The runtime's view of a CallFrame.
using Frame = TracedCall;
static_assert(sizeof(Frame) <= sizeof(CallFrame), "CallFrame too small");
static_assert(alignof(Frame) <= alignof(CallFrame), "CallFrame alignment");
static_assert(offsetof(Frame, flags) == 0, "FrameRouteOf reads them there");
static_assert(offsetof(Frame, begin_ns) ==
                  offsetof(Frame, phase_data) + sizeof(uint64_t),
              "EnterImpl zeroes both with one store");

// Copies the string arguments the callbacks will see into the thread's arena,
// so that the data a callback receives points only at storage the tracer owns
// for the whole ENTER..EXIT span. The stub forwards its own parameters, not
// these copies, so the runtime still gets the caller's pointers.
template <class Data, uint32_t kMax, auto kStringArgs, auto kHasStringArgs>
[[gnu::always_inline]] inline void CopyStrings(Frame* f, Data* data) {
  if (!kHasStringArgs(f->info.op)) return;
  const char** slots[kMax];
  const uint32_t n = kStringArgs(f->info.op, data, slots);
  if (n == 0) return;
  StringArena* arena = StringArena::ForThisThread();
  if (arena == nullptr) return;
  f->arena_mark = arena->Mark();
  f->flags |= kStrings;
  for (uint32_t i = 0; i < n; ++i) *slots[i] = arena->Copy(*slots[i]);
}

// The frame of a call the hook traces: its IDs, the link to the enclosing
// call, and the ApiCallInfo the consumer gets at both phases.
inline void BeginCall(ThreadState& t, Frame* top, uint32_t domain, uint32_t op,
                      void* data, Frame* f) noexcept {
  f->info.domain = domain;
  f->info.op = op;
  f->info.correlation_id = NextCorrelationId();
  f->info.parent_correlation_id = t.top_id;
  f->info.api_data = data;
  f->enclosing = top;
  t.top = f;
  t.top_id = f->info.correlation_id;
}

// The guards of ENTER (see the top of this file): true when the call is
// not to be traced.
inline bool Guarded(const ThreadState& t, const Frame* top, uint32_t domain,
                    uint32_t op) noexcept {
  return t.untraced != 0 ||
         (top != nullptr && top->info.op == op && top->info.domain == domain);
}

// EnterConsumerOnly's part after its checks; with kStrings, for a call
// with string arguments, out of line (EnterConsumerOnly then keeps fewer
// values in callee-saved registers).
template <class Data, uint32_t kMax, auto kStringArgs, auto kHasStringArgs,
          bool kStrings>
[[gnu::always_inline]] inline void ConsumerOnlyCall(
    ThreadState& t, Frame* top, uint32_t domain, uint32_t op, Data* data,
    Frame* f, ApiConsumerFn consumer) noexcept {
  f->flags = kCalls | kConsumerOnly;  // EXIT reads only the consumer
  f->consumer = consumer;
  BeginCall(t, top, domain, op, data, f);
  data->correlation_id = f->info.correlation_id;
  data->phase_data = &f->phase_data;
  f->phase_data = 0;  // the callbacks' slot starts zero
  if (kStrings) CopyStrings<Data, kMax, kStringArgs, kHasStringArgs>(f, data);
  UntracedScope untraced;
  data->phase = ACTIVITY_API_PHASE_ENTER;
  f->info.phase = ACTIVITY_API_PHASE_ENTER;
  consumer(f->info);
}

template <class Data, uint32_t kMax, auto kStringArgs, auto kHasStringArgs>
[[gnu::noinline]] void ConsumerOnlyCallWithStrings(
    ThreadState& t, Frame* top, uint32_t domain, uint32_t op, Data* data,
    Frame* f, ApiConsumerFn consumer) noexcept {
  ConsumerOnlyCall<Data, kMax, kStringArgs, kHasStringArgs, true>(
      t, top, domain, op, data, f, consumer);
}

// ENTER of a call only the consumer wants while a record consumer is
// installed (api_consumer.h): nothing is called, and no string argument is
// copied (no callback sees this call's arguments); the begin timestamp is
// kept for EXIT's one call. Its own function: the check that leads here is
// all the consumer's other path pays for it.
template <class Data>
[[gnu::noinline]] void EnterRecordOnly(uint32_t domain, uint32_t op, Data* data,
                                       Frame* f, ApiRecordFn record) noexcept {
  ThreadState& t = Thread();
  auto* top = static_cast<Frame*>(t.top);
  if (Guarded(t, top, domain, op)) {
    f->flags = kSkip;
    return;
  }
  f->flags = kCalls | kConsumerOnly | kRecordOnly;
  f->record = record;
  BeginCall(t, top, domain, op, data, f);
  data->correlation_id = f->info.correlation_id;
  data->phase_data = &f->phase_data;
  f->phase_data = 0;
  f->record_parent = t.record_top_id;
  t.record_top_id = f->info.correlation_id;
  // Taken last, so the record spans the runtime's work.
  f->begin_ns = clock::TimestampNs();
}

// ENTER of a call only the consumer wants (its active byte is
// kActiveConsumerOnly: api_hook.h's Enter chose EnterConsumerDomain): no
// callback, pool or tool callback to look up. A slot set since the stub
// read the byte is seen from the next call on, as a byte set then is. Its
// own function, with its own registers and stack frame, as is its EXIT
// (routed there by kConsumerOnly): the general path's prologue and checks
// cost this one nothing.
template <class Data, uint32_t kMax, auto kStringArgs, auto kHasStringArgs>
void EnterConsumerOnly(uint32_t domain, uint32_t op, Data* data,
                       Frame* f) noexcept {
  if (const ApiRecordFn record = InstalledRecordConsumer()) {
    return EnterRecordOnly(domain, op, data, f, record);
  }
  ThreadState& t = Thread();
  auto* top = static_cast<Frame*>(t.top);
  const ApiConsumerFn consumer = InstalledConsumer();
  if (Guarded(t, top, domain, op) || consumer == nullptr) {
    f->flags = kSkip;
    return;
  }
  // The count, not HasStringArgs: a table load here took two more
  // callee-saved registers than the switch's compares.
  const char** slots[kMax];
  if (kStringArgs(op, data, slots) != 0) {
    return ConsumerOnlyCallWithStrings<Data, kMax, kStringArgs, kHasStringArgs>(
        t, top, domain, op, data, f, consumer);
  }
  ConsumerOnlyCall<Data, kMax, kStringArgs, kHasStringArgs, false>(
      t, top, domain, op, data, f, consumer);
}

// kStringArgs: the domain's string-argument table (generated
// <d>_api::StringArgs), a template argument so that its switch is compiled
// into the hook; kHasStringArgs (<d>_api::HasStringArgs) tells first, in
// one load, whether the op has any.
template <class Data, uint32_t kMax, auto kStringArgs, auto kHasStringArgs>
void EnterImpl(uint32_t domain, uint32_t op, Data* data, Frame* f) noexcept {
  ThreadState& t = Thread();
  auto* top = static_cast<Frame*>(t.top);
  if (Guarded(t, top, domain, op)) {
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
  f->callback = cb;
  f->consumer = consumer;
  BeginCall(t, top, domain, op, data, f);

  data->correlation_id = f->info.correlation_id;
  data->phase_data = &f->phase_data;
  // The callbacks' slot starts zero, and begin_ns 0 (no record) unless set
  // below: one 16-byte store.
  std::memset(static_cast<void*>(&f->phase_data), 0, 2 * sizeof(uint64_t));
  if (cb != nullptr || consumer != nullptr) {
    f->flags |= kCalls;
    CopyStrings<Data, kMax, kStringArgs, kHasStringArgs>(f, data);
    UntracedScope untraced;
    data->phase = ACTIVITY_API_PHASE_ENTER;
    if (cb != nullptr) cb->fn(domain, op, data, cb->arg);
    if (consumer != nullptr) {
      f->info.phase = ACTIVITY_API_PHASE_ENTER;
      consumer(f->info);
    }
  }
  // Taken last, so the record spans the runtime's work, not the callbacks'.
  if (activity) f->begin_ns = clock::TimestampNs();
}

// The end of a call's frame: its string copies released, the enclosing call
// the innermost again.
inline void EndCall(ThreadState& t, Frame* f) noexcept {
  if ((f->flags & kStrings) && t.arena != nullptr) {
    t.arena->Release(f->arena_mark);
  }
  t.top = f->enclosing;
  t.top_id = f->info.parent_correlation_id;
}

// EXIT of a call EnterConsumerOnly put on the record consumer's path. Out
// of line: inlined, ExitConsumerOnly's other path paid for its registers.
template <class Data>
[[gnu::noinline]] void ExitRecordOnly(Data* data, Frame* f) noexcept {
  const uint64_t end_ns = clock::TimestampNs();
  ThreadState& t = Thread();
  t.record_top_id = f->record_parent;
  {
    UntracedScope untraced;
    data->phase = ACTIVITY_API_PHASE_EXIT;
    f->info.phase = ACTIVITY_API_PHASE_EXIT;
    f->record(f->info, f->begin_ns, end_ns, f->record_parent);
  }
  // No string copies to release (EndCall's other half).
  t.top = f->enclosing;
  t.top_id = f->info.parent_correlation_id;
}

// EXIT of a call EnterConsumerOnly handed to the consumer.
template <class Data>
[[gnu::noinline]] void ExitConsumerCall(Data* data, Frame* f) noexcept {
  ThreadState& t = Thread();
  {
    UntracedScope untraced;
    data->phase = ACTIVITY_API_PHASE_EXIT;
    f->info.phase = ACTIVITY_API_PHASE_EXIT;
    f->consumer(f->info);
  }
  EndCall(t, f);
}

// Both EXITs out of line, so that this test and a jump are all either pays
// for the other (GCC set up the consumer call's registers before the test).
template <class Data>
[[gnu::always_inline]] inline void ExitConsumerOnly(Data* data,
                                                    Frame* f) noexcept {
  if (f->flags & kRecordOnly) return ExitRecordOnly(data, f);
  return ExitConsumerCall(data, f);
}

template <class Data, int64_t (*kStatus)(uint32_t, const Data*) noexcept>
void ExitImpl(uint32_t domain, uint32_t op, Data* data, Frame* f) noexcept {
  ThreadState& t = Thread();
  const uint64_t end_ns = f->begin_ns != 0 ? clock::TimestampNs() : 0;
  {
    UntracedScope untraced;
    data->phase = ACTIVITY_API_PHASE_EXIT;
    if (f->flags & kCalls) {
      if (f->consumer != nullptr) {
        f->info.phase = ACTIVITY_API_PHASE_EXIT;
        f->consumer(f->info);
      }
      if (f->callback != nullptr) {
        f->callback->fn(domain, op, data, f->callback->arg);
      }
      if (f->flags & kToolCallback) {
        // Looked up again, as the pools are: removed during the call, not
        // run.
        if (const CallbackEntry* tool =
                activity::registry::ToolCallbackFor(domain, op)) {
          tool->fn(domain, op, data, tool->arg);
        }
      }
    }
    if (end_ns != 0) {
      // Looked up again: a pool closed during the call gets no record.
      const ActivityPools pools = activity::registry::PoolsFor(domain, op);
      if (pools.any()) {
        // Made in the pool's buffer, not on this stack and copied.
        const uint64_t id = f->info.correlation_id;
        const uint64_t begin_ns = f->begin_ns;
        const int64_t status = kStatus(op, data);
        EmitFilledActivityTo(pools, [=](void* dst) noexcept {
          StoreThreadRecord(dst, domain, op, id, begin_ns, end_ns, status);
        });
      }
    }
  }
  EndCall(t, f);
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
        EnterImpl<typename D::Data, D::kMaxStringArgs, D::StringArgs,
                  D::HasStringArgs>(kDomain, op,
                                    static_cast<typename D::Data*>(data), f);
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

template <uint32_t kDomain>
void EnterConsumerDomain(uint32_t op, void* data, CallFrame* frame) noexcept {
  auto* f = reinterpret_cast<Frame*>(frame);
  VisitApiDomain(
      kDomain,
      [&](auto d) {
        using D = decltype(d);
        EnterConsumerOnly<typename D::Data, D::kMaxStringArgs, D::StringArgs,
                          D::HasStringArgs>(
            kDomain, op, static_cast<typename D::Data*>(data), f);
      },
      [&] { f->flags = kSkip; });
}

template <uint32_t kDomain>
void ExitConsumerDomain(uint32_t, void* data, CallFrame* frame) noexcept {
  auto* f = reinterpret_cast<Frame*>(frame);
  VisitApiDomain(
      kDomain,
      [&](auto d) {
        using D = decltype(d);
        ExitConsumerOnly(static_cast<typename D::Data*>(data), f);
      },
      [] {});
}

#define ROCTRACER_INSTANTIATE_HOOKS(d, value)                             \
  template void EnterDomain<value>(uint32_t, void*, CallFrame*) noexcept; \
  template void ExitDomain<value>(uint32_t, void*, CallFrame*) noexcept;  \
  template void EnterConsumerDomain<value>(uint32_t, void*,               \
                                           CallFrame*) noexcept;          \
  template void ExitConsumerDomain<value>(uint32_t, void*, CallFrame*) noexcept;
ROCTRACER_FOR_EACH_API_DOMAIN(ROCTRACER_INSTANTIATE_HOOKS)
#undef ROCTRACER_INSTANTIATE_HOOKS

void EnterUnknownDomain(CallFrame* frame) noexcept {
  reinterpret_cast<Frame*>(frame)->flags = kSkip;
}

}  // namespace roctracer::hook
