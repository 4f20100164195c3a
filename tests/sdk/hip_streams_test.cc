// HIP_STREAM on real HIP 5.2.3 calls, through the real library (no GPU
// here: the calls fail, after the tracer saw them): a SET of the null
// stream carries ID 0; a stream used but never seen created gets the next
// ID, the same at every later use, and the first such stream is reported
// once on stderr (rocprofiler-sdk 1.0.0 has no ID for it and throws out of
// the HIP call instead).
#include <hip/hip_runtime_api.h>

#include <cstdint>
#include <mutex>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "rocprofiler-sdk/rocprofiler.h"
#include "tests/sdk/tool_configure.h"

namespace {

struct StreamEvent {
  int32_t operation;
  int32_t phase;
  uint64_t id;
  uint64_t value;
};

std::mutex g_mutex;
std::vector<StreamEvent> g_events;
int g_initialized = 0;

void OnStream(rocprofiler_callback_tracing_record_t r, rocprofiler_user_data_t*,
              void*) {
  const auto* p =
      static_cast<const rocprofiler_callback_tracing_hip_stream_data_t*>(
          r.payload);
  std::lock_guard<std::mutex> lock(g_mutex);
  g_events.push_back(
      {r.operation, r.phase, p->stream_id.handle, p->stream_value.value});
}

int Initialize(rocprofiler_client_finalize_t, void*) {
  rocprofiler_context_id_t ctx{0};
  if (rocprofiler_create_context(&ctx) != ROCPROFILER_STATUS_SUCCESS ||
      rocprofiler_configure_callback_tracing_service(
          ctx, ROCPROFILER_CALLBACK_TRACING_HIP_STREAM, nullptr, 0, &OnStream,
          nullptr) != ROCPROFILER_STATUS_SUCCESS) {
    return 1;
  }
  g_initialized = 1;
  return rocprofiler_start_context(ctx) == ROCPROFILER_STATUS_SUCCESS ? 0 : 1;
}

}  // namespace

SDK_TEST_DEFINE_ROCPROFILER_CONFIGURE(Initialize, "hip_streams_test")

namespace {

hipStream_t Handle(uintptr_t value) {
  return reinterpret_cast<hipStream_t>(value);
}

size_t Count(const std::string& text, const std::string& what) {
  size_t n = 0;
  for (size_t at = text.find(what); at != std::string::npos;
       at = text.find(what, at + 1)) {
    ++n;
  }
  return n;
}

TEST(HipStreams, AStreamNeverSeenCreatedIsNumberedAndReportedOnce) {
  hipGetErrorString(hipSuccess);  // registers the tool
  ASSERT_EQ(g_initialized, 1);
  testing::internal::CaptureStderr();
  (void)hipStreamQuery(Handle(0x1234));
  (void)hipStreamQuery(nullptr);
  (void)hipStreamQuery(Handle(0x1234));
  (void)hipStreamQuery(Handle(0x5678));
  const std::string err = testing::internal::GetCapturedStderr();
  std::vector<StreamEvent> events;
  {
    std::lock_guard<std::mutex> lock(g_mutex);
    events.swap(g_events);
  }
  // Each call: SET at ENTER and EXIT, with its stream's ID and value.
  const std::vector<std::pair<uint64_t, uint64_t>> expected = {
      {1, 0x1234}, {0, 0}, {1, 0x1234}, {2, 0x5678}};
  ASSERT_EQ(events.size(), 2 * expected.size());
  for (size_t i = 0; i < events.size(); ++i) {
    SCOPED_TRACE(i);
    EXPECT_EQ(events[i].operation, ROCPROFILER_HIP_STREAM_SET);
    EXPECT_EQ(events[i].phase, i % 2 == 0 ? ROCPROFILER_CALLBACK_PHASE_ENTER
                                          : ROCPROFILER_CALLBACK_PHASE_EXIT);
    EXPECT_EQ(events[i].id, expected[i / 2].first);
    EXPECT_EQ(events[i].value, expected[i / 2].second);
  }
  // The first stream never seen created, once; the program goes on.
  EXPECT_EQ(Count(err, "rocprofiler-sdk: HIP stream"), 1u) << err;
  EXPECT_NE(err.find("0x1234"), std::string::npos) << err;
  EXPECT_NE(err.find("stream ID 1"), std::string::npos) << err;
}

}  // namespace
