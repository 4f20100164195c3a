// The in-process half of roctrace: opens a roctracer pool for the configured
// domains and writes the outputs from the pool's buffer callback, which runs
// on the pool's own consumer thread: the application's threads only write
// 64-byte records. A flusher thread delivers partly filled buffers and
// commits every 200 ms, so a killed process leaves everything up to then.
#ifndef ROCTRACE_TOOL_TOOL_H_
#define ROCTRACE_TOOL_TOOL_H_

#include <roctracer.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "roctrace/tool/arg_capture.h"
#include "roctrace/tool/clock_offset.h"
#include "roctrace/tool/config.h"
#include "roctrace/tool/kernel_observer.h"
#include "roctrace/tool/memory_allocations.h"
#include "roctrace/tool/record_converter.h"
#include "roctrace/tool/scratch_observer.h"
#include "roctrace/writers/event.h"
#include "roctrace/writers/writer_thread.h"

namespace roctrace {

class Tool {
 public:
  // Reads the settings through `getenv`, opens the pool, enables the
  // configured domains and starts the flusher.
  void Start(const std::function<const char*(const char*)>& getenv);
  // Closes the pool (delivering everything), removes the observers and
  // finishes the outputs; the first call only. At exit it runs after
  // libroctracer64 has waited for the GPU work in flight and closed the pools
  // (load.cc), so every dispatch is a row or counted as incomplete; when the
  // program dies of a fatal signal, from the library's last-words thread.
  void Stop();
  void OnBuffer(const char* begin, const char* end);
  void ForkedChild() {
    in_forked_child_ = true;
    // Nothing takes them in the child: its calls' arguments would pile up.
    ArgCapture::SetRecording(false);
  }

  // The trace's clock as this process's events are stamped (with the test
  // hook's shift, below).
  uint64_t Now() const;
  // An MPI rank's place and its clock against rank 0's, measured at
  // MPI_Init and MPI_Finalize (`when`), recorded in the database's metadata
  // (roctrace.mpi.rank, roctrace.clock.<when>_offset_ns, ...) for `roctrace
  // merge` to apply; NoteMpiClock records why there is none.
  void SetMpiRank(int rank, int size);
  void SetClockOffset(const char* when, const ClockOffset& offset);
  void NoteMpiClock(const char* tag, const char* text);

 private:
  void EmitMemoryAllocation(const ApiEvent& call);
  void Emit(const ApiEvent& e);
  // Whether an API call's function is in the HIP/HSA parts asked for.
  bool Wanted(const OpName* op);
  void PushBatch();
  bool CreateWriters();
  // Finishes every writer, the database last, collecting the files written
  // and what could not be (info_.write_failures, losses unwritten_<format>).
  void FinishWriters();
  // Removes the finished outputs when they hold less than
  // --minimum-output-data.
  void DropSmallOutputs();
  void FlushLoop();
  // Converts the kernel and scratch rows completed so far into the current
  // batch (requires mutex_).
  void ConvertKernelRows();
  // From a completion: many rows are waiting, convert them now.
  void WakeForKernelRows();
  void WatchStreams();
  // rocpd's rocpd_arg: every traced HIP, HSA and KFD op's EXIT callback
  // copies its arguments (arg_capture.h).
  void CaptureArgs();
  // A fresh batch, and its arguments' arena when they are recorded.
  void NewBatch(size_t events);
  // Writes this process's counts to the progress directory the command
  // reads (ROCTRACE_PROGRESS_DIR) for its status line (requires mutex_).
  void WriteProgress();

  Config config_;
  RunInfo info_;
  // The process's rocprofiler-sdk operation names by buffer tracing kind
  // (SdkBufferOperationNames), asked once at Start.
  std::vector<std::vector<std::string>> sdk_operations_;
  std::string prefix_;
  // --output-config: the configuration object (ROCTRACE_OUTPUT_CONFIG) and
  // the command line, written to <prefix>_config.json by Stop; empty: none.
  std::string output_config_;
  std::vector<std::string> config_command_;
  roctracer_pool_t* pool_ = nullptr;
  std::mutex mutex_;  // writers and converter: buffer callback vs checkpoints
  // One thread per output format; each buffer becomes one shared batch.
  std::vector<std::unique_ptr<WriterThread>> writers_;
  std::vector<const char*> writer_formats_;  // rocpd, csv, ... by writer
  std::vector<std::string> files_;           // written, for the exit message
  std::shared_ptr<EventList> batch_;
  BatchPool batches_;
  // Whether API calls' arguments are recorded.
  bool capture_args_ = false;
  uint32_t args_domains_ = 0;  // bit d: domain d's arguments are recorded
  ArgCapture arg_capture_;
  // The current batch's arguments (none current: not recorded).
  BatchArenas arenas_;
  bool writers_created_ = false;
  bool writers_failed_ = false;
  RecordConverter converter_{[this](const ApiEvent& e) { Emit(e); }};
  // Kernel rows (registered only with the kernel trace on); never destroyed
  // while libroctracer64 may call it (the Tool is leaked).
  KernelObserver kernel_observer_{[this] { WakeForKernelRows(); }};
  bool kernel_observer_registered_ = false;
  // Scratch rows (registered only with the scratch memory trace on, and
  // only where the headers have the events); never destroyed either.
  ScratchObserver scratch_observer_;
  bool scratch_observer_registered_ = false;
  // --memory-allocation-trace: the calls' arguments, paired in Emit with
  // their activity records.
  MemoryAllocations memory_allocations_;
  bool memory_allocations_on_ = false;
  std::vector<int8_t> allocation_call_;  // by OpName::index: -1 not decided
  bool filter_apis_ = false;    // some part of HIP or HSA not asked for
  bool write_markers_ = true;   // rocTX traced for --kernel-rename only
  std::vector<int8_t> wanted_;  // by OpName::index: -1 not decided yet
  uint64_t events_ = 0;
  uint64_t unwritten_ = 0;  // events with no output at all (no directory)
  uint64_t outside_window_ = 0;
  std::thread flusher_;
  std::mutex flusher_mutex_;
  std::condition_variable flusher_cv_;
  bool stopping_ = false;
  bool convert_rows_now_ = false;
  bool stopped_ = false;
  std::atomic<bool> stop_started_{false};
  bool in_forked_child_ = false;
  // A test hook (ROCTRACE_TEST_CLOCK_OFFSET_NS): every timestamp this process
  // writes is shifted, as if its clock were off by that much.
  int64_t clock_shift_ns_ = 0;
  uint64_t load_ns_ = 0;        // unshifted: collection periods count from it
  std::mutex end_notes_mutex_;  // end_notes_: MPI calls vs Stop
  std::vector<std::pair<std::string, std::string>> end_notes_;
  std::string progress_path_;  // empty: no status line
  std::chrono::steady_clock::time_point progress_at_{};
};

// The tool loaded into this process (load.cc); null before or without one.
Tool* LoadedTool();

// The pool's buffer callback (`arg` is the Tool).
void BufferCallback(const char* begin, const char* end, void* arg);
// The callback of the HIP APIs that create or take streams (`arg` is the
// KernelObserver): numbers a stream as it is created.
void StreamCallback(uint32_t domain, uint32_t op, const void* data, void* arg);
// StreamCallback, and the call's arguments recorded (ArgCapture).
void StreamArgsCallback(uint32_t domain, uint32_t op, const void* data,
                        void* arg);

}  // namespace roctrace

#endif  // ROCTRACE_TOOL_TOOL_H_
