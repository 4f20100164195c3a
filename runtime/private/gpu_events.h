// The observer seam of the GPU half of the tracer: what the interception of
// queues, copies and code objects (runtime/gpu/) tells the parts that turn
// GPU work into output. HSA_OPS activity records (hsa_ops_records.cc, which
// roctrace's kernel and copy outputs read) and rocprofiler-sdk's
// KERNEL_DISPATCH / MEMORY_COPY / CODE_OBJECT callbacks (sdk/gpu_kinds.cc) are
// observers; HIP_OPS records are meant to be another, added without touching
// the interception code.
//
// Per operation (a kernel dispatch, an application barrier packet, an async
// copy) an observer sees:
//  1. OnEnqueue, on the submitting thread, before the operation reaches the
//     runtime (for a packet: while the runtime holds the queue's lock, inside
//     the doorbell store that submitted it). It returns a cookie: non-zero
//     means "tell me when it completes", and the cookie comes back with the
//     completion, so an observer can carry per-operation state (the HSA_OPS
//     writer carries the pool the record goes to, so that disabling activity
//     mid-stream still records what was submitted before).
//  2. One completion call (OnDispatch / OnBarrier / OnCopy) with the times,
//     or OnAbandon when there will be none,
//     on the tracer's completion thread or on a thread that flushes, closes a
//     pool, destroys a queue or an executable, or shuts the runtime down.
//     An operation that never completes (its queue stopped with an error or
//     was destroyed first, the runtime shut down, the process exited) gets
//     OnAbandon; it is counted in GpuStats::incomplete.
// Code objects and kernel symbols (OnCodeObject / OnKernelSymbol) are
// reported on the thread that froze or destroyed the executable: loads after
// hsa_executable_freeze, unloads before hsa_executable_destroy runs.
// ReplayLoaded() tells an observer registered late what is loaded now.
//
// Threads: completion and code-object calls for one queue never overlap;
// calls for different queues may run concurrently. Observers must not throw.
// The tool callbacks they run may call the runtime (create, submit to and
// destroy queues, wait on signals): runtime/gpu/README.md, "What a
// completion's observer (a tool's callback) may call", says what is allowed
// and which destructions are deferred.
#ifndef RUNTIME_PRIVATE_GPU_EVENTS_H_
#define RUNTIME_PRIVATE_GPU_EVENTS_H_

#include <hsa/hsa.h>
#include <hsa/hsa_ext_amd.h>

#include <cstdint>

namespace roctracer::gpu {

enum class OpKind : uint8_t { kDispatch, kBarrier, kCopy };

// Where a packet ran. `device_id` is the agent's index among the kernel
// agents in hsa_iterate_agents order (HIP's device numbering); `queue_id` is
// hsa_queue_t::id of the queue the application holds.
struct QueueInfo {
  hsa_agent_t agent;
  int device_id;
  uint64_t queue_id;
  const hsa_queue_t* queue;
};

struct EnqueueInfo {
  OpKind kind;
  // Unique in the process (drawn from the correlation-ID space), the same in
  // the completion.
  uint64_t op_id;
  // The innermost traced API call in progress on the submitting thread (the
  // doorbell store when HSA_API is traced, the HIP call when only HIP_API
  // is), 0 when none: runtime/gpu/README.md, "Correlation".
  uint64_t correlation_id;
  // Dispatches and barriers: the queue and the application's 64-byte AQL
  // packet as written (its completion signal is the application's).
  QueueInfo queue;
  const void* packet;
  // Copies: agents, bytes, hsa_amd_copy_direction_t.
  hsa_agent_t src_agent;
  hsa_agent_t dst_agent;
  uint64_t bytes;
  uint32_t direction;
  // Copies: the addresses (a rectangle copy's pitched pointers' bases).
  const void* dst;
  const void* src;
  // The stream the work was submitted on: the stream argument (HIP's
  // hipStream_t, as an integer) of the innermost traced call in progress on
  // the submitting thread that takes one; 0, HIP's null stream, when none
  // does (no HIP call traced, work the runtime submits on its own thread).
  // Worked out only when called, so that observers which do not ask cost
  // nothing: call it during OnEnqueue (it reads the submitting thread's
  // calls).
  uint64_t (*stream)() noexcept;
};

// Times are CLOCK_BOOTTIME nanoseconds (roctracer_get_timestamp's clock),
// converted from the runtime's system timestamp domain (gpu_clock.h).
struct DispatchRecord {
  uint64_t op_id;
  uint64_t correlation_id;
  QueueInfo queue;
  uint64_t kernel_object;
  // Demangled, without a code object v3 ".kd" suffix; valid during the call.
  // When the kernel object is in no loaded executable:
  // "<unknown kernel 0x...>" and name_resolved false.
  const char* kernel_name;
  bool name_resolved;
  uint32_t grid[3];
  uint16_t workgroup[3];
  uint32_t private_segment_size;
  uint32_t group_segment_size;
  uint64_t begin_ns;
  uint64_t end_ns;
};

struct BarrierRecord {
  uint64_t op_id;
  uint64_t correlation_id;
  QueueInfo queue;
  uint8_t packet_type;  // HSA_PACKET_TYPE_BARRIER_AND or _OR
  uint64_t begin_ns;
  uint64_t end_ns;
};

struct CopyRecord {
  uint64_t op_id;
  uint64_t correlation_id;
  hsa_agent_t src_agent;
  hsa_agent_t dst_agent;
  // The kernel agent of the copy (the destination's if it is one, else the
  // source's), -1 for a copy between host agents.
  int device_id;
  uint64_t bytes;
  uint32_t direction;  // hsa_amd_copy_direction_t
  uint64_t begin_ns;
  uint64_t end_ns;
};

struct CodeObjectEvent {
  bool load;  // false: unload
  hsa_executable_t executable;
  hsa_agent_t agent;
  uint64_t loaded_code_object;  // hsa_loaded_code_object_t handle
  const char* uri;              // "" when the loader does not say
  uint64_t load_base;
  uint64_t load_size;
  int64_t load_delta;
  // Where the loader read it from (hsa_ven_amd_loader_code_object_storage_
  // type_t): a file (storage_file, its descriptor) or memory (memory_base,
  // memory_size); -1 and 0 where they do not apply.
  uint32_t storage_type;
  int storage_file;
  uint64_t memory_base;
  uint64_t memory_size;
  // The agent's index among the kernel agents (QueueInfo::device_id), -1
  // when it is not one.
  int device_id;
};

// A kernel's registers as its descriptor gives them (kernel_descriptor.h):
// what a wavefront is allocated, per work-item for VGPRs. `known` is false
// when the descriptor could not be read (the runtime has no loader
// extension, or it does not map the kernel object to host memory) or the
// agent's target is not known; the counts are then 0 and mean nothing.
struct KernelRegisters {
  bool known;
  uint32_t arch_vgpr_count;
  uint32_t accum_vgpr_count;  // 0 on targets without accumulation VGPRs
  uint32_t sgpr_count;
};

// Scratch (private segment) memory the runtime allocated, freed or
// reclaimed for a queue: one record per START/END pair of the runtime's tool
// events (hsa/hsa_amd_tool.h, ROCm >= 6.1 headers; never on older ones), on
// the thread that raised them, as soon as the END arrives.
enum class ScratchOp : uint8_t { kAlloc, kFree, kAsyncReclaim };

struct ScratchRecord {
  ScratchOp op;
  // The application's queue where the tracer knows it (matched by the
  // pointer or by hsa_queue_t::id, which an intercept queue shares with the
  // queue below it); otherwise agent {0}, device_id -1, the runtime's id.
  QueueInfo queue;
  uint32_t flags;  // hsa_amd_event_scratch_alloc_flag_t (1 use-once, 2 alt)
  // kAlloc: the dispatch that needed it, the bytes and the waves (slots) it
  // covers; 0 otherwise.
  uint64_t dispatch_id;
  uint64_t size;
  uint64_t num_slots;
  uint32_t thread_id;  // the kernel's thread ID of the raising thread
  // START and END in CLOCK_BOOTTIME ns; an END without its START (the tool
  // was installed in between) has begin_ns == end_ns.
  uint64_t begin_ns;
  uint64_t end_ns;
};

struct KernelSymbolEvent {
  bool load;  // false: unregistered (its executable is being destroyed)
  hsa_executable_t executable;
  hsa_agent_t agent;
  uint64_t kernel_object;
  const char* symbol_name;  // as the runtime reports it
  const char* kernel_name;  // demangled, without ".kd"
  uint32_t kernarg_segment_size;
  uint32_t group_segment_size;
  uint32_t private_segment_size;
  uint32_t kernarg_segment_alignment;
  KernelRegisters registers;  // read once, when the executable was frozen
};

class Observer {
 public:
  virtual ~Observer() = default;
  virtual uint64_t OnEnqueue(const EnqueueInfo& info) noexcept = 0;
  virtual void OnDispatch(const DispatchRecord&, uint64_t /*cookie*/) noexcept {
  }
  virtual void OnBarrier(const BarrierRecord&, uint64_t /*cookie*/) noexcept {}
  virtual void OnCopy(const CopyRecord&, uint64_t /*cookie*/) noexcept {}
  // Instead of a completion: the operation whose OnEnqueue returned `cookie`
  // will not be reported (submitted untraced after all, refused by the
  // runtime, a copy that failed, work that never completed), so that
  // per-operation state can be released.
  virtual void OnAbandon(uint64_t /*cookie*/) noexcept {}
  virtual void OnCodeObject(const CodeObjectEvent&) noexcept {}
  virtual void OnKernelSymbol(const KernelSymbolEvent&) noexcept {}
  // A scratch START as it is raised (end_ns, size and num_slots 0; the
  // dispatch_id for kAlloc), before the runtime does the work; OnScratch
  // follows with the pair at the END, on the same thread.
  virtual void OnScratchStart(const ScratchRecord&) noexcept {}
  virtual void OnScratch(const ScratchRecord&) noexcept {}
};

// At most kMaxObservers at a time; observers are never destroyed while
// registered. Returns false when full. Registration is not on any hot path
// (a mutex); the interception reads the list without locks. The tracer's own
// observers (HSA_OPS, HIP_OPS, HSA_EVT, the SDK's) take four.
constexpr int kMaxObservers = 6;
bool AddObserver(Observer* observer);
void RemoveObserver(Observer* observer);

// Calls observer->OnCodeObject / OnKernelSymbol (load) for everything loaded
// now.
void ReplayLoaded(Observer* observer);

// What could not be recorded, and what was: never silent (also printed at
// exit when something was lost, and readable through
// roctracer_get_gpu_activity_stats_expl).
struct GpuStats {
  uint64_t dispatches;  // completions reported
  uint64_t barriers;
  uint64_t copies;
  uint64_t untraced;          // submitted untraced: no tracer signal free
  uint64_t names_unresolved;  // dispatches of a kernel object in no executable
  uint64_t incomplete;        // traced, never completed (queue error,
                              // destroyed queue, shutdown, exit)
  uint64_t failed_copies;     // completed with an error value: no times
  uint64_t in_flight;         // traced, not yet reported
};
GpuStats Stats() noexcept;

}  // namespace roctracer::gpu

#endif  // RUNTIME_PRIVATE_GPU_EVENTS_H_
