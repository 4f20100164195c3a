// What the writers receive: one finished API call, rocTX range or mark,
// already paired and named by the tool, so that every writer stays a plain
// formatter and none of them needs to know about roctracer records.
#ifndef ROCTRACE_WRITERS_EVENT_H_
#define ROCTRACE_WRITERS_EVENT_H_

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "roctrace/writers/agent_naming.h"

namespace roctrace {

// rocprofv3's output domains; the order is the order of the stats tables.
// kKernel, kMemoryCopy and kScratchMemory are device work (a kernel
// dispatch, a copy, the runtime's scratch allocation for a queue): their
// events carry the device fields of ApiEvent. kMemoryAllocation (a memory
// pool's allocation or free, rocprofv3's --memory-allocation-trace) is
// written as device work is, on its calling thread.
enum class Category : uint8_t {
  kHip = 0,
  kHsa = 1,
  kMarker = 2,
  kKernel = 3,
  kMemoryCopy = 4,
  kScratchMemory = 5,
  kMemoryAllocation = 6
};
constexpr int kCategoryCount = 7;

// rocprofv3's category names (rocpd's event categories, JSON's kinds).
inline const char* CategoryName(Category c) {
  switch (c) {
    case Category::kHip:
      return "HIP_RUNTIME_API_EXT";
    case Category::kHsa:
      return "HSA_CORE_API";
    case Category::kMarker:
      return "MARKER_CORE_API";
    case Category::kKernel:
      return "KERNEL_DISPATCH";
    case Category::kMemoryCopy:
      return "MEMORY_COPY";
    case Category::kScratchMemory:
      return "SCRATCH_MEMORY";
    case Category::kMemoryAllocation:
      return "MEMORY_ALLOCATION";
  }
  return "UNKNOWN";
}

// rocprofv3's summary domain names (its domain_type column names; the KFD
// calls' own KFD_API is StatsWriter's).
inline const char* SummaryDomain(Category c) {
  switch (c) {
    case Category::kHip:
      return "HIP_API";
    case Category::kHsa:
      return "HSA_API";
    case Category::kMarker:
      return "MARKER_API";
    case Category::kKernel:
      return "KERNEL_DISPATCH";
    case Category::kMemoryCopy:
      return "MEMORY_COPY";
    case Category::kScratchMemory:
      return "SCRATCH_MEMORY";
    case Category::kMemoryAllocation:
      return "MEMORY_ALLOCATION";
  }
  return "UNKNOWN";
}

inline bool IsDevice(Category c) {
  return c == Category::kKernel || c == Category::kMemoryCopy ||
         c == Category::kScratchMemory || c == Category::kMemoryAllocation;
}

// A copy's direction (hsa_amd_copy_direction_t's values).
enum class CopyDirection : uint8_t {
  kHostToHost = 0,
  kHostToDevice = 1,
  kDeviceToHost = 2,
  kDeviceToDevice = 3
};

// A kernel's registers as its kernel descriptor gives them, allocated per
// wavefront (VGPRs per work-item): rocprofv3's VGPR_Count,
// Accum_VGPR_Count and SGPR_Count. `known` is false when the tracer could
// not read them (kernel object in no executable it saw loaded, descriptor
// not readable, target not known): written empty / NULL, never as 0.
struct KernelRegisterCounts {
  bool known = false;
  uint32_t arch_vgpr = 0;
  uint32_t accum_vgpr = 0;
  uint32_t sgpr = 0;
};

// A code object the runtime loaded (rocpd_info_code_object): its id (1, 2,
// ... in load order, unique in the process), its kernel agent's index, and
// what the loader says of it (hsa_ven_amd_loader_loaded_code_object_info_t):
// storage_type 0 none, 1 a file, 2 memory (memory_base and memory_size then
// say where it was read from).
struct CodeObjectInfo {
  uint64_t id = 0;
  int32_t device_id = -1;
  std::string uri;
  uint64_t load_base = 0;
  uint64_t load_size = 0;
  int64_t load_delta = 0;
  uint32_t storage_type = 0;
  uint64_t memory_base = 0;
  uint64_t memory_size = 0;
};

// A kernel symbol as its executable was frozen with it
// (rocpd_info_kernel_symbol): the symbol's name as the runtime reports it
// (mangled; a ".kd" descriptor suffix kept), its kernel object and segment
// sizes, and its code object (null when the loader did not say which).
struct KernelSymbolInfo {
  std::string symbol_name;
  uint64_t kernel_object = 0;
  uint32_t kernarg_segment_size = 0;
  uint32_t kernarg_segment_alignment = 0;
  uint32_t group_segment_size = 0;
  uint32_t private_segment_size = 0;
  std::shared_ptr<const CodeObjectInfo> code_object;
};

// The interned identity of an operation: names live as long as the process,
// so events carry a pointer. `index` is dense (0, 1, 2, ... in the order the
// names were made), so writers keep per-name state in vectors, not maps.
struct OpName {
  Category category;
  std::string name;    // function name, or the rocTX message
  std::string domain;  // rocprofv3's Domain column (HIP_RUNTIME_API_EXT, ...)
  uint32_t index = 0;
  // kMemoryCopy names are per direction (MEMORY_COPY_HOST_TO_DEVICE, ...).
  CopyDirection direction = CopyDirection::kHostToHost;
  // kKernel: 1, 2, ... in the order kernel names first appear (Kernel_Id).
  uint32_t kernel_id = 0;
  // kKernel: the registers of the name's first dispatch's kernel (one name
  // is one Kernel_Id, whatever kernel objects it stands for).
  KernelRegisterCounts registers = {};
  // kKernel: the kernel symbol of the name's first dispatch (null when the
  // kernel object was in no executable the tracer saw frozen).
  std::shared_ptr<const KernelSymbolInfo> symbol = nullptr;
  // An API call whose correlation ID device work may carry (a doorbell
  // store, an async copy; HIP calls when HSA is not traced): the timeline
  // gives only these a flow, so other calls cost no bytes for it.
  bool submits_work = false;
  // An API call that returns its domain's status type (hipError_t,
  // hsa_status_t, HSAKMT_STATUS): its events' `retval` is what it returned.
  bool returns_status = false;
  // A HIP call returning neither void nor hipError_t: its events' args,
  // when recorded, end with its result's 8 bytes (RetvalOf).
  bool retval_in_args = false;
  // A HIP call returning void.
  bool returns_void = false;
};

// What a kernel dispatch was launched with (kKernel events). Sizes are the
// application's AQL packet's, as rocprofv3's dispatch_info: grid and
// workgroup in work-items, group segment (LDS) and private segment
// (scratch per work-item) in bytes. `symbol_group_segment_size` is the
// kernel symbol's own (static) LDS size, from which rocprofv3's CSV derives
// LDS_Block_Size; `symbol_known` is false when the kernel object was in no
// executable the tracer saw loaded. Register counts are the kernel name's
// (OpName::registers), not repeated in every event.
struct KernelLaunch {
  uint32_t grid[3];
  uint16_t workgroup[3];
  bool symbol_known;
  uint32_t group_segment_size;
  uint32_t private_segment_size;
  uint32_t symbol_group_segment_size;
};

// A scratch allocation, free or reclaim (kScratchMemory events): the
// runtime's hsa_amd_event_scratch_alloc_flag_t (1 use-once, 2 alternate) and
// the bytes allocated (0 for a free or reclaim).
struct ScratchUse {
  uint32_t flags;
  uint64_t size;
};

// One argument of an API call, as ApiArgs' `each` hands it over: its
// position (0, 1, ... in the parameter list), its type, its name and its
// value: integers in decimal, enumerators by name, pointers as addresses
// (`0x7ffd4c3e1a90`, `NULL`), never followed (what they pointed to is gone
// by then), structs passed by value field by field (`{x=1, y=1, z=1}`).
// The type is the parameter's C++ type as rocprofiler-sdk names it (its
// typeid: typedefs resolved): `type` demangled as rocprofv3's database
// writes it (`unsigned long`, `void const*`, `ihipStream_t*`),
// `mangled_type` as its JSON does (`m`, `PKv`, `P12ihipStream_t`).
struct ApiArg {
  uint32_t position;
  const char* type;
  size_t type_size;
  const char* mangled_type;
  const char* name;
  size_t name_size;
  const char* value;
  size_t value_size;
};

// An API call's arguments as the call's data held them when it returned:
// the bytes of its argument struct, copied on the calling thread, made text
// only by a writer that writes them (rocpd's rocpd_arg, JSON's `args`), on
// its own thread, with its domain's printers.
struct ApiArgs {
  using Visit = void (*)(void* user, const ApiArg& arg);
  using ValueVisit = void (*)(uint32_t position, const char* header_type,
                              const char* name, const char* value, size_t size,
                              void* user);
  struct Printers {
    // Calls `visit` once per argument, in order, its type spelled.
    void (*each)(const ApiArgs& args, Visit visit, void* user);
    // The printers' own pass (no type spelled, no adapter between them and
    // `visit`): calls `visit` once per argument, in order, with its
    // position, its type and name as the header spells them (string
    // literals: their addresses name them, one per parameter of an
    // operation) and its printed value (`size` bytes, valid during the
    // call only).
    void (*values)(const ApiArgs& args, ValueVisit visit, void* user);
    // A value `values` handed over as `each` would have (the type spelled
    // as rocprofiler-sdk names it, the name measured).
    ApiArg (*spell)(const ApiArgs& args, uint32_t position,
                    const char* header_type, const char* name,
                    const char* value, size_t size);
  };
  const Printers* printers;
  uint32_t domain;  // activity_domain_t
  uint32_t op;
  uint32_t size;
  const unsigned char* bytes;

  void each(Visit visit, void* user) const {
    printers->each(*this, visit, user);
  }
};

// The result of a call whose op is OpName::retval_in_args, from its args:
// their last 8 bytes, the result's bits zero-extended (rocprofiler-sdk's
// uint64_t_retval). The printers read only the op's member before them.
inline uint64_t RetvalOf(const ApiArgs& args) {
  uint64_t v = 0;
  if (args.size >= sizeof(v)) {
    std::memcpy(&v, args.bytes + args.size - sizeof(v), sizeof(v));
  }
  return v;
}

// A memory allocation or free (kMemoryAllocation events; the operation is
// the name: MEMORY_ALLOCATION_ALLOCATE, MEMORY_ALLOCATION_FREE): the
// address, the bytes allocated (0 for a free, as rocprofv3 records it) and
// the agent whose memory it is (allocations only: `has_agent` false for a
// free).
struct MemoryAllocation {
  uint64_t address;
  uint64_t size;
  AgentRef agent;
  bool has_agent;
};

// What only device work carries (kKernel, kMemoryCopy, kScratchMemory,
// kMemoryAllocation events), out of the event: an API call's event is one
// 64-byte line, the device fields a few events a batch have kept beside
// them (EventList keeps a copy for as long as the batch).
struct DeviceWork {
  // The kernel agent's index (HIP's device number); -1 for a copy between
  // host agents, a scratch event of a queue the tracer did not know, or a
  // memory allocation.
  int32_t device_id;
  // kKernel: 1, 2, ... in the order dispatches were submitted, unique in
  // the process (Dispatch_Id; a dispatch the kernel filter drops leaves a
  // gap).
  uint64_t dispatch_id;
  union {
    KernelLaunch launch;          // kKernel
    ScratchUse scratch;           // kScratchMemory
    MemoryAllocation allocation;  // kMemoryAllocation
  };
};

struct ApiEvent {
  const OpName* op;
  uint64_t correlation_id;
  uint64_t start_ns;
  uint64_t end_ns;
  uint32_t pid;
  uint32_t tid;  // device work: the submitting thread, 0 unknown
  // One of these, by the event's category:
  union {
    // kKernel, kScratchMemory: the application's queue (hsa_queue_t::id).
    uint64_t queue_id;
    // kMemoryCopy: bytes.
    uint64_t bytes;
    // kMarker: the rocTX range ID of a range opened with
    // roctxRangeStartA, which may end on another thread and overlap others:
    // such a range goes on a track of its own (this ID), never on a
    // thread's nested track; 0 for every other rocTX event.
    uint64_t async_range_id;
    // API calls whose op returns_status: the status the call returned.
    int64_t retval;
  };
  // Device work: the HIP stream it was submitted on (Stream_Id: 0 the null
  // stream, then 1, 2, ... in the order streams were created or first
  // used, as rocprofiler-sdk numbers them). A HIP call with its arguments:
  // the stream its `stream` argument names, when `stream_known`.
  uint32_t stream_id;
  bool instant;  // a rocTX mark
  // API calls: returned a status that is not success.
  bool failed;
  // HIP calls: stream_id is the stream the call's arguments name.
  bool stream_known;
  union {
    // HIP, HSA and KFD API calls, when their arguments are recorded
    // (rocpd, JSON output): owned by the batch the event is in. nullptr
    // otherwise.
    const ApiArgs* args;
    // Device work (IsDevice): never null; in a batch, the batch's copy.
    const DeviceWork* device;
  };
};
static_assert(sizeof(ApiEvent) == 64, "an event is one cache line");

#if defined(__SSE2__)
// An API call's event (every field not named here zero) as the four
// 16-byte words it is made of, each handed to `store(index, word)`: the
// event is made in its batch (or a buffer) with one store a word, and a
// copy of it loads each word from the one store that wrote it.
template <class Store>
inline void StoreApiCallWords(Store&& store, const OpName* op,
                              uint64_t correlation_id, uint64_t start_ns,
                              uint64_t end_ns, uint32_t pid, uint32_t tid,
                              bool failed, bool stream_known,
                              uint32_t stream_id, int64_t retval,
                              const ApiArgs* args) {
  static_assert(
      sizeof(ApiEvent) == 4 * 16 && offsetof(ApiEvent, op) == 0 &&
          offsetof(ApiEvent, correlation_id) == 8 &&
          offsetof(ApiEvent, start_ns) == 16 &&
          offsetof(ApiEvent, end_ns) == 24 && offsetof(ApiEvent, pid) == 32 &&
          offsetof(ApiEvent, tid) == 36 && offsetof(ApiEvent, retval) == 40 &&
          offsetof(ApiEvent, stream_id) == 48 &&
          offsetof(ApiEvent, instant) == 52 &&
          offsetof(ApiEvent, failed) == 53 &&
          offsetof(ApiEvent, stream_known) == 54 &&
          offsetof(ApiEvent, args) == 56,
      "the event's words as they are laid out here");
  auto word = [](uint64_t low, uint64_t high) {
    return _mm_set_epi64x(static_cast<int64_t>(high),
                          static_cast<int64_t>(low));
  };
  store(0, word(reinterpret_cast<uintptr_t>(op), correlation_id));
  store(1, word(start_ns, end_ns));
  store(2, word(uint64_t{pid} | uint64_t{tid} << 32,
                static_cast<uint64_t>(retval)));
  store(3, word(uint64_t{stream_id} | uint64_t{failed} << 40 |
                    uint64_t{stream_known} << 48,
                reinterpret_cast<uintptr_t>(args)));
}
#endif

// A copy's agents: the record names the kernel agent (the destination's
// when both are), so a device-to-device copy shows it on both ends.
inline void CopyAgents(const ApiEvent& e, AgentRef* src, AgentRef* dst) {
  const AgentRef host{false, 0};
  const AgentRef gpu{true, e.device->device_id};
  switch (e.op->direction) {
    case CopyDirection::kHostToHost:
      *src = *dst = host;
      return;
    case CopyDirection::kHostToDevice:
      *src = host;
      *dst = gpu;
      return;
    case CopyDirection::kDeviceToHost:
      *src = gpu;
      *dst = host;
      return;
    case CopyDirection::kDeviceToDevice:
      *src = *dst = gpu;
      return;
  }
}

// Process facts and losses, known at the end (or at a checkpoint).
struct RunInfo {
  uint32_t pid = 0;
  uint32_t ppid = 0;
  std::string command;
  std::string hostname;
  uint64_t start_ns = 0;
  uint64_t end_ns = 0;
  // (tag, count) of everything that did not make it into the outputs.
  std::vector<std::pair<std::string, uint64_t>> losses;
  // (tag, text) of what the run could not trace at all and why (rocpd
  // metadata `roctrace.<tag>`), known at start.
  std::vector<std::pair<std::string, std::string>> notes;
  // Outputs that could not be created or written ("PATH: reason"), known at
  // the end (rocpd metadata `roctrace.write_failures`).
  std::vector<std::string> write_failures;
  // Every code object loaded while the program ran (rocpd writes those no
  // dispatched kernel's symbol named at the end).
  std::vector<std::shared_ptr<const CodeObjectInfo>> code_objects;
  // (tag, text) learnt while the program ran (an MPI rank's clock offsets),
  // rocpd metadata `roctrace.<tag>` written at the end.
  std::vector<std::pair<std::string, std::string>> end_notes;
};

// A writer is driven by one thread at a time (the tool serialises calls).
class Writer {
 public:
  virtual ~Writer() = default;
  virtual void Write(const ApiEvent& event) = 0;
  // Events [begin, end) of a batch, in order: Write for each. A writer may
  // override it with its Write inlined into one loop (one call and one
  // frame for the run of events, not one per event).
  virtual void WriteAll(const ApiEvent* begin, const ApiEvent* end);
  // Make everything written so far durable (called periodically).
  virtual void Checkpoint() {}
  virtual void Finish(const RunInfo& info) = 0;
  // Files this writer produced, for the exit message.
  virtual std::vector<std::string> Files() const = 0;

  // What this writer could not create or write (permissions, a full disk,
  // an I/O error): one "PATH: reason" per failure, in the order they
  // happened. Read after Finish.
  const std::vector<std::string>& failures() const { return failures_; }
  // Events that are in none of this writer's files because of them.
  uint64_t unwritten() const { return unwritten_; }

 protected:
  // Records a failure and reports it at once (output_failures.h).
  void ReportFailure(const std::string& path, const std::string& reason);
  void CountUnwritten(uint64_t events) { unwritten_ += events; }

 private:
  std::vector<std::string> failures_;
  uint64_t unwritten_ = 0;
};

}  // namespace roctrace

#endif  // ROCTRACE_WRITERS_EVENT_H_
