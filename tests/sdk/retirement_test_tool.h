// What the CORRELATION_ID_RETIREMENT tests share: a tool's context and
// buffer tracing an HSA call, its copies and the ID's retirement; the ID a
// delivered record belongs to; calls driven through the consumer seam and
// copies through the SDK's own GPU observer; and a thread that stays alive
// between the jobs it runs.
#ifndef TESTS_SDK_RETIREMENT_TEST_TOOL_H_
#define TESTS_SDK_RETIREMENT_TEST_TOOL_H_

#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <mutex>
#include <thread>

#include "rocprofiler-sdk/rocprofiler.h"
#include "runtime/gpu/observers.h"

namespace retirement_tool {

// Creates a context and a lossless buffer delivered every `watermark` bytes,
// with room for 64 such batches per writer thread (so writers never wait
// for a delivery the tests hold), with `callback` and `data`, and traces
// the HSA core API, MEMORY_COPY and CORRELATION_ID_RETIREMENT into it.
rocprofiler_status_t CreateTracing(size_t watermark,
                                   rocprofiler_buffer_tracing_cb_t callback,
                                   void* data, rocprofiler_context_id_t* ctx,
                                   rocprofiler_buffer_id_t* buffer);

// Configures now (rocprofiler_force_configure) a tool named `name` whose
// initialization creates one context and one buffer delivering every 2048
// bytes to
// `callback` (CreateTracing) into *ctx and *buffer, and writes the status
// of that set-up to *init_status.
rocprofiler_status_t ForceConfigure(const char* name,
                                    rocprofiler_buffer_tracing_cb_t callback,
                                    rocprofiler_context_id_t* ctx,
                                    rocprofiler_buffer_id_t* buffer,
                                    rocprofiler_status_t* init_status);

// Runs `fn` once, in the next buffer delivery whose callback calls
// InDelivery (at its end, outside the test's own lock): on the pool's
// delivery thread, while a flush that is delivering waits for it.
void RunOnceInDelivery(std::function<void()> fn);
void InDelivery();

// Holds the next delivery (as RunOnceInDelivery) until ReleaseDelivery.
// WaitParked waits (up to 5 s) until it is held.
void ParkNextDelivery();
bool WaitParked();
void ReleaseDelivery();

// The correlation ID a delivered record belongs to (the retired one for a
// retirement), for the kinds CreateTracing traces.
uint64_t RecordId(const rocprofiler_record_header_t* header);

// The SDK's GPU observer (the only one registered in these programs).
roctracer::gpu::Observer* SdkObserver();

// The ENTER or EXIT of an HSA call `corr` on this thread, and both.
void Enter(uint64_t corr);
void Exit(uint64_t corr);
void Call(uint64_t corr);

// A host-to-device copy submitted on this thread under the call `corr`
// (inside its ENTER/EXIT): its observer cookie.
uint64_t SubmitCopy(uint64_t corr, uint64_t op_id);

// A whole call `corr` that submits a copy, on this thread: its cookie.
uint64_t CallWithCopy(uint64_t corr, uint64_t op_id);

// The copy's completion, on the calling thread: its MEMORY_COPY record is
// written there, and when it drops the ID's last reference on another
// thread than the call's, the retirement is deferred.
void CompleteCopy(uint64_t corr, uint64_t op_id, uint64_t cookie);

// A thread that runs the functions it is given, one at a time, and stays
// alive until destroyed: threads the tests keep apart stay distinct live
// threads (a finished thread's SDK block and pool block may be taken over
// by the next one).
class Worker {
 public:
  Worker();
  ~Worker();
  // Runs `fn` on the worker and waits for it.
  void Run(std::function<void()> fn);

 private:
  void Main();
  std::mutex mu_;
  std::condition_variable cv_;
  std::function<void()> job_;
  bool done_ = false;
  std::thread thread_;
};

}  // namespace retirement_tool

#endif  // TESTS_SDK_RETIREMENT_TEST_TOOL_H_
