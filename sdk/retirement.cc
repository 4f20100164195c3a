#include "sdk/retirement.h"

#include <cstdlib>
#include <new>

#include "rocprofiler-sdk/buffer_tracing.h"
#include "runtime/clock/clock.h"
#include "sdk/buffers.h"

namespace rocprofiler_sdk {

void Retire(uint64_t correlation_id, uint64_t ns, uint64_t contexts) noexcept {
  if (correlation_id == 0) return;
  uint64_t mask = contexts;
  if (mask == 0) return;
  rocprofiler_buffer_tracing_correlation_id_retirement_record_t r{};
  r.size = sizeof(r);
  r.kind = ROCPROFILER_BUFFER_TRACING_CORRELATION_ID_RETIREMENT;
  r.timestamp = ns;
  r.internal_correlation_id = correlation_id;
  while (mask != 0) {
    const int i = __builtin_ctzll(mask);
    mask &= mask - 1;
    WriteRecord(g_contexts[i]
                    .buffer_services
                        [ROCPROFILER_BUFFER_TRACING_CORRELATION_ID_RETIREMENT]
                    .buffer,
                &r, sizeof(r));
  }
}

CallRefs* HoldCall(ThreadState& t, uint64_t correlation_id,
                   bool hold) noexcept {
  if (correlation_id == 0) return nullptr;
  const uint32_t depth = t.depth < kMaxCallDepth ? t.depth : kMaxCallDepth;
  Frame* frame = nullptr;
  for (uint32_t i = depth; i-- > 0;) {
    if (t.frames[i].correlation_id == correlation_id) {
      frame = &t.frames[i];
      break;
    }
  }
  if (frame == nullptr) return nullptr;
  frame->seen = true;
  if (!hold || RetirementContexts() == 0) return nullptr;
  if (frame->refs == nullptr) {
    auto* refs = static_cast<CallRefs*>(std::malloc(sizeof(CallRefs)));
    if (refs == nullptr) return nullptr;
    new (&refs->refs) std::atomic<uint32_t>(1);  // the frame's
    refs->correlation_id = correlation_id;
    refs->owner = &t;
    refs->retired_ns = 0;
    refs->contexts = 0;
    refs->next = nullptr;
    frame->refs = refs;
  }
  frame->refs->refs.fetch_add(1, std::memory_order_relaxed);
  return frame->refs;
}

void ReleaseCall(CallRefs* refs) noexcept {
  if (refs->refs.fetch_sub(1, std::memory_order_acq_rel) != 1) return;
  const uint64_t now = roctracer::clock::TimestampNs();
  const uint64_t contexts = RetirementContexts();
  if (refs->owner == Tls() || contexts == 0) {
    Retire(refs->correlation_id, now, contexts);
    std::free(refs);
    return;
  }
  refs->retired_ns = now;
  refs->contexts = contexts;
  std::atomic<CallRefs*>& list = refs->owner->retired;
  CallRefs* head = list.load(std::memory_order_relaxed);
  do {
    refs->next = head;
  } while (!list.compare_exchange_weak(head, refs, std::memory_order_release,
                                       std::memory_order_relaxed));
}

namespace {

// Writes `t`'s handed retirements, oldest first; true when there were any.
bool TakeAndWrite(ThreadState& t) noexcept {
  CallRefs* newest = t.retired.exchange(nullptr, std::memory_order_acquire);
  if (newest == nullptr) return false;
  CallRefs* oldest = nullptr;
  while (newest != nullptr) {
    CallRefs* next = newest->next;
    newest->next = oldest;
    oldest = newest;
    newest = next;
  }
  while (oldest != nullptr) {
    CallRefs* next = oldest->next;
    Retire(oldest->correlation_id, oldest->retired_ns, oldest->contexts);
    std::free(oldest);
    oldest = next;
  }
  return true;
}

}  // namespace

void WriteRetiredBy(ThreadState& t) noexcept { TakeAndWrite(t); }

bool WriteAllRetired() noexcept {
  bool wrote = false;
  ForEachThreadState(
      [](ThreadState& t, void* any) {
        if (TakeAndWrite(t)) *static_cast<bool*>(any) = true;
      },
      &wrote);
  return wrote;
}

}  // namespace rocprofiler_sdk
