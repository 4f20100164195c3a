// How the outputs name an agent, as rocprofv3's -A/--agent-index chooses:
// "Agent N" by the agent's position among all agents (relative, the
// default) or by its KFD node id (absolute), or "CPU n" / "GPU n" by its
// index among agents of its type (type-relative).
//
// Device work names its kernel agent by HIP's device number (the n-th GPU
// agent) and the host as CPU 0; where the others are found is the
// topology: the KFD nodes in order, each a CPU agent when it has CPU cores
// and a GPU agent when it has SIMDs, CPU agents enumerated first (the HSA
// runtime's order). Without a KFD topology (no GPU driver) one CPU node 0
// and GPU n on node n + 1 are assumed.
#ifndef ROCTRACE_WRITERS_AGENT_NAMING_H_
#define ROCTRACE_WRITERS_AGENT_NAMING_H_

#include <cstdint>
#include <string>
#include <vector>

#include "roctrace/writers/agent_info.h"

namespace roctrace {

// An agent as the events refer to it: the host (one CPU agent) or a kernel
// agent by its index among GPU agents.
struct AgentRef {
  bool gpu;
  int32_t index;
};

enum class AgentIndex { kAbsolute, kRelative, kTypeRelative };

// KFD node ids of the CPU and of the GPU agents, each in enumeration order,
// and what the topology says of each (same order; agent_info.h).
struct AgentTopology {
  std::vector<uint32_t> cpu_nodes;
  std::vector<uint32_t> gpu_nodes;
  std::vector<AgentInfo> cpu_info;
  std::vector<AgentInfo> gpu_info;
};

// The KFD topology under `nodes_dir` (each node a directory of its id with
// a `properties` file: "cpu_cores_count N", "simd_count N", ...); the
// assumed one when there is none (its CPU described by `cpuinfo_path`
// alone, its GPUs not at all).
AgentTopology ReadAgentTopology(
    const std::string& nodes_dir = "/sys/class/kfd/kfd/topology/nodes",
    const std::string& cpuinfo_path = "/proc/cpuinfo");

// What the topology says of the agent; nullptr when nothing.
const AgentInfo* AgentInfoOf(AgentRef a);
// Every agent the topology describes, in KFD node order (a node's CPU
// agent before its GPU agent), with its logical index.
std::vector<AgentInfoRow> AllAgentInfo();

// Sets the naming for the process; once, before any writer runs.
void SetAgentNaming(AgentIndex mode, AgentTopology topology);
// Parses "absolute", "relative", "type-relative".
bool ParseAgentIndex(const std::string& text, AgentIndex* out);

// The agent's name in the chosen naming (CSV's Agent_Id columns, JSON's
// agent names, rocpd's agent names).
std::string AgentName(AgentRef a);
// Its type-relative name ("GPU 0"), whatever the naming.
std::string AgentTypeName(AgentRef a);
// Its position among all agents (rocpd logical_index) and its KFD node id
// (rocpd absolute_index).
int64_t AgentLogicalIndex(AgentRef a);
int64_t AgentAbsoluteIndex(AgentRef a);

}  // namespace roctrace

#endif  // ROCTRACE_WRITERS_AGENT_NAMING_H_
