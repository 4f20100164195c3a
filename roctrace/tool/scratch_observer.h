// roctrace's observer of the runtime's scratch memory events on the GPU
// seam (runtime/private/gpu_events.h, OnScratch), registered like the kernel
// observer: it queues one row per allocation, free or reclaim, which the
// tool converts with the kernel rows. The runtime reports these only where
// the HSA headers have hsa/hsa_amd_tool.h (ROCm >= 6.1).
#ifndef ROCTRACE_TOOL_SCRATCH_OBSERVER_H_
#define ROCTRACE_TOOL_SCRATCH_OBSERVER_H_

#include <atomic>
#include <cstdint>
#include <mutex>
#include <vector>

#include "roctrace/tool/dispatch_row.h"
#include "roctrace/tool/scratch_support.h"
#include "runtime/private/gpu_events.h"

namespace roctrace {

class ScratchObserver final : public roctracer::gpu::Observer {
 public:
  uint64_t OnEnqueue(const roctracer::gpu::EnqueueInfo&) noexcept override {
    return 0;
  }
  void OnScratch(const roctracer::gpu::ScratchRecord& r) noexcept override;

  // The rows since the last call, in the order the runtime raised them.
  std::vector<ScratchRow> Take();
  // Rows that could not be kept because memory ran out (never thrown into
  // the runtime's thread).
  uint64_t lost() const { return lost_.load(std::memory_order_relaxed); }

 private:
  std::atomic<uint64_t> lost_{0};
  std::mutex mutex_;
  std::vector<ScratchRow> rows_;
};

}  // namespace roctrace

#endif  // ROCTRACE_TOOL_SCRATCH_OBSERVER_H_
