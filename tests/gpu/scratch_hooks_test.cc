// The scratch hooks alone (runtime/gpu/scratch_events.h), on a table made
// here: what was in the slots before is still called, after ours, and put
// back; a START and its END become one record; an END without its START and
// a queue the tracer never saw are reported as such. Built from headers
// without hsa/hsa_amd_tool.h, there is nothing to install.
#include <gtest/gtest.h>

#include <vector>

#include "runtime/gpu/scratch_events.h"
#include "runtime/private/gpu_events.h"

namespace roctracer::gpu {
namespace {

class Collect : public Observer {
 public:
  uint64_t OnEnqueue(const EnqueueInfo&) noexcept override { return 0; }
  void OnScratch(const ScratchRecord& r) noexcept override {
    records.push_back(r);
  }
  std::vector<ScratchRecord> records;
};

#if __has_include(<hsa/hsa_amd_tool.h>)

int g_previous_calls = 0;
hsa_status_t Previous(hsa_amd_tool_event_t) {
  ++g_previous_calls;
  return HSA_STATUS_INFO_BREAK;  // passed back to the runtime as is
}

TEST(ScratchHooksTest, ChainsPairsAndRestores) {
  static_assert(kHeadersHaveScratchEvents, "");
  ToolsApiTable tools{};
  tools.version.minor_id = sizeof(ToolsApiTable);
  tools.hsa_amd_tool_scratch_event_alloc_start_fn = &Previous;
  tools.hsa_amd_tool_scratch_event_alloc_end_fn = &Previous;
  HsaApiTable table{};
  table.version.minor_id = sizeof(HsaApiTable);
  table.tools_ = &tools;
  Collect collect;
  ASSERT_TRUE(AddObserver(&collect));
  ASSERT_TRUE(InstallScratchHooks(&table));
  EXPECT_NE(tools.hsa_amd_tool_scratch_event_alloc_start_fn, &Previous);
  EXPECT_NE(tools.hsa_amd_tool_scratch_event_free_end_fn, nullptr);

  hsa_queue_t queue{};
  queue.id = 77;  // no traced queue has it
  hsa_amd_event_scratch_alloc_start_t start{
      HSA_AMD_TOOL_EVENT_SCRATCH_ALLOC_START, &queue,
      HSA_AMD_EVENT_SCRATCH_ALLOC_FLAG_USE_ONCE, 9};
  hsa_amd_event_scratch_alloc_end_t end{
      HSA_AMD_TOOL_EVENT_SCRATCH_ALLOC_END,
      &queue,
      HSA_AMD_EVENT_SCRATCH_ALLOC_FLAG_USE_ONCE,
      9,
      4096,
      2};
  hsa_amd_tool_event_t e;
  e.scratch_alloc_start = &start;
  EXPECT_EQ(tools.hsa_amd_tool_scratch_event_alloc_start_fn(e),
            HSA_STATUS_INFO_BREAK);
  e.scratch_alloc_end = &end;
  EXPECT_EQ(tools.hsa_amd_tool_scratch_event_alloc_end_fn(e),
            HSA_STATUS_INFO_BREAK);
  EXPECT_EQ(g_previous_calls, 2);
  // A free whose START was missed; no previous hook: success.
  hsa_amd_event_scratch_free_end_t free_end{
      HSA_AMD_TOOL_EVENT_SCRATCH_FREE_END, &queue,
      HSA_AMD_EVENT_SCRATCH_ALLOC_FLAG_NONE};
  e.scratch_free_end = &free_end;
  EXPECT_EQ(tools.hsa_amd_tool_scratch_event_free_end_fn(e),
            HSA_STATUS_SUCCESS);

  ASSERT_EQ(collect.records.size(), 2u);
  const ScratchRecord& a = collect.records[0];
  EXPECT_EQ(a.op, ScratchOp::kAlloc);
  EXPECT_EQ(a.flags, 1u);
  EXPECT_EQ(a.dispatch_id, 9u);
  EXPECT_EQ(a.size, 4096u);
  EXPECT_EQ(a.num_slots, 2u);
  EXPECT_LE(a.begin_ns, a.end_ns);
  EXPECT_EQ(a.queue.queue_id, 77u);
  EXPECT_EQ(a.queue.device_id, -1);
  EXPECT_EQ(a.queue.agent.handle, 0u);
  const ScratchRecord& f = collect.records[1];
  EXPECT_EQ(f.op, ScratchOp::kFree);
  EXPECT_EQ(f.begin_ns, f.end_ns);
  EXPECT_EQ(f.size, 0u);

  RestoreScratchHooks();
  EXPECT_EQ(tools.hsa_amd_tool_scratch_event_alloc_start_fn, &Previous);
  EXPECT_EQ(tools.hsa_amd_tool_scratch_event_alloc_end_fn, &Previous);
  EXPECT_EQ(tools.hsa_amd_tool_scratch_event_free_end_fn, nullptr);
  RemoveObserver(&collect);
}

TEST(ScratchHooksTest, ATableWithoutToolsTableIsLeftAlone) {
  HsaApiTable table{};
  table.version.minor_id = offsetof(HsaApiTable, tools_);  // an older root
  ToolsApiTable tools{};
  table.tools_ = &tools;
  EXPECT_FALSE(InstallScratchHooks(&table));
  EXPECT_EQ(tools.hsa_amd_tool_scratch_event_alloc_start_fn, nullptr);
}

#else

TEST(ScratchHooksTest, NothingToInstallWithoutTheEvents) {
  static_assert(!kHeadersHaveScratchEvents, "");
  HsaApiTable table{};
  table.version.minor_id = sizeof(HsaApiTable);
  EXPECT_FALSE(InstallScratchHooks(&table));
}

#endif

}  // namespace
}  // namespace roctracer::gpu
