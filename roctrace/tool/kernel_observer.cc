#include "roctrace/tool/kernel_observer.h"

namespace roctrace {

namespace gpu = roctracer::gpu;

uint64_t KernelObserver::OnEnqueue(const gpu::EnqueueInfo& info) noexcept {
  if (info.kind != gpu::OpKind::kDispatch) return 0;
  // The cookie is the dispatch ID (never 0).
  return last_dispatch_id_.fetch_add(1, std::memory_order_relaxed) + 1;
}

void KernelObserver::OnDispatch(const gpu::DispatchRecord& r,
                                uint64_t cookie) noexcept {
  DispatchRow row;
  row.dispatch_id = cookie;
  row.correlation_id = r.correlation_id;
  row.queue_id = r.queue.queue_id;
  row.device_id = r.queue.device_id;
  row.begin_ns = r.begin_ns;
  row.end_ns = r.end_ns;
  KernelLaunch& l = row.launch;
  for (int i = 0; i < 3; ++i) {
    l.grid[i] = r.grid[i];
    l.workgroup[i] = r.workgroup[i];
  }
  l.group_segment_size = r.group_segment_size;
  l.private_segment_size = r.private_segment_size;
  l.symbol_known = false;
  l.symbol_group_segment_size = 0;
  row.kernel_name = r.kernel_name;
  bool wake;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = symbols_.find(r.kernel_object);
    if (it != symbols_.end()) {
      l.symbol_known = true;
      l.symbol_group_segment_size = it->second.group_segment_size;
      const gpu::KernelRegisters& regs = it->second.registers;
      if (regs.known) {
        row.registers = KernelRegisterCounts{
            true, regs.arch_vgpr_count, regs.accum_vgpr_count, regs.sgpr_count};
      }
    }
    rows_.push_back(std::move(row));
    wake = rows_.size() == kWakeRows;
  }
  if (wake && wake_) wake_();
}

void KernelObserver::OnKernelSymbol(const gpu::KernelSymbolEvent& e) noexcept {
  std::lock_guard<std::mutex> lock(mutex_);
  if (e.load) {
    symbols_[e.kernel_object] = Symbol{e.group_segment_size, e.registers};
  } else {
    symbols_.erase(e.kernel_object);
  }
}

std::vector<DispatchRow> KernelObserver::Take() {
  std::vector<DispatchRow> rows;
  std::lock_guard<std::mutex> lock(mutex_);
  rows.swap(rows_);
  return rows;
}

}  // namespace roctrace
