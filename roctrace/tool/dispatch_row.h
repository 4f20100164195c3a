// One completed kernel dispatch as the tool's observer (kernel_observer.h)
// hands it to the record converter: everything the kernel outputs show, in
// one piece (the roctracer activity records have no room for the launch
// sizes, so dispatches do not come through the pool).
#ifndef ROCTRACE_TOOL_DISPATCH_ROW_H_
#define ROCTRACE_TOOL_DISPATCH_ROW_H_

#include <cstdint>
#include <string>

#include "roctrace/writers/event.h"

namespace roctrace {

struct DispatchRow {
  // 1, 2, ... in submission order (drawn when the packet passed the queue).
  uint64_t dispatch_id;
  // The innermost traced API call that submitted it, 0 when none.
  uint64_t correlation_id;
  uint64_t queue_id;  // hsa_queue_t::id of the application's queue
  int32_t device_id;  // kernel agent index
  uint64_t begin_ns;
  uint64_t end_ns;
  KernelLaunch launch;
  KernelRegisterCounts registers;  // its kernel symbol's
  std::string kernel_name;         // demangled, without ".kd"
};

}  // namespace roctrace

#endif  // ROCTRACE_TOOL_DISPATCH_ROW_H_
