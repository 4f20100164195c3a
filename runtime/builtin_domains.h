// Operation names of the domains whose operations are fixed by the public
// headers rather than generated from a runtime's headers.
#ifndef RUNTIME_BUILTIN_DOMAINS_H_
#define RUNTIME_BUILTIN_DOMAINS_H_

namespace roctracer {

// Registers HSA_OPS, HIP_OPS, EXT_API, ROCTX and HSA_EVT with the domain
// registry. Idempotent.
void RegisterBuiltinDomains();

}  // namespace roctracer

#endif  // RUNTIME_BUILTIN_DOMAINS_H_
