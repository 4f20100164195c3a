#include "softhsa/scratch.h"

#include <cstdlib>

#include "softhsa/api.h"

#if __has_include(<hsa/hsa_amd_tool.h>)
#include <hsa/hsa_amd_tool.h>
#define SOFTHSA_SCRATCH_EVENTS 1
#endif

namespace softhsa {
namespace {

// Lanes per wave, and the most workgroups a dispatch keeps resident at once:
// what one allocation must cover (ROCR sizes it by the waves the device can
// hold; this is a fixed, small device).
constexpr uint64_t kWaveLanes = 64;
constexpr uint64_t kResidentWorkgroups = 32;

uint64_t g_single_limit = uint64_t{64} << 20;
bool g_reclaim = false;

#ifdef SOFTHSA_SCRATCH_EVENTS
// The hooks as tools left them in the runtime's table (NULL: nobody asked,
// as in ROCR, which raises nothing then).
ToolsApiTable* Tools() {
  HsaApiTable* t = Table();
  return t->version.minor_id >= offsetof(HsaApiTable, tools_) + sizeof(void*)
             ? t->tools_
             : nullptr;
}

void Raise(hsa_amd_tool_event ToolsApiTable::*slot, hsa_amd_tool_event_t e) {
  ToolsApiTable* tools = Tools();
  if (tools == nullptr) return;
  hsa_amd_tool_event fn = tools->*slot;
  if (fn != nullptr) fn(e);
}

void Alloc(Queue* q, uint32_t flags, uint64_t dispatch_id, uint64_t size,
           uint64_t slots) {
  const auto f = static_cast<hsa_amd_event_scratch_alloc_flag_t>(flags);
  hsa_amd_event_scratch_alloc_start_t start{
      HSA_AMD_TOOL_EVENT_SCRATCH_ALLOC_START, &q->q, f, dispatch_id};
  hsa_amd_tool_event_t e;
  e.scratch_alloc_start = &start;
  Raise(&ToolsApiTable::hsa_amd_tool_scratch_event_alloc_start_fn, e);
  hsa_amd_event_scratch_alloc_end_t end{
      HSA_AMD_TOOL_EVENT_SCRATCH_ALLOC_END, &q->q, f, dispatch_id, size, slots};
  e.scratch_alloc_end = &end;
  Raise(&ToolsApiTable::hsa_amd_tool_scratch_event_alloc_end_fn, e);
}

void Free(Queue* q, uint32_t flags) {
  const auto f = static_cast<hsa_amd_event_scratch_alloc_flag_t>(flags);
  hsa_amd_event_scratch_free_start_t start{
      HSA_AMD_TOOL_EVENT_SCRATCH_FREE_START, &q->q, f};
  hsa_amd_tool_event_t e;
  e.scratch_free_start = &start;
  Raise(&ToolsApiTable::hsa_amd_tool_scratch_event_free_start_fn, e);
  hsa_amd_event_scratch_free_end_t end{HSA_AMD_TOOL_EVENT_SCRATCH_FREE_END,
                                       &q->q, f};
  e.scratch_free_end = &end;
  Raise(&ToolsApiTable::hsa_amd_tool_scratch_event_free_end_fn, e);
}

void Reclaim(Queue* q) {
  const auto f = HSA_AMD_EVENT_SCRATCH_ALLOC_FLAG_NONE;
  hsa_amd_event_scratch_async_reclaim_start_t start{
      HSA_AMD_TOOL_EVENT_SCRATCH_ASYNC_RECLAIM_START, &q->q, f};
  hsa_amd_tool_event_t e;
  e.scratch_async_reclaim_start = &start;
  Raise(&ToolsApiTable::hsa_amd_tool_scratch_event_async_reclaim_start_fn, e);
  hsa_amd_event_scratch_async_reclaim_end_t end{
      HSA_AMD_TOOL_EVENT_SCRATCH_ASYNC_RECLAIM_END, &q->q, f};
  e.scratch_async_reclaim_end = &end;
  Raise(&ToolsApiTable::hsa_amd_tool_scratch_event_async_reclaim_end_fn, e);
}
constexpr uint32_t kUseOnce = HSA_AMD_EVENT_SCRATCH_ALLOC_FLAG_USE_ONCE;
#else
void Alloc(Queue*, uint32_t, uint64_t, uint64_t, uint64_t) {}
void Free(Queue*, uint32_t) {}
void Reclaim(Queue*) {}
constexpr uint32_t kUseOnce = 1;
#endif

}  // namespace

uint64_t ScratchLimit(const Agent* agent) {
  const uint64_t set = agent->scratch_limit.load(std::memory_order_relaxed);
  return set != UINT64_MAX ? set : g_single_limit;
}

void ReadScratchSettings() {
  if (const char* e = getenv("SOFTHSA_SCRATCH_LIMIT")) {
    g_single_limit = strtoull(e, nullptr, 0);
  }
  const char* r = getenv("SOFTHSA_SCRATCH_RECLAIM");
  g_reclaim = r != nullptr && r[0] == '1';
}

bool ScratchBeforeDispatch(Queue* q, const hsa_kernel_dispatch_packet_t& p,
                           uint64_t dispatch_id) {
  if (p.private_segment_size == 0) return false;
  const uint64_t items =
      uint64_t{p.workgroup_size_x} * p.workgroup_size_y * p.workgroup_size_z;
  auto groups = [](uint32_t grid, uint16_t wg) {
    return (uint64_t{grid} + wg - 1) / wg;
  };
  uint64_t workgroups = groups(p.grid_size_x, p.workgroup_size_x) *
                        groups(p.grid_size_y, p.workgroup_size_y) *
                        groups(p.grid_size_z, p.workgroup_size_z);
  if (workgroups > kResidentWorkgroups) workgroups = kResidentWorkgroups;
  const uint64_t slots = (items + kWaveLanes - 1) / kWaveLanes * workgroups;
  const uint64_t size = p.private_segment_size * kWaveLanes * slots;
  if (size <= q->scratch_bytes) return false;
  if (size > ScratchLimit(q->agent)) {
    Alloc(q, kUseOnce, dispatch_id, size, slots);
    return true;
  }
  Alloc(q, 0, dispatch_id, size, slots);
  q->scratch_bytes = size;
  return false;
}

void ScratchAfterDispatch(Queue* q, bool use_once) {
  if (use_once) Free(q, kUseOnce);
}

void ScratchIfIdle(Queue* q, uint64_t index) {
  if (!g_reclaim || q->scratch_bytes == 0 ||
      q->write_index.load(std::memory_order_acquire) > index + 1) {
    return;
  }
  Reclaim(q);
  q->scratch_bytes = 0;
}

void ScratchOnDestroy(Queue* q) {
  if (q->scratch_bytes == 0) return;
  Free(q, 0);
  q->scratch_bytes = 0;
}

#if HSA_AMD_INTERFACE_VERSION_MINOR >= 4
namespace api {

// The agent's use-once threshold (ROCm 6.1's headers on). A kernel agent
// only (a CPU has no scratch: "does not support asynchronous scratch
// reclaim"), at most HSA_AMD_AGENT_INFO_SCRATCH_LIMIT_MAX, as ROCR checks.
// Scratch a queue already holds above a lowered threshold is kept until the
// queue is idle (SOFTHSA_SCRATCH_RECLAIM) or destroyed.
hsa_status_t hsa_amd_agent_set_async_scratch_limit(hsa_agent_t agent,
                                                   size_t threshold) {
  if (!Initialized()) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  Agent* a = ToAgent(agent);
  if (a == nullptr) return HSA_STATUS_ERROR_INVALID_AGENT;
  if (a->type != HSA_DEVICE_TYPE_GPU || threshold > kScratchLimitMax) {
    return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  }
  a->scratch_limit.store(threshold, std::memory_order_relaxed);
  return HSA_STATUS_SUCCESS;
}

}  // namespace api
#endif

}  // namespace softhsa
