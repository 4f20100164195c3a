#include "roctrace/tool/kernel_observer.h"

#include <new>

namespace roctrace {

namespace gpu = roctracer::gpu;

namespace {

// A dispatch's cookie: its dispatch ID (from 1: never 0) in the low bits,
// its Stream_Id above. A copy's: its Stream_Id + 1.
constexpr int kStreamShift = 40;
constexpr uint64_t kDispatchIdMask = (uint64_t{1} << kStreamShift) - 1;

}  // namespace

uint64_t KernelObserver::OnEnqueue(const gpu::EnqueueInfo& info) noexcept {
  const bool dispatch = info.kind == gpu::OpKind::kDispatch;
  if (dispatch ? !dispatches_ : info.kind != gpu::OpKind::kCopy || !copies_) {
    return 0;
  }
  // Asked here, on the submitting thread, whose calls name the stream.
  const uint64_t stream =
      streams_.IdOf(info.stream != nullptr ? info.stream() : 0);
  if (!dispatch) return stream + 1;
  const uint64_t id =
      last_dispatch_id_.fetch_add(1, std::memory_order_relaxed) + 1;
  // An ID past 2^24 streams does not fit the cookie: such a dispatch is
  // written on the null stream rather than on another stream.
  const uint64_t stream_bits =
      stream < (uint64_t{1} << (64 - kStreamShift)) ? stream : 0;
  return (id & kDispatchIdMask) | stream_bits << kStreamShift;
}

void KernelObserver::OnDispatch(const gpu::DispatchRecord& r,
                                uint64_t cookie) noexcept {
  DispatchRow row;
  row.dispatch_id = cookie & kDispatchIdMask;
  row.stream_id = cookie >> kStreamShift;
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
  bool wake;
  try {
    row.kernel_name = r.kernel_name;
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = symbols_.find(r.kernel_object);
    if (it != symbols_.end()) {
      l.symbol_known = true;
      l.symbol_group_segment_size = it->second.group_segment_size;
      if (mangled_) row.kernel_name = it->second.mangled_name;
      row.symbol = it->second.info;
      const gpu::KernelRegisters& regs = it->second.registers;
      if (regs.known) {
        row.registers = KernelRegisterCounts{
            true, regs.arch_vgpr_count, regs.accum_vgpr_count, regs.sgpr_count};
      }
    }
    rows_.push_back(std::move(row));
    wake = QueuedMany();
  } catch (const std::bad_alloc&) {
    lost_.fetch_add(1, std::memory_order_relaxed);
    return;
  }
  if (wake && wake_) wake_();
}

void KernelObserver::OnCopy(const gpu::CopyRecord& r,
                            uint64_t cookie) noexcept {
  CopyRow row{r.correlation_id, cookie - 1, r.device_id, r.direction,
              r.bytes,          r.begin_ns, r.end_ns};
  bool wake;
  try {
    std::lock_guard<std::mutex> lock(mutex_);
    copy_rows_.push_back(row);
    wake = QueuedMany();
  } catch (const std::bad_alloc&) {
    lost_.fetch_add(1, std::memory_order_relaxed);
    return;
  }
  if (wake && wake_) wake_();
}

void KernelObserver::OnKernelSymbol(const gpu::KernelSymbolEvent& e) noexcept {
  std::lock_guard<std::mutex> lock(mutex_);
  if (!e.load) {
    symbols_.erase(e.kernel_object);
    return;
  }
  try {
    // Its code object: the executable's on the same agent whose loaded
    // range holds the kernel descriptor (else the first of them).
    std::shared_ptr<const CodeObjectInfo> code_object;
    for (const auto& [handle, c] : loaded_code_objects_) {
      if (c.executable != e.executable.handle || c.agent != e.agent.handle) {
        continue;
      }
      const bool holds =
          e.kernel_object >= c.info->load_base &&
          e.kernel_object - c.info->load_base < c.info->load_size;
      if (holds || code_object == nullptr || c.info->id < code_object->id) {
        code_object = c.info;
      }
      if (holds) break;
    }
    auto info = std::make_shared<KernelSymbolInfo>();
    info->symbol_name = e.symbol_name != nullptr ? e.symbol_name : "";
    info->kernel_object = e.kernel_object;
    info->kernarg_segment_size = e.kernarg_segment_size;
    info->kernarg_segment_alignment = e.kernarg_segment_alignment;
    info->group_segment_size = e.group_segment_size;
    info->private_segment_size = e.private_segment_size;
    info->code_object = std::move(code_object);
    Symbol& s = symbols_[e.kernel_object];
    s = Symbol{e.group_segment_size, e.registers, {}, info};
    if (mangled_) {
      s.mangled_name = info->symbol_name;
      const size_t n = s.mangled_name.size();
      if (n > 3 && s.mangled_name.compare(n - 3, 3, ".kd") == 0) {
        s.mangled_name.resize(n - 3);
      }
    }
  } catch (const std::bad_alloc&) {
    // Its dispatches go without the symbol's LDS size and registers.
    lost_.fetch_add(1, std::memory_order_relaxed);
  }
}

void KernelObserver::OnCodeObject(const gpu::CodeObjectEvent& e) noexcept {
  std::lock_guard<std::mutex> lock(mutex_);
  if (!e.load) {
    loaded_code_objects_.erase(e.loaded_code_object);
    return;
  }
  try {
    auto info = std::make_shared<CodeObjectInfo>();
    info->id = code_objects_.size() + 1;
    info->device_id = e.device_id;
    info->uri = e.uri != nullptr ? e.uri : "";
    info->load_base = e.load_base;
    info->load_size = e.load_size;
    info->load_delta = e.load_delta;
    info->storage_type = e.storage_type;
    info->memory_base = e.memory_base;
    info->memory_size = e.memory_size;
    code_objects_.push_back(info);
    loaded_code_objects_[e.loaded_code_object] =
        LoadedCodeObject{e.executable.handle, e.agent.handle, std::move(info)};
  } catch (const std::bad_alloc&) {
    lost_.fetch_add(1, std::memory_order_relaxed);
  }
}

std::vector<std::shared_ptr<const CodeObjectInfo>>
KernelObserver::CodeObjects() {
  std::lock_guard<std::mutex> lock(mutex_);
  return code_objects_;
}

void KernelObserver::OnAbandon(uint64_t /*cookie*/) noexcept {
  incomplete_.fetch_add(1, std::memory_order_relaxed);
}

std::vector<DispatchRow> KernelObserver::Take() {
  std::vector<DispatchRow> rows;
  std::lock_guard<std::mutex> lock(mutex_);
  rows.swap(rows_);
  return rows;
}

std::vector<CopyRow> KernelObserver::TakeCopies() {
  std::vector<CopyRow> rows;
  std::lock_guard<std::mutex> lock(mutex_);
  rows.swap(copy_rows_);
  return rows;
}

}  // namespace roctrace
