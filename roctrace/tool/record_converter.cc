#include "roctrace/tool/record_converter.h"

#include <roctracer_roctx.h>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include <cstddef>
#include <new>

#include "hip_api_tables.h"
#include "hsa_api_tables.h"
#include "kfd_api_tables.h"
#include "roctrace/tool/arg_capture.h"
#include "roctrace/tool/sdk_hip_name.h"
#include "roctrace/tool/truncate_kernel_name.h"
#include "roctrace/writers/json_writer.h"
#include "roctrace/writers/utf8.h"

namespace roctrace {
namespace {

// Recent calls remembered per generation, and device events held waiting
// for their call (beyond that they are written with the thread unknown).
constexpr size_t kThreadGeneration = 1 << 16;
constexpr size_t kMaxWaiting = 1 << 16;

const char* const kCopyNames[4] = {
    "MEMORY_COPY_HOST_TO_HOST", "MEMORY_COPY_HOST_TO_DEVICE",
    "MEMORY_COPY_DEVICE_TO_HOST", "MEMORY_COPY_DEVICE_TO_DEVICE"};

}  // namespace

const char* HsaDomainOf(const std::string& name) {
  if (name.compare(0, 8, "hsa_amd_") == 0) return "HSA_AMD_EXT_API";
  if (name.compare(0, 14, "hsa_ext_image_") == 0 ||
      name.compare(0, 16, "hsa_ext_sampler_") == 0) {
    return "HSA_IMAGE_EXT_API";
  }
  if (name.compare(0, 16, "hsa_ext_program_") == 0) {
    return "HSA_FINALIZE_EXT_API";
  }
  return "HSA_CORE_API";
}

const OpName* RecordConverter::NewApiName(uint32_t domain, uint32_t op) {
  auto& names = api_names_[domain];
  // Real operation IDs are small and dense: a vector. Anything else (a
  // corrupt record) goes to a map rather than growing the vector.
  constexpr uint32_t kDense = 4096;
  std::unique_ptr<OpName>* slot;
  if (op < kDense) {
    if (op < names.size() && names[op] != nullptr) return names[op].get();
    if (op >= names.size()) names.resize(op + 1);
    slot = &names[op];
  } else {
    slot = &sparse_names_[(static_cast<uint64_t>(domain) << 32) | op];
    if (*slot != nullptr) return slot->get();
  }
  auto name = std::make_unique<OpName>();
  name->index = next_index_++;
  const char* text = roctracer_op_string(domain, op, 0);
  if (text == nullptr) {
    ++unresolved_names_;
    text = "";
  }
  name->name = *text != '\0' ? text : "unknown_op_" + std::to_string(op);
  if (domain == ACTIVITY_DOMAIN_HIP_API) {
    name->name = SdkHipName(name->name, sdk_hip_names_);
    name->category = Category::kHip;
    // rocprofv3's two HIP kinds: the calls the compiler generates (kernel
    // and fat binary registration, launch configuration) and the rest. It
    // buffers HIP calls as the _EXT kinds and writes their names as the
    // Domain and the rocpd category.
    name->domain = name->name.compare(0, 5, "__hip") == 0
                       ? "HIP_COMPILER_API_EXT"
                       : "HIP_RUNTIME_API_EXT";
    name->submits_work = track_threads_ && !hsa_traced_;
    name->returns_status = roctracer::hip_api::ReturnsStatus(op);
    name->returns_void = roctracer::hip_api::RetvalSize(op) == 0;
    name->retval_in_args =
        (RecordedEntrySizeOf(domain, op) & kRetvalFollows) != 0;
  } else if (domain == ACTIVITY_DOMAIN_KFD_API) {
    // The layer below HSA: written with the HSA calls (their files and
    // tables), its own Domain column.
    name->category = Category::kHsa;
    name->domain = "KFD_API";
    name->returns_status = roctracer::kfd_api::ReturnsStatus(op);
  } else {
    name->category = Category::kHsa;
    name->domain = HsaDomainOf(name->name);
    name->returns_status = roctracer::hsa_api::ReturnsStatus(op);
    // Packets are submitted by ringing the doorbell (a signal store).
    name->submits_work =
        track_threads_ &&
        (name->name.compare(0, 16, "hsa_signal_store") == 0 ||
         name->name.compare(0, 23, "hsa_signal_silent_store") == 0 ||
         name->name.compare(0, 25, "hsa_amd_memory_async_copy") == 0);
  }
  *slot = std::move(name);
  return slot->get();
}

const OpName* RecordConverter::MarkerName(const char* message, bool range) {
  std::string text = message != nullptr ? message : "";
  auto& names = marker_names_[range ? 1 : 0];
  auto it = names.find(text);
  if (it != names.end()) return it->second.get();
  auto name = std::make_unique<OpName>();
  name->index = next_index_++;
  name->category = Category::kMarker;
  // Looked up by the bytes given, written as valid UTF-8 (utf8.h).
  name->name = IsValidUtf8(text) ? text : MakeValidUtf8(text);
  // rocprofv3 records marks and ranges alike under MARKER_CORE_RANGE_API
  // (roctxMarkA, roctxThreadRangeA, roctxProcessRangeA are its operations).
  name->domain = "MARKER_CORE_RANGE_API";
  const OpName* result = name.get();
  names.emplace(text, std::move(name));
  return result;
}

const OpName* RecordConverter::KernelName(
    const std::string& name, const KernelRegisterCounts& registers,
    const std::shared_ptr<const KernelSymbolInfo>& symbol) {
  auto it = kernel_names_.find(name);
  if (it != kernel_names_.end()) return it->second;
  const OpName* result = nullptr;
  if (filter_.Keep(name)) {
    auto op = std::make_unique<OpName>();
    op->index = next_index_++;
    op->category = Category::kKernel;
    // Names come from the program's code objects: written as valid UTF-8.
    const std::string text = IsValidUtf8(name) ? name : MakeValidUtf8(name);
    op->name = truncate_kernel_names_ ? TruncateKernelName(text) : text;
    op->domain = "KERNEL_DISPATCH";
    op->kernel_id = ++kernel_ids_;
    op->registers = registers;
    op->symbol = symbol;
    result = op.get();
    device_names_.push_back(std::move(op));
  }
  kernel_names_.emplace(name, result);
  return result;
}

const OpName* RecordConverter::CopyName(uint32_t direction) {
  direction &= 3;
  if (copy_names_[direction] == nullptr) {
    auto op = std::make_unique<OpName>();
    op->index = next_index_++;
    op->category = Category::kMemoryCopy;
    op->name = kCopyNames[direction];
    op->domain = "MEMORY_COPY";
    op->direction = static_cast<CopyDirection>(direction);
    copy_names_[direction] = op.get();
    device_names_.push_back(std::move(op));
  }
  return copy_names_[direction];
}

const OpName* RecordConverter::ScratchName(ScratchRow::Op op) {
  // rocprofiler-sdk's operation names of its SCRATCH_MEMORY kind.
  static const char* const kNames[3] = {"SCRATCH_MEMORY_ALLOC",
                                        "SCRATCH_MEMORY_FREE",
                                        "SCRATCH_MEMORY_ASYNC_RECLAIM"};
  const OpName*& name = scratch_names_[op];
  if (name == nullptr) {
    auto made = std::make_unique<OpName>();
    made->index = next_index_++;
    made->category = Category::kScratchMemory;
    made->name = kNames[op];
    made->domain = "SCRATCH_MEMORY";
    name = made.get();
    device_names_.push_back(std::move(made));
  }
  return name;
}

const OpName* RecordConverter::MemoryAllocationName(bool free, bool vmem) {
  const OpName*& name = allocation_names_[(vmem ? 2 : 0) + (free ? 1 : 0)];
  if (name == nullptr) {
    auto made = std::make_unique<OpName>();
    made->index = next_index_++;
    made->category = Category::kMemoryAllocation;
    made->name = std::string("MEMORY_ALLOCATION_") + (vmem ? "VMEM_" : "") +
                 (free ? "FREE" : "ALLOCATE");
    made->domain = "MEMORY_ALLOCATION";
    name = made.get();
    device_names_.push_back(std::move(made));
  }
  return name;
}

void RecordConverter::RememberThread(uint64_t correlation_id, uint32_t tid) {
  if (threads_now_.size() >= kThreadGeneration) {
    threads_before_ = std::move(threads_now_);
    threads_now_.clear();
    ranges_before_ = std::move(ranges_now_);
    ranges_now_.clear();
  }
  threads_now_[correlation_id] = tid;
  if (rename_kernels_) {
    auto pushed = pushed_.find(tid);
    if (pushed != pushed_.end() && !pushed->second.empty()) {
      ranges_now_[correlation_id] = pushed->second.back().name;
    }
  }
  if (!waiting_.empty()) ReleaseWaiting(correlation_id, tid);
}

uint32_t RecordConverter::ThreadOf(uint64_t correlation_id) const {
  auto it = threads_now_.find(correlation_id);
  if (it != threads_now_.end()) return it->second;
  it = threads_before_.find(correlation_id);
  return it != threads_before_.end() ? it->second : 0;
}

const OpName* RecordConverter::RenamedKernelName(
    const OpName* range, const KernelRegisterCounts& registers,
    const std::shared_ptr<const KernelSymbolInfo>& symbol) {
  auto it = renamed_names_.find(range);
  if (it != renamed_names_.end()) return it->second;
  auto op = std::make_unique<OpName>();
  op->index = next_index_++;
  op->category = Category::kKernel;
  op->name = range->name;  // a marker's message: valid UTF-8 already
  op->domain = "KERNEL_DISPATCH";
  op->kernel_id = ++kernel_ids_;
  op->registers = registers;
  op->symbol = symbol;
  const OpName* result = op.get();
  device_names_.push_back(std::move(op));
  renamed_names_.emplace(range, result);
  return result;
}

void RecordConverter::Rename(ApiEvent* e) {
  if (!rename_kernels_ || e->op->category != Category::kKernel) return;
  auto it = ranges_now_.find(e->correlation_id);
  if (it == ranges_now_.end()) {
    it = ranges_before_.find(e->correlation_id);
    if (it == ranges_before_.end()) return;
  }
  e->op = RenamedKernelName(it->second, e->op->registers, e->op->symbol);
}

void RecordConverter::ReleaseWaiting(uint64_t correlation_id, uint32_t tid) {
  auto range = waiting_.equal_range(correlation_id);
  for (auto it = range.first; it != range.second; ++it) {
    ApiEvent& e = it->second.event;
    e.tid = tid;
    e.device = &it->second.device;
    Rename(&e);
    sink_(e);
  }
  waiting_.erase(range.first, range.second);
}

void RecordConverter::FlushWaiting() {
  for (auto& kv : waiting_) {
    kv.second.event.device = &kv.second.device;
    sink_(kv.second.event);
  }
  waiting_.clear();
}

void RecordConverter::ConvertCopy(const CopyRow& row) {
  DeviceWork d{};
  d.device_id = row.device_id;
  ApiEvent e{};
  e.correlation_id = row.correlation_id;
  e.start_ns = row.begin_ns;
  e.end_ns = row.end_ns;
  e.op = CopyName(row.direction);
  e.bytes = row.bytes;
  e.stream_id = static_cast<uint32_t>(row.stream_id);
  e.device = &d;
  EmitDevice(e);
}

void RecordConverter::ConvertDispatch(const DispatchRow& row) {
  ApiEvent e{};
  e.op = KernelName(row.kernel_name, row.registers, row.symbol);
  if (e.op == nullptr) {
    ++filtered_kernels_;
    return;
  }
  DeviceWork d{};
  d.device_id = row.device_id;
  d.dispatch_id = row.dispatch_id;
  d.launch = row.launch;
  e.correlation_id = row.correlation_id;
  e.start_ns = row.begin_ns;
  e.end_ns = row.end_ns;
  e.queue_id = row.queue_id;
  e.stream_id = static_cast<uint32_t>(row.stream_id);
  e.device = &d;
  EmitDevice(e);
}

void RecordConverter::ConvertScratch(const ScratchRow& row) {
  ApiEvent e{};
  e.op = ScratchName(row.op);
  e.tid = row.thread_id;
  e.start_ns = row.begin_ns;
  e.end_ns = row.end_ns;
  e.queue_id = row.queue_id;
  DeviceWork d{};
  d.device_id = row.device_id;
  d.scratch.flags = row.flags;
  d.scratch.size = row.size;
  e.device = &d;
  sink_(e);
}

void RecordConverter::EmitDevice(const ApiEvent& e) {
  if (!track_threads_ || e.correlation_id == 0) {
    sink_(e);
    return;
  }
  const uint32_t tid = ThreadOf(e.correlation_id);
  if (tid != 0) {
    ApiEvent known = e;
    known.tid = tid;
    Rename(&known);
    sink_(known);
    return;
  }
  if (waiting_.size() >= kMaxWaiting) FlushWaiting();
  waiting_.emplace(e.correlation_id, Waiting{e, *e.device});
}

uint64_t RecordConverter::open_ranges() const {
  uint64_t n = started_.size();
  for (const auto& kv : pushed_) n += kv.second.size();
  return n;
}

bool RecordConverter::HasStreamSlow(const OpName* op, uint32_t domain,
                                    uint32_t op_id) {
  if (op->index >= stream_ops_.size()) stream_ops_.resize(op->index + 1, -1);
  const bool has = !has_stream_ || has_stream_(domain, op_id);
  stream_ops_[op->index] = has ? 1 : 0;
  return has;
}

namespace {

// An API call's event, every other field zero, stored in the 16-byte words
// the batch's copy (EventList::Append) loads: a load is served from the one
// store that wrote its bytes. Built field by field (and zeroed with
// `rep stos`), each of those loads spanned several smaller stores and
// waited for them to reach the cache: most of the copy's time.
struct alignas(16) ApiCallEvent {
  ApiCallEvent(const OpName* op, const activity_record_t& r, bool failed,
               const ApiArgs* args, bool stream_known, uint32_t stream_id) {
#if defined(__SSE2__)
    StoreApiCallWords(
        [this](int i, __m128i w) { _mm_store_si128(&words[i], w); }, op,
        r.correlation_id, r.begin_ns, r.end_ns, r.process_id, r.thread_id,
        failed, stream_known, stream_id, int64_t{r.api_status}, args);
#else
    new (&event) ApiEvent{};
    event.op = op;
    event.correlation_id = r.correlation_id;
    event.start_ns = r.begin_ns;
    event.end_ns = r.end_ns;
    event.pid = r.process_id;
    event.tid = r.thread_id;
    event.failed = failed;
    event.stream_known = stream_known;
    event.stream_id = stream_id;
    event.retval = r.api_status;
    event.args = args;
#endif
  }
  union {
    ApiEvent event;
#if defined(__SSE2__)
    __m128i words[4];
#endif
  };
};

}  // namespace

void RecordConverter::Convert(const activity_record_t& r) {
  switch (r.domain) {
    case ACTIVITY_DOMAIN_HIP_API:
    case ACTIVITY_DOMAIN_HSA_API:
    case ACTIVITY_DOMAIN_KFD_API:
      ConvertApi(
          r,
          [this](uint32_t domain, uint32_t op, uint32_t tid,
                 uint64_t correlation_id) -> const ApiArgs* {
            return args_source_ ? args_source_(domain, op, tid, correlation_id)
                                : nullptr;
          },
          [this, &r](const OpName* op, bool failed, const ApiArgs* args,
                     bool stream_known, uint32_t stream_id) {
            const ApiCallEvent call(op, r, failed, args, stream_known,
                                    stream_id);
            sink_(call.event);
          });
      return;
    case ACTIVITY_DOMAIN_ROCTX:
      break;
    default:
      return;  // EXT_API tags
  }
  ApiEvent e{};
  e.pid = r.process_id;
  e.tid = r.thread_id;
  e.correlation_id = r.correlation_id;
  switch (r.op) {
    case ROCTX_API_ID_roctxMarkA:
      e.op = MarkerName(r.mark_message, false);
      e.start_ns = e.end_ns = r.begin_ns;
      e.instant = true;
      sink_(e);
      return;
    case ROCTX_API_ID_roctxRangePushA:
      pushed_[r.thread_id].push_back(
          {MarkerName(r.mark_message, true), r.correlation_id, r.begin_ns});
      return;
    case ROCTX_API_ID_roctxRangeStartA: {
      auto stop = early_stops_.find(r.correlation_id);
      if (stop != early_stops_.end()) {
        e.op = MarkerName(r.mark_message, true);
        e.start_ns = r.begin_ns;
        e.end_ns = stop->second.first;
        e.tid = stop->second.second;  // where it ended, as when in order
        e.async_range_id = r.correlation_id;
        early_stops_.erase(stop);
        sink_(e);
        return;
      }
      started_[r.correlation_id] = {MarkerName(r.mark_message, true),
                                    r.correlation_id, r.begin_ns};
      return;
    }
    case ROCTX_API_ID_roctxRangePop: {
      auto it = pushed_.find(r.thread_id);
      if (it == pushed_.end() || it->second.empty()) {
        ++unmatched_range_ends_;
        return;
      }
      OpenRange open = it->second.back();
      it->second.pop_back();
      e.op = open.name;
      e.correlation_id = open.id;
      e.start_ns = open.start_ns;
      e.end_ns = r.begin_ns;
      sink_(e);
      return;
    }
    case ROCTX_API_ID_roctxRangeStop: {
      auto it = started_.find(r.correlation_id);
      if (it == started_.end()) {
        // Its start may still be in another thread's buffer. Bounded: a
        // program stopping ranges it never started must not grow this.
        constexpr size_t kMaxEarlyStops = 65536;
        if (early_stops_.size() < kMaxEarlyStops) {
          early_stops_.emplace(r.correlation_id,
                               std::make_pair(r.begin_ns, r.thread_id));
        } else {
          ++unmatched_range_ends_;
        }
        return;
      }
      e.op = it->second.name;
      e.start_ns = it->second.start_ns;
      e.end_ns = r.begin_ns;
      e.async_range_id = r.correlation_id;
      started_.erase(it);
      sink_(e);
      return;
    }
    default:
      return;
  }
}

}  // namespace roctrace
