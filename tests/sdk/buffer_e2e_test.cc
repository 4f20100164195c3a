// End to end: a tool in this program (found by libroctracer64.so's scan at
// the runtimes' first call, through -rdynamic) buffer-traces real HIP 5.2.3 and
// HSA calls intercepted by the library, and callback-traces one of them: every
// call gives exactly one buffer record, carrying the correlation ID its
// callback records carry. At full size: 8 threads x 1M calls into a
// LOSSLESS buffer deliver every record exactly once, and into a DISCARD
// buffer whose consumer is held, delivered + dropped = calls exactly.
#include <hip/hip_runtime_api.h>
#include <hsa/hsa.h>

#include <atomic>
#include <map>
#include <mutex>
#include <thread>
#include <vector>

#include "gtest/gtest.h"
#include "rocprofiler-sdk/rocprofiler.h"
#include "tests/sdk/api_record_sink.h"
#include "tests/sdk/tool_configure.h"

namespace {

sdk_test::ApiRecordSink g_sink;
std::mutex g_mutex;
std::vector<uint64_t> g_callback_ids;  // hipGetErrorString EXIT
rocprofiler_context_id_t g_ctx{0};
int g_initialized = 0;

// The full-size runs: a context each, started only by their test, tracing
// hipGetErrorString alone into one buffer.
constexpr int kThreads = 8;
constexpr int kCallsPerThread = 1000000;

// What a full-size buffer's callback saw, per writer thread (records arrive
// on the buffer's one delivery thread).
struct PerThread {
  uint64_t thread_id = 0;
  uint64_t records = 0;
  uint64_t last_id = 0;
  uint64_t out_of_order = 0;  // an ID not above the thread's previous one
};
struct FullSizeSink {
  std::mutex mutex;
  PerThread threads[kThreads + 1];  // one spare: an unexpected thread
  uint64_t other_records = 0;
  uint64_t drops = 0;
  std::atomic<bool> hold{false};  // the callback waits while set
  rocprofiler_context_id_t ctx{0};
  rocprofiler_buffer_id_t buffer{0};

  uint64_t Records() {
    uint64_t n = other_records;
    for (const PerThread& t : threads) n += t.records;
    return n;
  }
};
FullSizeSink g_lossless, g_discard;

void DeliverFullSize(rocprofiler_context_id_t, rocprofiler_buffer_id_t,
                     rocprofiler_record_header_t** headers, size_t n,
                     void* data, uint64_t drops) {
  auto* sink = static_cast<FullSizeSink*>(data);
  while (sink->hold.load(std::memory_order_acquire)) std::this_thread::yield();
  std::lock_guard<std::mutex> lock(sink->mutex);
  sink->drops += drops;
  for (size_t i = 0; i < n; ++i) {
    const auto* r =
        static_cast<const rocprofiler_buffer_tracing_hip_api_record_t*>(
            headers[i]->payload);
    if (r->kind != ROCPROFILER_BUFFER_TRACING_HIP_RUNTIME_API ||
        r->operation != ROCPROFILER_HIP_RUNTIME_API_ID_hipGetErrorString) {
      ++sink->other_records;
      continue;
    }
    PerThread* t = nullptr;
    for (PerThread& candidate : sink->threads) {
      if (candidate.thread_id == r->thread_id || candidate.records == 0) {
        t = &candidate;
        break;
      }
    }
    if (t == nullptr) {
      ++sink->other_records;
      continue;
    }
    t->thread_id = r->thread_id;
    if (t->records != 0 && r->correlation_id.internal <= t->last_id) {
      ++t->out_of_order;
    }
    t->last_id = r->correlation_id.internal;
    ++t->records;
  }
}

bool CreateFullSize(FullSizeSink* sink, size_t size, size_t watermark,
                    rocprofiler_buffer_policy_t policy) {
  const rocprofiler_tracing_operation_t op[] = {
      ROCPROFILER_HIP_RUNTIME_API_ID_hipGetErrorString};
  return rocprofiler_create_context(&sink->ctx) == ROCPROFILER_STATUS_SUCCESS &&
         rocprofiler_create_buffer(sink->ctx, size, watermark, policy,
                                   &DeliverFullSize, sink, &sink->buffer) ==
             ROCPROFILER_STATUS_SUCCESS &&
         rocprofiler_configure_buffer_tracing_service(
             sink->ctx, ROCPROFILER_BUFFER_TRACING_HIP_RUNTIME_API, op, 1,
             sink->buffer) == ROCPROFILER_STATUS_SUCCESS;
}

void Callback(rocprofiler_callback_tracing_record_t r, rocprofiler_user_data_t*,
              void*) {
  if (r.phase != ROCPROFILER_CALLBACK_PHASE_EXIT) return;
  std::lock_guard<std::mutex> lock(g_mutex);
  g_callback_ids.push_back(r.correlation_id.internal);
}

int Initialize(rocprofiler_client_finalize_t, void*) {
  rocprofiler_context_id_t& ctx = g_ctx;
  if (!CreateFullSize(&g_lossless, 1 << 20, 1 << 16,
                      ROCPROFILER_BUFFER_POLICY_LOSSLESS) ||
      !CreateFullSize(&g_discard, 1 << 16, 1 << 12,
                      ROCPROFILER_BUFFER_POLICY_DISCARD)) {
    return 1;
  }
  if (rocprofiler_create_context(&ctx) != ROCPROFILER_STATUS_SUCCESS ||
      !g_sink.Create(ctx)) {
    return 1;
  }
  const rocprofiler_tracing_operation_t op[] = {
      ROCPROFILER_HIP_RUNTIME_API_ID_hipGetErrorString};
  if (rocprofiler_configure_callback_tracing_service(
          ctx, ROCPROFILER_CALLBACK_TRACING_HIP_RUNTIME_API, op, 1, &Callback,
          nullptr) != ROCPROFILER_STATUS_SUCCESS) {
    return 1;
  }
  g_initialized = 1;
  return rocprofiler_start_context(ctx) == ROCPROFILER_STATUS_SUCCESS ? 0 : 1;
}

}  // namespace

SDK_TEST_DEFINE_ROCPROFILER_CONFIGURE(Initialize, "buffer_e2e_test")

namespace {

std::vector<sdk_test::ApiRecordSink::Record> Take() { return g_sink.Take(); }

TEST(BufferEndToEnd, EveryRealHipCallGivesOneRecordWithItsCorrelationId) {
  // The tool is registered at the runtimes' first call, as rocprofiler-sdk
  // registers tools when a runtime initializes.
  EXPECT_EQ(g_initialized, 0);
  hipGetErrorString(hipSuccess);
  ASSERT_EQ(g_initialized, 1);
  Take();
  {
    std::lock_guard<std::mutex> lock(g_mutex);
    g_callback_ids.clear();
  }
  constexpr int kCalls = 1000;
  for (int i = 0; i < kCalls; ++i) hipGetErrorString(hipErrorInvalidValue);
  std::vector<uint64_t> ids;
  for (const auto& r : Take()) {
    if (r.kind == ROCPROFILER_BUFFER_TRACING_HIP_RUNTIME_API &&
        r.operation == ROCPROFILER_HIP_RUNTIME_API_ID_hipGetErrorString) {
      ids.push_back(r.correlation_id.internal);
      EXPECT_LE(r.start_timestamp, r.end_timestamp);
    }
  }
  ASSERT_EQ(ids.size(), static_cast<size_t>(kCalls));
  std::lock_guard<std::mutex> lock(g_mutex);
  EXPECT_EQ(ids, g_callback_ids);
}

TEST(BufferEndToEnd, EveryRealHsaCallGivesOneRecord) {
  Take();
  constexpr int kCalls = 100;
  uint64_t ts = 0;
  for (int i = 0; i < kCalls; ++i) {
    hsa_system_get_info(HSA_SYSTEM_INFO_TIMESTAMP, &ts);
  }
  int n = 0;
  for (const auto& r : Take()) {
    n += r.kind == ROCPROFILER_BUFFER_TRACING_HSA_CORE_API &&
         r.operation == ROCPROFILER_HSA_CORE_API_ID_hsa_system_get_info;
  }
  EXPECT_EQ(n, kCalls);
}

// kThreads threads each making kCallsPerThread real hipGetErrorString calls
// with only `sink`'s context started.
void RunFullSize(FullSizeSink* sink) {
  ASSERT_EQ(g_initialized, 1);
  ASSERT_EQ(rocprofiler_stop_context(g_ctx), ROCPROFILER_STATUS_SUCCESS);
  ASSERT_EQ(rocprofiler_start_context(sink->ctx), ROCPROFILER_STATUS_SUCCESS);
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([] {
      for (int i = 0; i < kCallsPerThread; ++i) {
        hipGetErrorString(hipErrorInvalidValue);
      }
    });
  }
  for (std::thread& t : threads) t.join();
  ASSERT_EQ(rocprofiler_stop_context(sink->ctx), ROCPROFILER_STATUS_SUCCESS);
  sink->hold.store(false, std::memory_order_release);
  ASSERT_EQ(rocprofiler_flush_buffer(sink->buffer), ROCPROFILER_STATUS_SUCCESS);
  ASSERT_EQ(rocprofiler_start_context(g_ctx), ROCPROFILER_STATUS_SUCCESS);
}

TEST(BufferEndToEnd, LosslessDeliversEveryRecordOfEightThreadsExactlyOnce) {
  RunFullSize(&g_lossless);
  std::lock_guard<std::mutex> lock(g_lossless.mutex);
  EXPECT_EQ(g_lossless.drops, 0u);
  EXPECT_EQ(g_lossless.other_records, 0u);
  EXPECT_EQ(g_lossless.threads[kThreads].records, 0u) << "a ninth thread";
  for (int t = 0; t < kThreads; ++t) {
    const PerThread& th = g_lossless.threads[t];
    // Each thread's IDs are unique and increasing: a record delivered twice,
    // or out of order, breaks the rise; one lost shortens the count.
    EXPECT_EQ(th.records, static_cast<uint64_t>(kCallsPerThread)) << t;
    EXPECT_EQ(th.out_of_order, 0u) << t;
    for (int u = 0; u < t; ++u) {
      EXPECT_NE(th.thread_id, g_lossless.threads[u].thread_id);
    }
  }
}

TEST(BufferEndToEnd, DiscardDeliversOrCountsEveryRecordOfEightThreads) {
  // The consumer is held while the threads call: each thread's room (the
  // buffer's size) fills, and the rest is dropped.
  g_discard.hold.store(true, std::memory_order_release);
  RunFullSize(&g_discard);
  std::lock_guard<std::mutex> lock(g_discard.mutex);
  constexpr uint64_t kCalls = uint64_t{kThreads} * kCallsPerThread;
  EXPECT_EQ(g_discard.other_records, 0u);
  EXPECT_GT(g_discard.drops, 0u);
  EXPECT_EQ(g_discard.Records() + g_discard.drops, kCalls);
  // At most each thread's room: the size (64 KiB) in 64-byte records.
  EXPECT_LE(g_discard.Records(),
            uint64_t{kThreads} * (1 << 16) /
                sizeof(rocprofiler_buffer_tracing_hip_api_record_t));
  for (const PerThread& th : g_discard.threads) {
    EXPECT_EQ(th.out_of_order, 0u);
  }
}

}  // namespace
