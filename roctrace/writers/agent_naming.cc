#include "roctrace/writers/agent_naming.h"

#include <dirent.h>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <utility>

namespace roctrace {
namespace {

struct Naming {
  AgentIndex mode = AgentIndex::kRelative;  // rocprofv3's default
  AgentTopology topology = {{0}, {}};
};

Naming& TheNaming() {
  static Naming* naming = new Naming;  // outlives exit-time writers
  return *naming;
}

}  // namespace

AgentTopology ReadAgentTopology(const std::string& nodes_dir) {
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
  if (t.cpu_nodes.empty() && t.gpu_nodes.empty()) t.cpu_nodes.push_back(0);
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
