#include "runtime/gpu/agents.h"

#include <atomic>
#include <mutex>
#include <vector>

#include "runtime/gpu/runtime_table.h"

namespace roctracer::gpu {
namespace {

struct Agent {
  uint64_t handle;
  int device_index;  // -1: not a kernel agent
};
using AgentList = std::vector<Agent>;

// Published once read; a list replaced by ResetAgents is kept (a reader may
// hold it), which costs one small vector per hsa_init.
std::atomic<const AgentList*> g_agents{nullptr};
std::atomic<uint64_t> g_generation{0};
std::mutex& ListMutex() {
  static std::mutex* mutex = new std::mutex;
  return *mutex;
}
std::vector<const AgentList*>& Retired() {
  static auto* retired = new std::vector<const AgentList*>;
  return *retired;
}

const AgentList* Load() {
  if (const AgentList* list = g_agents.load(std::memory_order_acquire)) {
    return list;
  }
  std::lock_guard<std::mutex> lock(ListMutex());
  if (const AgentList* list = g_agents.load(std::memory_order_acquire)) {
    return list;
  }
  auto* list = new AgentList;
  if (Core().hsa_iterate_agents_fn != nullptr) {
    Core().hsa_iterate_agents_fn(
        [](hsa_agent_t agent, void* data) {
          auto* out = static_cast<AgentList*>(data);
          uint32_t features = 0;
          Core().hsa_agent_get_info_fn(agent, HSA_AGENT_INFO_FEATURE,
                                       &features);
          int index = -1;
          if (features & HSA_AGENT_FEATURE_KERNEL_DISPATCH) {
            index = 0;
            for (const Agent& a : *out) index += a.device_index >= 0;
          }
          out->push_back(Agent{agent.handle, index});
          return HSA_STATUS_SUCCESS;
        },
        list);
  }
  g_agents.store(list, std::memory_order_release);
  return list;
}

}  // namespace

int DeviceIndex(hsa_agent_t agent) noexcept {
  for (const Agent& a : *Load()) {
    if (a.handle == agent.handle) return a.device_index;
  }
  return -1;
}

void DeviceIndices(hsa_agent_t a, hsa_agent_t b, int* a_index,
                   int* b_index) noexcept {
  *a_index = -1;
  *b_index = -1;
  for (const Agent& agent : *Load()) {
    if (agent.handle == a.handle) *a_index = agent.device_index;
    if (agent.handle == b.handle) *b_index = agent.device_index;
  }
}

uint64_t AgentsGeneration() noexcept {
  return g_generation.load(std::memory_order_acquire);
}

void ResetAgents() noexcept {
  g_generation.fetch_add(1, std::memory_order_acq_rel);
  std::lock_guard<std::mutex> lock(ListMutex());
  if (const AgentList* list = g_agents.exchange(nullptr)) {
    Retired().push_back(list);
  }
}

}  // namespace roctracer::gpu
