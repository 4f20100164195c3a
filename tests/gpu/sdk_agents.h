// The rocprofiler-sdk agents a tool sees, shared by the GPU SDK tests: the
// agents rocprofiler_query_available_agents lists, and the SDK agent ID of
// an HSA agent.
#ifndef TESTS_GPU_SDK_AGENTS_H_
#define TESTS_GPU_SDK_AGENTS_H_

#include <gtest/gtest.h>
#include <hsa/hsa.h>

#include <cstddef>
#include <cstdint>
#include <vector>

#include "rocprofiler-sdk/rocprofiler.h"

namespace gpu_test {

// A rocprofiler_query_available_agents callback: appends each agent to the
// std::vector<rocprofiler_agent_v0_t> `data` points to.
inline rocprofiler_status_t CopyAgents(rocprofiler_agent_version_t,
                                       const void** agents, size_t n,
                                       void* data) {
  auto* out = static_cast<std::vector<rocprofiler_agent_v0_t>*>(data);
  for (size_t i = 0; i < n; ++i) {
    out->push_back(*static_cast<const rocprofiler_agent_v0_t*>(agents[i]));
  }
  return ROCPROFILER_STATUS_SUCCESS;
}

// Every agent, the query expected to succeed.
inline std::vector<rocprofiler_agent_v0_t> QueryAgents() {
  std::vector<rocprofiler_agent_v0_t> agents;
  EXPECT_EQ(rocprofiler_query_available_agents(
                ROCPROFILER_AGENT_INFO_VERSION_0, &CopyAgents,
                sizeof(rocprofiler_agent_v0_t), &agents),
            ROCPROFILER_STATUS_SUCCESS);
  return agents;
}

// The rocprofiler agent ID of an HSA agent: the agent with its HSA node.
inline uint64_t SdkAgentId(hsa_agent_t agent) {
  uint32_t node = 0;
  EXPECT_EQ(hsa_agent_get_info(agent, HSA_AGENT_INFO_NODE, &node),
            HSA_STATUS_SUCCESS);
  for (const auto& a : QueryAgents()) {
    if (a.node_id == node) return a.id.handle;
  }
  ADD_FAILURE() << "no agent with node " << node;
  return 0;
}

}  // namespace gpu_test

#endif  // TESTS_GPU_SDK_AGENTS_H_
