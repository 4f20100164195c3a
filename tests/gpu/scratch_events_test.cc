// Scratch memory events (runtime/gpu/scratch_events.*) on softhsa, with
// libroctracer64.so.4 loaded as the HSA tool: dispatches that need private
// segment memory make the runtime allocate scratch (the queue's main
// scratch, or for one dispatch when above SOFTHSA_SCRATCH_LIMIT), free it at
// queue destruction and, with SOFTHSA_SCRATCH_RECLAIM=1, reclaim it when the
// queue goes idle. An observer registered as roctrace registers its own sees
// one paired record per START/END. Built from headers without
// hsa/hsa_amd_tool.h (ROCm < 6.1), the same program must see none.
#include <gtest/gtest.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <mutex>
#include <vector>

#include "runtime/private/observer_export.h"
#include "tests/gpu/gpu_test_util.h"

namespace {

using roctracer::gpu::ScratchOp;
using roctracer::gpu::ScratchRecord;

constexpr bool kHaveEvents =
#if __has_include(<hsa/hsa_amd_tool.h>)
    true;
#else
    false;
#endif

class ScratchObserver : public roctracer::gpu::Observer {
 public:
  uint64_t OnEnqueue(const roctracer::gpu::EnqueueInfo&) noexcept override {
    return 0;
  }
  void OnScratch(const ScratchRecord& r) noexcept override {
    std::lock_guard<std::mutex> lock(mutex_);
    records_.push_back(r);
  }
  std::vector<ScratchRecord> Take() {
    std::lock_guard<std::mutex> lock(mutex_);
    return std::move(records_);
  }

 private:
  std::mutex mutex_;
  std::vector<ScratchRecord> records_;
};

struct ScratchRun {
  gpu_test::Program program;
  ScratchObserver observer;
  hsa_signal_t done{0};

  void Start() {
    ASSERT_TRUE(program.Start());
    ASSERT_TRUE(roctracer_internal_gpu_add_observer(
        roctracer::gpu::kObserverAbiVersion, &observer));
    ASSERT_EQ(hsa_signal_create(1, 0, nullptr, &done), HSA_STATUS_SUCCESS);
  }
  void Stop() {
    roctracer_internal_gpu_remove_observer(&observer);
    hsa_signal_destroy(done);
    program.Stop();
  }
  // One dispatch of `grid` work-items in workgroups of 64, each needing
  // `private_bytes` of scratch, waited for.
  void Dispatch(hsa_queue_t* q, uint32_t grid, uint32_t private_bytes) {
    hsa_signal_store_relaxed(done, 1);
    hsa_kernel_dispatch_packet_t p = hsa_test::DispatchPacket(
        program.empty, program.kernarg, grid, 64, done);
    p.private_segment_size = private_bytes;
    hsa_test::Submit(q, &p);
    gpu_test::WaitZero(done);
  }
};

uint64_t Now() {
  uint64_t t = 0;
  roctracer_get_timestamp(&t);
  return t;
}

TEST(ScratchEventsTest, AllocationsUseOnceAndFreeArePairedAndAttributed) {
  setenv("SOFTHSA_SCRATCH_LIMIT", "200000", 1);
  unsetenv("SOFTHSA_SCRATCH_RECLAIM");
  ScratchRun run;
  run.Start();
  const uint64_t before = Now();
  hsa_queue_t* q = run.program.Queue();
  ASSERT_NE(q, nullptr);
  const uint64_t queue_id = q->id;
  // 1 workgroup (1 wave) x 256 bytes a lane: 16 KiB, the queue's scratch.
  run.Dispatch(q, 64, 256);
  // Fits in what the queue holds: nothing.
  run.Dispatch(q, 64, 128);
  // 4 waves x 512 bytes a lane: 128 KiB, more than it holds.
  run.Dispatch(q, 256, 512);
  // 4 waves x 1024 bytes: 256 KiB, above the limit: for this dispatch only.
  run.Dispatch(q, 256, 1024);
  // No private segment: nothing.
  run.Dispatch(q, 256, 0);
  hsa_queue_destroy(q);
  const uint64_t after = Now();
  std::vector<ScratchRecord> r = run.observer.Take();
  run.Stop();

  if (!kHaveEvents) {
    EXPECT_TRUE(r.empty()) << "headers without hsa_amd_tool.h have no events";
    return;
  }
  ASSERT_EQ(r.size(), 5u);
  const uint32_t kUseOnce = 1;
  struct Want {
    ScratchOp op;
    uint32_t flags;
    uint64_t size, slots;
  } want[] = {{ScratchOp::kAlloc, 0, 16384, 1},
              {ScratchOp::kAlloc, 0, 131072, 4},
              {ScratchOp::kAlloc, kUseOnce, 262144, 4},
              {ScratchOp::kFree, kUseOnce, 0, 0},
              {ScratchOp::kFree, 0, 0, 0}};
  const uint32_t main_tid = static_cast<uint32_t>(syscall(SYS_gettid));
  for (size_t i = 0; i < r.size(); ++i) {
    SCOPED_TRACE(i);
    EXPECT_EQ(r[i].op, want[i].op);
    EXPECT_EQ(r[i].flags, want[i].flags);
    EXPECT_EQ(r[i].size, want[i].size);
    EXPECT_EQ(r[i].num_slots, want[i].slots);
    EXPECT_EQ(r[i].queue.queue_id, queue_id);
    EXPECT_EQ(r[i].queue.device_id, 0);
    EXPECT_EQ(r[i].queue.agent.handle, run.program.gpu.handle);
    EXPECT_LE(before, r[i].begin_ns);
    EXPECT_LE(r[i].begin_ns, r[i].end_ns);
    EXPECT_LE(r[i].end_ns, after);
    if (i > 0) {
      EXPECT_LE(r[i - 1].end_ns, r[i].begin_ns);
    }
    EXPECT_NE(r[i].thread_id, 0u);
  }
  // Allocations happen on the queue's packet processor, the final free in
  // hsa_queue_destroy on the caller's thread.
  EXPECT_NE(r[0].thread_id, main_tid);
  EXPECT_EQ(r[4].thread_id, main_tid);
  // The dispatch IDs are the packets' places in the queue below: the first
  // dispatch, then the third (each traced dispatch is followed by the
  // barrier that completes its signal).
  EXPECT_LT(r[0].dispatch_id, r[1].dispatch_id);
  EXPECT_LT(r[1].dispatch_id, r[2].dispatch_id);
}

TEST(ScratchEventsTest, IdleQueueScratchIsReclaimedAndAllocatedAgain) {
  unsetenv("SOFTHSA_SCRATCH_LIMIT");
  setenv("SOFTHSA_SCRATCH_RECLAIM", "1", 1);
  ScratchRun run;
  run.Start();
  hsa_queue_t* q = run.program.Queue();
  ASSERT_NE(q, nullptr);
  run.Dispatch(q, 64, 256);
  run.Dispatch(q, 64, 256);
  std::vector<ScratchRecord> r = run.observer.Take();
  hsa_queue_destroy(q);
  std::vector<ScratchRecord> at_destroy = run.observer.Take();
  run.Stop();
  unsetenv("SOFTHSA_SCRATCH_RECLAIM");
  if (!kHaveEvents) {
    EXPECT_TRUE(r.empty());
    EXPECT_TRUE(at_destroy.empty());
    return;
  }
  // Each dispatch finds the queue's scratch reclaimed while it was idle.
  ASSERT_EQ(r.size(), 4u);
  EXPECT_EQ(r[0].op, ScratchOp::kAlloc);
  EXPECT_EQ(r[1].op, ScratchOp::kAsyncReclaim);
  EXPECT_EQ(r[2].op, ScratchOp::kAlloc);
  EXPECT_EQ(r[3].op, ScratchOp::kAsyncReclaim);
  EXPECT_EQ(r[2].size, 16384u);
  for (const ScratchRecord& e : r)
    EXPECT_EQ(e.queue.queue_id, r[0].queue.queue_id);
  // Nothing left to free.
  EXPECT_TRUE(at_destroy.empty());
}

}  // namespace
