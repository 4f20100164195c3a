#include "sdk/dispatch.h"

#include <pthread.h>

#include <atomic>
#include <cstdlib>
#include <cstring>

#include "ext/prof_protocol.h"
#include "hip_api_data.h"
#include "hsa_api_data.h"
#include "rocprofiler-sdk/callback_tracing.h"
#include "roctracer_roctx.h"
#include "runtime/hot_tls.h"
#include "runtime/thread_id.h"
#include "sdk/context.h"
#include "sdk/kinds.h"
#include "sdk/thread_state.h"

namespace rocprofiler_sdk {
namespace {

// The payload unions are generated from the same plan as roctracer's data
// structs: one memcpy moves the arguments.
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
static_assert(offsetof(hip_api_data_t, args) -
                      offsetof(hip_api_data_t, hipError_t_retval) >=
                  sizeof(rocprofiler_hip_api_retval_t),
              "HIP retval union layout");

// Uninitialised storage: HIP's args union holds types with constructors.
template <class T>
union Storage {
  Storage() noexcept {}
  T value;
};

pthread_key_t ThreadExitKey() noexcept;

// Released by a pthread key destructor rather than a thread_local destructor,
// so a call traced from another thread_local destructor after ours ran just
// allocates the block again (and the key destructor runs again).
void ReleaseThreadState(void* state) noexcept;

}  // namespace

ROCTRACER_HOT_TLS ThreadState* t_state = nullptr;

namespace {

pthread_key_t ThreadExitKey() noexcept {
  static const pthread_key_t key = [] {
    pthread_key_t k;
    if (pthread_key_create(&k, &ReleaseThreadState) != 0) {
      k = static_cast<pthread_key_t>(-1);  // out of keys: the block leaks
    }
    return k;
  }();
  return key;
}

void ReleaseThreadState(void* state) noexcept {
  if (t_state == state) t_state = nullptr;
  std::free(state);
}

ThreadState* AllocateThreadState() noexcept {
  auto* state = static_cast<ThreadState*>(std::calloc(1, sizeof(ThreadState)));
  if (state == nullptr) return nullptr;
  const pthread_key_t key = ThreadExitKey();
  if (key != static_cast<pthread_key_t>(-1)) pthread_setspecific(key, state);
  t_state = state;
  return state;
}

std::atomic<uint64_t> g_skipped{0};

// Builds the payload of one phase on the caller's stack, only when some
// context will see it.
class Payload {
 public:
  Payload(const roctracer::ApiCallInfo& info, bool exit) noexcept
      : info_(info), exit_(exit) {}

  void* Get() noexcept {
    if (ptr_ != nullptr) return ptr_;
    switch (info_.domain) {
      case ACTIVITY_DOMAIN_HSA_API: {
        auto& p = u_.hsa.value;
        const auto* d = static_cast<const hsa_api_data_t*>(info_.api_data);
        p.size = sizeof(p);
        std::memcpy(static_cast<void*>(&p.args), &d->args, sizeof(p.args));
        if (exit_) {
          std::memcpy(static_cast<void*>(&p.retval), &d->hsa_status_t_retval,
                      sizeof(p.retval));
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
        std::memcpy(static_cast<void*>(&p.args), &d->args, sizeof(p.args));
        if (exit_) {
          std::memcpy(static_cast<void*>(&p.retval), &d->hipError_t_retval,
                      sizeof(p.retval));
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
        const auto* d = static_cast<const roctx_api_data_t*>(info_.api_data);
        switch (info_.op) {
          case ROCTX_API_ID_roctxMarkA:
            p.args.roctxMarkA.message = d->args.roctxMarkA.message;
            break;
          case ROCTX_API_ID_roctxRangePushA:
            p.args.roctxRangePushA.message = d->args.roctxRangePushA.message;
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
  void* ptr_ = nullptr;
};

inline void Deliver(uint64_t mask, const KindOp& ko, bool exit,
                    const roctracer::ApiCallInfo& info, ThreadState& t,
                    Frame* frame, bool record_called) noexcept {
  Payload payload(info, exit);
  rocprofiler_callback_tracing_record_t record;
  record.thread_id = CurrentThreadId(t);
  record.correlation_id.internal = info.correlation_id;
  record.kind = static_cast<rocprofiler_callback_tracing_kind_t>(ko.kind);
  record.operation = ko.op;
  record.phase =
      exit ? ROCPROFILER_CALLBACK_PHASE_EXIT : ROCPROFILER_CALLBACK_PHASE_ENTER;
  while (mask != 0) {
    const int i = __builtin_ctzll(mask);
    mask &= mask - 1;
    const Service& s = g_contexts[i].services[ko.kind];
    if (!s.Traces(ko.op)) continue;
    // A context stopped by an earlier callback of this same call gets no
    // further callbacks.
    if (!(g_active_mask.load(std::memory_order_acquire) & (uint64_t{1} << i))) {
      continue;
    }
    record.context_id.handle = static_cast<uint64_t>(i) + 1;
    record.correlation_id.external = t.ExternalTop(i);
    record.payload = payload.Get();
    if (record_called) {
      frame->user[i].value = 0;
      frame->called |= uint64_t{1} << i;
    }
    s.callback(record, &frame->user[i], s.callback_data);
  }
}

}  // namespace

ThreadState* Tls() noexcept {
  ThreadState* state = t_state;
  if (__builtin_expect(state == nullptr, 0)) state = AllocateThreadState();
  return state;
}

uint64_t CurrentThreadId(ThreadState& t) noexcept {
  if (t.thread_id == 0) t.thread_id = roctracer::ThreadId();
  return t.thread_id;
}

uint64_t SkippedCalls() noexcept {
  return g_skipped.load(std::memory_order_relaxed);
}

void Consume(const roctracer::ApiCallInfo& info) noexcept {
  ThreadState* state = Tls();
  if (state == nullptr) return;
  ThreadState& t = *state;
  const KindOp ko = MapCall(info.domain, info.op);
  if (info.phase == ACTIVITY_API_PHASE_ENTER) {
    const uint32_t depth = t.depth++;
    if (depth >= kMaxCallDepth) {
      g_skipped.fetch_add(1, std::memory_order_relaxed);
      return;
    }
    Frame* frame = &t.frames[depth];
    frame->correlation_id = info.correlation_id;
    frame->called = 0;
    if (ko.kind == 0) return;
    const uint64_t mask = g_active_mask.load(std::memory_order_acquire) &
                          g_kind_mask[ko.kind].load(std::memory_order_acquire);
    if (mask != 0) Deliver(mask, ko, false, info, t, frame, true);
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
  t.depth = match;
  if (ko.kind == 0) return;
  const uint64_t mask =
      frame->called & g_active_mask.load(std::memory_order_acquire);
  if (mask != 0) Deliver(mask, ko, true, info, t, frame, false);
}

}  // namespace rocprofiler_sdk
