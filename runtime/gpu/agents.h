// The runtime's agents as records name them: device type and the index among
// kernel agents (HIP's device numbering), looked up without locks once the
// agent list has been read (at the first queue or copy after hsa_init).
#ifndef RUNTIME_GPU_AGENTS_H_
#define RUNTIME_GPU_AGENTS_H_

#include <hsa/hsa.h>

namespace roctracer::gpu {

// -1 when `agent` is not a kernel agent (or unknown).
int DeviceIndex(hsa_agent_t agent) noexcept;
// DeviceIndex of two agents, in one walk of the list (a copy's).
void DeviceIndices(hsa_agent_t a, hsa_agent_t b, int* a_index,
                   int* b_index) noexcept;

// Forgets the list (the runtime shut down; a new hsa_init makes new agents).
void ResetAgents() noexcept;

// Counts ResetAgents calls: an hsa_agent_t read before the count changed may
// name another agent (or none) after it. Lets other agent caches (the SDK's)
// know when to re-read.
uint64_t AgentsGeneration() noexcept;

}  // namespace roctracer::gpu

#endif  // RUNTIME_GPU_AGENTS_H_
