// roctrace's observer of kernel dispatches and copies on the GPU seam
// (runtime/private/gpu_events.h), which the tool registers through
// libroctracer64's private export (runtime/private/observer_export.h). It is
// the one source of the kernel and copy rows: on the submitting thread it only
// draws the dispatch ID (one atomic increment, so IDs follow submission
// order) and numbers the stream the work went to (stream_ids.h: a
// thread-local look-up, a lock the first time a thread meets a stream); at
// completion, on the tracer's completion thread or a flushing thread, it
// builds a DispatchRow with the packet's sizes and its kernel symbol's LDS
// size and register counts (a CopyRow) and queues it for the tool, which
// converts the queued rows whenever it converts a pool buffer, at every
// checkpoint and at exit.
#ifndef ROCTRACE_TOOL_KERNEL_OBSERVER_H_
#define ROCTRACE_TOOL_KERNEL_OBSERVER_H_

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

#include "roctrace/tool/dispatch_row.h"
#include "roctrace/tool/stream_ids.h"
#include "runtime/private/gpu_events.h"

namespace roctrace {

class KernelObserver final : public roctracer::gpu::Observer {
 public:
  // `wake` is called (from a completion) when kWakeRows rows are queued, so
  // that the tool converts them before the next checkpoint.
  static constexpr size_t kWakeRows = 4096;
  explicit KernelObserver(std::function<void()> wake = nullptr)
      : wake_(std::move(wake)) {}
  // Which rows to make (before registering): kernel dispatches, copies.
  void Watch(bool dispatches, bool copies) {
    dispatches_ = dispatches;
    copies_ = copies;
  }
  // rocprofv3's -M: dispatches named by their kernel symbol as the code
  // object has it (without the ".kd" descriptor suffix), not demangled.
  void KeepMangledNames(bool mangled) { mangled_ = mangled; }
  // A stream a traced API created (numbered now: creation order).
  void OnStreamCreated(uint64_t handle) { streams_.IdOf(handle); }
  // The Stream_Id of a stream already numbered (by its creation or its
  // work); false for one that is not.
  bool FindStream(uint64_t handle, uint64_t* id) noexcept {
    return streams_.Find(handle, id);
  }

  uint64_t OnEnqueue(const roctracer::gpu::EnqueueInfo& info) noexcept override;
  void OnDispatch(const roctracer::gpu::DispatchRecord& r,
                  uint64_t cookie) noexcept override;
  void OnCopy(const roctracer::gpu::CopyRecord& r,
              uint64_t cookie) noexcept override;
  void OnCodeObject(const roctracer::gpu::CodeObjectEvent& e) noexcept override;
  void OnKernelSymbol(
      const roctracer::gpu::KernelSymbolEvent& e) noexcept override;
  void OnAbandon(uint64_t cookie) noexcept override;

  // The rows completed since the last call, in completion order.
  std::vector<DispatchRow> Take();
  std::vector<CopyRow> TakeCopies();
  // Every code object loaded so far, in load order (unloaded ones too).
  std::vector<std::shared_ptr<const CodeObjectInfo>> CodeObjects();
  // Rows (and kernel symbols) that could not be kept because memory ran
  // out: counted, never thrown into the application's or the runtime's
  // threads (these run inside noexcept paths).
  uint64_t lost() const { return lost_.load(std::memory_order_relaxed); }
  // Dispatches and copies the tracer will report no completion for: it
  // gave up waiting (the queue was destroyed, the runtime shut down or the
  // process exited before they completed) or could not trace them.
  uint64_t incomplete() const {
    return incomplete_.load(std::memory_order_relaxed);
  }

 private:
  // Queues a row; wakes the tool when kWakeRows wait (requires mutex_).
  bool QueuedMany() const {
    return rows_.size() + copy_rows_.size() == kWakeRows;
  }

  bool dispatches_ = true;
  bool copies_ = false;
  bool mangled_ = false;
  StreamIds streams_;
  std::atomic<uint64_t> last_dispatch_id_{0};
  std::atomic<uint64_t> lost_{0};
  std::atomic<uint64_t> incomplete_{0};
  std::function<void()> wake_;
  std::mutex mutex_;
  std::vector<DispatchRow> rows_;
  std::vector<CopyRow> copy_rows_;
  // What a dispatch row takes from its kernel symbol, by kernel object,
  // while loaded.
  struct Symbol {
    uint32_t group_segment_size;
    roctracer::gpu::KernelRegisters registers;
    std::string mangled_name;  // kept with KeepMangledNames only
    std::shared_ptr<const KernelSymbolInfo> info;
  };
  std::unordered_map<uint64_t, Symbol> symbols_;
  // Loaded code objects by their loader handle, with the executable and
  // agent that say which of them a kernel symbol belongs to.
  struct LoadedCodeObject {
    uint64_t executable;
    uint64_t agent;
    std::shared_ptr<const CodeObjectInfo> info;
  };
  std::unordered_map<uint64_t, LoadedCodeObject> loaded_code_objects_;
  std::vector<std::shared_ptr<const CodeObjectInfo>> code_objects_;
};

}  // namespace roctrace

#endif  // ROCTRACE_TOOL_KERNEL_OBSERVER_H_
