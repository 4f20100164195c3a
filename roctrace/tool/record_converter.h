// Turns roctracer activity records into writer events: names API records
// (cached per operation), pairs rocTX push/pop per thread and start/stop by
// range ID, and counts what it could not turn into an event.
#ifndef ROCTRACE_TOOL_RECORD_CONVERTER_H_
#define ROCTRACE_TOOL_RECORD_CONVERTER_H_

#include <roctracer.h>

#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "roctrace/tool/dispatch_row.h"
#include "roctrace/tool/kernel_filter.h"
#include "roctrace/writers/event.h"

namespace roctrace {

class RecordConverter {
 public:
  using Sink = std::function<void(const ApiEvent&)>;
  explicit RecordConverter(Sink sink) : sink_(std::move(sink)) {}

  void Convert(const activity_record_t& record);
  // A HIP, HSA or KFD record's part of Convert, for a caller that takes the
  // arguments and stores the event itself (the tool's buffer loop: no call
  // through the sinks for the common record). `take(domain, op, tid,
  // correlation_id)` gives the call's arguments (nullptr: none); `put(op,
  // failed, args, stream_known, stream_id)` stores the event, made of those
  // and the record's times, process, thread, correlation ID and status.
  template <class Take, class Put>
  void ConvertApi(const activity_record_t& r, Take&& take, Put&& put) {
    const OpName* op = ApiName(r.domain, r.op);
    // HSA_STATUS_INFO_BREAK (1): an iteration callback stopped the walk,
    // not an error.
    const bool failed =
        r.api_status != 0 &&
        !(r.domain == ACTIVITY_DOMAIN_HSA_API && r.api_status == 1);
    const ApiArgs* args = take(r.domain, r.op, r.thread_id, r.correlation_id);
    bool stream_known = false;
    uint64_t stream_id = 0;
    if (args != nullptr && stream_source_ && HasStream(op, r.domain, r.op)) {
      stream_known = stream_source_(*args, &stream_id);
      if (!stream_known) stream_id = 0;
    }
    put(op, failed, args, stream_known, static_cast<uint32_t>(stream_id));
    // Only calls that can submit work are ever named by device records.
    if (op->submits_work) RememberThread(r.correlation_id, r.thread_id);
  }
  // A kernel dispatch or a copy (the tool's observer, kernel_observer.h:
  // HSA_OPS records are not read).
  void ConvertDispatch(const DispatchRow& row);
  void ConvertCopy(const CopyRow& row);
  // A scratch allocation, free or reclaim (the tool's scratch observer,
  // scratch_observer.h), written with the thread the runtime raised it on.
  void ConvertScratch(const ScratchRow& row);
  // rocprofiler-sdk's MEMORY_ALLOCATION operation names (ALLOCATE, FREE).
  const OpName* MemoryAllocationName(bool free, bool vmem = false);

  // Device work is written with the thread that submitted
  // it, found through the API call of its correlation ID: with this on, the
  // calls that can submit work (OpName::submits_work) are remembered by
  // correlation ID (the recent ones) and a device record whose call has not
  // been delivered yet waits for it.
  // `hsa_traced`: device work carries the HSA call (doorbell store, async
  // copy) as its correlation, not the HIP call around it
  // (OpName::submits_work).
  // -T/--truncate-kernels: kernels named by the function alone
  // (truncate_kernel_name.h); the kernel filter still sees the whole name.
  void TruncateKernelNames(bool on) { truncate_kernel_names_ = on; }
  // rocprofv3's --kernel-rename: a dispatch is named by the innermost rocTX
  // range pushed (roctxRangePush) on its submitting thread when the API call
  // that submitted it ran (needs the rocTX records and submitting threads
  // tracked); the kernel filter still sees the kernel's own name.
  void RenameKernelsByRanges(bool on) { rename_kernels_ = on; }
  void TrackSubmittingThreads(bool on, bool hsa_traced) {
    track_threads_ = on;
    hsa_traced_ = hsa_traced;
  }
  // Kernel names to keep (kernel_filter.h), decided once per name. False
  // when a pattern does not compile (*error says why).
  bool SetKernelFilter(const std::string& include, const std::string& exclude,
                       std::string* error) {
    return filter_.Set(include, exclude, error);
  }
  // The arguments of an API call, by its record's domain, op, thread and
  // correlation ID (arg_capture.h), put in its event; asked once for every
  // HIP, HSA and KFD record. Unset: events have none.
  using ArgsSource = std::function<const ApiArgs*(
      uint32_t domain, uint32_t op, uint32_t tid, uint64_t correlation_id)>;
  void SetArgsSource(ArgsSource source) { args_source_ = std::move(source); }
  // The Stream_Id of the stream an API call's arguments name (false when
  // they name none, or one not numbered): ApiEvent::stream_id. Unset: none.
  // Asked only for the operations `has_stream` says have a stream
  // parameter (decided once per operation).
  using StreamSource = std::function<bool(const ApiArgs& args, uint64_t* id)>;
  using StreamOps = std::function<bool(uint32_t domain, uint32_t op)>;
  void SetStreamSource(StreamSource source, StreamOps has_stream) {
    stream_source_ = std::move(source);
    has_stream_ = std::move(has_stream);
  }
  // Emits the device events still waiting for their API call (at the end:
  // their thread stays unknown, 0).
  void FlushWaiting();
  uint64_t filtered_kernels() const { return filtered_kernels_; }

  // The HIP runtime operations as the process's rocprofiler-sdk names them
  // (SdkBufferOperationNames): a function HIP >= 6 renamed with an ABI
  // suffix (hipChooseDeviceR0600) is then named as the SDK names its slot
  // (hipChooseDevice), as rocprofv3 writes it, where the SDK has no
  // operation of the suffixed name itself. Set before the first record.
  void SetSdkHipRuntimeNames(const std::vector<std::string>& names) {
    sdk_hip_names_.clear();
    for (const std::string& n : names) {
      if (!n.empty()) sdk_hip_names_.insert(n);
    }
  }

  uint64_t unresolved_names() const { return unresolved_names_; }
  uint64_t unmatched_range_ends() const {
    return unmatched_range_ends_ + early_stops_.size();
  }
  // rocTX ranges still open (never popped or stopped).
  uint64_t open_ranges() const;

 private:
  // Inline: after an operation's first record, a vector look-up.
  const OpName* ApiName(uint32_t domain, uint32_t op) {
    const auto& names = api_names_[domain];
    if (__builtin_expect(op < names.size() && names[op] != nullptr, 1)) {
      return names[op].get();
    }
    return NewApiName(domain, op);
  }
  const OpName* NewApiName(uint32_t domain, uint32_t op);
  // A mark's name or a range's (both MARKER_CORE_RANGE_API, rocprofv3's
  // kind for rocTX marks and ranges, pushed or started).
  const OpName* MarkerName(const char* message, bool range);
  // nullptr: the kernel filter drops this name.
  // Made at the name's first dispatch, which gives its register counts and
  // its kernel symbol.
  const OpName* KernelName(
      const std::string& name, const KernelRegisterCounts& registers,
      const std::shared_ptr<const KernelSymbolInfo>& symbol = nullptr);
  const OpName* CopyName(uint32_t direction);
  const OpName* ScratchName(ScratchRow::Op op);
  // Emits device work now, or holds it until its API call's thread is known.
  void EmitDevice(const ApiEvent& e);
  void RememberThread(uint64_t correlation_id, uint32_t tid);
  void ReleaseWaiting(uint64_t correlation_id, uint32_t tid);
  // 0 when the call is not known (yet).
  uint32_t ThreadOf(uint64_t correlation_id) const;
  // --kernel-rename: a kernel event named by the range around its call.
  void Rename(ApiEvent* e);
  const OpName* RenamedKernelName(
      const OpName* range, const KernelRegisterCounts& registers,
      const std::shared_ptr<const KernelSymbolInfo>& symbol = nullptr);

  struct OpenRange {
    const OpName* name;
    uint64_t id;
    uint64_t start_ns;
  };

  Sink sink_;
  ArgsSource args_source_;
  StreamSource stream_source_;
  StreamOps has_stream_;
  // By OpName::index: 1 the operation has a stream parameter, 0 not, -1
  // not asked yet.
  std::vector<int8_t> stream_ops_;
  bool HasStream(const OpName* op, uint32_t domain, uint32_t op_id) {
    if (__builtin_expect(op->index < stream_ops_.size(), 1) &&
        stream_ops_[op->index] >= 0) {
      return stream_ops_[op->index] != 0;
    }
    return HasStreamSlow(op, domain, op_id);
  }
  bool HasStreamSlow(const OpName* op, uint32_t domain, uint32_t op_id);
  std::vector<std::unique_ptr<OpName>> api_names_[ACTIVITY_DOMAIN_NUMBER];
  std::unordered_map<uint64_t, std::unique_ptr<OpName>> sparse_names_;
  std::unordered_map<std::string, std::unique_ptr<OpName>> marker_names_[2];
  std::unordered_set<std::string> sdk_hip_names_;
  std::unordered_map<uint32_t, std::vector<OpenRange>> pushed_;  // by tid
  std::unordered_map<uint64_t, OpenRange> started_;              // by range ID
  // roctxRangeStop records delivered before their roctxRangeStartA (the
  // two threads' records come in separate buffers, in either order): the
  // stop's time and thread by range ID, until the start arrives.
  std::unordered_map<uint64_t, std::pair<uint64_t, uint32_t>> early_stops_;
  uint32_t next_index_ = 0;  // OpName::index of the next name made
  uint64_t unresolved_names_ = 0;
  uint64_t unmatched_range_ends_ = 0;

  bool track_threads_ = false;
  bool truncate_kernel_names_ = false;
  bool rename_kernels_ = false;
  // --kernel-rename: the innermost pushed range of recent API calls that
  // can submit work, by correlation ID (two generations, as threads_*), and
  // the kernel names made from ranges' messages.
  std::unordered_map<uint64_t, const OpName*> ranges_now_, ranges_before_;
  std::unordered_map<const OpName*, const OpName*> renamed_names_;
  bool hsa_traced_ = false;
  KernelFilter filter_;
  std::unordered_map<std::string, const OpName*> kernel_names_;
  std::vector<std::unique_ptr<OpName>> device_names_;
  const OpName* copy_names_[4] = {};
  const OpName* scratch_names_[3] = {};
  const OpName* allocation_names_[4] = {};  // [vmem * 2 + free]
  uint64_t filtered_kernels_ = 0;
  uint32_t kernel_ids_ = 0;
  // Correlation ID -> thread of recent API calls, two generations: the
  // older is dropped when the newer fills (device work completes soon after
  // the call that submitted it).
  std::unordered_map<uint64_t, uint32_t> threads_now_, threads_before_;
  // Device events whose API call has not arrived, by correlation ID, with
  // their device fields (the event points to them once emitted).
  struct Waiting {
    ApiEvent event;
    DeviceWork device;
  };
  std::unordered_multimap<uint64_t, Waiting> waiting_;
};

// rocprofv3's Domain column for an HSA function, from its name's table.
const char* HsaDomainOf(const std::string& name);

}  // namespace roctrace

#endif  // ROCTRACE_TOOL_RECORD_CONVERTER_H_
