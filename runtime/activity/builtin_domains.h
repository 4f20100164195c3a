// Operation names of the domains whose operations are fixed by the public
// headers rather than generated from a runtime's headers.
#ifndef RUNTIME_BUILTIN_DOMAINS_H_
#define RUNTIME_BUILTIN_DOMAINS_H_

#include <cstdint>

namespace roctracer {

// Registers HSA_OPS, HIP_OPS, EXT_API, ROCTX and HSA_EVT with the domain
// registry. Idempotent.
void RegisterBuiltinDomains();

// The name HIP gives a command type (a HIP_OPS record's `kind`), as HIP's own
// hipGetCmdName returns it: "KernelExecution", "CopyHostToDevice", ...;
// "Unknown command type" for a value HIP does not define. Never NULL.
const char* HipCommandName(uint32_t kind) noexcept;

}  // namespace roctracer

#endif  // RUNTIME_BUILTIN_DOMAINS_H_
