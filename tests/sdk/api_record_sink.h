// A tool's buffer of HIP runtime and HSA core API records, collected as the
// SDK delivers them and taken by the test after a flush: the set-up of the
// end-to-end tests that check every real call's record.
#ifndef TESTS_SDK_API_RECORD_SINK_H_
#define TESTS_SDK_API_RECORD_SINK_H_

#include <rocprofiler-sdk/rocprofiler.h>

#include <cstddef>
#include <cstdint>
#include <mutex>
#include <vector>

namespace sdk_test {

class ApiRecordSink {
 public:
  // The HIP and HSA API records share this layout.
  using Record = rocprofiler_buffer_tracing_hip_api_record_t;

  // From the tool's initialize: a LOSSLESS buffer of 1 MiB (watermark
  // 64 KiB) in `context` delivering here, and buffer tracing of every HIP
  // runtime and HSA core API operation into it. False on any error.
  bool Create(rocprofiler_context_id_t context);
  // Flushes the buffer (blocking) and returns the records delivered since
  // the last Take, in delivery order.
  std::vector<Record> Take();
  rocprofiler_buffer_id_t buffer() const { return buffer_; }

 private:
  static void Deliver(rocprofiler_context_id_t, rocprofiler_buffer_id_t,
                      rocprofiler_record_header_t** headers, size_t n,
                      void* sink, uint64_t drops);

  std::mutex mutex_;
  std::vector<Record> records_;
  rocprofiler_buffer_id_t buffer_{0};
};

}  // namespace sdk_test

#endif  // TESTS_SDK_API_RECORD_SINK_H_
