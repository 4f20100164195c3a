// What the KFD topology says of each agent, as rocprofiler-sdk derives its
// rocprofiler_agent_t from it: the node's `properties` (numbers), its `name`
// file (the model name), `gpu_id`, and for a GPU the name `gfx<major><minor>
// <step in hex>` from gfx_target_version and vendor "AMD"; for a CPU vendor
// "CPU" and the /proc/cpuinfo model name of the processor whose apicid is
// the node's cpu_core_id_base. (rocprofiler-sdk takes a GPU's product name
// from libdrm's marketing names, which roctrace does not read: left empty.)
// rocpd's rocpd_info_agent and the CSV's _agent_info.csv are written from
// it.
#ifndef ROCTRACE_WRITERS_AGENT_INFO_H_
#define ROCTRACE_WRITERS_AGENT_INFO_H_

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace roctrace {

struct AgentInfo {
  bool gpu = false;
  uint32_t node_id = 0;
  // KFD properties in the file's order (name, value).
  std::vector<std::pair<std::string, uint64_t>> properties;
  uint64_t gpu_id = 0;
  std::string name;
  std::string vendor_name;
  std::string product_name;
  std::string model_name;
  // A property's value, 0 when the node has none.
  uint64_t Property(const char* key) const;
  bool HasProperty(const char* key) const;
};

// The agent of `node_dir` (a KFD topology node) as a CPU (gpu false) or a
// GPU agent; `cpuinfo` is /proc/cpuinfo's text.
AgentInfo ReadAgentInfo(const std::string& node_dir, uint32_t node_id, bool gpu,
                        const std::string& cpuinfo);

// The agent's numbers as rocprofiler-sdk's rocprofiler_agent_v0_t holds
// them, by its field names in its order, from cpu_cores_count to
// grid_max_dim (a dim3 as its _x, _y, _z): the KFD properties and what
// rocprofiler-sdk derives from them. _agent_info.csv's columns and the
// JSON's agents are written from it.
struct AgentField {
  const char* name;
  uint64_t value;
};
std::vector<AgentField> AgentFields(const AgentInfo& a);

// rocprofv3's _agent_info.csv: its 53 columns, one row per agent; agents
// in KFD node order, CPU before GPU on one node. `logical` gives each
// agent's Logical_Node_Id. False with errno set when the file cannot be
// written.
struct AgentInfoRow {
  const AgentInfo* info;
  int64_t logical_node_id;
};
bool WriteAgentInfoCsv(const std::string& path,
                       const std::vector<AgentInfoRow>& rows);

// The header row of _agent_info.csv.
const char* AgentInfoCsvHeader();

}  // namespace roctrace

#endif  // ROCTRACE_WRITERS_AGENT_INFO_H_
