// The agents rocprofiler_query_available_agents reports, read from the HSA
// runtime, and the mapping from the runtime's hsa_agent_t to their
// rocprofiler_agent_id_t, which every record's agent ID goes through.
#ifndef ROCPROFILER_SDK_IMPL_AGENTS_H_
#define ROCPROFILER_SDK_IMPL_AGENTS_H_

#include <hsa/hsa.h>

#include <cstdint>

#include "rocprofiler-sdk/agent.h"

namespace rocprofiler_sdk {

// The agent's rocprofiler ID (its index in the agent list + 1); handle 0
// when the runtime does not know the agent.
rocprofiler_agent_id_t AgentIdOf(hsa_agent_t agent) noexcept;

// True when `id` is one of the agents rocprofiler_query_available_agents
// reports.
bool AgentExists(rocprofiler_agent_id_t id) noexcept;
// The agent owning a memory pool (hsa_amd_memory_pool_t) or a region
// (hsa_region_t), as the runtime's iteration of each agent's pools and
// regions answered when the agent list was read; handle 0 when unknown.
rocprofiler_agent_id_t AgentIdOfPool(uint64_t pool) noexcept;
rocprofiler_agent_id_t AgentIdOfRegion(uint64_t region) noexcept;

}  // namespace rocprofiler_sdk

#endif  // ROCPROFILER_SDK_IMPL_AGENTS_H_
