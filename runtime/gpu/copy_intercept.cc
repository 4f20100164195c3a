#include "runtime/gpu/copy_intercept.h"

#include <atomic>
#include <cstddef>
#include <mutex>
#include <type_traits>
#include <unordered_map>
#include <vector>

#include "runtime/activity/correlation.h"
#include "runtime/gpu/agents.h"
#include "runtime/gpu/completion.h"
#include "runtime/gpu/observers.h"
#include "runtime/gpu/runtime_table.h"
#include "runtime/gpu/valid_signals.h"
#include "runtime/intercept/trace_guard.h"

namespace roctracer::gpu {

using activity::NextCorrelationId;

namespace {

std::atomic<bool> g_copy_profiling{false};

void EnsureCopyProfiling() {
  if (g_copy_profiling.load(std::memory_order_acquire)) return;
  if (Amd().hsa_amd_profiling_async_copy_enable_fn(true) ==
      HSA_STATUS_SUCCESS) {
    g_copy_profiling.store(true, std::memory_order_release);
  }
}

// A copy's two agents as its record names them: the direction from their
// types, the device the kernel agent's index (the destination's first), -1
// between host agents. One walk of the agent list for both.
struct CopyAgents {
  uint32_t direction;
  int device_id;
};
CopyAgents AgentsOf(hsa_agent_t src, hsa_agent_t dst) {
  int src_index = -1, dst_index = -1;
  DeviceIndices(src, dst, &src_index, &dst_index);
  const bool from_device = src_index >= 0;
  const bool to_device = dst_index >= 0;
  const uint32_t direction =
      from_device ? (to_device ? hsaDeviceToDevice : hsaDeviceToHost)
                  : (to_device ? hsaHostToDevice : hsaHostToHost);
  return CopyAgents{direction, to_device ? dst_index : src_index};
}

// A copy on its way to the runtime: the slot it holds (NULL: untraced) while
// the copy ring's submit mutex is held.
class TracedCopy {
 public:
  // `info` has the copy's agents, bytes and direction; `device_id` is the
  // record's (AgentsOf).
  TracedCopy(EnqueueInfo info, int device_id, hsa_signal_t app_signal) {
    // An empty copy is no operation for the runtime (ROCR does nothing for
    // it, its completion signal included): nothing to trace either.
    if (app_signal.handle == 0 || info.bytes == 0) return;
    info.kind = OpKind::kCopy;
    info.op_id = NextCorrelationId();
    info.correlation_id = hook::CurrentCallId();
    info.stream = &InnermostStream;
    Interest interest;
    if (!AskObservers(info, &interest)) return;
    // A signal the runtime would refuse is passed on for it to refuse.
    if (!ValidSignal(app_signal)) {
      AbandonInterest(interest);
      return;
    }
    if (ReportingOnThisThread()) {
      // A copy from a tool's completion callback: the submit mutex comes
      // before the harvest mutexes this thread holds.
      AbandonInterest(interest);
      Count().untraced.fetch_add(1, std::memory_order_relaxed);
      return;
    }
    lock_ = std::unique_lock<std::mutex>(Copies().submit_mutex);
    OpRing& ring = Copies().ring;
    op_ = ring.Reserve();
    if (op_ == nullptr) {
      MakeRoomForCopy();
      op_ = ring.Reserve();
    }
    if (op_ == nullptr || !EnsureSignal(op_)) {
      op_ = nullptr;
      lock_.unlock();
      AbandonInterest(interest);
      Count().untraced.fetch_add(1, std::memory_order_relaxed);
      return;
    }
    EnsureCopyProfiling();
    op_->kind = OpKind::kCopy;
    op_->op_id = info.op_id;
    op_->correlation_id = info.correlation_id;
    op_->app_signal = app_signal;
    op_->src_agent = info.src_agent;
    op_->dst_agent = info.dst_agent;
    op_->bytes = info.bytes;
    op_->direction = info.direction;
    op_->device_id = device_id;
    op_->interest = interest;
    op_->waiters = 0;
    signal_ = op_->signal;
    // Published before the runtime has the signal, so that no harvester
    // and no wait of the completion thread finds the slot's signal
    // completed while the slot is not published yet (a copy the runtime
    // completes at once); the harvesters take it as pending until then.
    position_ = ring.Published();
    op_->position = position_;
    op_->submitter_waits = WaitedSinceLastCopy(position_);
    Copies().newest_by_signal[CopyTrack::EntryOf(app_signal)].store(
        position_ + 1, std::memory_order_relaxed);
    op_->depended = false;
    ring.Publish(std::memory_order_seq_cst);
  }

  // The completion signal to give the runtime.
  hsa_signal_t Signal(hsa_signal_t app_signal) const {
    return op_ != nullptr ? signal_ : app_signal;
  }

  // The dependencies to give the runtime: `deps`, or `room` with those that
  // wait for a traced copy's application signal replaced by that copy's
  // tracer signal (SubstituteCopyDependencies), when this copy is traced
  // (its report tells when the signal may be given back).
  static constexpr uint32_t kSubstitutedDeps = 8;
  const hsa_signal_t* Dependencies(const hsa_signal_t* deps, uint32_t count,
                                   hsa_signal_t* room) const {
    if (op_ == nullptr || count > kSubstitutedDeps) return deps;
    return SubstituteCopyDependencies(deps, count, position_, room) ? room
                                                                    : deps;
  }

  // The runtime accepted the copy (or not: then nothing was traced). The
  // harvester completes the application's signal once the tracer's reached
  // 0 and the times are read: a thread waiting on the application's signal
  // (AwaitCopyOf), else the completion thread. The runtime cannot be asked
  // to do it: ROCR (5.2 through 7.x) accepts an empty copy and does nothing
  // for it, completion signal included, so a chained empty copy would leave
  // the application's signal unsignalled. The completion thread is woken
  // only when it does not already wait on this copy's slot: a futex wake
  // here was most of a traced copy's cost to the submitting thread.
  void Submitted(hsa_status_t status) {
    if (op_ == nullptr) return;
    // Refused: the harvester abandons it (ReportCopy), as the slot is
    // published already.
    if (status != HSA_STATUS_SUCCESS) {
      Core().hsa_signal_store_screlease_fn(signal_, kRefusedCopy);
    }
    CopyTrack& copies = Copies();
    lock_.unlock();
    const bool watched =
        position_ < copies.watched_until.load(std::memory_order_seq_cst);
    EnsureCompletionThread();
    if (!watched) KickCompletionThread();
  }

 private:
  std::unique_lock<std::mutex> lock_;
  PendingOp* op_ = nullptr;
  hsa_signal_t signal_{0};
  uint64_t position_ = 0;
};

EnqueueInfo CopyInfo(hsa_agent_t src, hsa_agent_t dst, uint64_t bytes,
                     uint32_t direction, const void* dst_ptr,
                     const void* src_ptr) {
  EnqueueInfo info{};
  info.dst = dst_ptr;
  info.src = src_ptr;
  info.src_agent = src;
  info.dst_agent = dst;
  info.bytes = bytes;
  info.direction = direction;
  return info;
}

// A copy's dependencies are noted (NoteDependencies) once the runtime has
// the copy: the copies it depends on are watched a few hundred nanoseconds
// later, and what the tracer does between the completion of the copy a
// thread waited for and the runtime's getting its next one is that much
// shorter (a copy engine that finds nothing new right after a copy may go
// to sleep, as softhsa's does).
hsa_status_t AsyncCopy(void* dst, hsa_agent_t dst_agent, const void* src,
                       hsa_agent_t src_agent, size_t size,
                       uint32_t num_dep_signals,
                       const hsa_signal_t* dep_signals,
                       hsa_signal_t completion_signal) {
  const CopyAgents agents = AgentsOf(src_agent, dst_agent);
  TracedCopy copy(
      CopyInfo(src_agent, dst_agent, size, agents.direction, dst, src),
      agents.device_id, completion_signal);
  hsa_signal_t room[TracedCopy::kSubstitutedDeps];
  const hsa_status_t status = Amd().hsa_amd_memory_async_copy_fn(
      dst, dst_agent, src, src_agent, size, num_dep_signals,
      copy.Dependencies(dep_signals, num_dep_signals, room),
      copy.Signal(completion_signal));
  copy.Submitted(status);
  NoteDependencies(dep_signals, num_dep_signals);
  return status;
}

// A rectangle copy names one agent (the one that copies) and a direction;
// it is both agents of the record.
hsa_status_t AsyncCopyRect(
    const hsa_pitched_ptr_t* dst, const hsa_dim3_t* dst_offset,
    const hsa_pitched_ptr_t* src, const hsa_dim3_t* src_offset,
    const hsa_dim3_t* range, hsa_agent_t copy_agent,
    hsa_amd_copy_direction_t dir, uint32_t num_dep_signals,
    const hsa_signal_t* dep_signals, hsa_signal_t completion_signal) {
  const uint64_t bytes =
      range != nullptr ? uint64_t{range->x} * range->y * range->z : 0;
  TracedCopy copy(
      CopyInfo(copy_agent, copy_agent, bytes, static_cast<uint32_t>(dir),
               dst != nullptr ? dst->base : nullptr,
               src != nullptr ? src->base : nullptr),
      DeviceIndex(copy_agent),
      range != nullptr ? completion_signal : hsa_signal_t{0});
  hsa_signal_t room[TracedCopy::kSubstitutedDeps];
  const hsa_status_t status = Amd().hsa_amd_memory_async_copy_rect_fn(
      dst, dst_offset, src, src_offset, range, copy_agent, dir, num_dep_signals,
      copy.Dependencies(dep_signals, num_dep_signals, room),
      copy.Signal(completion_signal));
  copy.Submitted(status);
  NoteDependencies(dep_signals, num_dep_signals);
  return status;
}

// hsa_amd_memory_async_copy_on_engine (ROCm >= 6.0 headers): the same
// arguments as hsa_amd_memory_async_copy, then the engine and its flag.
template <class T, class = void>
struct HasOnEngine : std::false_type {};
template <class T>
struct HasOnEngine<
    T, std::void_t<decltype(&T::hsa_amd_memory_async_copy_on_engine_fn)>>
    : std::true_type {};

// AmdExtTable as a dependent type: its members are looked up only when the
// template is instantiated, i.e. only with headers that have them.
template <class T, size_t>
struct Dependent {
  using type = T;
};

template <class Fn>
struct OnEngine;
template <class... Extra>
struct OnEngine<hsa_status_t (*)(void*, hsa_agent_t, const void*, hsa_agent_t,
                                 size_t, uint32_t, const hsa_signal_t*,
                                 hsa_signal_t, Extra...)> {
  static hsa_status_t Call(void* dst, hsa_agent_t dst_agent, const void* src,
                           hsa_agent_t src_agent, size_t size, uint32_t n,
                           const hsa_signal_t* deps, hsa_signal_t completion,
                           Extra... extra) {
    const CopyAgents agents = AgentsOf(src_agent, dst_agent);
    TracedCopy copy(
        CopyInfo(src_agent, dst_agent, size, agents.direction, dst, src),
        agents.device_id, completion);
    const typename Dependent<AmdExtTable, sizeof...(Extra)>::type& amd = Amd();
    hsa_signal_t room[TracedCopy::kSubstitutedDeps];
    const hsa_status_t status = amd.hsa_amd_memory_async_copy_on_engine_fn(
        dst, dst_agent, src, src_agent, size, n,
        copy.Dependencies(deps, n, room), copy.Signal(completion), extra...);
    copy.Submitted(status);
    NoteDependencies(deps, n);
    return status;
  }
};

template <class Table>
void InstallOnEngine(const HsaApiTable* table, Table* amd) {
  if constexpr (HasOnEngine<Table>::value) {
    if (AmdHasSlot(table,
                   offsetof(Table, hsa_amd_memory_async_copy_on_engine_fn))) {
      amd->hsa_amd_memory_async_copy_on_engine_fn = &OnEngine<
          decltype(amd->hsa_amd_memory_async_copy_on_engine_fn)>::Call;
    }
  }
}

template <class Table>
void RestoreOnEngine(Table* amd) {
  if constexpr (HasOnEngine<Table>::value) {
    const Table& saved = Amd();
    if (saved.hsa_amd_memory_async_copy_on_engine_fn != nullptr) {
      amd->hsa_amd_memory_async_copy_on_engine_fn =
          saved.hsa_amd_memory_async_copy_on_engine_fn;
    }
  }
}

// hsa_signal_wait_scacquire / _relaxed: a wait on a traced copy's
// application signal first waits for the tracer's signal and reports the
// copy on the waiting thread (AwaitCopyOf), so that the application's
// signal moves as soon as the copy is done, not a completion-thread wake-up
// later. HIP waits on each copy's signal before the next copy of a stream.
template <hsa_signal_value_t (*CoreApiTable::*kWait)(
    hsa_signal_t, hsa_signal_condition_t, hsa_signal_value_t, uint64_t,
    hsa_wait_state_t)>
hsa_signal_value_t SignalWait(hsa_signal_t signal,
                              hsa_signal_condition_t condition,
                              hsa_signal_value_t compare_value,
                              uint64_t timeout_hint,
                              hsa_wait_state_t wait_state_hint) {
  if (Copies().ring.InFlight() != 0) {
    timeout_hint = AwaitCopyOf(signal, condition, compare_value, timeout_hint,
                               wait_state_hint);
  }
  const hsa_signal_value_t value = (Core().*kWait)(
      signal, condition, compare_value, timeout_hint, wait_state_hint);
  ReportCopiesAfterWait();
  return value;
}

// hsa_amd_signal_wait_any and hsa_amd_signal_async_handler: a wait on, or a
// handler for, a traced copy's application signal through them is a thread
// waiting for that copy that does not report it: the completion thread is
// told to watch it promptly.
uint32_t SignalWaitAny(uint32_t count, hsa_signal_t* signals,
                       hsa_signal_condition_t* conds,
                       hsa_signal_value_t* values, uint64_t timeout_hint,
                       hsa_wait_state_t wait_state_hint,
                       hsa_signal_value_t* satisfying_value) {
  NoteDependencies(signals, count);
  return Amd().hsa_amd_signal_wait_any_fn(count, signals, conds, values,
                                          timeout_hint, wait_state_hint,
                                          satisfying_value);
}

hsa_status_t SignalAsyncHandler(hsa_signal_t signal,
                                hsa_signal_condition_t cond,
                                hsa_signal_value_t value,
                                hsa_amd_signal_handler handler, void* arg) {
  NoteDependencies(&signal, 1);
  return Amd().hsa_amd_signal_async_handler_fn(signal, cond, value, handler,
                                               arg);
}

// hsa_amd_signal_wait_all (newer headers only): as wait_any, a wait on
// every signal it names.
template <class T, class = void>
struct HasWaitAll : std::false_type {};
template <class T>
struct HasWaitAll<T, std::void_t<decltype(&T::hsa_amd_signal_wait_all_fn)>>
    : std::true_type {};

template <class Fn>
struct WaitAll;
template <class... Rest>
struct WaitAll<uint32_t (*)(uint32_t, hsa_signal_t*, Rest...)> {
  static uint32_t Call(uint32_t count, hsa_signal_t* signals, Rest... rest) {
    NoteDependencies(signals, count);
    const typename Dependent<AmdExtTable, sizeof...(Rest)>::type& amd = Amd();
    return amd.hsa_amd_signal_wait_all_fn(count, signals, rest...);
  }
};

template <class Table>
void InstallWaitAll(const HsaApiTable* table, Table* amd) {
  if constexpr (HasWaitAll<Table>::value) {
    if (AmdHasSlot(table, offsetof(Table, hsa_amd_signal_wait_all_fn))) {
      amd->hsa_amd_signal_wait_all_fn =
          &WaitAll<decltype(amd->hsa_amd_signal_wait_all_fn)>::Call;
    }
  }
}

template <class Table>
void RestoreWaitAll(Table* amd) {
  if constexpr (HasWaitAll<Table>::value) {
    const Table& saved = Amd();
    if (saved.hsa_amd_signal_wait_all_fn != nullptr) {
      amd->hsa_amd_signal_wait_all_fn = saved.hsa_amd_signal_wait_all_fn;
    }
  }
}

// Signal groups: the runtime does not say which signals a group has, so
// the groups created while tracing are remembered; a wait on one is a wait
// on each of its signals. A group the tracer did not see created (before it
// was loaded) may hold any copy's signal: a wait on it is a wait on every
// copy in flight.
struct SignalGroups {
  // Held across the runtime's create and destroy, so that a handle the
  // runtime reuses is never forgotten by the destroy of its former group.
  std::mutex mutex;
  std::unordered_map<uint64_t, std::vector<hsa_signal_t>> signals;
};

SignalGroups& Groups() {
  static SignalGroups* groups = new SignalGroups;  // outlives exit-time calls
  return *groups;
}

hsa_status_t SignalGroupCreate(uint32_t num_signals,
                               const hsa_signal_t* signals,
                               uint32_t num_consumers,
                               const hsa_agent_t* consumers,
                               hsa_signal_group_t* group) {
  SignalGroups& g = Groups();
  std::lock_guard<std::mutex> lock(g.mutex);
  const hsa_status_t status = Core().hsa_signal_group_create_fn(
      num_signals, signals, num_consumers, consumers, group);
  if (status == HSA_STATUS_SUCCESS) {
    g.signals[group->handle].assign(signals, signals + num_signals);
  }
  return status;
}

hsa_status_t SignalGroupDestroy(hsa_signal_group_t group) {
  SignalGroups& g = Groups();
  std::lock_guard<std::mutex> lock(g.mutex);
  const hsa_status_t status = Core().hsa_signal_group_destroy_fn(group);
  if (status == HSA_STATUS_SUCCESS) g.signals.erase(group.handle);
  return status;
}

template <hsa_status_t (*CoreApiTable::*kWait)(
    hsa_signal_group_t, const hsa_signal_condition_t*,
    const hsa_signal_value_t*, hsa_wait_state_t, hsa_signal_t*,
    hsa_signal_value_t*)>
hsa_status_t SignalGroupWaitAny(hsa_signal_group_t group,
                                const hsa_signal_condition_t* conds,
                                const hsa_signal_value_t* values,
                                hsa_wait_state_t wait_state_hint,
                                hsa_signal_t* signal,
                                hsa_signal_value_t* value) {
  if (Copies().ring.InFlight() != 0) {
    std::vector<hsa_signal_t> signals;
    bool known = false;
    {
      SignalGroups& g = Groups();
      std::lock_guard<std::mutex> lock(g.mutex);
      auto it = g.signals.find(group.handle);
      if (it != g.signals.end()) {
        signals = it->second;
        known = true;
      }
    }
    if (known) {
      NoteDependencies(signals.data(), static_cast<uint32_t>(signals.size()));
    } else {
      NoteUnknownDependencies();
    }
  }
  return (Core().*kWait)(group, conds, values, wait_state_hint, signal, value);
}

// hsa_signal_destroy: a signal remembered as valid (ValidSignal) is
// forgotten before the runtime frees it, and so are the traced copies in
// flight that would complete it.
hsa_status_t SignalDestroy(hsa_signal_t signal) {
  ForgetSignal(signal);
  ForgetCopiesOf(signal);
  return Core().hsa_signal_destroy_fn(signal);
}

}  // namespace

void RestoreCopyWrappers(CoreApiTable* core, AmdExtTable* amd) {
  {
    // The runtime is shutting down, its groups with it: a handle it hands
    // out again is a group this tracer has not seen created.
    SignalGroups& g = Groups();
    std::lock_guard<std::mutex> lock(g.mutex);
    g.signals.clear();
  }
  const CoreApiTable& c = Core();
  if (c.hsa_signal_wait_scacquire_fn != nullptr) {
    core->hsa_signal_wait_scacquire_fn = c.hsa_signal_wait_scacquire_fn;
  }
  if (c.hsa_signal_wait_relaxed_fn != nullptr) {
    core->hsa_signal_wait_relaxed_fn = c.hsa_signal_wait_relaxed_fn;
  }
  const AmdExtTable& a = Amd();
  if (a.hsa_amd_memory_async_copy_fn != nullptr) {
    amd->hsa_amd_memory_async_copy_fn = a.hsa_amd_memory_async_copy_fn;
  }
  if (a.hsa_amd_memory_async_copy_rect_fn != nullptr) {
    amd->hsa_amd_memory_async_copy_rect_fn =
        a.hsa_amd_memory_async_copy_rect_fn;
  }
  if (a.hsa_amd_profiling_async_copy_enable_fn != nullptr) {
    amd->hsa_amd_profiling_async_copy_enable_fn =
        a.hsa_amd_profiling_async_copy_enable_fn;
  }
  if (a.hsa_amd_signal_wait_any_fn != nullptr) {
    amd->hsa_amd_signal_wait_any_fn = a.hsa_amd_signal_wait_any_fn;
  }
  if (a.hsa_amd_signal_async_handler_fn != nullptr) {
    amd->hsa_amd_signal_async_handler_fn = a.hsa_amd_signal_async_handler_fn;
  }
  if (c.hsa_signal_group_create_fn != nullptr) {
    core->hsa_signal_group_create_fn = c.hsa_signal_group_create_fn;
  }
  if (c.hsa_signal_group_destroy_fn != nullptr) {
    core->hsa_signal_group_destroy_fn = c.hsa_signal_group_destroy_fn;
  }
  if (c.hsa_signal_group_wait_any_scacquire_fn != nullptr) {
    core->hsa_signal_group_wait_any_scacquire_fn =
        c.hsa_signal_group_wait_any_scacquire_fn;
  }
  if (c.hsa_signal_group_wait_any_relaxed_fn != nullptr) {
    core->hsa_signal_group_wait_any_relaxed_fn =
        c.hsa_signal_group_wait_any_relaxed_fn;
  }
  if (c.hsa_signal_destroy_fn != nullptr) {
    core->hsa_signal_destroy_fn = c.hsa_signal_destroy_fn;
  }
  RestoreOnEngine(amd);
  RestoreWaitAll(amd);
}

void InstallCopyWrappers(const HsaApiTable* table, CoreApiTable* core,
                         AmdExtTable* amd) {
  if (CoreHasSlot(table,
                  offsetof(CoreApiTable, hsa_signal_wait_scacquire_fn))) {
    core->hsa_signal_wait_scacquire_fn =
        &SignalWait<&CoreApiTable::hsa_signal_wait_scacquire_fn>;
  }
  if (CoreHasSlot(table, offsetof(CoreApiTable, hsa_signal_wait_relaxed_fn))) {
    core->hsa_signal_wait_relaxed_fn =
        &SignalWait<&CoreApiTable::hsa_signal_wait_relaxed_fn>;
  }
  if (AmdHasSlot(table, offsetof(AmdExtTable, hsa_amd_memory_async_copy_fn))) {
    amd->hsa_amd_memory_async_copy_fn = &AsyncCopy;
  }
  if (AmdHasSlot(table,
                 offsetof(AmdExtTable, hsa_amd_memory_async_copy_rect_fn))) {
    amd->hsa_amd_memory_async_copy_rect_fn = &AsyncCopyRect;
  }
  if (AmdHasSlot(table, offsetof(AmdExtTable,
                                 hsa_amd_profiling_async_copy_enable_fn))) {
    amd->hsa_amd_profiling_async_copy_enable_fn = &CopyProfilingEnable;
  }
  if (AmdHasSlot(table, offsetof(AmdExtTable, hsa_amd_signal_wait_any_fn))) {
    amd->hsa_amd_signal_wait_any_fn = &SignalWaitAny;
  }
  if (AmdHasSlot(table,
                 offsetof(AmdExtTable, hsa_amd_signal_async_handler_fn))) {
    amd->hsa_amd_signal_async_handler_fn = &SignalAsyncHandler;
  }
  if (CoreHasSlot(table, offsetof(CoreApiTable, hsa_signal_group_create_fn))) {
    core->hsa_signal_group_create_fn = &SignalGroupCreate;
  }
  if (CoreHasSlot(table, offsetof(CoreApiTable, hsa_signal_group_destroy_fn))) {
    core->hsa_signal_group_destroy_fn = &SignalGroupDestroy;
  }
  if (CoreHasSlot(table, offsetof(CoreApiTable,
                                  hsa_signal_group_wait_any_scacquire_fn))) {
    core->hsa_signal_group_wait_any_scacquire_fn = &SignalGroupWaitAny<
        &CoreApiTable::hsa_signal_group_wait_any_scacquire_fn>;
  }
  if (CoreHasSlot(table, offsetof(CoreApiTable,
                                  hsa_signal_group_wait_any_relaxed_fn))) {
    core->hsa_signal_group_wait_any_relaxed_fn = &SignalGroupWaitAny<
        &CoreApiTable::hsa_signal_group_wait_any_relaxed_fn>;
  }
  if (CoreHasSlot(table, offsetof(CoreApiTable, hsa_signal_destroy_fn))) {
    core->hsa_signal_destroy_fn = &SignalDestroy;
  }
  InstallOnEngine(table, amd);
  InstallWaitAll(table, amd);
}

hsa_status_t CopyProfilingEnable(bool enable) {
  if (!enable && g_copy_profiling.load(std::memory_order_acquire)) {
    return HSA_STATUS_SUCCESS;
  }
  return Amd().hsa_amd_profiling_async_copy_enable_fn(enable);
}

void ResetCopyProfiling() {
  g_copy_profiling.store(false, std::memory_order_release);
}

}  // namespace roctracer::gpu
