// Operation names of the domains whose operations are fixed by the public
// headers rather than generated from a runtime's headers.
#ifndef RUNTIME_ACTIVITY_BUILTIN_DOMAINS_H_
#define RUNTIME_ACTIVITY_BUILTIN_DOMAINS_H_

#include <cstdint>

namespace roctracer::activity {

// Registers HSA_OPS, HIP_OPS, EXT_API, ROCTX and HSA_EVT with the domain
// registry. Idempotent.
void RegisterBuiltinDomains();

// The name HIP gives a command type (a HIP_OPS record's `kind`), as HIP's own
// hipGetCmdName returns it: "KernelExecution", "CopyHostToDevice", ...;
// "Unknown command type" for a value HIP does not define. Never NULL.
const char* HipCommandName(uint32_t kind) noexcept;

// The command types of the HIP_OPS records the tracer writes (HIP's
// CL_COMMAND_* values; HipCommandName gives their names).
enum HipCommand : uint32_t {
  kHipKernelExecution = 0x11F0,
  kHipCopyDeviceToHost = 0x11F3,
  kHipCopyHostToDevice = 0x11F4,
  kHipCopyDeviceToDevice = 0x11F5,
  kHipMarker = 0x11FE,
  kHipFillBuffer = 0x1207,
};

}  // namespace roctracer::activity

#endif  // RUNTIME_ACTIVITY_BUILTIN_DOMAINS_H_
