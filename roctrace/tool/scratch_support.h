// Whether this build can trace scratch memory at all: the runtime reports
// scratch events to a tool only through hsa/hsa_amd_tool.h's hooks (ROCm
// >= 6.1 headers); built from older headers there is nothing to hear, and a
// run says so instead of writing nothing silently.
#ifndef ROCTRACE_TOOL_SCRATCH_SUPPORT_H_
#define ROCTRACE_TOOL_SCRATCH_SUPPORT_H_

namespace roctrace {

constexpr bool kScratchEventsInHeaders =
#if __has_include(<hsa/hsa_amd_tool.h>)
    true;
#else
    false;
#endif

// rocpd metadata `roctrace.scratch_memory`, and the command's stderr line.
constexpr char kNoScratchEvents[] =
    "not available: the HSA runtime interface this build uses (no "
    "hsa/hsa_amd_tool.h, ROCm < 6.1) reports no scratch memory events";

}  // namespace roctrace

#endif  // ROCTRACE_TOOL_SCRATCH_SUPPORT_H_
