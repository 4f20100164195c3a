// Everything the SDK keeps per thread, in one block per thread reached
// through a single initial-exec TLS pointer: one %fs-relative load on the
// traced-call path (a general-dynamic thread_local costs a __tls_get_addr
// call in a shared library, ~7 ns here, and the 17 KB block is too large for
// the static TLS glibc keeps for dlopen'ed libraries). The block is
// allocated on the thread's first use (warm-up) and recycled for another
// thread at thread exit (never freed, so a stopping context can scan every
// block without a lock).
#ifndef ROCPROFILER_SDK_IMPL_THREAD_STATE_H_
#define ROCPROFILER_SDK_IMPL_THREAD_STATE_H_

#include <atomic>
#include <cstddef>
#include <cstdint>

#include "rocprofiler-sdk/fwd.h"
#include "runtime/intercept/trace_guard.h"
#include "sdk/context.h"

namespace rocprofiler_sdk {

// Calls nested deeper than this on one thread are not reported (their ENTER
// and EXIT are both skipped); counted in SkippedCalls().
constexpr uint32_t kMaxCallDepth = 16;
// External correlation IDs per context per thread.
constexpr uint32_t kMaxExternalDepth = 16;

struct ThreadState;
struct CallRefs;           // retirement.h
struct MarkerRangeThread;  // marker_ranges.cc
struct HipStreamThread;    // hip_streams.cc

// One traced call in progress on this thread: what every traced call's
// ENTER and EXIT read and write, in 64 bytes (a frame's address is its
// index shifted; the per-context values are in FrameUsers).
struct Frame {
  uint64_t correlation_id;
  uint64_t called;    // bit i: context i got ENTER
  uint64_t buffered;  // bit i: context i records the call in a buffer
  // Bit i: context i records the call in its *_API_EXT buffer (the HIP
  // kinds' records with arguments).
  uint64_t buffered_ext;
  uint64_t start_ns;   // when `buffered` or `buffered_ext`: the call's start
  uint64_t requested;  // bit i: context i's external ID came from its request
  // The ID is in a record other than this call's own (a memory allocation
  // or GPU work it submitted): it is retired at EXIT (retirement.h).
  bool seen;
  // The call's (kind, operation) as MapCall gave them at ENTER, in the
  // padding after `seen`, so that EXIT reads them from the frame it matched
  // instead of mapping the call again (KindOp without args_size).
  uint16_t kind;
  int32_t op;
  // Held while GPU work submitted from this call is outstanding; the
  // frame's own reference is dropped at EXIT (retirement.h).
  CallRefs* refs;

  // Context i's external ID for this call: the one its request service gave,
  // else the top of the thread's stack.
  rocprofiler_user_data_t External(const ThreadState& t, int i) const noexcept;
};
static_assert(sizeof(Frame) == 64, "a frame is indexed with a shift");

// The per-context values of the frame of the same index: only callback
// deliveries and external-ID requests touch them.
struct FrameUsers {
  rocprofiler_user_data_t user[kMaxContexts];
  rocprofiler_user_data_t requested_external[kMaxContexts];
};

// The MEMORY_ALLOCATION records of the allocation or free call in progress
// on this thread (memory_allocation.h): one at a time (the runtime's
// allocation calls do not nest through its API table).
struct MemoryCall {
  uint64_t call_id;         // the HSA call's correlation ID; 0: none
  uint32_t frame;           // its frame's index
  int32_t op;               // rocprofiler_memory_allocation_operation_t
  uint64_t correlation_id;  // what the records carry
  uint64_t ancestor;
  uint64_t called;    // bit i: context i got ENTER
  uint64_t buffered;  // bit i: context i records it in a buffer
  uint64_t agent;
  uint64_t size;
  uint64_t address;  // known at ENTER for a free
  const void* out;   // where the runtime stores an allocation's address
  bool out_is_handle;
  uint64_t start_ns;
  rocprofiler_user_data_t user[kMaxContexts];
  rocprofiler_user_data_t external[kMaxContexts];
};

// A SCRATCH_MEMORY START's callbacks waiting for its END on this thread
// (gpu_kinds.cc): one per operation (an allocation may reclaim other queues'
// scratch between its START and END).
struct ScratchOpen {
  uint64_t called;  // bit i: context i got ENTER
  uint64_t correlation_id;
  uint64_t ancestor;
  rocprofiler_user_data_t user[kMaxContexts];
  rocprofiler_user_data_t external[kMaxContexts];
};
constexpr int kScratchOps = 3;  // alloc, free, async reclaim

struct ThreadState {
  // Index + 1 of the context whose callback this thread is delivering, else
  // 0: what stopping a context waits on (dispatch.cc).
  std::atomic<uint32_t> delivering;
  // Non-zero while this thread is inside stop or finalize (StopScope): a
  // stopping thread does not wait for its deliveries, which cannot finish
  // until it returns (two callbacks stopping at once would wait for each
  // other).
  std::atomic<uint32_t> stopping;
  uint32_t depth;
  // The correlation ID of this thread's innermost open rocTX range as the
  // SDK reports it (MARKER_CORE_RANGE_API), 0 when none: as in
  // rocprofiler-sdk 1.0.0, the ancestor of the calls the thread makes while
  // it is open (AncestorOf); on the line of `depth`, which every traced
  // call reads. Written on the rocTX path (marker_ranges.cc), by another
  // thread when it stops a process range this one started. With
  // kRangeClosedElsewhere while ranges of this thread closed by another
  // thread are remembered for the calls in progress here.
  std::atomic<uint64_t> open_range;
  Frame frames[kMaxCallDepth];
  // open_range as frames[i]'s call's ENTER found it: as in rocprofiler-sdk
  // 1.0.0, a call's ancestor is fixed when it begins (AncestorOf), so a
  // range stopped during the call (on another thread) stays its ancestor at
  // EXIT, in its records and in its GPU work's. Beside the frames rather
  // than in them: a frame is 64 bytes, indexed with a shift.
  uint64_t open_range_at_enter[kMaxCallDepth];
  FrameUsers frame_users[kMaxCallDepth];  // of frames[i]
  uint32_t external_depth[kMaxContexts];
  rocprofiler_user_data_t external[kMaxContexts][kMaxExternalDepth];
  MemoryCall memory;
  // ScratchOpen[kScratchOps], allocated at the thread's first scratch
  // callback (few threads ever raise one); kept with the block.
  ScratchOpen* scratch;
  // The thread's rocTX ranges and HIP stream calls in progress, allocated at
  // its first traced one (marker_ranges.h, hip_streams.h); kept with the
  // block.
  MarkerRangeThread* marker_ranges;
  HipStreamThread* hip_streams;

  rocprofiler_user_data_t ExternalTop(int context) const noexcept {
    const uint32_t d = external_depth[context];
    return d == 0 ? rocprofiler_user_data_t{0} : external[context][d - 1];
  }
};

inline rocprofiler_user_data_t Frame::External(const ThreadState& t,
                                               int i) const noexcept {
  return (requested >> i) & 1u
             ? t.frame_users[this - t.frames].requested_external[i]
             : t.ExternalTop(i);
}

// Set in ThreadState::open_range while the thread remembers ranges of its
// own that another thread closed (a process range stopped there): a call in
// progress here that began before such a close, on the interception layer's
// record path (no ENTER the SDK saw), still has that range as its ancestor
// (RecordPathAncestor). The top bit, so that every reader's `range > ancestor`
// test takes the rare path below, which strips it: the traced-call path
// pays nothing for it.
constexpr uint64_t kRangeClosedElsewhere = uint64_t{1} << 63;

// On thread `t` (its own thread), with no call on the record path in
// progress there (roctracer::hook::CurrentRecordCallId() 0): forgets the
// ranges of `t` another thread closed, which only such a call that began
// before the close needs, and clears kRangeClosedElsewhere
// (marker_ranges.cc).
[[gnu::cold]] void ForgetRangesClosedElsewhere(ThreadState& t) noexcept;

// The innermost range open on thread `t` (its own thread) when the call on
// the record path with correlation ID `id` began, a frame for which is
// being pushed (PushRecordPathFrame) while kRangeClosedElsewhere is set in
// `range`, the open-range word: one another thread closed since the call
// began included (RecordPathAncestor, with the call's start from the
// interception layer's frame of it). `range` without the flag when its
// start is not found.
[[gnu::cold]] uint64_t RangeAtRecordCallStart(ThreadState& t, uint64_t range,
                                              uint64_t id) noexcept;

// The rare case out of line: the traced-call path keeps only a load and a
// compare. It is also where thread `t` forgets the ranges another thread
// closed once no call on the record path is in progress: a thread that
// neither opens a range nor ends a record-path call again would otherwise
// come here on every call while the flag stays set.
[[gnu::noinline, gnu::cold]] inline uint64_t InnerOfCallAndRange(
    ThreadState& t, uint64_t ancestor, uint64_t range, uint64_t id) noexcept {
  if ((t.open_range.load(std::memory_order_relaxed) & kRangeClosedElsewhere) !=
          0 &&
      roctracer::hook::CurrentRecordCallId() == 0) {
    ForgetRangesClosedElsewhere(t);
  }
  range &= ~kRangeClosedElsewhere;
  return range > ancestor && range < id ? range : ancestor;
}

// `ancestor`, the call below the call with correlation ID `id` on thread
// `t`, or `range`, the thread's innermost open rocTX range, when that
// opened later, and before the call began (a thread's IDs grow with time; a
// range opened inside the call is no ancestor of it).
inline uint64_t WithRange(ThreadState& t, uint64_t range, uint64_t ancestor,
                          uint64_t id) noexcept {
  if (__builtin_expect(range > ancestor, 0)) {
    return InnerOfCallAndRange(t, ancestor, range, id);
  }
  return ancestor;
}

// The same with the range open now (a call the SDK has no ENTER of).
inline uint64_t WithOpenRange(ThreadState& t, uint64_t ancestor,
                              uint64_t id) noexcept {
  return WithRange(t, t.open_range.load(std::memory_order_relaxed), ancestor,
                   id);
}

// The ancestor of the call with correlation ID `id` whose frame is
// frames[level] of thread `t` (its own thread): the call below it, or the
// thread's innermost rocTX range open at its ENTER (open_range_at_enter,
// stored by whoever pushed the frame).
inline uint64_t AncestorOf(ThreadState& t, ptrdiff_t level,
                           uint64_t id) noexcept {
  return WithRange(t, t.open_range_at_enter[level],
                   level > 0 ? t.frames[level - 1].correlation_id : 0, id);
}

// The ancestor a call whose frame is about to be pushed at frames[level]
// gets (AncestorOf once its ENTER has stored the open range).
inline uint64_t AncestorAtEnter(ThreadState& t, ptrdiff_t level,
                                uint64_t id) noexcept {
  return WithOpenRange(t, level > 0 ? t.frames[level - 1].correlation_id : 0,
                       id);
}

// Before a frame is pushed: a call on the interception layer's record path
// (api_consumer.h's SetApiRecordConsumer: the SDK saw no ENTER of it) that
// encloses this one and has no frame yet gets a bare one first, so that the
// frame below a call's is always the call it was made from (its ancestor)
// and GPU work it submitted finds it (HoldCall). A thread's correlation IDs
// grow with time: an enclosing call with a larger ID than the top frame's
// is inside it. RecordBufferedCall ends such a frame.
// `parent`: the ApiCallInfo's parent_correlation_id (any enclosing traced
// call: none, the common case, settles it without the lookup).
inline void PushRecordPathFrame(ThreadState& t, uint64_t parent) noexcept {
  if (__builtin_expect(parent == 0, 1)) return;
  const uint64_t enclosing = roctracer::hook::CurrentRecordCallId();
  if (__builtin_expect(enclosing == 0, 1)) return;
  const uint32_t depth = t.depth;
  if (depth >= kMaxCallDepth ||
      (depth > 0 && t.frames[depth - 1].correlation_id >= enclosing)) {
    return;
  }
  Frame& f = t.frames[depth];
  // The range open when the enclosing call began: the range open now,
  // unless another thread closed one of this thread's since (rare, out of
  // line), so that the frame gives the call's GPU work, memory calls and
  // scratch events the ancestor its record gets.
  uint64_t range = t.open_range.load(std::memory_order_relaxed);
  if (__builtin_expect((range & kRangeClosedElsewhere) != 0, 0)) {
    range = RangeAtRecordCallStart(t, range, enclosing);
  }
  t.open_range_at_enter[depth] = range;
  f.correlation_id = enclosing;
  f.called = 0;
  f.buffered = 0;
  f.buffered_ext = 0;
  f.requested = 0;
  f.seen = false;
  f.kind = 0;
  f.op = 0;
  f.refs = nullptr;
  t.depth = depth + 1;
}

// This thread's block; NULL only if its one-time allocation failed (then the
// thread's calls are not reported and its external-ID calls fail).
ThreadState* Tls() noexcept;

// Runs `fn(block, ctx)` on every block ever allocated (in use or not),
// without a lock.
void ForEachThreadState(void (*fn)(ThreadState&, void*), void* ctx) noexcept;

}  // namespace rocprofiler_sdk

#endif  // ROCPROFILER_SDK_IMPL_THREAD_STATE_H_
