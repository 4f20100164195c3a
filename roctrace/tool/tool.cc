#include "roctrace/tool/tool.h"

#include <dirent.h>
#include <limits.h>
#include <link.h>
#include <pthread.h>
#include <rocprofiler-sdk/buffer_tracing.h>
#include <roctracer.h>
#include <roctracer_ext.h>
#include <roctracer_hsa.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "roctrace/tool/config.h"
#include "roctrace/tool/config_document.h"
#include "roctrace/tool/exec_image.h"
#include "roctrace/tool/record_converter.h"
#include "roctrace/tool/sdk_operation_names.h"
#include "roctrace/writers/csv_writer.h"
#include "roctrace/writers/json_writer.h"
#include "roctrace/writers/output_failures.h"
#include "roctrace/writers/pftrace_writer.h"
#include "roctrace/writers/rocpd_writer.h"
#include "roctrace/writers/stats.h"
#include "runtime/private/last_words_export.h"
#include "runtime/private/observer_export.h"
#include "runtime/private/tool_activity.h"

namespace roctrace {
namespace {

constexpr auto kCheckpointPeriod = std::chrono::milliseconds(200);
// Batches (one per delivered pool buffer) a format's thread may have queued
// before the pool's consumer waits for it (until half are taken). Each holds
// ~160 KiB with its arguments for HIP calls; a run whose writers are slower
// than its calls keeps the queue full, so this bounds the pages first
// touched (faulted in) at its start: 32 against 64 is ~900 fewer faults,
// with as few context switches.
constexpr size_t kQueuedBatches = 32;

std::string CommandLine() {
  std::ifstream in("/proc/self/cmdline", std::ios::binary);
  std::string all((std::istreambuf_iterator<char>(in)),
                  std::istreambuf_iterator<char>());
  while (!all.empty() && all.back() == '\0') all.pop_back();
  for (char& c : all) {
    if (c == '\0') c = ' ';
  }
  return all;
}

// Whether HIP's runtime (libamdhip64) is in the process: rocprofv3 draws a
// HIP program's GPU work per stream once HIP is initialised, which the
// library being loaded when the first kernel or copy is written stands for
// here (asked from the writer's thread).
bool HipLoaded() {
  return dl_iterate_phdr(
             [](dl_phdr_info* info, size_t, void*) {
               return info->dlpi_name != nullptr &&
                              std::strstr(info->dlpi_name, "libamdhip64") !=
                                  nullptr
                          ? 1
                          : 0;
             },
             nullptr) != 0;
}

std::string HostName() {
  char name[256] = {};
  gethostname(name, sizeof(name) - 1);
  return name;
}

std::string DirName(const std::string& path) {
  size_t slash = path.rfind('/');
  if (slash == std::string::npos) return ".";
  if (slash == 0) return "/";
  return path.substr(0, slash);
}

std::string CurrentDir() {
  char cwd[PATH_MAX];
  return getcwd(cwd, sizeof(cwd)) != nullptr ? cwd : ".";
}

// mkdir -p; true when the directory exists afterwards.
bool MakeDirs(const std::string& path) {
  for (size_t at = 1; at <= path.size(); ++at) {
    if (at == path.size() || path[at] == '/') {
      std::string prefix = path.substr(0, at);
      if (mkdir(prefix.c_str(), 0777) != 0 && errno != EEXIST) return false;
    }
  }
  struct stat st {};
  return stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
}

// --output-config: `<prefix>_config.json` of this process, `config` the
// configuration roctrace hands every traced process (ROCTRACE_OUTPUT_CONFIG,
// a JSON object), with this process's pid and command line. A file that
// cannot be written is lost output (roctrace's status says so).
void WriteOutputConfig(const std::string& prefix, uint32_t pid,
                       const std::vector<std::string>& command,
                       const std::string& config) {
  const std::string path = prefix + "_config.json";
  const std::string text = ConfigDocument(pid, command, config);
  const std::string dir = DirName(path);
  std::FILE* f = MakeDirs(dir) ? std::fopen(path.c_str(), "w") : nullptr;
  bool written = f != nullptr;
  if (f != nullptr) {
    written = std::fwrite(text.data(), 1, text.size(), f) == text.size();
    written = std::fclose(f) == 0 && written;
  }
  if (!written) {
    ReportOutputFailure("cannot write " + path + ": " + std::strerror(errno));
  }
}

// The test hook's shift of this process (ROCTRACE_TEST_CLOCK_OFFSET_NS: one
// signed count of nanoseconds, or a comma-separated list of them indexed by
// the process's MPI rank, %rank%).
int64_t TestClockShift(const std::function<const char*(const char*)>& getenv,
                       uint32_t pid, uint32_t ppid,
                       const std::string& hostname) {
  const char* value = getenv("ROCTRACE_TEST_CLOCK_OFFSET_NS");
  if (value == nullptr || *value == '\0') return 0;
  const long rank =
      std::atol(ExpandPathKeys("%rank%", pid, ppid, hostname, getenv).c_str());
  const char* at = value;
  for (long i = 0; i < rank && at != nullptr; ++i) {
    at = std::strchr(at, ',');
    if (at != nullptr) ++at;
  }
  return at != nullptr ? std::strtoll(at, nullptr, 10) : 0;
}

// Bytes in the files whose names start with `prefix` + "_" (this process's
// outputs).
uint64_t OutputBytes(const std::string& prefix) {
  const std::string dir = DirName(prefix);
  const std::string base = prefix.substr(prefix.rfind('/') == std::string::npos
                                             ? 0
                                             : prefix.rfind('/') + 1) +
                           "_";
  uint64_t bytes = 0;
  DIR* d = opendir(dir.c_str());
  if (d == nullptr) return 0;
  while (dirent* e = readdir(d)) {
    if (std::strncmp(e->d_name, base.c_str(), base.size()) != 0) continue;
    struct stat st {};
    if (stat((dir + "/" + e->d_name).c_str(), &st) == 0 &&
        S_ISREG(st.st_mode)) {
      bytes += static_cast<uint64_t>(st.st_size);
    }
  }
  closedir(d);
  return bytes;
}

}  // namespace

uint64_t Tool::Now() const {
  uint64_t t = 0;
  roctracer_get_timestamp(&t);
  return t + static_cast<uint64_t>(clock_shift_ns_);
}

void Tool::SetMpiRank(int rank, int size) {
  std::lock_guard<std::mutex> lock(end_notes_mutex_);
  end_notes_.emplace_back("mpi.rank", std::to_string(rank));
  end_notes_.emplace_back("mpi.size", std::to_string(size));
}

void Tool::SetClockOffset(const char* when, const ClockOffset& offset) {
  std::lock_guard<std::mutex> lock(end_notes_mutex_);
  const std::string tag = std::string("clock.") + when;
  if (!offset.valid) {
    end_notes_.emplace_back(tag, "not measured: MPI calls failed");
    return;
  }
  end_notes_.emplace_back(tag + "_local_ns", std::to_string(offset.local_ns));
  end_notes_.emplace_back(tag + "_offset_ns", std::to_string(offset.offset_ns));
  end_notes_.emplace_back(tag + "_uncertainty_ns",
                          std::to_string(offset.uncertainty_ns));
}

void Tool::NoteMpiClock(const char* tag, const char* text) {
  std::lock_guard<std::mutex> lock(end_notes_mutex_);
  end_notes_.emplace_back(tag, text);
}

void Tool::WriteProgress() {
  if (progress_path_.empty()) return;
  const auto now = std::chrono::steady_clock::now();
  if (now < progress_at_) return;
  progress_at_ = now + std::chrono::milliseconds(500);
  uint64_t dropped = 0;
  if (pool_ != nullptr) roctracer_get_dropped_records_expl(pool_, &dropped);
  char line[128];
  const int n =
      std::snprintf(line, sizeof(line), "%llu %llu %llu\n",
                    static_cast<unsigned long long>(events_),
                    static_cast<unsigned long long>(
                        writers_created_ ? OutputBytes(prefix_) : 0),
                    static_cast<unsigned long long>(dropped + unwritten_));
  // Whole or not at all: the command reads it at any moment.
  const std::string tmp = progress_path_ + ".tmp";
  if (FILE* f = std::fopen(tmp.c_str(), "we")) {
    const bool ok = std::fwrite(line, 1, static_cast<size_t>(n), f) ==
                    static_cast<size_t>(n);
    if (std::fclose(f) == 0 && ok)
      std::rename(tmp.c_str(), progress_path_.c_str());
  }
}

void StreamCallback(uint32_t domain, uint32_t op, const void* data, void* arg) {
  uint64_t stream = 0;
  if (roctracer_internal_created_stream(domain, op, data, &stream)) {
    static_cast<KernelObserver*>(arg)->OnStreamCreated(stream);
  }
}

void StreamArgsCallback(uint32_t domain, uint32_t op, const void* data,
                        void* arg) {
  StreamCallback(domain, op, data, arg);
  ArgCapture::Record(domain, op, data);
}

void BufferCallback(const char* begin, const char* end, void* arg) {
  static_cast<Tool*>(arg)->OnBuffer(begin, end);
}

// The program dies of a fatal signal: the files are finished as at exit, on
// the library's last-words thread, after the pools were flushed.
void StopAtFatalSignal(void* arg) { static_cast<Tool*>(arg)->Stop(); }

void Tool::Start(const std::function<const char*(const char*)>& getenv) {
  std::vector<std::string> warnings;
  config_ = ReadConfig(getenv, &warnings);
  for (const std::string& w : warnings) {
    std::fprintf(stderr, "roctrace: ignoring %s\n", w.c_str());
  }
  std::string regex_error;
  if (!converter_.SetKernelFilter(config_.kernel_include_regex,
                                  config_.kernel_exclude_regex, &regex_error)) {
    std::fprintf(stderr, "roctrace: ignoring the kernel filter: %s\n",
                 regex_error.c_str());
  }
  // --kernel-rename needs the rocTX ranges and the calls that submit work
  // (their threads): traced without being written when not asked for.
  write_markers_ = config_.marker;
  if (config_.kernel_rename && (config_.kernel || config_.memory_copy)) {
    config_.marker = true;
    // Parts not kept (hip_runtime, hsa_core, ... stay as asked).
    if (!config_.hip && !config_.hsa) config_.hip = config_.hsa = true;
  }
  converter_.RenameKernelsByRanges(config_.kernel_rename);
  // --memory-allocation-trace alone: the calls' records give the times and
  // are not written.
  if (config_.memory_allocation && !config_.hsa) {
    config_.hsa_core = config_.hsa_amd = config_.hsa_image =
        config_.hsa_finalizer = false;
  }
  filter_apis_ =
      !(config_.hip_runtime && config_.hip_compiler && config_.hsa_core &&
        config_.hsa_amd && config_.hsa_image && config_.hsa_finalizer);
  converter_.TruncateKernelNames(config_.truncate_kernels);
  // HIP calls named as the SDK names their operations (HIP >= 6's renamed
  // functions).
  sdk_operations_ = SdkBufferOperationNames();
  if (sdk_operations_.size() > ROCPROFILER_BUFFER_TRACING_HIP_RUNTIME_API_EXT) {
    converter_.SetSdkHipRuntimeNames(
        sdk_operations_[ROCPROFILER_BUFFER_TRACING_HIP_RUNTIME_API_EXT]);
  }
  AgentIndex agent_index = AgentIndex::kRelative;
  ParseAgentIndex(config_.agent_index, &agent_index);
  SetAgentNaming(agent_index, ReadAgentTopology());
  const bool device = config_.kernel || config_.memory_copy;
  converter_.TrackSubmittingThreads(device && (config_.hip || config_.hsa),
                                    config_.hsa);
  info_.pid = static_cast<uint32_t>(getpid());
  info_.ppid = static_cast<uint32_t>(getppid());
  info_.command = CommandLine();
  info_.hostname = HostName();
  roctracer_get_timestamp(&info_.start_ns);
  load_ns_ = info_.start_ns;
  clock_shift_ns_ =
      TestClockShift(getenv, info_.pid, info_.ppid, info_.hostname);
  info_.start_ns += static_cast<uint64_t>(clock_shift_ns_);
  if (const char* progress = getenv("ROCTRACE_PROGRESS_DIR")) {
    if (*progress != '\0') {
      progress_path_ = std::string(progress) + "/" + std::to_string(info_.pid);
    }
  }
  if (const char* status = getenv("ROCTRACE_STATUS_FILE")) {
    SetOutputStatusFile(status);
  }
  // Paths are resolved now, from the directory roctrace started in (or this
  // process did): a relative directory must not follow a later chdir.
  const char* base = getenv("ROCTRACE_BASE_DIR");
  prefix_ = OutputPrefix(
      config_.output_dir, config_.output_file,
      base != nullptr && base[0] == '/' ? std::string(base) : CurrentDir(),
      info_.pid, info_.ppid, info_.hostname, getenv,
      ProcessCommandLine("/proc/self/cmdline"));
  // --output-config: written when the process finishes (Stop); the command
  // line is this image's as it started. Read before the exec image's
  // setenv: in a program with getenv and setenv of its own (bash), getenv
  // may no longer see the environment once setenv has been called before
  // its main.
  if (const char* config = getenv("ROCTRACE_OUTPUT_CONFIG")) {
    if (*config != '\0') {
      output_config_ = config;
      config_command_ = ProcessCommandLine("/proc/self/cmdline");
    }
  }
  // A program that execs itself keeps its pid: each image after the first
  // writes files of its own, the earlier images' stay as they were.
  prefix_ += ExecImageSuffix(TakeExecImageNumber());

  roctracer_properties_t props{};
  props.buffer_size = config_.buffer_size;
  props.buffer_callback_fun = BufferCallback;
  props.buffer_callback_arg = this;
  if (roctracer_open_pool_expl(&props, &pool_) != ROCTRACER_STATUS_SUCCESS) {
    std::fprintf(stderr, "roctrace: cannot open a trace pool: %s\n",
                 roctracer_error_string());
    pool_ = nullptr;
    return;
  }
  // The tool slot, not the public enables: a program that is a roctracer
  // client itself (a profiler in it enabling, disabling, closing its own
  // pools) must neither take our records nor turn them off.
  auto enable = [this](activity_domain_t domain) {
    if (roctracer_internal_tool_enable_domain_activity(domain, pool_) !=
        ROCTRACER_STATUS_SUCCESS) {
      std::fprintf(stderr, "roctrace: cannot trace domain %u: %s\n",
                   static_cast<unsigned>(domain), roctracer_error_string());
    }
  };
  if (config_.hip) enable(ACTIVITY_DOMAIN_HIP_API);
  if (config_.hsa) enable(ACTIVITY_DOMAIN_HSA_API);
  if (config_.kfd) enable(ACTIVITY_DOMAIN_KFD_API);
  if (config_.marker) enable(ACTIVITY_DOMAIN_ROCTX);
  // Arguments are recorded for the database and the JSON, as rocprofv3
  // records them (the timeline and the CSV have none: nor have rocprofv3's).
  const bool args_hip_only = config_.api_args == Config::ApiArgs::kHip;
  capture_args_ =
      (config_.rocpd || config_.json) &&
      config_.api_args != Config::ApiArgs::kNone &&
      (config_.hip || (!args_hip_only && (config_.hsa || config_.kfd)));
  if (capture_args_) {
    // A HIP call's non-status result is the JSON's alone.
    ArgCapture::SetRetvals(config_.json);
    CaptureArgs();
  }
  if (config_.memory_allocation) {
    // Captured HSA arguments ride on these calls' one tool callback.
    const bool hsa_args = capture_args_ && config_.hsa && !args_hip_only;
    memory_allocations_on_ = memory_allocations_.Start(
        config_.hsa ? nullptr : pool_, hsa_args ? ArgCapture::OnExit : nullptr);
  }
  // Delivered when libroctracer64 runs as the HSA tool (HSA_TOOLS_LIB).
  // Scratch memory has no activity records: its rows come through an
  // observer, where the runtime's interface has the events at all.
  if (config_.scratch_memory && kScratchEventsInHeaders) {
    scratch_observer_registered_ = roctracer_internal_gpu_add_observer(
        roctracer::gpu::kObserverAbiVersion, &scratch_observer_);
    if (!scratch_observer_registered_) {
      std::fprintf(stderr,
                   "roctrace: scratch memory is not traced: "
                   "libroctracer64.so.4 refused the scratch observer\n");
    }
  } else if (config_.scratch_memory) {
    info_.notes.emplace_back("scratch_memory", kNoScratchEvents);
  }
  // Dispatches and copies through the tool's own observer, not HSA_OPS
  // records: the records have no room for the launch sizes and the stream
  // (kernel_observer.h).
  if (config_.kernel || config_.memory_copy) {
    kernel_observer_.Watch(config_.kernel, config_.memory_copy);
    kernel_observer_.KeepMangledNames(config_.mangled_kernels);
    kernel_observer_registered_ = roctracer_internal_gpu_add_observer(
        roctracer::gpu::kObserverAbiVersion, &kernel_observer_);
    if (!kernel_observer_registered_) {
      std::fprintf(stderr,
                   "roctrace: kernel dispatches and copies are not traced: "
                   "libroctracer64.so.4 refused the kernel observer (another "
                   "build of the library, or every observer slot taken)\n");
    } else {
      WatchStreams();
    }
  }
  flusher_ = std::thread([this] { FlushLoop(); });
  roctracer_internal_on_fatal_signal(&StopAtFatalSignal, this);
}

void Tool::FlushLoop() {
  std::unique_lock<std::mutex> lock(flusher_mutex_);
  auto checkpoint_at = std::chrono::steady_clock::now() + kCheckpointPeriod;
  while (!stopping_) {
    flusher_cv_.wait_until(lock, checkpoint_at,
                           [this] { return stopping_ || convert_rows_now_; });
    if (stopping_) break;
    convert_rows_now_ = false;
    const bool checkpoint = std::chrono::steady_clock::now() >= checkpoint_at;
    lock.unlock();
    // Completes what the GPU has finished (kernel rows included) and
    // delivers the pool's partly filled buffers.
    if (checkpoint) roctracer_flush_activity_expl(pool_);
    {
      std::lock_guard<std::mutex> writers(mutex_);
      if (!stopped_) {
        NewBatch(0);
        ConvertKernelRows();
        PushBatch();
        if (checkpoint) {
          for (auto& w : writers_) w->Checkpoint();
          WriteProgress();
        }
      }
    }
    lock.lock();
    if (checkpoint) {
      checkpoint_at = std::chrono::steady_clock::now() + kCheckpointPeriod;
    }
  }
}

void Tool::ConvertKernelRows() {
  if (kernel_observer_registered_) {
    for (const DispatchRow& row : kernel_observer_.Take()) {
      converter_.ConvertDispatch(row);
    }
  }
  if (scratch_observer_registered_) {
    for (const ScratchRow& row : scratch_observer_.Take()) {
      converter_.ConvertScratch(row);
    }
  }
  for (const CopyRow& row : kernel_observer_.TakeCopies()) {
    converter_.ConvertCopy(row);
  }
}

// Streams are numbered in the order they are created, as rocprofiler-sdk
// numbers them: a callback on every HIP API that creates one (the
// generator's list, from the headers) reads the new stream at EXIT. Work
// names its stream through the traced call that submitted it
// (EnqueueInfo::stream): without the HIP trace, the APIs that take a stream
// get an empty callback, so that they are traced all the same.
void Tool::WatchStreams() {
  for (const bool created : {true, false}) {
    if (!created && config_.hip) break;
    std::vector<uint32_t> ops(roctracer_internal_stream_ops(
        ACTIVITY_DOMAIN_HIP_API, created, nullptr, 0));
    ops.resize(roctracer_internal_stream_ops(ACTIVITY_DOMAIN_HIP_API, created,
                                             ops.data(), ops.size()));
    // The tool slot's callbacks: the program's own callbacks on these APIs
    // neither replace ours nor are replaced.
    // A HIP op has one tool callback: a created stream's call also records
    // its arguments when they are.
    const bool args = created && capture_args_ && config_.hip;
    for (uint32_t op : ops) {
      roctracer_internal_tool_enable_op_callback(
          ACTIVITY_DOMAIN_HIP_API, op,
          args ? StreamArgsCallback : StreamCallback, &kernel_observer_);
    }
  }
}

void Tool::CaptureArgs() {
  ArgCapture::SetRecording(true);
  const bool args_hip_only = config_.api_args == Config::ApiArgs::kHip;
  for (const auto& [domain, on] :
       {std::make_pair(ACTIVITY_DOMAIN_HIP_API, config_.hip),
        std::make_pair(ACTIVITY_DOMAIN_HSA_API, config_.hsa && !args_hip_only),
        std::make_pair(ACTIVITY_DOMAIN_KFD_API,
                       config_.kfd && !args_hip_only)}) {
    if (!on) continue;
    args_domains_ |= uint32_t{1} << domain;
    for (uint32_t op = 0; op < OpCountOf(domain); ++op) {
      // No parameters, nor a result JSON writes from the entry.
      if (RecordedEntrySizeOf(domain, op) == 0) continue;
      roctracer_internal_tool_enable_op_callback(
          domain, op, ArgCapture::OnExitOf(domain), nullptr);
    }
  }
  // A HIP call's stream, numbered as its work's (the kernel and copy traces
  // number them: without those, none is).
  converter_.SetStreamSource(
      [this](const ApiArgs& args, uint64_t* id) {
        uint64_t handle = 0;
        return StreamHandleOf(args, &handle) &&
               kernel_observer_.FindStream(handle, id);
      },
      &HasStreamArg);
  // A call of a recorded domain without parameters has its (empty) list.
  converter_.SetArgsSource([this](uint32_t domain, uint32_t op, uint32_t tid,
                                  uint64_t correlation_id) -> const ApiArgs* {
    ArgArena* arena = arenas_.current();
    if (arena == nullptr || domain >= 32 ||
        (args_domains_ >> domain & 1) == 0) {
      return nullptr;
    }
    return arg_capture_.Take(domain, op, tid, correlation_id, arena);
  });
}

void Tool::NewBatch(size_t events) {
  batch_ = batches_.Take(events);
  if (capture_args_) arenas_.Next();
}

void Tool::WakeForKernelRows() {
  {
    std::lock_guard<std::mutex> lock(flusher_mutex_);
    convert_rows_now_ = true;
  }
  flusher_cv_.notify_all();
}

bool Tool::CreateWriters() {
  writers_created_ = true;
  // The prefix's own directories too ("-o sub/run").
  const std::string dir = DirName(prefix_);
  if (!MakeDirs(dir)) {
    ReportOutputFailure("cannot create the output directory " + dir + ": " +
                        std::strerror(errno) + " (nothing is written)");
    writers_failed_ = true;
    return false;
  }
  auto add = [this](const char* format, std::unique_ptr<Writer> w) {
    writers_.push_back(
        std::make_unique<WriterThread>(std::move(w), kQueuedBatches));
    writer_formats_.push_back(format);
  };
  if (config_.rocpd) {
    add("rocpd", std::make_unique<RocpdWriter>(prefix_ + "_results.db", info_));
  }
  if (config_.pftrace) {
    auto pftrace = std::make_unique<PftraceWriter>(prefix_, info_,
                                                   config_.perfetto_max_size);
    if (!config_.group_by_queue) pftrace->GroupByStreamIf(&HipLoaded);
    add("pftrace", std::move(pftrace));
  }
  if (config_.csv) add("csv", std::make_unique<CsvWriter>(prefix_));
  if (config_.json) {
    // rocprofv3's metadata.config: the options as given and as resolved.
    JsonRunConfig json;
    json.raw_output_path = config_.output_dir;
    json.raw_output_file = config_.output_file;
    json.output_path = DirName(prefix_);
    json.output_file = prefix_.substr(prefix_.rfind('/') + 1);
    json.perfetto_buffer_size_kb = config_.perfetto_max_size >> 10;
    json.summary = config_.summary;
    json.summary_per_domain = config_.summary_per_domain;
    json.summary_groups = config_.summary_groups;
    json.summary_unit = config_.summary_units;
    json.summary_file = config_.summary_output_file.empty()
                            ? "stderr"
                            : config_.summary_output_file;
    json.csv_output = config_.csv;
    json.pftrace_output = config_.pftrace;
    json.rocpd_output = config_.rocpd;
    json.summary_output = config_.summary;
    json.kernel_rename = config_.kernel_rename;
    json.group_by_queue = config_.group_by_queue;
    json.sdk_kinds = SdkBufferKindNames();
    json.sdk_operations = sdk_operations_;
    add("json", std::make_unique<JsonWriter>(prefix_ + "_results.json", info_,
                                             std::move(json)));
  }
  const bool summary = config_.summary || config_.summary_per_domain ||
                       !config_.summary_groups.empty();
  if (config_.stats || summary) {
    auto stats = std::make_unique<StatsWriter>(
        config_.stats ? prefix_ : std::string(), config_.summary);
    stats->SetSummaryOutput(
        StatsWriter::SummaryPath(prefix_, config_.summary_output_file),
        config_.summary_units);
    stats->SetSummaryTables(config_.summary_per_domain, config_.summary_groups);
    add("stats", std::move(stats));
  }
  return true;
}

// An allocation or free call's record: its MEMORY_ALLOCATION event first,
// with the call's times, thread and correlation ID.
void Tool::EmitMemoryAllocation(const ApiEvent& call) {
  if (call.op->index >= allocation_call_.size()) {
    allocation_call_.resize(call.op->index + 1, -1);
  }
  int8_t& is_call = allocation_call_[call.op->index];
  if (is_call < 0) {
    is_call = MemoryAllocations::IsAllocationCall(call.op->name) ? 1 : 0;
  }
  MemoryAllocations::Call taken;
  if (is_call == 0 || !memory_allocations_.Take(call.correlation_id, &taken)) {
    return;
  }
  ApiEvent e{};
  e.op = converter_.MemoryAllocationName(taken.free, taken.vmem);
  e.correlation_id = call.correlation_id;
  e.start_ns = call.start_ns;
  e.end_ns = call.end_ns;
  e.pid = call.pid;
  e.tid = call.tid;
  DeviceWork d{};
  d.device_id = -1;
  d.allocation = taken.allocation;
  e.device = &d;
  Emit(e);
}

// rocprofv3's finer HIP and HSA options select functions by name.
bool Tool::Wanted(const OpName* op) {
  if (op->index >= wanted_.size()) wanted_.resize(op->index + 1, -1);
  int8_t& wanted = wanted_[op->index];
  if (wanted < 0) {
    const std::string& n = op->name;
    auto starts = [&n](const char* p) { return n.rfind(p, 0) == 0; };
    bool keep = true;
    if (op->category == Category::kHip) {
      keep = starts("__hip") ? config_.hip_compiler : config_.hip_runtime;
    } else if (op->category == Category::kHsa && op->domain != "KFD_API") {
      keep = starts("hsa_amd_")         ? config_.hsa_amd
             : starts("hsa_ext_image_") ? config_.hsa_image
             : starts("hsa_ext_")       ? config_.hsa_finalizer
                                        : config_.hsa_core;
    }
    wanted = keep ? 1 : 0;
  }
  return wanted != 0;
}

void Tool::Emit(const ApiEvent& e) {
  if (memory_allocations_on_ && e.op->category == Category::kHsa) {
    EmitMemoryAllocation(e);
  }
  if (filter_apis_ && !IsDevice(e.op->category) && !Wanted(e.op)) return;
  if (!write_markers_ && e.op->category == Category::kMarker) return;
  if (!config_.periods.empty() &&
      !InCollectionWindow(config_.periods,
                          static_cast<double>(e.start_ns - load_ns_) * 1e-9)) {
    ++outside_window_;
    return;
  }
  if ((!writers_created_ && !CreateWriters()) || writers_failed_) {
    ++unwritten_;
    return;
  }
  ++events_;
  batch_->Append(e, static_cast<uint64_t>(clock_shift_ns_));
}

void Tool::PushBatch() {
  if (batch_ != nullptr && !batch_->empty()) batch_->Publish();
  // The events' arguments live as long as the batch; an arena holding
  // queue chunks goes to the writers even with no event (events of the
  // batches before it may point into those chunks).
  EventBatch shared = arenas_.Seal(std::move(batch_));
  batch_ = nullptr;
  if (shared == nullptr) return;
  for (auto& w : writers_) w->Push(shared);
}

void Tool::OnBuffer(const char* begin, const char* end) {
  if (in_forked_child_) return;
  std::lock_guard<std::mutex> lock(mutex_);
  if (stopped_) return;
  const auto* record = reinterpret_cast<const activity_record_t*>(begin);
  const auto* last = reinterpret_cast<const activity_record_t*>(end);
  NewBatch(static_cast<size_t>(last - record));
  ConvertKernelRows();
  // An API call's event goes straight into the batch when Emit would only
  // append it (no name filter or collection period, the writers made, and
  // for HSA and KFD calls no allocation pairing): its arguments taken here,
  // no call through the converter's sinks. The rest go through Convert and
  // Emit.
  uint32_t direct = 0;  // bit d: domain d's records go straight in
  if (writers_created_ && !writers_failed_ && !filter_apis_ &&
      config_.periods.empty()) {
    direct = 1u << ACTIVITY_DOMAIN_HIP_API;
    if (!memory_allocations_on_) {
      direct |= 1u << ACTIVITY_DOMAIN_HSA_API | 1u << ACTIVITY_DOMAIN_KFD_API;
    }
  }
  ArgArena* const arena = arenas_.current();
  const uint32_t args_domains = arena != nullptr ? args_domains_ : 0;
  EventList* const batch = batch_.get();
  const auto shift = static_cast<uint64_t>(clock_shift_ns_);
  // The records were written on the application's cores: asking for a few
  // ahead overlaps those cache misses instead of taking them one by one.
  constexpr ptrdiff_t kAhead = 32;
  for (; record < last; ++record) {
    if (last - record > kAhead) __builtin_prefetch(record + kAhead);
    const activity_record_t& r = *record;
    if (r.domain >= 32 || (direct >> r.domain & 1) == 0) {
      converter_.Convert(r);
      continue;
    }
    converter_.ConvertApi(
        r,
        [this, arena, args_domains](uint32_t domain, uint32_t op, uint32_t tid,
                                    uint64_t correlation_id) -> const ApiArgs* {
          return (args_domains >> domain & 1) != 0
                     ? arg_capture_.Take(domain, op, tid, correlation_id, arena)
                     : nullptr;
        },
        [this, batch, shift, &r](const OpName* op, bool failed,
                                 const ApiArgs* args, bool stream_known,
                                 uint32_t stream_id) {
          ++events_;
          batch->AppendCall(op, r.correlation_id, r.begin_ns, r.end_ns,
                            r.process_id, r.thread_id, failed, stream_known,
                            stream_id, int64_t{r.api_status}, args, shift);
        });
  }
  PushBatch();
}

void Tool::Stop() {
  // A forked child shares the parent's open files: it must not touch them.
  if (in_forked_child_) return;
  // Once: at exit, before an exec, or at a fatal signal (which may come
  // during the exit).
  if (stop_started_.exchange(true)) return;
  // --output-config: as rocprofv3 writes its file, at the end and whether
  // or not anything was traced, so that with one name for several processes
  // the file kept is the last to finish's (a shell's, not its last child's).
  if (!output_config_.empty()) {
    WriteOutputConfig(prefix_, info_.pid, config_command_, output_config_);
  }
  if (pool_ == nullptr) return;
  {
    std::lock_guard<std::mutex> lock(flusher_mutex_);
    stopping_ = true;
  }
  flusher_cv_.notify_all();
  if (flusher_.joinable()) flusher_.join();
  uint64_t dropped = 0;
  roctracer_get_dropped_records_expl(pool_, &dropped);
  // Closing disables our activities and delivers what is left (completing
  // what the GPU has finished, kernel rows included). At exit the library
  // has done that already (its pools are closed before tools finalize);
  // the observers go only now, after its drain reported to them.
  roctracer_close_pool_expl(pool_);
  // No record comes any more to take a call's arguments (the program may
  // go on, after a failed exec).
  if (capture_args_) ArgCapture::SetRecording(false);
  if (kernel_observer_registered_) {
    roctracer_internal_gpu_remove_observer(&kernel_observer_);
  }
  if (scratch_observer_registered_) {
    roctracer_internal_gpu_remove_observer(&scratch_observer_);
  }

  std::lock_guard<std::mutex> lock(mutex_);
  NewBatch(0);
  ConvertKernelRows();
  // Device work whose API call never arrived: its thread stays unknown.
  converter_.FlushWaiting();
  PushBatch();
  stopped_ = true;
  roctracer_get_timestamp(&info_.end_ns);
  info_.end_ns += static_cast<uint64_t>(clock_shift_ns_);
  {
    std::lock_guard<std::mutex> notes(end_notes_mutex_);
    info_.end_notes = end_notes_;
  }
  info_.losses = {
      {"dropped_records", dropped},
      // Device rows the observers could not keep (memory ran out).
      {"dropped_device_rows",
       kernel_observer_.lost() + scratch_observer_.lost()},
      // Dispatches and copies submitted whose completion never came.
      {"incomplete_device_ops", kernel_observer_.incomplete()},
      {"unresolved_names", converter_.unresolved_names()},
      {"outside_collection_period", outside_window_},
      {"unterminated_ranges", converter_.open_ranges()},
      {"unmatched_range_ends", converter_.unmatched_range_ends()},
  };
  // API calls whose arguments are not in rocpd_arg (memory ran out).
  if (capture_args_) info_.losses.emplace_back("api_args", arg_capture_.lost());
  // A run that could not trace what was asked says so in its outputs even
  // when nothing else happened.
  if (!writers_created_ && !info_.notes.empty()) CreateWriters();
  if (kernel_observer_registered_) {
    info_.code_objects = kernel_observer_.CodeObjects();
  }
  FinishWriters();
  DropSmallOutputs();
  progress_at_ = {};
  WriteProgress();
  if (events_ == 0 && outside_window_ == 0 && unwritten_ == 0) return;
  // --log-level fatal/error: no summary (failures were said when they
  // happened).
  if (config_.quiet) return;
  // Over the command's status line, which the terminal shows now.
  if (!progress_path_.empty()) std::fputs("\r\x1b[K", stderr);
  std::fprintf(stderr, "roctrace: pid %u: %llu events", info_.pid,
               static_cast<unsigned long long>(events_ + unwritten_));
  if (unwritten_ != 0) {
    std::fprintf(stderr, ", none written: %llu",
                 static_cast<unsigned long long>(unwritten_));
  }
  for (const auto& loss : info_.losses) {
    if (loss.second != 0) {
      std::fprintf(stderr, ", %s: %llu", loss.first.c_str(),
                   static_cast<unsigned long long>(loss.second));
    }
  }
  std::fprintf(stderr, "\n");
  for (const std::string& f : files_) {
    // A file some of whose events could not be written says so.
    bool incomplete = false;
    for (const std::string& failure : info_.write_failures) {
      if (failure.compare(0, f.size() + 1, f + ":") == 0) incomplete = true;
    }
    std::fprintf(stderr, "roctrace:   %s%s\n", f.c_str(),
                 incomplete ? " (incomplete)" : "");
  }
}

// rocprofv3's --minimum-output-data: outputs that hold too little data
// (together, fewer bytes than asked) are not kept.
void Tool::DropSmallOutputs() {
  if (config_.minimum_output_bytes == 0 || files_.empty()) return;
  uint64_t bytes = 0;
  for (const std::string& f : files_) {
    struct stat st {};
    if (stat(f.c_str(), &st) == 0) bytes += static_cast<uint64_t>(st.st_size);
  }
  if (bytes >= config_.minimum_output_bytes) return;
  for (const std::string& f : files_) unlink(f.c_str());
  if (!config_.quiet) {
    if (!progress_path_.empty()) std::fputs("\r\x1b[K", stderr);
    std::fprintf(stderr,
                 "roctrace: pid %u: %llu bytes of output, less than "
                 "--minimum-output-data: not kept\n",
                 info_.pid, static_cast<unsigned long long>(bytes));
  }
  files_.clear();
}

// Every other format first, so that the database (finished last) records
// what they could not write; then the database.
void Tool::FinishWriters() {
  for (const bool database : {false, true}) {
    for (size_t i = 0; i < writers_.size(); ++i) {
      if ((writer_formats_[i] == std::string("rocpd")) == database) {
        writers_[i]->StartFinish(info_);
      }
    }
    for (size_t i = 0; i < writers_.size(); ++i) {
      if ((writer_formats_[i] == std::string("rocpd")) != database) continue;
      writers_[i]->Join();
      const Writer& w = writers_[i]->writer();
      for (const std::string& f : w.Files()) files_.push_back(f);
      for (const std::string& f : w.failures()) {
        info_.write_failures.push_back(f);
      }
      if (w.unwritten() != 0 || !w.failures().empty()) {
        info_.losses.emplace_back(
            std::string("unwritten_") + writer_formats_[i], w.unwritten());
      }
    }
  }
}

}  // namespace roctrace
