// Operations the tracer has sent to the runtime and not yet reported: one
// ring per intercepted queue (and one for copies), filled by the submitting
// thread and emptied by whoever harvests completions. Each slot keeps its
// tracer-owned completion signal for reuse, so after warm-up a traced
// operation creates no signal and allocates nothing.
//
// One producer at a time (the runtime holds the queue's lock while it runs
// the interceptor; copies take the copy ring's mutex) and one harvester at a
// time (the ring's harvest mutex): the two meet only through `tail_` (what
// is published) and `head_` (what is free again), no lock between them.
#ifndef RUNTIME_GPU_OP_RING_H_
#define RUNTIME_GPU_OP_RING_H_

#include <hsa/hsa.h>

#include <atomic>
#include <cstdint>
#include <memory>

#include "runtime/gpu/observers.h"
#include "runtime/private/gpu_events.h"

namespace roctracer::gpu {

struct PendingOp {
  enum State : uint8_t { kFree, kPending, kReported };
  State state = kFree;
  OpKind kind = OpKind::kDispatch;
  uint8_t packet_type = 0;
  hsa_signal_t signal{0};      // the tracer's; 0 until first used
  hsa_signal_t app_signal{0};  // copies: the application's
  uint64_t op_id = 0;
  uint64_t correlation_id = 0;
  uint64_t kernel_object = 0;
  uint32_t grid[3] = {};
  uint16_t workgroup[3] = {};
  uint32_t private_segment_size = 0;
  uint32_t group_segment_size = 0;
  hsa_agent_t src_agent{0};
  hsa_agent_t dst_agent{0};
  int device_id = -1;
  uint64_t bytes = 0;
  uint32_t direction = 0;
  Interest interest{};
  // Copies: threads waiting on this copy's application signal, which will
  // report it themselves (under the copy ring's harvest mutex; the
  // completion thread leaves such a copy to them).
  uint32_t waiters = 0;
  // Copies: the ring position it was published at (how long ago, in the
  // completion thread's looks).
  uint64_t position = 0;
  // Copies: other work submitted since waits for its application signal (a
  // barrier packet's or a copy's dependency), so nobody may wait on it
  // through the intercepted waits (set under the harvest mutex).
  bool depended = false;
  // Copies: the submitting thread had waited on its previous copy (HIP waits
  // on each copy before the next): one nobody collected in time was left by
  // a waiter the machine's load kept off the cores, not by an application
  // that does not wait.
  bool submitter_waits = false;
  // Copies: the ring position (+ 1; 0: none) of the newest later copy given
  // this copy's tracer signal as a dependency in place of its application
  // signal (SubstituteCopyDependencies). The signal stays the dependents'
  // until that copy is reported: a reuse of this slot takes another one.
  uint64_t lent_until = 0;
  // Copies: barrier packets were given this copy's tracer signal as a
  // dependency (LendCopySignals); the registry counts those in flight, and a
  // reuse of this slot while any is takes another signal.
  bool lent_to_barriers = false;
  // Barrier packets: the copies' tracer signals they were given in place of
  // application signals (0: none), given back when the barrier is reported.
  hsa_signal_t borrowed[5] = {};
  // Barrier packets: no observer wanted it; followed only to give back what
  // it borrowed (neither reported nor counted).
  bool loans_only = false;
};

class OpRing {
 public:
  // `capacity`: a power of two.
  explicit OpRing(uint32_t capacity)
      : ops_(new PendingOp[capacity]), mask_(capacity - 1) {}

  // Producer: the next free slot, NULL when every slot is in flight or not
  // yet harvested. Publish() makes it visible to the harvester.
  PendingOp* Reserve() noexcept {
    const uint64_t t = tail_.load(std::memory_order_relaxed);
    if (t - head_.load(std::memory_order_acquire) > mask_) return nullptr;
    return &ops_[t & mask_];
  }
  // `order`: seq_cst where a later load elsewhere must not be reordered
  // before it (the copy ring's agreement with the completion thread).
  void Publish(std::memory_order order = std::memory_order_release) noexcept {
    const uint64_t t = tail_.load(std::memory_order_relaxed);
    ops_[t & mask_].state = PendingOp::kPending;
    tail_.store(t + 1, order);
  }

  // Harvester: reports each published op for which done(op) holds, oldest
  // first; stops at the first one not done unless `all`. Slots reported in
  // order become free. Returns how many it reported.
  template <class Done, class Report>
  size_t Harvest(bool all, Done done, Report report) {
    const uint64_t t = tail_.load(std::memory_order_acquire);
    uint64_t h = head_.load(std::memory_order_relaxed);
    size_t reported = 0;
    for (uint64_t i = h; i < t; ++i) {
      PendingOp& op = ops_[i & mask_];
      if (op.state == PendingOp::kReported) continue;
      if (!done(op)) {
        if (!all) break;
        continue;
      }
      report(op);
      op.state = PendingOp::kReported;
      ++reported;
    }
    while (h < t && ops_[h & mask_].state == PendingOp::kReported) {
      ops_[h & mask_].state = PendingOp::kFree;
      ++h;
    }
    head_.store(h, std::memory_order_release);
    return reported;
  }

  // Harvester: fn(op) for every published op not reported yet.
  template <class Fn>
  void ForEachPending(Fn fn) {
    const uint64_t t = tail_.load(std::memory_order_acquire);
    for (uint64_t i = head_.load(std::memory_order_relaxed); i < t; ++i) {
      PendingOp& op = ops_[i & mask_];
      if (op.state == PendingOp::kPending) fn(op);
    }
  }

  // Harvester: the position of the newest published op not reported yet
  // for which pred(op) holds, looking at most at the `limit` newest;
  // kNone if none. A position stays the op's until the harvester frees
  // its slot (Live).
  static constexpr uint64_t kNone = ~uint64_t{0};
  template <class Pred>
  uint64_t FindNewestPending(Pred pred, uint32_t limit) {
    const uint64_t t = tail_.load(std::memory_order_acquire);
    const uint64_t h = head_.load(std::memory_order_relaxed);
    for (uint64_t i = t; i > h && t - i <= limit; --i) {
      const PendingOp& op = ops_[(i - 1) & mask_];
      if (op.state == PendingOp::kPending && pred(op)) return i - 1;
    }
    return kNone;
  }
  // Harvester: calls fn on every pending op among the newest `limit`.
  template <class Fn>
  void ForNewestPending(Fn fn, uint32_t limit) {
    const uint64_t t = tail_.load(std::memory_order_acquire);
    const uint64_t h = head_.load(std::memory_order_relaxed);
    for (uint64_t i = t; i > h && t - i <= limit; --i) {
      PendingOp& op = ops_[(i - 1) & mask_];
      if (op.state == PendingOp::kPending) fn(op);
    }
  }
  // Harvester: whether the op at `position` has not been freed yet.
  bool Live(uint64_t position) const noexcept {
    return position >= head_.load(std::memory_order_relaxed);
  }
  PendingOp& At(uint64_t position) noexcept { return ops_[position & mask_]; }

  // Harvester: forgets every pending op (they will never complete).
  size_t Abandon() {
    size_t n = 0;
    ForEachPending([&n](PendingOp& op) {
      op.state = PendingOp::kReported;
      ++n;
    });
    Harvest(
        true, [](PendingOp&) { return false; }, [](PendingOp&) {});
    return n;
  }

  // The position the next published op will take; with the producer's
  // lock held, the positions from here on are free (up to Freed() +
  // capacity()) and stay so until the producer reserves them.
  uint64_t Published(
      std::memory_order order = std::memory_order_acquire) const noexcept {
    return tail_.load(order);
  }
  uint64_t Freed() const noexcept {
    return head_.load(std::memory_order_acquire);
  }

  // Published, not yet freed (may lag behind the harvester by a few).
  uint64_t InFlight() const noexcept {
    return tail_.load(std::memory_order_acquire) -
           head_.load(std::memory_order_acquire);
  }
  uint32_t capacity() const noexcept {
    return static_cast<uint32_t>(mask_ + 1);
  }

  // Every slot, for destroying the signals once nothing is in flight.
  template <class Fn>
  void ForEachSlot(Fn fn) {
    for (uint64_t i = 0; i <= mask_; ++i) fn(ops_[i]);
  }

 private:
  std::unique_ptr<PendingOp[]> ops_;
  const uint64_t mask_;
  alignas(64) std::atomic<uint64_t> tail_{0};
  alignas(64) std::atomic<uint64_t> head_{0};
};

}  // namespace roctracer::gpu

#endif  // RUNTIME_GPU_OP_RING_H_
