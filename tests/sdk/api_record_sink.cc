#include "tests/sdk/api_record_sink.h"

#include <cstring>

namespace sdk_test {

static_assert(sizeof(rocprofiler_buffer_tracing_hsa_api_record_t) ==
                  sizeof(ApiRecordSink::Record),
              "one record type holds both kinds' records");

bool ApiRecordSink::Create(rocprofiler_context_id_t context) {
  return rocprofiler_create_buffer(
             context, 1 << 20, 1 << 16, ROCPROFILER_BUFFER_POLICY_LOSSLESS,
             &Deliver, this, &buffer_) == ROCPROFILER_STATUS_SUCCESS &&
         rocprofiler_configure_buffer_tracing_service(
             context, ROCPROFILER_BUFFER_TRACING_HIP_RUNTIME_API, nullptr, 0,
             buffer_) == ROCPROFILER_STATUS_SUCCESS &&
         rocprofiler_configure_buffer_tracing_service(
             context, ROCPROFILER_BUFFER_TRACING_HSA_CORE_API, nullptr, 0,
             buffer_) == ROCPROFILER_STATUS_SUCCESS;
}

std::vector<ApiRecordSink::Record> ApiRecordSink::Take() {
  rocprofiler_flush_buffer(buffer_);
  std::lock_guard<std::mutex> lock(mutex_);
  std::vector<Record> out;
  out.swap(records_);
  return out;
}

void ApiRecordSink::Deliver(rocprofiler_context_id_t, rocprofiler_buffer_id_t,
                            rocprofiler_record_header_t** headers, size_t n,
                            void* sink, uint64_t) {
  auto* self = static_cast<ApiRecordSink*>(sink);
  std::lock_guard<std::mutex> lock(self->mutex_);
  for (size_t i = 0; i < n; ++i) {
    Record r;
    std::memcpy(&r, headers[i]->payload, sizeof(r));
    self->records_.push_back(r);
  }
}

}  // namespace sdk_test
