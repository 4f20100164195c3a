#include "roctrace/writers/agent_naming.h"

#include <dirent.h>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <sstream>
#include <utility>

namespace roctrace {
namespace {

struct Naming {
  AgentIndex mode = AgentIndex::kRelative;  // rocprofv3's default
  AgentTopology topology = {{0}, {}, {}, {}};
};

Naming& TheNaming() {
  static Naming* naming = new Naming;  // outlives exit-time writers
  return *naming;
}

}  // namespace

AgentTopology ReadAgentTopology(const std::string& nodes_dir,
                                const std::string& cpuinfo_path) {
  AgentTopology t;
  std::vector<uint32_t> nodes;
  if (DIR* dir = opendir(nodes_dir.c_str())) {
    while (dirent* entry = readdir(dir)) {
      char* end = nullptr;
      const unsigned long id = std::strtoul(entry->d_name, &end, 10);
      if (end != entry->d_name && *end == '\0') {
        nodes.push_back(static_cast<uint32_t>(id));
      }
    }
    closedir(dir);
  }
  std::sort(nodes.begin(), nodes.end());
  for (uint32_t node : nodes) {
    std::ifstream in(nodes_dir + "/" + std::to_string(node) + "/properties");
    std::string key;
    uint64_t value = 0, cpu_cores = 0, simds = 0;
    while (in >> key >> value) {
      if (key == "cpu_cores_count") cpu_cores = value;
      if (key == "simd_count") simds = value;
    }
    if (cpu_cores != 0) t.cpu_nodes.push_back(node);
    if (simds != 0) t.gpu_nodes.push_back(node);
  }
  std::ifstream cpuinfo_file(cpuinfo_path);
  const std::string cpuinfo(std::istreambuf_iterator<char>(cpuinfo_file), {});
  const std::string none = nodes_dir + "/none";  // no node: reads as empty
  for (uint32_t node : t.cpu_nodes) {
    t.cpu_info.push_back(ReadAgentInfo(nodes_dir + "/" + std::to_string(node),
                                       node, false, cpuinfo));
  }
  for (uint32_t node : t.gpu_nodes) {
    t.gpu_info.push_back(ReadAgentInfo(nodes_dir + "/" + std::to_string(node),
                                       node, true, cpuinfo));
  }
  if (t.cpu_nodes.empty() && t.gpu_nodes.empty()) {
    t.cpu_nodes.push_back(0);
    t.cpu_info.push_back(ReadAgentInfo(none, 0, false, cpuinfo));
  }
  return t;
}

void SetAgentNaming(AgentIndex mode, AgentTopology topology) {
  TheNaming() = Naming{mode, std::move(topology)};
}

bool ParseAgentIndex(const std::string& text, AgentIndex* out) {
  if (text == "absolute") {
    *out = AgentIndex::kAbsolute;
  } else if (text == "relative") {
    *out = AgentIndex::kRelative;
  } else if (text == "type-relative") {
    *out = AgentIndex::kTypeRelative;
  } else {
    return false;
  }
  return true;
}

int64_t AgentLogicalIndex(AgentRef a) {
  const AgentTopology& t = TheNaming().topology;
  const int64_t cpus = static_cast<int64_t>(t.cpu_nodes.size());
  return a.gpu ? std::max<int64_t>(cpus, 1) + a.index : a.index;
}

int64_t AgentAbsoluteIndex(AgentRef a) {
  const AgentTopology& t = TheNaming().topology;
  const std::vector<uint32_t>& nodes = a.gpu ? t.gpu_nodes : t.cpu_nodes;
  if (a.index >= 0 && static_cast<size_t>(a.index) < nodes.size()) {
    return nodes[static_cast<size_t>(a.index)];
  }
  // Not in the topology: after its last node, as the assumed layout.
  const int64_t last_cpu =
      t.cpu_nodes.empty() ? -1 : static_cast<int64_t>(t.cpu_nodes.back());
  return a.gpu ? last_cpu + 1 + a.index : a.index;
}

const AgentInfo* AgentInfoOf(AgentRef a) {
  const AgentTopology& t = TheNaming().topology;
  const std::vector<AgentInfo>& infos = a.gpu ? t.gpu_info : t.cpu_info;
  if (a.index < 0 || static_cast<size_t>(a.index) >= infos.size()) {
    return nullptr;
  }
  return &infos[static_cast<size_t>(a.index)];
}

std::vector<AgentInfoRow> AllAgentInfo() {
  const AgentTopology& t = TheNaming().topology;
  std::vector<std::pair<AgentRef, const AgentInfo*>> all;
  for (size_t i = 0; i < t.cpu_info.size(); ++i) {
    all.push_back({AgentRef{false, static_cast<int32_t>(i)}, &t.cpu_info[i]});
  }
  for (size_t i = 0; i < t.gpu_info.size(); ++i) {
    all.push_back({AgentRef{true, static_cast<int32_t>(i)}, &t.gpu_info[i]});
  }
  std::stable_sort(all.begin(), all.end(), [](const auto& x, const auto& y) {
    return x.second->node_id < y.second->node_id;
  });
  std::vector<AgentInfoRow> rows;
  for (const auto& [ref, info] : all) {
    rows.push_back({info, AgentLogicalIndex(ref)});
  }
  return rows;
}

std::string AgentTypeName(AgentRef a) {
  return (a.gpu ? "GPU " : "CPU ") + std::to_string(a.index);
}

std::string AgentName(AgentRef a) {
  switch (TheNaming().mode) {
    case AgentIndex::kAbsolute:
      return "Agent " + std::to_string(AgentAbsoluteIndex(a));
    case AgentIndex::kRelative:
      return "Agent " + std::to_string(AgentLogicalIndex(a));
    case AgentIndex::kTypeRelative:
      break;
  }
  return AgentTypeName(a);
}

}  // namespace roctrace
