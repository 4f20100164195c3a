// One completed kernel dispatch as the tool's observer (kernel_observer.h)
// hands it to the record converter: everything the kernel outputs show, in
// one piece (the roctracer activity records have no room for the launch
// sizes or the stream, so dispatches and copies do not come through the
// pool).
#ifndef ROCTRACE_TOOL_DISPATCH_ROW_H_
#define ROCTRACE_TOOL_DISPATCH_ROW_H_

#include <cstdint>
#include <memory>
#include <string>

#include "roctrace/writers/event.h"

namespace roctrace {

struct DispatchRow {
  // 1, 2, ... in submission order (drawn when the packet passed the queue).
  uint64_t dispatch_id;
  // The innermost traced API call that submitted it, 0 when none.
  uint64_t correlation_id;
  uint64_t queue_id;   // hsa_queue_t::id of the application's queue
  uint64_t stream_id;  // Stream_Id (stream_ids.h): 0 the null stream
  int32_t device_id;   // kernel agent index
  uint64_t begin_ns;
  uint64_t end_ns;
  KernelLaunch launch;
  KernelRegisterCounts registers;                  // its kernel symbol's
  std::shared_ptr<const KernelSymbolInfo> symbol;  // null when not known
  std::string kernel_name;                         // demangled, without ".kd"
};

// One completed async copy, from the same observer: as the HSA_OPS record
// has it, plus the stream it was submitted on (the record has no room).
struct CopyRow {
  uint64_t correlation_id;  // the innermost traced API call, 0 when none
  uint64_t stream_id;       // Stream_Id (stream_ids.h)
  int32_t device_id;        // the kernel agent, -1 between host agents
  uint32_t direction;       // hsa_amd_copy_direction_t
  uint64_t bytes;
  uint64_t begin_ns;
  uint64_t end_ns;
};

// One scratch allocation, free or reclaim of the runtime for a queue, as the
// tool's scratch observer (scratch_observer.h) hands it over.
struct ScratchRow {
  enum Op : uint8_t { kAlloc, kFree, kAsyncReclaim } op;
  uint32_t flags;      // hsa_amd_event_scratch_alloc_flag_t
  uint64_t size;       // kAlloc: bytes
  uint64_t queue_id;   // hsa_queue_t::id of the application's queue
  int32_t device_id;   // kernel agent index, -1 when not known
  uint32_t thread_id;  // the thread the runtime raised the events on
  uint64_t begin_ns;
  uint64_t end_ns;
};

}  // namespace roctrace

#endif  // ROCTRACE_TOOL_DISPATCH_ROW_H_
