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

}  // namespace rocprofiler_sdk

#endif  // ROCPROFILER_SDK_IMPL_AGENTS_H_
