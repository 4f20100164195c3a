#include "sdk/dispatch.h"

#include <pthread.h>
#include <sched.h>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include <atomic>
#include <cstddef>
#include <cstdlib>
#include <cstring>

#include "ext/prof_protocol.h"
#include "hip_api_data.h"
#include "hip_api_tables.h"
#include "hsa_api_data.h"
#include "hsa_api_tables.h"
#include "rocprofiler-sdk/callback_tracing.h"
#include "roctracer_roctx.h"
#include "runtime/clock/clock.h"
#include "runtime/intercept/api_consumer.h"
#include "runtime/platform/asymmetric_fence.h"
#include "runtime/platform/hot_tls.h"
#include "runtime/platform/thread_exit.h"
#include "runtime/platform/thread_id.h"
#include "sdk/buffers.h"
#include "sdk/context.h"
#include "sdk/derived_kinds.h"
#include "sdk/kinds.h"
#include "sdk/marker_ranges.h"
#include "sdk/marker_requests.h"
#include "sdk/memory_allocation.h"
#include "sdk/retirement.h"
#include "sdk/thread_state.h"

namespace rocprofiler_sdk {
namespace {

// The payload unions are generated from the same plan as roctracer's data
// structs: one memcpy moves the arguments, only the op's own member's bytes
// (HIP's union is 816 bytes for 5.2.3; copying it whole twice a call was
// most of a callback's cost).
static_assert(sizeof(rocprofiler_hsa_api_args_t) ==
                  sizeof(hsa_api_data_t::args),
              "HSA args union layout");
static_assert(sizeof(rocprofiler_hip_api_args_t) ==
                  sizeof(hip_api_data_t::args),
              "HIP args union layout");
static_assert(offsetof(hsa_api_data_t, args) -
                      offsetof(hsa_api_data_t, hsa_status_t_retval) >=
                  sizeof(rocprofiler_hsa_api_retval_t),
              "HSA retval union layout");
// HIP's retval union comes after its args: the bytes copied must stay
// inside the record.
static_assert(offsetof(hip_api_data_t, hipError_t_retval) +
                      sizeof(rocprofiler_hip_api_retval_t) <=
                  sizeof(hip_api_data_t),
              "HIP retval union layout");

// The op's own argument bytes, `size` of `capacity` (the union's size), in
// 16-byte pieces the compiler inlines: a call's arguments are a few words,
// and the library's memcpy (through its fortified entry) cost more than the
// copy. The last piece may take bytes past the op's own, never past the
// union.
inline void CopyArgs(void* dst, const void* src, size_t size,
                     size_t capacity) noexcept {
  auto* d = static_cast<char*>(dst);
  const auto* s = static_cast<const char*>(src);
  size_t i = 0;
  for (; i < size && i + 16 <= capacity; i += 16) std::memcpy(d + i, s + i, 16);
  if (i < size) std::memcpy(d + i, s + i, size - i);
}

// The op's result, `size` bytes (the generated RetvalSize; 0 for void), into a
// payload's or record's retval union of kCapacity bytes, the rest zero: the
// stub writes only the op's own member of the runtime's union, whose other
// bytes are whatever its stack held. One 8-byte load masked to the result's
// width (the runtime's union has at least 8 bytes; the mask from a table, one
// instruction where computing it took five); only a result wider than 8
// bytes (HIP's hipChannelFormatDesc) takes the byte copy.
constexpr uint64_t kRetvalMasks[9] = {
    0,           0xff,         0xffff,         0xffffff,
    0xffffffff,  0xffffffffff, 0xffffffffffff, 0xffffffffffffff,
    ~uint64_t{0}};
template <size_t kCapacity>
inline void CopyRetval(void* dst, const void* src, size_t size) noexcept {
  static_assert(kCapacity % 8 == 0, "whole words");
  auto* d = static_cast<char*>(dst);
  if (__builtin_expect(size > 8, 0)) {
    char bytes[kCapacity] = {};
    std::memcpy(bytes, src, size < kCapacity ? size : kCapacity);
    std::memcpy(d, bytes, kCapacity);
    return;
  }
  uint64_t word;
  std::memcpy(&word, src, sizeof(word));
  word &= kRetvalMasks[size];
  std::memcpy(d, &word, sizeof(word));
  for (size_t i = 8; i < kCapacity; i += 8) {
    const uint64_t zero = 0;
    std::memcpy(d + i, &zero, sizeof(zero));
  }
}

// Uninitialised storage: HIP's args union holds types with constructors.
template <class T>
union Storage {
  Storage() noexcept {}
  T value;
};

// Every block ever allocated, in a list that only grows: a stopping context
// scans it without a lock. `in_use` lets an exiting thread hand its block to
// the next new thread.
struct ThreadStateNode {
  ThreadState state;  // first: a ThreadState* is a ThreadStateNode*
  std::atomic<bool> in_use;
  ThreadStateNode* next;
};
std::atomic<ThreadStateNode*> g_thread_states{nullptr};

}  // namespace

ROCTRACER_HOT_TLS ThreadState* t_state = nullptr;

namespace {

// Recycles the block of an exiting thread (runtime/platform/thread_exit.h: a
// call traced from another thread_local destructor after this ran just takes a
// block again).
void ReleaseThreadState(void* state) noexcept {
  if (t_state == state) t_state = nullptr;
  auto* node = reinterpret_cast<ThreadStateNode*>(state);
  node->state.delivering.store(0, std::memory_order_release);
  node->state.stopping.store(0, std::memory_order_release);
  node->in_use.store(false, std::memory_order_release);
}

// In a fork child only the forking thread exists: the blocks of the others
// describe callbacks and stops that will never finish there (a child exiting
// would wait for them in its finalize). They are released for reuse.
void ForgetOtherThreadsInChild() noexcept {
  for (ThreadStateNode* n = g_thread_states.load(std::memory_order_acquire);
       n != nullptr; n = n->next) {
    if (&n->state == t_state) continue;
    ReleaseThreadState(&n->state);
  }
}

struct RegisterForkHandler {
  RegisterForkHandler() {
    pthread_atfork(nullptr, nullptr, &ForgetOtherThreadsInChild);
  }
} g_register_fork_handler;

ThreadState* AllocateThreadState() noexcept {
  // Before this thread's first delivery (asymmetric_fence.h).
  roctracer::platform::InitAsymmetricFence();
  ThreadStateNode* node = nullptr;
  for (ThreadStateNode* n = g_thread_states.load(std::memory_order_acquire);
       n != nullptr; n = n->next) {
    bool expected = false;
    if (n->in_use.compare_exchange_strong(expected, true)) {
      node = n;
      break;
    }
  }
  if (node != nullptr) {
    // A recycled block starts clean: no frames, no external IDs. Field by
    // field: a stopping context may be reading `delivering` right now (it
    // scans every block), and its release already zeroed it atomically.
    ThreadState& s = node->state;
    s.depth = 0;
    std::memset(static_cast<void*>(s.frames), 0, sizeof(s.frames));
    std::memset(static_cast<void*>(s.frame_users), 0, sizeof(s.frame_users));
    std::memset(s.external_depth, 0, sizeof(s.external_depth));
    std::memset(static_cast<void*>(s.external), 0, sizeof(s.external));
    s.memory.call_id = 0;
    if (s.scratch != nullptr) {
      for (int i = 0; i < kScratchOps; ++i) s.scratch[i].called = 0;
    }
    ResetDerivedKinds(s);
  } else {
    node = static_cast<ThreadStateNode*>(std::calloc(1, sizeof(*node)));
    if (node == nullptr) return nullptr;
    node->in_use.store(true, std::memory_order_relaxed);
    ThreadStateNode* head = g_thread_states.load(std::memory_order_relaxed);
    do {
      node->next = head;
    } while (!g_thread_states.compare_exchange_weak(
        head, node, std::memory_order_release, std::memory_order_relaxed));
  }
  // Out of keys: the block is never recycled.
  (void)roctracer::platform::ReleaseAtThreadExit<&ReleaseThreadState>(
      &node->state);
  t_state = &node->state;
  return &node->state;
}

std::atomic<uint64_t> g_skipped{0};

// Builds the payload of one phase on the caller's stack, only when some
// context will see it.
class Payload {
 public:
  // `args_size`: the op's member of the runtime's argument union
  // (KindOp::args_size).
  Payload(const roctracer::ApiCallInfo& info, bool exit,
          size_t args_size) noexcept
      : info_(info), exit_(exit), args_size_(args_size) {}

  void* Get() noexcept {
    if (ptr_ != nullptr) return ptr_;
    switch (info_.domain) {
      case ACTIVITY_DOMAIN_HSA_API: {
        auto& p = u_.hsa.value;
        const auto* d = static_cast<const hsa_api_data_t*>(info_.api_data);
        p.size = sizeof(p);
        CopyArgs(&p.args, &d->args, args_size_, sizeof(p.args));
        if (exit_) {
          CopyRetval<sizeof(p.retval)>(
              &p.retval, &d->hsa_status_t_retval,
              roctracer::hsa_api::RetvalSize(info_.op));
        } else {
          std::memset(static_cast<void*>(&p.retval), 0, sizeof(p.retval));
        }
        ptr_ = &p;
        break;
      }
      case ACTIVITY_DOMAIN_HIP_API: {
        auto& p = u_.hip.value;
        const auto* d = static_cast<const hip_api_data_t*>(info_.api_data);
        p.size = sizeof(p);
        CopyArgs(&p.args, &d->args, args_size_, sizeof(p.args));
        if (exit_) {
          CopyRetval<sizeof(p.retval)>(
              &p.retval, &d->hipError_t_retval,
              roctracer::hip_api::RetvalSize(info_.op));
        } else {
          std::memset(static_cast<void*>(&p.retval), 0, sizeof(p.retval));
        }
        ptr_ = &p;
        break;
      }
      default: {
        auto& p = u_.marker.value;
        std::memset(static_cast<void*>(&p), 0, sizeof(p));
        p.size = sizeof(p);
        if (info_.domain == roctracer::kRoctxRequestDomain) {
          FillMarkerRequestArgs(info_.op, info_.api_data, &p.args);
          ptr_ = &p;
          break;
        }
        const auto* d = static_cast<const roctx_api_data_t*>(info_.api_data);
        switch (info_.op) {
          case ROCTX_API_ID_roctxMarkA:
            p.args.roctxMarkA.message = d->args.roctxMarkA.message;
            break;
          case ROCTX_API_ID_roctxRangePushA:
            p.args.roctxRangePushA.message = d->args.roctxRangePushA.message;
            // The level push returned, which the bridge puts in the ID slot.
            if (exit_)
              p.retval.int32_t_retval = static_cast<int32_t>(d->args.id);
            break;
          case ROCTX_API_ID_roctxRangePop:
            if (exit_)
              p.retval.int32_t_retval = static_cast<int32_t>(d->args.id);
            break;
          case ROCTX_API_ID_roctxRangeStartA:
            p.args.roctxRangeStartA.message = d->args.roctxRangeStartA.message;
            if (exit_)
              p.retval.roctx_range_id_t_retval = d->args.roctxRangeStartA.id;
            break;
          case ROCTX_API_ID_roctxRangeStop:
            p.args.roctxRangeStop.id = d->args.roctxRangeStop.id;
            break;
          default:
            break;
        }
        ptr_ = &p;
        break;
      }
    }
    return ptr_;
  }

 private:
  union U {
    U() noexcept {}
    Storage<rocprofiler_callback_tracing_hsa_api_data_t> hsa;
    Storage<rocprofiler_callback_tracing_hip_api_data_t> hip;
    Storage<rocprofiler_callback_tracing_marker_api_data_t> marker;
  } u_;
  const roctracer::ApiCallInfo& info_;
  bool exit_;
  size_t args_size_;
  void* ptr_ = nullptr;
};

// The record a callback gets by value. The compiler copies it into the
// argument area in 16-byte pieces; assembled field by field (8- and 4-byte
// stores) just before, each piece's load cannot be forwarded from those
// stores and waits for them to reach the cache, which made this copy a
// quarter of a callback's cost. So it is written in the same 16-byte pieces.
static_assert(
    sizeof(rocprofiler_callback_tracing_record_t) == 64 &&
        offsetof(rocprofiler_callback_tracing_record_t, thread_id) == 8 &&
        offsetof(rocprofiler_callback_tracing_record_t, correlation_id) == 16 &&
        offsetof(rocprofiler_callback_tracing_record_t, kind) == 40 &&
        offsetof(rocprofiler_callback_tracing_record_t, operation) == 44 &&
        offsetof(rocprofiler_callback_tracing_record_t, phase) == 48 &&
        offsetof(rocprofiler_callback_tracing_record_t, payload) == 56,
    "rocprofiler-sdk 1.0.0's callback record layout");
inline rocprofiler_callback_tracing_record_t Record(
    uint64_t context, uint64_t thread_id,
    const rocprofiler_correlation_id_t& correlation_id, const KindOp& ko,
    bool exit, void* payload) noexcept {
  const uint64_t words[8] = {context,
                             thread_id,
                             correlation_id.internal,
                             correlation_id.external.value,
                             correlation_id.ancestor,
                             uint64_t{static_cast<uint32_t>(ko.kind)} |
                                 uint64_t{static_cast<uint32_t>(ko.op)} << 32,
                             exit ? uint64_t{ROCPROFILER_CALLBACK_PHASE_EXIT}
                                  : uint64_t{ROCPROFILER_CALLBACK_PHASE_ENTER},
                             reinterpret_cast<uint64_t>(payload)};
  rocprofiler_callback_tracing_record_t record;
#if defined(__SSE2__)
  for (int i = 0; i < 4; ++i) {
    _mm_storeu_si128(reinterpret_cast<__m128i*>(&record) + i,
                     _mm_set_epi64x(static_cast<long long>(words[2 * i + 1]),
                                    static_cast<long long>(words[2 * i])));
  }
#else
  std::memcpy(&record, words, sizeof(record));
#endif
  return record;
}

inline void Deliver(uint64_t mask, const KindOp& ko, bool exit,
                    const roctracer::ApiCallInfo& info, ThreadState& t,
                    Frame* frame, bool record_called) noexcept {
  Payload payload(info, exit, ko.args_size);
  const uint64_t thread_id = roctracer::platform::ThreadId();
  rocprofiler_correlation_id_t correlation_id;
  correlation_id.internal = info.correlation_id;
  // The call this one was made from on this thread (the frame below).
  const ptrdiff_t level = frame - t.frames;
  correlation_id.ancestor = AncestorOf(t, level, info.correlation_id);
  // Non-zero when this delivery is nested in a callback's (an annotation the
  // callback made).
  const uint32_t outer = t.delivering.load(std::memory_order_relaxed);
  FrameUsers& users = t.frame_users[level];
  while (mask != 0) {
    const int i = __builtin_ctzll(mask);
    mask &= mask - 1;
    const Service& s = g_contexts[i].services[ko.kind];
    if (!s.Traces(ko.op)) continue;
    if (!BeginDelivery(t, i, false, outer)) continue;
    correlation_id.external = frame->External(t, i);
    if (record_called) {
      users.user[i].value = 0;
      frame->called |= uint64_t{1} << i;
    }
    s.callback(Record(static_cast<uint64_t>(i) + 1, thread_id, correlation_id,
                      ko, exit, payload.Get()),
               &users.user[i], s.callback_data);
    EndDelivery(t, outer);
  }
}

// The external-correlation request service for an API call: the contexts
// in `mask` that trace it (by callback or buffer) are asked, before the ENTER
// callbacks (API kinds are numbered as the request kinds).
void RequestApiExternalIds(uint64_t mask, const KindOp& ko,
                           const roctracer::ApiCallInfo& info, ThreadState& t,
                           Frame* frame) noexcept {
  const uint64_t kind_mask =
      g_kind_mask[ko.kind].load(std::memory_order_relaxed);
  for (uint64_t m = mask; m != 0; m &= m - 1) {
    const int i = __builtin_ctzll(m);
    const bool traced = (((frame->buffered | frame->buffered_ext) >> i) & 1u) ||
                        (((kind_mask >> i) & 1u) &&
                         g_contexts[i].services[ko.kind].Traces(ko.op));
    if (!traced) mask &= ~(uint64_t{1} << i);
  }
  frame->requested |= RequestExternalIds(
      t, mask,
      static_cast<rocprofiler_external_correlation_id_request_kind_t>(ko.kind),
      ko.op, info.correlation_id, roctracer::platform::ThreadId(),
      t.frame_users[frame - t.frames].requested_external);
}

// The HSA, HIP and marker API records share one 64-byte layout, stored
// below as eight 8-byte words.
static_assert(
    sizeof(rocprofiler_buffer_tracing_hsa_api_record_t) == 64 &&
        sizeof(rocprofiler_buffer_tracing_hip_api_record_t) == 64 &&
        sizeof(rocprofiler_buffer_tracing_marker_api_record_t) == 64 &&
        offsetof(rocprofiler_buffer_tracing_hsa_api_record_t, kind) == 8 &&
        offsetof(rocprofiler_buffer_tracing_hsa_api_record_t, operation) ==
            12 &&
        offsetof(rocprofiler_buffer_tracing_hsa_api_record_t, correlation_id) ==
            16 &&
        offsetof(rocprofiler_buffer_tracing_hsa_api_record_t,
                 start_timestamp) == 40 &&
        offsetof(rocprofiler_buffer_tracing_hsa_api_record_t, end_timestamp) ==
            48 &&
        offsetof(rocprofiler_buffer_tracing_hsa_api_record_t, thread_id) ==
            56 &&
        sizeof(rocprofiler_correlation_id_t) == 24 &&
        offsetof(rocprofiler_correlation_id_t, external) == 8 &&
        offsetof(rocprofiler_correlation_id_t, ancestor) == 16 &&
        __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__,
    "rocprofiler-sdk 1.0.0's API record layout");

// One buffer record per context that buffer-traces the call and is still
// active, written at EXIT (the record holds the call's start and end), each
// made in its buffer: one store per word, no copy of it on the stack.
// kRequested false: the frame has no external ID from a request service
// (frame->requested is 0), each context's is the top of its stack.
template <bool kRequested = true>
[[gnu::always_inline]] inline void WriteApiRecords(
    const KindOp& ko, const roctracer::ApiCallInfo& info, ThreadState& t,
    Frame* frame) noexcept {
  const uint64_t end = roctracer::clock::TimestampNs();
  const uint64_t kind_op = uint64_t{static_cast<uint32_t>(ko.kind)} |
                           uint64_t{static_cast<uint32_t>(ko.op)} << 32;
  const uint64_t internal = info.correlation_id;
  const ptrdiff_t level = frame - t.frames;
  const uint64_t ancestor = AncestorOf(t, level, internal);
  const uint64_t start = frame->start_ns;
  const uint64_t thread_id = roctracer::platform::ThreadId();
  uint64_t mask =
      frame->buffered & g_active_mask.load(std::memory_order_acquire);
  while (mask != 0) {
    const int i = __builtin_ctzll(mask);
    mask &= mask - 1;
    const BufferService& s = g_contexts[i].buffer_services[ko.kind];
    const uint64_t external =
        kRequested ? frame->External(t, i).value : t.ExternalTop(i).value;
    WriteRecordInPlace(s.buffer, [&](void* dst) noexcept {
      char* const out = static_cast<char*>(dst);
      const auto store = [out](size_t offset, uint64_t word) {
        std::memcpy(out + offset, &word, sizeof(word));
      };
      store(0, sizeof(rocprofiler_buffer_tracing_hsa_api_record_t));
      store(8, kind_op);
      // Without requests (the short path) the frame's own words are read
      // here rather than kept in registers across the write's checks.
      store(16, kRequested ? internal : frame->correlation_id);
      store(24, external);
      store(32, ancestor);
      store(40, kRequested ? start : frame->start_ns);
      store(48, end);
      store(56, thread_id);
    });
  }
}

// WriteApiRecords out of line, for ConsumeAny: inlined there it costs the
// callback path's registers (ConsumeBufferedFirst has it inline).
[[gnu::noinline]] void WriteApiRecordsOutOfLine(
    const KindOp& ko, const roctracer::ApiCallInfo& info, ThreadState& t,
    Frame* frame) noexcept {
  WriteApiRecords(ko, info, t, frame);
}

// HIP_RUNTIME_API_EXT / HIP_COMPILER_API_EXT: the API record with the
// call's arguments (the op's own bytes; the rest of the union zero) and
// return value, to each context that records the call so.
static_assert(sizeof(rocprofiler_buffer_tracing_hip_api_ext_record_t) <=
                  kMaxRecordSize,
              "a record travels as an envelope's text (buffers.h)");
void WriteHipExtRecords(const KindOp& ko, const roctracer::ApiCallInfo& info,
                        ThreadState& t, Frame* frame) noexcept {
  Storage<rocprofiler_buffer_tracing_hip_api_ext_record_t> storage;
  auto& r = storage.value;
  r.size = sizeof(r);
  r.kind =
      static_cast<rocprofiler_buffer_tracing_kind_t>(ExtBufferKindOf(ko.kind));
  r.operation = ko.op;
  r.correlation_id.internal = info.correlation_id;
  const ptrdiff_t level = frame - t.frames;
  r.correlation_id.ancestor = AncestorOf(t, level, info.correlation_id);
  r.start_timestamp = frame->start_ns;
  r.end_timestamp = roctracer::clock::TimestampNs();
  r.thread_id = roctracer::platform::ThreadId();
  const auto* d = static_cast<const hip_api_data_t*>(info.api_data);
  const size_t n = ko.args_size;
  char* args = reinterpret_cast<char*>(&r.args);
  std::memcpy(args, &d->args, n);
  std::memset(args + n, 0, sizeof(r.args) - n);
  CopyRetval<sizeof(r.retval)>(&r.retval, &d->hipError_t_retval,
                               roctracer::hip_api::RetvalSize(info.op));
  uint64_t mask =
      frame->buffered_ext & g_active_mask.load(std::memory_order_acquire);
  while (mask != 0) {
    const int i = __builtin_ctzll(mask);
    mask &= mask - 1;
    const BufferService& s =
        g_contexts[i].buffer_services[ExtBufferKindOf(ko.kind)];
    r.correlation_id.external = frame->External(t, i);
    WriteRecord(s.buffer, &r, sizeof(r));
  }
}

}  // namespace

ThreadState* Tls() noexcept {
  ThreadState* state = t_state;
  if (__builtin_expect(state == nullptr, 0)) state = AllocateThreadState();
  return state;
}

void ForEachThreadState(void (*fn)(ThreadState&, void*), void* ctx) noexcept {
  for (ThreadStateNode* n = g_thread_states.load(std::memory_order_acquire);
       n != nullptr; n = n->next) {
    fn(n->state, ctx);
  }
}

void WaitForDeliveries(int context) noexcept {
  roctracer::platform::HeavyFence();
  const uint32_t busy = static_cast<uint32_t>(context) + 1;
  for (ThreadStateNode* n = g_thread_states.load(std::memory_order_acquire);
       n != nullptr; n = n->next) {
    if (&n->state == t_state) continue;  // a stop from our own callback
    while (n->state.delivering.load(std::memory_order_seq_cst) == busy &&
           n->state.stopping.load(std::memory_order_seq_cst) == 0) {
      sched_yield();
    }
  }
}

void DeliverCallbacks(ThreadState& t, uint64_t mask,
                      rocprofiler_callback_tracing_record_t& record,
                      rocprofiler_user_data_t* user,
                      const rocprofiler_user_data_t* external,
                      uint64_t* called) noexcept {
  const bool enter = record.phase == ROCPROFILER_CALLBACK_PHASE_ENTER;
  const uint32_t outer = t.delivering.load(std::memory_order_relaxed);
  while (mask != 0) {
    const int i = __builtin_ctzll(mask);
    mask &= mask - 1;
    if (!BeginDelivery(t, i, false, outer)) continue;
    const Service& s = g_contexts[i].services[record.kind];
    record.context_id.handle = static_cast<uint64_t>(i) + 1;
    record.correlation_id.external =
        external != nullptr ? external[i] : t.ExternalTop(i);
    rocprofiler_user_data_t own{0};
    rocprofiler_user_data_t* slot = user != nullptr ? &user[i] : &own;
    if (enter) {
      slot->value = 0;
      if (called != nullptr) *called |= uint64_t{1} << i;
    }
    s.callback(record, slot, s.callback_data);
    EndDelivery(t, outer);
  }
}

uint64_t RequestExternalIds(
    ThreadState& t, uint64_t mask,
    rocprofiler_external_correlation_id_request_kind_t kind, int32_t operation,
    uint64_t correlation_id, rocprofiler_thread_id_t thread_id,
    rocprofiler_user_data_t* answers) noexcept {
  mask &= g_request_mask[kind].load(std::memory_order_acquire);
  uint64_t answered = 0;
  const uint32_t outer = t.delivering.load(std::memory_order_relaxed);
  while (mask != 0) {
    const int i = __builtin_ctzll(mask);
    mask &= mask - 1;
    if (t.external_depth[i] != 0) continue;
    if (!BeginDelivery(t, i, false, outer)) continue;
    const Context& c = g_contexts[i];
    rocprofiler_user_data_t value{0};
    const int rc = c.request.callback(
        thread_id, rocprofiler_context_id_t{static_cast<uint64_t>(i) + 1}, kind,
        operation, correlation_id, &value, c.request.callback_data);
    EndDelivery(t, outer);
    if (rc == 0) {
      answers[i] = value;
      answered |= uint64_t{1} << i;
    }
  }
  return answered;
}

StopScope::StopScope() noexcept : state_(Tls()) {
  if (state_ != nullptr) {
    state_->stopping.fetch_add(1, std::memory_order_seq_cst);
  }
}

StopScope::~StopScope() {
  if (state_ != nullptr) {
    state_->stopping.fetch_sub(1, std::memory_order_seq_cst);
  }
}

uint64_t SkippedCalls() noexcept {
  return g_skipped.load(std::memory_order_relaxed);
}

namespace {

// Of the candidate contexts (a mask of context indices), those whose
// buffer service for `kind` takes operation `op`.
inline uint64_t BufferingContexts(uint64_t candidates, int kind,
                                  int32_t op) noexcept {
  uint64_t buffered = 0;
  while (candidates != 0) {
    const int i = __builtin_ctzll(candidates);
    candidates &= candidates - 1;
    if (g_contexts[i].buffer_services[kind].Traces(op)) {
      buffered |= uint64_t{1} << i;
    }
  }
  return buffered;
}

}  // namespace

void ConsumeAny(const roctracer::ApiCallInfo& info) noexcept {
  ThreadState* state = Tls();
  if (state == nullptr) return;
  ThreadState& t = *state;
  const KindOp ko = MapCall(info.domain, info.op);
  if (info.phase == ACTIVITY_API_PHASE_ENTER) {
    PushRecordPathFrame(t, info.parent_correlation_id);
    const uint32_t depth = t.depth++;
    if (depth >= kMaxCallDepth) {
      g_skipped.fetch_add(1, std::memory_order_relaxed);
      return;
    }
    Frame* frame = &t.frames[depth];
    frame->correlation_id = info.correlation_id;
    frame->called = 0;
    frame->buffered = 0;
    frame->buffered_ext = 0;
    frame->requested = 0;
    frame->seen = false;
    frame->kind = ko.kind;
    frame->op = ko.op;
    frame->refs = nullptr;
    // The kinds made of calls of other kinds, reported around the call's
    // own, as rocprofiler-sdk's wrappers of them enclose its API wrappers.
    if (__builtin_expect(g_derived_kinds.load(std::memory_order_relaxed) != 0,
                         0)) {
      DerivedEnter(info, t, depth);
    }
    // After DerivedEnter: a range a rocTX call opens is its own ancestor.
    t.open_range_at_enter[depth] = t.open_range.load(std::memory_order_relaxed);
    if (ko.kind == 0) return;
    // A rocTX call the bridge found untraced took no ID of its own (it
    // carries kRoctxUntracedCallId): a context started since, on another
    // thread, is not told of it, so no record or callback gets that value.
    if (__builtin_expect(info.correlation_id == roctracer::kRoctxUntracedCallId,
                         0)) {
      return;
    }
    const uint64_t active = g_active_mask.load(std::memory_order_acquire);
    if (ko.kind <= kLastBufferApiKind) {
      // Built in registers, stored once: the frame is written once.
      uint64_t buffered = active & g_api_buffer_op_mask[ko.kind][ko.op].load(
                                       std::memory_order_acquire);
      frame->buffered = buffered;
      const uint64_t e =
          active & g_buffer_ext_mask[ko.kind].load(std::memory_order_acquire);
      if (__builtin_expect(e != 0, 0)) {
        const uint64_t buffered_ext =
            BufferingContexts(e, ExtBufferKindOf(ko.kind), ko.op);
        frame->buffered_ext = buffered_ext;
        buffered |= buffered_ext;  // from here: whether any record is due
      }
      if (buffered != 0) frame->start_ns = roctracer::clock::TimestampNs();
      const uint64_t requests =
          active & g_request_mask[ko.kind].load(std::memory_order_acquire);
      if (requests != 0) RequestApiExternalIds(requests, ko, info, t, frame);
    }
    const uint64_t mask =
        active & g_kind_mask[ko.kind].load(std::memory_order_acquire);
    if (mask != 0) Deliver(mask, ko, false, info, t, frame, true);
    if (info.domain == ACTIVITY_DOMAIN_HSA_API) {
      const int32_t memory_op = MemoryOpOf(info.op);
      if (__builtin_expect(memory_op != 0, 0) && MemoryTraced()) {
        MemoryEnter(info, memory_op, t, depth);
      }
    }
    return;
  }
  if (t.depth == 0) return;  // EXIT without ENTER (consumer installed mid-call)
  const uint32_t depth = t.depth - 1;
  if (depth >= kMaxCallDepth) {
    t.depth = depth;
    return;
  }
  // Normally the top frame. A deeper match means inner calls never reported
  // EXIT (an exception or longjmp through them): their frames are dropped.
  // No match: an EXIT whose ENTER this thread never saw; the stack stays.
  uint32_t match = depth;
  while (t.frames[match].correlation_id != info.correlation_id) {
    if (match == 0) return;
    --match;
  }
  Frame* frame = &t.frames[match];
  for (uint32_t dropped = depth; dropped > match; --dropped) {
    FinishFrame(t.frames[dropped]);
  }
  t.depth = match;
  if (ko.kind != 0) {
    if (t.memory.call_id == info.correlation_id) MemoryExit(info, t);
    const uint64_t mask =
        frame->called & g_active_mask.load(std::memory_order_acquire);
    if (mask != 0) Deliver(mask, ko, true, info, t, frame, false);
    if (frame->buffered != 0) WriteApiRecordsOutOfLine(ko, info, t, frame);
    if (frame->buffered_ext != 0) WriteHipExtRecords(ko, info, t, frame);
  }
  if (__builtin_expect(g_derived_kinds.load(std::memory_order_relaxed) != 0,
                       0)) {
    DerivedExit(info, t, match);
  }
  FinishFrame(*frame);
}

namespace {

// The ENTER of a call that no context gets a callback, an EXT record or an
// external-ID request for, and that is no memory call: what ConsumeAny does
// for it (a frame, the contexts that buffer-trace it, its start time),
// without its other cases. False, having changed nothing, for any other
// call.
inline bool EnterBufferedOnly(ThreadState& t,
                              const roctracer::ApiCallInfo& info) noexcept {
  if (__builtin_expect(info.parent_correlation_id != 0, 0) &&
      roctracer::hook::CurrentRecordCallId() != 0) {
    return false;  // ConsumeAny gives the enclosing call its frame
  }
  const uint32_t depth = t.depth;
  if (__builtin_expect(depth >= kMaxCallDepth, 0)) return false;
  const KindOp ko = MapCallBuilt(info.domain, info.op);
  if (__builtin_expect(ko.kind > kLastBufferApiKind, 0)) return false;
  const uint64_t active = g_active_mask.load(std::memory_order_acquire);
  uint64_t buffered = 0;
  if (ko.kind != 0) {
    if ((active &
         g_api_general_mask[ko.kind].load(std::memory_order_acquire)) != 0) {
      return false;
    }
    if (info.domain == ACTIVITY_DOMAIN_HSA_API && MemoryOpOf(info.op) != 0) {
      return false;
    }
    buffered = active & g_api_buffer_op_mask[ko.kind][ko.op].load(
                            std::memory_order_acquire);
  }
  t.depth = depth + 1;
  Frame* frame = &t.frames[depth];
  frame->correlation_id = info.correlation_id;
  frame->called = 0;
  frame->buffered = buffered;
  frame->buffered_ext = 0;
  frame->requested = 0;
  frame->seen = false;
  frame->kind = ko.kind;
  frame->op = ko.op;
  frame->refs = nullptr;
  t.open_range_at_enter[depth] = t.open_range.load(std::memory_order_relaxed);
  if (buffered != 0) frame->start_ns = roctracer::clock::TimestampNs();
  return true;
}

// The EXIT of the top frame's call when that frame has no callbacks, EXT
// records, requested external IDs, GPU work or memory call to finish: its
// buffer records and its retirement. False, having changed nothing,
// otherwise.
inline bool ExitBufferedOnly(ThreadState& t,
                             const roctracer::ApiCallInfo& info) noexcept {
  const uint32_t depth = t.depth;
  if (__builtin_expect(depth - 1 >= kMaxCallDepth, 0)) return false;
  Frame* frame = &t.frames[depth - 1];
  if (__builtin_expect(
          frame->correlation_id != info.correlation_id ||
              (frame->called | frame->buffered_ext | frame->requested |
               static_cast<uint64_t>(frame->seen)) != 0 ||
              frame->refs != nullptr || t.memory.call_id == info.correlation_id,
          0)) {
    return false;
  }
  t.depth = depth - 1;
  if (frame->buffered != 0) {
    WriteApiRecords<false>(KindOp{frame->kind, 0, frame->op}, info, t, frame);
    if (const uint64_t contexts = RetirementContexts()) {
      Retire(frame->correlation_id, roctracer::clock::TimestampNs(), contexts);
    }
  }
  return true;
}

}  // namespace

namespace {

// One function per phase, each with its own registers (shared, the ENTER
// half saved and restored the EXIT half's); the dispatch below tail-calls
// them.
[[gnu::noinline]] void ConsumeEnterBufferedFirst(
    const roctracer::ApiCallInfo& info) noexcept {
  ThreadState* const state = t_state;
  if (__builtin_expect(state != nullptr, 1) &&
      EnterBufferedOnly(*state, info)) {
    return;
  }
  ConsumeAny(info);
}

[[gnu::noinline]] void ConsumeExitBufferedFirst(
    const roctracer::ApiCallInfo& info) noexcept {
  ThreadState* const state = t_state;
  if (__builtin_expect(state != nullptr, 1) && ExitBufferedOnly(*state, info)) {
    return;
  }
  ConsumeAny(info);
}

}  // namespace

void ConsumeBufferedFirst(const roctracer::ApiCallInfo& info) noexcept {
  if (info.phase == ACTIVITY_API_PHASE_ENTER) {
    ConsumeEnterBufferedFirst(info);
  } else {
    ConsumeExitBufferedFirst(info);
  }
}

// One compare for both rocTX domains: the consumer's other domains (HSA and
// HIP API) are numbered below ACTIVITY_DOMAIN_ROCTX.
static_assert(ACTIVITY_DOMAIN_HSA_API < ACTIVITY_DOMAIN_ROCTX &&
                  ACTIVITY_DOMAIN_HIP_API < ACTIVITY_DOMAIN_ROCTX &&
                  roctracer::kRoctxRequestDomain > ACTIVITY_DOMAIN_ROCTX,
              "the rocTX domains are the consumer's highest");
void ConsumeBufferedFirstKeepingRanges(
    const roctracer::ApiCallInfo& info) noexcept {
  if (__builtin_expect(info.domain >= ACTIVITY_DOMAIN_ROCTX, 0)) {
    return ConsumeAny(info);
  }
  if (info.phase == ACTIVITY_API_PHASE_ENTER) {
    ConsumeEnterBufferedFirst(info);
  } else {
    ConsumeExitBufferedFirst(info);
  }
}

namespace {

// The buffer records of a call on the record path, one per context that
// buffer-traces it and was active when it began; false when none was
// written.
[[gnu::always_inline]] inline bool WriteRecordPathRecords(
    const ThreadState& t, const roctracer::ApiCallInfo& info, uint64_t begin_ns,
    uint64_t end_ns, uint64_t ancestor) noexcept {
  const KindOp ko = MapCallBuilt(info.domain, info.op);
  if (__builtin_expect(ko.kind == 0 || ko.kind > kLastBufferApiKind, 0)) {
    return false;
  }
  uint64_t mask =
      g_active_mask.load(std::memory_order_acquire) &
      g_api_buffer_op_mask[ko.kind][ko.op].load(std::memory_order_acquire);
  if (mask == 0) return false;
  const uint64_t kind_op = uint64_t{static_cast<uint32_t>(ko.kind)} |
                           uint64_t{static_cast<uint32_t>(ko.op)} << 32;
  const uint64_t thread_id = roctracer::platform::ThreadId();
  bool written = false;
  while (mask != 0) {
    const int i = __builtin_ctzll(mask);
    mask &= mask - 1;
    // A context started after the call began gets no record of it.
    if (g_started_ns[i].load(std::memory_order_relaxed) > begin_ns) continue;
    written = true;
    const BufferService& s = g_contexts[i].buffer_services[ko.kind];
    const uint64_t external = t.ExternalTop(i).value;
    WriteRecordInPlace(s.buffer, [&](void* dst) noexcept {
      char* const out = static_cast<char*>(dst);
      const auto store = [out](size_t offset, uint64_t word) {
        std::memcpy(out + offset, &word, sizeof(word));
      };
      store(0, sizeof(rocprofiler_buffer_tracing_hsa_api_record_t));
      store(8, kind_op);
      store(16, info.correlation_id);
      store(24, external);
      store(32, ancestor);
      store(40, begin_ns);
      store(48, end_ns);
      store(56, thread_id);
    });
  }
  return written;
}

// A record-path call that a call the SDK saw inside it gave a frame
// (PushRecordPathFrame), the top frame at its EXIT: its records, then the
// frame ended as a call's (its retirement, or the reference GPU work it
// submitted holds).
[[gnu::noinline]] void RecordFramedCall(ThreadState& t,
                                        const roctracer::ApiCallInfo& info,
                                        uint64_t begin_ns, uint64_t end_ns,
                                        uint64_t enclosing_id) noexcept {
  const uint32_t depth = t.depth;
  Frame& frame = t.frames[depth - 1];
  t.depth = depth - 1;
  uint64_t ancestor = AncestorOf(t, depth - 1, info.correlation_id);
  // The frame keeps the range open when this call began
  // (PushRecordPathFrame); the ranges another thread closed are looked at
  // again for a call whose start the frame's push did not find, and are
  // forgotten at the end of the outermost record-path call.
  if (t.open_range.load(std::memory_order_relaxed) & kRangeClosedElsewhere) {
    ancestor = RecordPathAncestor(t, ancestor, 0, info.correlation_id, begin_ns,
                                  enclosing_id == 0);
  }
  if (enclosing_id > ancestor) ancestor = enclosing_id;
  if (WriteRecordPathRecords(t, info, begin_ns, end_ns, ancestor)) {
    frame.buffered = 1;  // FinishFrame: the ID reached a buffer
  }
  FinishFrame(frame);
}

}  // namespace

void RecordBufferedCall(const roctracer::ApiCallInfo& info, uint64_t begin_ns,
                        uint64_t end_ns, uint64_t enclosing_id) noexcept {
  ThreadState* state = t_state;
  if (__builtin_expect(state == nullptr, 0)) {
    state = AllocateThreadState();
    if (state == nullptr) return;
  }
  ThreadState& t = *state;
  const uint32_t depth = t.depth;
  uint64_t ancestor = 0;
  if (depth != 0) {
    if (__builtin_expect(
            depth <= kMaxCallDepth &&
                t.frames[depth - 1].correlation_id == info.correlation_id,
            0)) {
      return RecordFramedCall(t, info, begin_ns, end_ns, enclosing_id);
    }
    // The SDK's innermost frame encloses this call (the frames of calls
    // inside it are gone by its EXIT); past the stack's depth, the deepest
    // frame it kept.
    ancestor = t.frames[(depth <= kMaxCallDepth ? depth : kMaxCallDepth) - 1]
                   .correlation_id;
  }
  // Or the thread's innermost rocTX range open when the call began: open
  // now and opened before it, or closed since on another thread
  // (RecordPathAncestor; rare, out of line, flagged in the same word).
  const uint64_t range = t.open_range.load(std::memory_order_relaxed);
  if (__builtin_expect(range > ancestor, 0)) {
    ancestor = RecordPathAncestor(t, ancestor, range, info.correlation_id,
                                  begin_ns, enclosing_id == 0);
  }
  // The interception layer's enclosing record-path call may be the inner of
  // the two: a thread's correlation IDs grow with time, so of two calls both
  // enclosing this one the larger ID is the inner.
  if (enclosing_id > ancestor) ancestor = enclosing_id;
  if (!WriteRecordPathRecords(t, info, begin_ns, end_ns, ancestor)) return;
  if (const uint64_t contexts = RetirementContexts()) {
    Retire(info.correlation_id, roctracer::clock::TimestampNs(), contexts);
  }
}

}  // namespace rocprofiler_sdk
