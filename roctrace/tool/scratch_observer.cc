#include "roctrace/tool/scratch_observer.h"

#include <new>

namespace roctrace {

namespace gpu = roctracer::gpu;

void ScratchObserver::OnScratch(const gpu::ScratchRecord& r) noexcept {
  ScratchRow row;
  switch (r.op) {
    case gpu::ScratchOp::kAlloc:
      row.op = ScratchRow::kAlloc;
      break;
    case gpu::ScratchOp::kFree:
      row.op = ScratchRow::kFree;
      break;
    case gpu::ScratchOp::kAsyncReclaim:
      row.op = ScratchRow::kAsyncReclaim;
      break;
  }
  row.flags = r.flags;
  row.size = r.size;
  row.queue_id = r.queue.queue_id;
  row.device_id = r.queue.device_id;
  row.thread_id = r.thread_id;
  row.begin_ns = r.begin_ns;
  row.end_ns = r.end_ns;
  try {
    std::lock_guard<std::mutex> lock(mutex_);
    rows_.push_back(row);
  } catch (const std::bad_alloc&) {
    lost_.fetch_add(1, std::memory_order_relaxed);
  }
}

std::vector<ScratchRow> ScratchObserver::Take() {
  std::vector<ScratchRow> rows;
  std::lock_guard<std::mutex> lock(mutex_);
  rows.swap(rows_);
  return rows;
}

}  // namespace roctrace
