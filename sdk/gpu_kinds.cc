#include "sdk/gpu_kinds.h"

#include <hsa/hsa.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>
#include <utility>

#include "rocprofiler-sdk/buffer_tracing.h"
#include "rocprofiler-sdk/external_correlation.h"
#include "runtime/gpu/tool_request.h"
#include "runtime/intercept/trace_guard.h"
#include "runtime/platform/thread_id.h"
#include "runtime/private/gpu_events.h"
#include "sdk/agents.h"
#include "sdk/buffers.h"
#include "sdk/context.h"
#include "sdk/dispatch.h"
#include "sdk/retirement.h"
#include "sdk/thread_state.h"

namespace rocprofiler_sdk {
namespace {

namespace gpu = roctracer::gpu;

// kernel object -> kernel ID, read on the submission path of every queue:
// open addressing with lock-free readers, written under the observer's
// mutex. A removed kernel keeps its key with ID 0 (a later load of the same
// kernel object reuses the slot). A full table is replaced by one twice as
// large; the old one is never freed (a reader may still be in it), which
// costs at most as much again as the live table.
class KernelIds {
 public:
  uint64_t Find(uint64_t object) const noexcept {
    const Table* t = table_.load(std::memory_order_acquire);
    if (t == nullptr || object == 0) return 0;
    for (size_t i = Hash(object) & t->mask, n = 0; n <= t->mask;
         i = (i + 1) & t->mask, ++n) {
      const uint64_t key = t->slots[i].key.load(std::memory_order_acquire);
      if (key == object) return t->slots[i].id.load(std::memory_order_acquire);
      if (key == 0) return 0;
    }
    return 0;
  }

  // Requires the observer's mutex. id 0 forgets the kernel.
  void Set(uint64_t object, uint64_t id) noexcept {
    if (object == 0) return;
    Table* t = table_.load(std::memory_order_relaxed);
    if (t == nullptr || 2 * (used_ + 1) > t->mask + 1) t = Grow(t);
    if (t == nullptr) return;
    Put(t, object, id, &used_);
  }

 private:
  struct Slot {
    std::atomic<uint64_t> key;
    std::atomic<uint64_t> id;
  };
  struct Table {
    size_t mask;
    Slot slots[1];
  };

  static size_t Hash(uint64_t v) noexcept {
    return static_cast<size_t>((v >> 4) * 0x9E3779B97F4A7C15ull >> 20);
  }

  static void Put(Table* t, uint64_t object, uint64_t id,
                  size_t* used) noexcept {
    size_t i = Hash(object) & t->mask;
    while (true) {
      const uint64_t key = t->slots[i].key.load(std::memory_order_relaxed);
      if (key == object) {
        t->slots[i].id.store(id, std::memory_order_release);
        return;
      }
      if (key == 0) {
        t->slots[i].id.store(id, std::memory_order_relaxed);
        t->slots[i].key.store(object, std::memory_order_release);
        ++*used;
        return;
      }
      i = (i + 1) & t->mask;
    }
  }

  Table* Grow(Table* old) noexcept {
    const size_t slots = old == nullptr ? 256 : 2 * (old->mask + 1);
    void* mem = std::calloc(1, sizeof(Table) + (slots - 1) * sizeof(Slot));
    if (mem == nullptr)
      return old != nullptr && used_ + 1 <= old->mask ? old : nullptr;
    auto* t = static_cast<Table*>(mem);
    t->mask = slots - 1;
    size_t used = 0;
    if (old != nullptr) {
      for (size_t i = 0; i <= old->mask; ++i) {
        const uint64_t id = old->slots[i].id.load(std::memory_order_relaxed);
        if (id != 0) {
          Put(t, old->slots[i].key.load(std::memory_order_relaxed), id, &used);
        }
      }
    }
    used_ = used;
    table_.store(t, std::memory_order_release);
    return t;
  }

  std::atomic<Table*> table_{nullptr};
  size_t used_ = 0;
};

// One context's part in an operation it captured at submission.
struct Captured {
  int context;
  bool callback;                     // its callback service gets completion
  int buffer;                        // -1, or the buffer its record goes to
  rocprofiler_user_data_t user;      // what its ENTER callback left
  rocprofiler_user_data_t external;  // its external ID after ENTER
};

// Per operation captured by some context, the cookie of the observer seam:
// allocated at submission, freed at completion.
struct OpState {
  uint64_t correlation_id;
  uint64_t thread_id;  // the submitting thread
  uint64_t kernel_id;
  const void* dst;
  const void* src;
  CallRefs* refs;  // the submitting call's, until this op's records are out
  uint32_t count;
  Captured captured[1];  // `count` entries

  static OpState* New(uint32_t count) noexcept {
    void* mem = std::malloc(sizeof(OpState) + (count - 1) * sizeof(Captured));
    auto* s = static_cast<OpState*>(mem);
    if (s != nullptr) s->count = count;
    return s;
  }
};

rocprofiler_callback_tracing_record_t MakeRecord(
    int32_t kind, int32_t op, rocprofiler_callback_phase_t phase,
    uint64_t correlation_id, void* payload) noexcept {
  rocprofiler_callback_tracing_record_t r{};
  r.thread_id = roctracer::platform::ThreadId();
  r.correlation_id.internal = correlation_id;
  r.kind = static_cast<rocprofiler_callback_tracing_kind_t>(kind);
  r.operation = op;
  r.phase = phase;
  r.payload = payload;
  return r;
}

// Calls context i (see BeginDelivery for when it may be called). The
// tracer's own work runs untraced; so do the tool's HSA calls from here, as
// from an API callback.
bool Call(ThreadState& t, int i, bool captured,
          rocprofiler_callback_tracing_record_t& record,
          rocprofiler_user_data_t* user,
          rocprofiler_user_data_t external) noexcept {
  if (!BeginDelivery(t, i, captured)) return false;
  const Service& s = g_contexts[i].services[record.kind];
  record.context_id.handle = static_cast<uint64_t>(i) + 1;
  record.correlation_id.external = external;
  roctracer::hook::UntracedScope untraced;
  s.callback(record, user, s.callback_data);
  EndDelivery(t);
  return true;
}

// Active contexts that configured `kind` for `op`.
uint64_t Interested(int32_t kind, int32_t op) noexcept {
  uint64_t mask = g_active_mask.load(std::memory_order_acquire) &
                  g_kind_mask[kind].load(std::memory_order_acquire);
  for (uint64_t m = mask; m != 0; m &= m - 1) {
    const int i = __builtin_ctzll(m);
    if (!g_contexts[i].services[kind].Traces(op)) mask &= ~(uint64_t{1} << i);
  }
  return mask;
}

// Active contexts that buffer-trace `kind` (a buffer kind) for `op`.
uint64_t BufferInterested(int32_t kind, int32_t op) noexcept {
  uint64_t mask = g_active_mask.load(std::memory_order_acquire) &
                  g_buffer_kind_mask[kind].load(std::memory_order_acquire);
  for (uint64_t m = mask; m != 0; m &= m - 1) {
    const int i = __builtin_ctzll(m);
    if (!g_contexts[i].buffer_services[kind].Traces(op)) {
      mask &= ~(uint64_t{1} << i);
    }
  }
  return mask;
}

// The external IDs the request service gave for one submission: a
// context's answer counts while it has no ID pushed on the thread.
struct Requested {
  uint64_t mask = 0;
  rocprofiler_user_data_t value[kMaxContexts];

  rocprofiler_user_data_t For(const ThreadState& t, int i) const noexcept {
    if (t.external_depth[i] != 0 || ((mask >> i) & 1u) == 0) {
      return t.ExternalTop(i);
    }
    return value[i];
  }
};

// Asks, before the submission's first callback, each context of `contexts`
// that configured the request service for `kind` and has no external ID
// pushed on this thread (as for the API kinds, dispatch.cc).
void AskExternalIds(ThreadState& t, uint64_t contexts,
                    rocprofiler_external_correlation_id_request_kind_t kind,
                    int32_t operation, uint64_t correlation_id,
                    Requested* out) noexcept {
  // The tool's own calls from its callback run untraced, as from an API
  // callback.
  roctracer::hook::UntracedScope untraced;
  out->mask = RequestExternalIds(t, contexts, kind, operation, correlation_id,
                                 roctracer::platform::ThreadId(), out->value);
}

// Calls each context in `mask` with its own user_data slot (zeroed first
// when `fresh`); returns the contexts that were called. `captured`: see
// BeginDelivery.
uint64_t CallEach(ThreadState& t, uint64_t mask, bool captured, bool fresh,
                  rocprofiler_callback_tracing_record_t& record,
                  rocprofiler_user_data_t* user,
                  const Requested* requested = nullptr) noexcept {
  uint64_t called = 0;
  for (uint64_t m = mask; m != 0; m &= m - 1) {
    const int i = __builtin_ctzll(m);
    if (fresh) user[i].value = 0;
    const rocprofiler_user_data_t external =
        requested != nullptr ? requested->For(t, i) : t.ExternalTop(i);
    if (Call(t, i, captured, record, &user[i], external)) {
      called |= uint64_t{1} << i;
    }
  }
  return called;
}

rocprofiler_kernel_dispatch_info_t DispatchInfo(
    const gpu::QueueInfo& queue, uint64_t kernel_id, uint64_t dispatch_id,
    const uint32_t grid[3], const uint16_t workgroup[3], uint32_t private_size,
    uint32_t group_size) noexcept {
  rocprofiler_kernel_dispatch_info_t d{};
  d.size = offsetof(rocprofiler_kernel_dispatch_info_t, reserved_padding);
  d.agent_id = AgentIdOf(queue.agent);
  d.queue_id.handle = queue.queue_id;
  d.kernel_id = kernel_id;
  d.dispatch_id = dispatch_id;
  d.private_segment_size = private_size;
  d.group_segment_size = group_size;
  d.workgroup_size = {workgroup[0], workgroup[1], workgroup[2]};
  d.grid_size = {grid[0], grid[1], grid[2]};
  return d;
}

// The innermost traced call in progress on this thread (what a scratch
// event belongs to, as in rocprofiler-sdk) and the call it was made from,
// where the SDK saw that call; 0 for none.
void InnermostCall(ThreadState* t, uint64_t* id, uint64_t* ancestor) noexcept {
  *id = roctracer::hook::CurrentCallId();
  *ancestor = 0;
  if (t == nullptr || *id == 0) return;
  // A call on the record path that no call the SDK saw has given a frame
  // gets its bare one now (ended at its EXIT), as such a call inside it
  // would give it: the event carries the ancestor the call's record gets
  // (the range open when it began).
  PushRecordPathFrame(*t, *id);
  const uint32_t depth = t->depth < kMaxCallDepth ? t->depth : kMaxCallDepth;
  for (uint32_t j = depth; j-- > 0;) {
    if (t->frames[j].correlation_id == *id) {
      *ancestor = AncestorOf(*t, j, *id);
      return;
    }
  }
}

// The event kinds of hsa/hsa_amd_tool.h: START of an operation at 2 * op + 1
// (op from 0: alloc, free, async reclaim), its END one after.
#ifdef ROCPROFILER_SDK_DETAIL_HSA_AMD_TOOL_EVENTS
static_assert(HSA_AMD_TOOL_EVENT_SCRATCH_ALLOC_START == 1 &&
                  HSA_AMD_TOOL_EVENT_SCRATCH_FREE_START == 3 &&
                  HSA_AMD_TOOL_EVENT_SCRATCH_ASYNC_RECLAIM_END == 6,
              "the runtime's scratch event numbering");
#endif

rocprofiler_callback_tracing_scratch_memory_data_t ScratchPayload(
    const gpu::ScratchRecord& e, bool end) noexcept {
  rocprofiler_callback_tracing_scratch_memory_data_t p{};
  p.size = sizeof(p);
  p.agent_id = AgentIdOf(e.queue.agent);
  p.queue_id.handle = e.queue.queue_id;
  p.flags = static_cast<rocprofiler_scratch_alloc_flag_t>(e.flags);
  p.args_kind = static_cast<decltype(p.args_kind)>(
      2 * static_cast<int32_t>(e.op) + (end ? 2 : 1));
  if (e.op == gpu::ScratchOp::kAlloc) {
    if (end) {
      p.args.alloc_end.dispatch_id = e.dispatch_id;
      p.args.alloc_end.size = e.size;
      p.args.alloc_end.num_slots = e.num_slots;
    } else {
      p.args.alloc_start.dispatch_id = e.dispatch_id;
    }
  }
  return p;
}

// The thread's open scratch operations (thread_state.h); NULL when the
// thread has none and `create` is false, or the allocation failed.
ScratchOpen* OpenScratch(ThreadState* t, bool create) noexcept {
  if (t == nullptr) return nullptr;
  if (t->scratch == nullptr && create) {
    t->scratch = static_cast<ScratchOpen*>(
        std::calloc(kScratchOps, sizeof(ScratchOpen)));
  }
  return t->scratch;
}

class Observer final : public gpu::Observer {
 public:
  uint64_t OnEnqueue(const gpu::EnqueueInfo& info) noexcept override {
    if (info.kind == gpu::OpKind::kDispatch) return EnqueueDispatch(info);
    if (info.kind == gpu::OpKind::kCopy) return EnqueueCopy(info);
    return 0;
  }

  void OnDispatch(const gpu::DispatchRecord& r,
                  uint64_t cookie) noexcept override {
    auto* op = reinterpret_cast<OpState*>(cookie);
    rocprofiler_callback_tracing_kernel_dispatch_data_t p{};
    p.size = sizeof(p);
    p.start_timestamp = r.begin_ns;
    p.end_timestamp = r.end_ns;
    p.dispatch_info =
        DispatchInfo(r.queue, op->kernel_id, r.op_id, r.grid, r.workgroup,
                     r.private_segment_size, r.group_segment_size);
    rocprofiler_buffer_tracing_kernel_dispatch_record_t b{};
    b.size = sizeof(b);
    b.kind = ROCPROFILER_BUFFER_TRACING_KERNEL_DISPATCH;
    b.operation = ROCPROFILER_KERNEL_DISPATCH_COMPLETE;
    b.correlation_id.internal = op->correlation_id;
    b.thread_id = op->thread_id;
    b.start_timestamp = p.start_timestamp;
    b.end_timestamp = p.end_timestamp;
    b.dispatch_info = p.dispatch_info;
    Complete(op, ROCPROFILER_CALLBACK_TRACING_KERNEL_DISPATCH,
             ROCPROFILER_KERNEL_DISPATCH_COMPLETE,
             ROCPROFILER_CALLBACK_PHASE_NONE, &p, &b, sizeof(b),
             &b.correlation_id);
  }

  void OnCopy(const gpu::CopyRecord& r, uint64_t cookie) noexcept override {
    auto* op = reinterpret_cast<OpState*>(cookie);
    rocprofiler_callback_tracing_memory_copy_data_t p =
        CopyPayload(r.dst_agent, r.src_agent, r.bytes, op->dst, op->src);
    p.start_timestamp = r.begin_ns;
    p.end_timestamp = r.end_ns;
    rocprofiler_buffer_tracing_memory_copy_record_t b{};
    b.size = sizeof(b);
    b.kind = ROCPROFILER_BUFFER_TRACING_MEMORY_COPY;
    b.operation = static_cast<rocprofiler_memory_copy_operation_t>(
        static_cast<int32_t>(r.direction) + 1);
    b.correlation_id.internal = op->correlation_id;
    b.thread_id = op->thread_id;
    b.start_timestamp = p.start_timestamp;
    b.end_timestamp = p.end_timestamp;
    b.dst_agent_id = p.dst_agent_id;
    b.src_agent_id = p.src_agent_id;
    b.bytes = p.bytes;
    b.dst_address = p.dst_address;
    b.src_address = p.src_address;
    Complete(op, ROCPROFILER_CALLBACK_TRACING_MEMORY_COPY,
             static_cast<int32_t>(r.direction) + 1,
             ROCPROFILER_CALLBACK_PHASE_EXIT, &p, &b, sizeof(b),
             &b.correlation_id);
  }

  // Captured at submission, never to complete (refused, failed, untraced
  // after all, or still running at shutdown): no callback, the state goes.
  void OnAbandon(uint64_t cookie) noexcept override {
    auto* op = reinterpret_cast<OpState*>(cookie);
    if (op->refs != nullptr) ReleaseCall(op->refs);
    std::free(op);
  }

  // SCRATCH_MEMORY: the runtime's scratch events (HSA >= 6.1 headers; never
  // raised on older ones), on the thread that raised them, with the
  // innermost traced call in progress there (0 when none). Buffer records:
  // one per START/END pair, with that thread's external IDs.
  // SCRATCH_MEMORY callbacks: ENTER at the START, with a fresh user_data
  // slot and the external ID the request service gives (as for an API call).
  void OnScratchStart(const gpu::ScratchRecord& e) noexcept override {
    constexpr int32_t kKind = ROCPROFILER_CALLBACK_TRACING_SCRATCH_MEMORY;
    const int32_t op = static_cast<int32_t>(e.op) + 1;
    ThreadState* t = Tls();
    const uint64_t mask = Interested(kKind, op);
    ScratchOpen* open = OpenScratch(t, mask != 0);
    if (open == nullptr) return;
    ScratchOpen& o = open[static_cast<int>(e.op)];
    o.called = 0;
    if (mask == 0) return;
    InnermostCall(t, &o.correlation_id, &o.ancestor);
    HoldCall(*t, o.correlation_id, false);
    Requested requested;
    AskExternalIds(*t, mask,
                   ROCPROFILER_EXTERNAL_CORRELATION_REQUEST_SCRATCH_MEMORY, op,
                   o.correlation_id, &requested);
    rocprofiler_callback_tracing_scratch_memory_data_t p =
        ScratchPayload(e, false);
    rocprofiler_callback_tracing_record_t record = MakeRecord(
        kKind, op, ROCPROFILER_CALLBACK_PHASE_ENTER, o.correlation_id, &p);
    record.correlation_id.ancestor = o.ancestor;
    uint64_t called = 0;
    for (uint64_t m = mask; m != 0; m &= m - 1) {
      const int i = __builtin_ctzll(m);
      o.user[i].value = 0;
      o.external[i] = requested.For(*t, i);
      if (Call(*t, i, false, record, &o.user[i], o.external[i])) {
        called |= uint64_t{1} << i;
      }
    }
    o.called = called;
  }

  // At the END: EXIT to each context that got ENTER and is still active,
  // then the buffer records.
  void OnScratch(const gpu::ScratchRecord& e) noexcept override {
    ThreadState* t = Tls();
    ScratchOpen* open = OpenScratch(t, false);
    if (open != nullptr) {
      ScratchOpen& o = open[static_cast<int>(e.op)];
      const uint64_t called = o.called;
      o.called = 0;
      if (called != 0) ScratchExit(*t, e, o, called);
    }
    ScratchRecords(e);
  }

  void ScratchExit(ThreadState& t, const gpu::ScratchRecord& e, ScratchOpen& o,
                   uint64_t called) noexcept {
    rocprofiler_callback_tracing_scratch_memory_data_t p =
        ScratchPayload(e, true);
    rocprofiler_callback_tracing_record_t record =
        MakeRecord(ROCPROFILER_CALLBACK_TRACING_SCRATCH_MEMORY,
                   static_cast<int32_t>(e.op) + 1,
                   ROCPROFILER_CALLBACK_PHASE_EXIT, o.correlation_id, &p);
    record.correlation_id.ancestor = o.ancestor;
    for (uint64_t m = called; m != 0; m &= m - 1) {
      const int i = __builtin_ctzll(m);
      Call(t, i, false, record, &o.user[i], o.external[i]);
    }
  }

  void ScratchRecords(const gpu::ScratchRecord& e) noexcept {
    constexpr int32_t kKind = ROCPROFILER_BUFFER_TRACING_SCRATCH_MEMORY;
    const int32_t op = static_cast<int32_t>(e.op) + 1;
    uint64_t mask = BufferInterested(kKind, op);
    if (mask == 0) return;
    ThreadState* t = Tls();
    rocprofiler_buffer_tracing_scratch_memory_record_t r{};
    r.size = sizeof(r);
    r.kind = ROCPROFILER_BUFFER_TRACING_SCRATCH_MEMORY;
    r.operation = static_cast<rocprofiler_scratch_memory_operation_t>(op);
    InnermostCall(t, &r.correlation_id.internal, &r.correlation_id.ancestor);
    r.agent_id = AgentIdOf(e.queue.agent);
    r.queue_id.handle = e.queue.queue_id;
    r.thread_id = e.thread_id;
    r.start_timestamp = e.begin_ns;
    r.end_timestamp = e.end_ns;
    r.flags = static_cast<rocprofiler_scratch_alloc_flag_t>(e.flags);
    if (t != nullptr) HoldCall(*t, r.correlation_id.internal, false);
    for (; mask != 0; mask &= mask - 1) {
      const int i = __builtin_ctzll(mask);
      r.correlation_id.external =
          t != nullptr ? t->ExternalTop(i) : rocprofiler_user_data_t{0};
      WriteRecord(g_contexts[i].buffer_services[kKind].buffer, &r, sizeof(r));
    }
  }

  void OnCodeObject(const gpu::CodeObjectEvent& e) noexcept override {
    rocprofiler_callback_tracing_code_object_load_data_t p{};
    p.size = sizeof(p);
    {
      std::lock_guard<std::mutex> lock(mutex_);
      const std::pair<uint64_t, uint64_t> owner{e.executable.handle,
                                                e.agent.handle};
      if (e.load) {
        p.code_object_id = ++last_code_object_;
        code_objects_[e.loaded_code_object] = p.code_object_id;
        by_owner_[owner] = p.code_object_id;
      } else {
        auto it = code_objects_.find(e.loaded_code_object);
        if (it == code_objects_.end()) return;  // never reported loaded
        p.code_object_id = it->second;
        code_objects_.erase(it);
        by_owner_.erase(owner);
      }
    }
    p.agent_id = AgentIdOf(e.agent);
    p.hsa_agent = e.agent;
    p.uri = e.uri;
    p.load_base = e.load_base;
    p.load_size = e.load_size;
    p.load_delta = e.load_delta;
    p.storage_type =
        static_cast<rocprofiler_code_object_storage_type_t>(e.storage_type);
    if (e.storage_type == ROCPROFILER_CODE_OBJECT_STORAGE_TYPE_FILE) {
      p.storage_file = e.storage_file;
    } else if (e.storage_type == ROCPROFILER_CODE_OBJECT_STORAGE_TYPE_MEMORY) {
      p.memory_base = e.memory_base;
      p.memory_size = e.memory_size;
    }
    Announce(ROCPROFILER_CODE_OBJECT_LOAD, e.load, &p);
  }

  void OnKernelSymbol(const gpu::KernelSymbolEvent& e) noexcept override {
    rocprofiler_callback_tracing_code_object_kernel_symbol_register_data_t p{};
    p.size = sizeof(p);
    {
      std::lock_guard<std::mutex> lock(mutex_);
      auto owner = by_owner_.find({e.executable.handle, e.agent.handle});
      p.code_object_id = owner != by_owner_.end()
                             ? owner->second
                             : ROCPROFILER_CODE_OBJECT_ID_NONE;
      if (e.load) {
        p.kernel_id = ++last_kernel_;
        kernels_[e.kernel_object] = p.kernel_id;
        kernel_ids_.Set(e.kernel_object, p.kernel_id);
      } else {
        auto it = kernels_.find(e.kernel_object);
        if (it == kernels_.end()) return;
        p.kernel_id = it->second;
        kernels_.erase(it);
        kernel_ids_.Set(e.kernel_object, 0);
      }
    }
    p.kernel_name = e.symbol_name;
    p.kernel_object = e.kernel_object;
    p.kernarg_segment_size = e.kernarg_segment_size;
    p.kernarg_segment_alignment = e.kernarg_segment_alignment;
    p.group_segment_size = e.group_segment_size;
    p.private_segment_size = e.private_segment_size;
    // rocprofiler-sdk's convention for counts it could not decode: 0.
    p.sgpr_count = e.registers.sgpr_count;
    p.arch_vgpr_count = e.registers.arch_vgpr_count;
    p.accum_vgpr_count = e.registers.accum_vgpr_count;
    Announce(ROCPROFILER_CODE_OBJECT_DEVICE_KERNEL_SYMBOL_REGISTER, e.load, &p);
  }

 private:
  // ENQUEUE: ENTER and EXIT on the submitting thread, around the moment the
  // contexts that will see COMPLETE are captured (rocprofiler-sdk's
  // contract: a context stopped in ENTER gets its EXIT but no COMPLETE; what
  // ENTER left in user_data comes back with EXIT and COMPLETE).
  uint64_t EnqueueDispatch(const gpu::EnqueueInfo& info) noexcept {
    constexpr int32_t kKind = ROCPROFILER_CALLBACK_TRACING_KERNEL_DISPATCH;
    const uint64_t enqueue =
        Interested(kKind, ROCPROFILER_KERNEL_DISPATCH_ENQUEUE);
    const uint64_t complete =
        Interested(kKind, ROCPROFILER_KERNEL_DISPATCH_COMPLETE);
    const uint64_t buffered =
        BufferInterested(ROCPROFILER_BUFFER_TRACING_KERNEL_DISPATCH,
                         ROCPROFILER_KERNEL_DISPATCH_COMPLETE);
    if ((enqueue | complete | buffered) == 0) return 0;
    ThreadState* t = Tls();
    if (t == nullptr) return 0;
    hsa_kernel_dispatch_packet_t packet;
    std::memcpy(&packet, info.packet, sizeof(packet));
    const uint32_t grid[3] = {packet.grid_size_x, packet.grid_size_y,
                              packet.grid_size_z};
    const uint16_t workgroup[3] = {packet.workgroup_size_x,
                                   packet.workgroup_size_y,
                                   packet.workgroup_size_z};
    const uint64_t kernel_id = kernel_ids_.Find(packet.kernel_object);
    rocprofiler_callback_tracing_kernel_dispatch_data_t p{};
    p.size = sizeof(p);
    p.dispatch_info =
        DispatchInfo(info.queue, kernel_id, info.op_id, grid, workgroup,
                     packet.private_segment_size, packet.group_segment_size);
    rocprofiler_callback_tracing_record_t r =
        MakeRecord(kKind, ROCPROFILER_KERNEL_DISPATCH_ENQUEUE,
                   ROCPROFILER_CALLBACK_PHASE_ENTER, info.correlation_id, &p);
    Requested requested;
    AskExternalIds(*t, enqueue | complete | buffered,
                   ROCPROFILER_EXTERNAL_CORRELATION_REQUEST_KERNEL_DISPATCH,
                   ROCPROFILER_KERNEL_DISPATCH_ENQUEUE, info.correlation_id,
                   &requested);
    rocprofiler_user_data_t user[kMaxContexts];
    const uint64_t entered =
        CallEach(*t, enqueue, false, true, r, user, &requested);
    // Captured now: active after the ENTER callbacks.
    const uint64_t captured =
        complete & g_active_mask.load(std::memory_order_acquire);
    r.phase = ROCPROFILER_CALLBACK_PHASE_EXIT;
    CallEach(*t, entered, true, false, r, user, &requested);
    if (entered != 0) HoldCall(*t, info.correlation_id, false);
    OpState* op =
        Capture(*t, captured, entered, user, info.correlation_id, buffered,
                ROCPROFILER_BUFFER_TRACING_KERNEL_DISPATCH, requested);
    if (op == nullptr) return 0;
    op->kernel_id = kernel_id;
    return reinterpret_cast<uint64_t>(op);
  }

  // A copy: ENTER on the submitting thread, EXIT with the times when it has
  // completed, to the contexts that got ENTER.
  uint64_t EnqueueCopy(const gpu::EnqueueInfo& info) noexcept {
    constexpr int32_t kKind = ROCPROFILER_CALLBACK_TRACING_MEMORY_COPY;
    const int32_t operation = static_cast<int32_t>(info.direction) + 1;
    const uint64_t mask = Interested(kKind, operation);
    const uint64_t buffered =
        BufferInterested(ROCPROFILER_BUFFER_TRACING_MEMORY_COPY, operation);
    if ((mask | buffered) == 0) return 0;
    ThreadState* t = Tls();
    if (t == nullptr) return 0;
    rocprofiler_callback_tracing_memory_copy_data_t p = CopyPayload(
        info.dst_agent, info.src_agent, info.bytes, info.dst, info.src);
    rocprofiler_callback_tracing_record_t r =
        MakeRecord(kKind, operation, ROCPROFILER_CALLBACK_PHASE_ENTER,
                   info.correlation_id, &p);
    Requested requested;
    AskExternalIds(*t, mask | buffered,
                   ROCPROFILER_EXTERNAL_CORRELATION_REQUEST_MEMORY_COPY,
                   operation, info.correlation_id, &requested);
    rocprofiler_user_data_t user[kMaxContexts];
    const uint64_t entered =
        CallEach(*t, mask, false, true, r, user, &requested);
    if (entered != 0) HoldCall(*t, info.correlation_id, false);
    OpState* op =
        Capture(*t, entered, entered, user, info.correlation_id, buffered,
                ROCPROFILER_BUFFER_TRACING_MEMORY_COPY, requested);
    if (op == nullptr) return 0;
    op->dst = info.dst;
    op->src = info.src;
    return reinterpret_cast<uint64_t>(op);
  }

  // `captured`: contexts whose callbacks get the completion; `buffered`:
  // contexts that record it in the buffer of their `buffer_kind` service.
  // The operation holds its call's ID from retirement (retirement.h) until
  // its completion's records are written.
  static OpState* Capture(ThreadState& t, uint64_t captured, uint64_t entered,
                          const rocprofiler_user_data_t* user,
                          uint64_t correlation_id, uint64_t buffered,
                          int32_t buffer_kind,
                          const Requested& requested) noexcept {
    const uint64_t all = captured | buffered;
    if (all == 0) return nullptr;
    OpState* op =
        OpState::New(static_cast<uint32_t>(__builtin_popcountll(all)));
    if (op == nullptr) return nullptr;
    op->correlation_id = correlation_id;
    op->thread_id = roctracer::platform::ThreadId();
    op->kernel_id = 0;
    op->dst = op->src = nullptr;
    op->refs = HoldCall(t, correlation_id, true);
    uint32_t n = 0;
    for (uint64_t m = all; m != 0; m &= m - 1) {
      const int i = __builtin_ctzll(m);
      Captured& c = op->captured[n++];
      c.context = i;
      c.callback = (captured >> i) & 1u;
      c.buffer = (buffered >> i) & 1u
                     ? g_contexts[i].buffer_services[buffer_kind].buffer
                     : -1;
      c.user.value = (entered >> i) & 1u ? user[i].value : 0;
      c.external = requested.For(t, i);
    }
    return op;
  }

  static rocprofiler_callback_tracing_memory_copy_data_t CopyPayload(
      hsa_agent_t dst_agent, hsa_agent_t src_agent, uint64_t bytes,
      const void* dst, const void* src) noexcept {
    rocprofiler_callback_tracing_memory_copy_data_t p{};
    p.size = sizeof(p);
    p.dst_agent_id = AgentIdOf(dst_agent);
    p.src_agent_id = AgentIdOf(src_agent);
    p.bytes = bytes;
    p.dst_address.ptr = dst;
    p.src_address.ptr = src;
    return p;
  }

  // The completion, to every context that captured the operation and has
  // not been invalidated since; then the operation's state goes.
  // `record` (`size` bytes, its correlation ID at `correlation`) goes to
  // the buffers of the contexts that buffer-trace the operation.
  static void Complete(
      OpState* op, int32_t kind, int32_t operation,
      rocprofiler_callback_phase_t phase, void* payload, const void* record,
      size_t size, rocprofiler_async_correlation_id_t* correlation) noexcept {
    ThreadState* t = Tls();
    if (t != nullptr) {
      rocprofiler_callback_tracing_record_t r =
          MakeRecord(kind, operation, phase, op->correlation_id, payload);
      for (uint32_t n = 0; n < op->count; ++n) {
        Captured& c = op->captured[n];
        if (c.callback) Call(*t, c.context, true, r, &c.user, c.external);
      }
    }
    for (uint32_t n = 0; n < op->count; ++n) {
      const Captured& c = op->captured[n];
      if (c.buffer < 0 ||
          g_contexts[c.context].invalid.load(std::memory_order_acquire)) {
        continue;
      }
      correlation->external = c.external;
      WriteRecord(c.buffer, record, size);
      if (op->refs != nullptr) NoteRecordWrittenHere(op->refs);
    }
    if (op->refs != nullptr) ReleaseCall(op->refs);
    std::free(op);
  }

  // Code objects and kernel symbols: LOAD at load/register, UNLOAD at
  // unload/unregister, to the contexts active then; the internal
  // correlation ID is the traced API call that froze or destroyed the
  // executable (0 when none is traced).
  static void Announce(int32_t operation, bool load, void* payload) noexcept {
    constexpr int32_t kKind = ROCPROFILER_CALLBACK_TRACING_CODE_OBJECT;
    const uint64_t mask = Interested(kKind, operation);
    if (mask == 0) return;
    ThreadState* t = Tls();
    if (t == nullptr) return;
    rocprofiler_callback_tracing_record_t r =
        MakeRecord(kKind, operation,
                   load ? ROCPROFILER_CALLBACK_PHASE_LOAD
                        : ROCPROFILER_CALLBACK_PHASE_UNLOAD,
                   roctracer::hook::CurrentCallId(), payload);
    rocprofiler_user_data_t user[kMaxContexts];
    CallEach(*t, mask, false, true, r, user);
  }

  std::mutex mutex_;
  uint64_t last_code_object_ = 0;
  uint64_t last_kernel_ = 0;
  std::map<uint64_t, uint64_t> code_objects_;  // loaded code object -> ID
  // (executable, agent) -> the ID of its code object, for its kernels
  std::map<std::pair<uint64_t, uint64_t>, uint64_t> by_owner_;
  std::map<uint64_t, uint64_t> kernels_;  // kernel object -> kernel ID
  KernelIds kernel_ids_;
};

}  // namespace

bool EnableGpuKinds() noexcept {
  static std::mutex mutex;
  static bool registered = false;
  static bool warned = false;
  std::lock_guard<std::mutex> lock(mutex);
  if (!registered) {
    // Never destroyed: the GPU half may report until the process exits.
    static Observer* observer = new Observer;
    registered = gpu::AddObserver(observer);
    if (registered) gpu::ReplayLoaded(observer);
  }
  // The GPU half exists only where the HSA runtime hands its table over:
  // before the runtime initialises, this library names itself in
  // HSA_TOOLS_LIB; after, the GPU work is lost, and the tool is told once
  // rather than finding its buffers empty.
  if (registered && !warned &&
      gpu::RequestToolPath() == gpu::ToolPath::kTooLate) {
    warned = true;
    std::fprintf(
        stderr,
        "rocprofiler-sdk: GPU activity (kernel dispatches, memory copies, "
        "code objects, scratch memory) will be missing: the HSA runtime was "
        "initialised before this library (librocprofiler-sdk.so.1 / "
        "libroctracer64.so.4) could become its tool. Load the library "
        "before the first HIP or HSA call (link the program or the tool "
        "with -lrocprofiler-sdk, or LD_PRELOAD=librocprofiler-sdk.so.1), "
        "or set HSA_TOOLS_LIB=librocprofiler-sdk.so.1\n");
  }
  return registered;
}

}  // namespace rocprofiler_sdk
