// The names of the buffer tracing kinds and of their operations as the
// rocprofiler-sdk implementation in this process gives them (libroctracer64
// exports the SDK's API): rocprofv3's JSON names each kind and numbers a
// record's operation by the SDK's enum, listing each kind's operations in
// full, and HIP's and HSA's numbers depend on the release the library was
// built against, so they are asked for, not assumed.
#ifndef ROCTRACE_TOOL_SDK_OPERATION_NAMES_H_
#define ROCTRACE_TOOL_SDK_OPERATION_NAMES_H_

#include <string>
#include <vector>

namespace roctrace {

// Indexed by rocprofiler_buffer_tracing_kind_t, then by operation number;
// "" where the SDK names no operation of that number. Empty when the
// process has no rocprofiler-sdk API (a tracer built without it, or the
// tool linked statically into a test), which leaves the JSON writer to
// number operations itself.
std::vector<std::vector<std::string>> SdkBufferOperationNames();

// Indexed by rocprofiler_buffer_tracing_kind_t: each kind's name ("" where
// the SDK names none). Empty as above.
std::vector<std::string> SdkBufferKindNames();

}  // namespace roctrace

#endif  // ROCTRACE_TOOL_SDK_OPERATION_NAMES_H_
