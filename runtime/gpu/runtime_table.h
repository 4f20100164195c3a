// The HSA runtime's own functions, saved from the table OnLoad received
// before the tracer put anything into it: the GPU half calls the runtime
// through these (never through the exported symbols or the table), so its
// own calls are neither intercepted nor traced.
#ifndef RUNTIME_GPU_RUNTIME_TABLE_H_
#define RUNTIME_GPU_RUNTIME_TABLE_H_

#include <hsa/hsa_api_trace.h>

namespace roctracer::gpu {

// Valid between SaveRuntimeTable (OnLoad) and the runtime's shutdown.
const CoreApiTable& Core() noexcept;
const AmdExtTable& Amd() noexcept;

// Copies the core and AMD extension tables (as much of each as `table`'s
// sizes cover; the rest stays NULL).
void SaveRuntimeTable(const HsaApiTable* table) noexcept;

// True when the table the runtime gave has slot `offset` of its AMD
// extension table (ROCR's tables grow between releases; a slot past
// version.minor_id does not exist).
bool AmdHasSlot(const HsaApiTable* table, size_t offset) noexcept;
bool CoreHasSlot(const HsaApiTable* table, size_t offset) noexcept;

}  // namespace roctracer::gpu

#endif  // RUNTIME_GPU_RUNTIME_TABLE_H_
