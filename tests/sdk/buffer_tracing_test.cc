// Buffers and buffer tracing of the API kinds, driven through the consumer
// seam with synthetic calls: exact record counts and fields, correlation IDs
// shared with callback records, DISCARD drop counts, flush (also from inside
// a buffer callback), destroy, names and iteration, and every bad-input
// status.
#include <atomic>
#include <condition_variable>
#include <cstring>
#include <map>
#include <mutex>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "ext/prof_protocol.h"
#include "gtest/gtest.h"
#include "hsa_api_data.h"
#include "rocprofiler-sdk/rocprofiler.h"
#include "roctracer_roctx.h"
#include "tests/sdk/fake_consumer_seam.h"
#include "tests/sdk/run_with_tool.h"
#include "tests/sdk/tool_configure.h"

namespace {

constexpr uint32_t kHsa = ACTIVITY_DOMAIN_HSA_API;
constexpr uint32_t kRoctx = ACTIVITY_DOMAIN_ROCTX;
constexpr uint32_t kEnter = ACTIVITY_API_PHASE_ENTER;
constexpr uint32_t kExit = ACTIVITY_API_PHASE_EXIT;

// What one buffer's callback received.
struct Sink {
  std::mutex mutex;
  std::vector<rocprofiler_buffer_tracing_hsa_api_record_t> records;
  std::vector<uint32_t> categories;
  std::vector<uint32_t> kinds;
  std::set<std::thread::id> threads;
  uint64_t drops = 0;
  uint64_t calls = 0;
  rocprofiler_context_id_t context{0};
  rocprofiler_buffer_id_t buffer{0};
  // Tests switch these.
  std::atomic<bool> hold{false};  // the callback waits while set
  std::atomic<bool> flush_inside{false};
  rocprofiler_status_t inside_flush_status = ROCPROFILER_STATUS_ERROR;

  std::vector<rocprofiler_buffer_tracing_hsa_api_record_t> Take() {
    std::lock_guard<std::mutex> lock(mutex);
    std::vector<rocprofiler_buffer_tracing_hsa_api_record_t> out;
    out.swap(records);
    categories.clear();
    kinds.clear();
    return out;
  }
};

Sink g_lossless, g_discard, g_marker;

void BufferCallback(rocprofiler_context_id_t context,
                    rocprofiler_buffer_id_t buffer,
                    rocprofiler_record_header_t** headers, size_t n, void* data,
                    uint64_t drop_count) {
  auto* s = static_cast<Sink*>(data);
  while (s->hold.load()) std::this_thread::yield();
  if (s->flush_inside.exchange(false)) {
    s->inside_flush_status = rocprofiler_flush_buffer(buffer);
  }
  std::lock_guard<std::mutex> lock(s->mutex);
  s->context = context;
  s->buffer = buffer;
  s->drops += drop_count;
  ++s->calls;
  s->threads.insert(std::this_thread::get_id());
  for (size_t i = 0; i < n; ++i) {
    s->categories.push_back(headers[i]->category);
    s->kinds.push_back(headers[i]->kind);
    rocprofiler_buffer_tracing_hsa_api_record_t r;
    std::memcpy(&r, headers[i]->payload, sizeof(r));
    s->records.push_back(r);
  }
}

// Callback records of the same context, to compare correlation IDs.
std::mutex g_cb_mutex;
std::vector<rocprofiler_callback_tracing_record_t> g_callback_records;
void Callback(rocprofiler_callback_tracing_record_t r, rocprofiler_user_data_t*,
              void*) {
  std::lock_guard<std::mutex> lock(g_cb_mutex);
  g_callback_records.push_back(r);
}

struct InitStatuses {
  rocprofiler_status_t null_callback, null_id, zero_size, watermark_over_size,
      bad_policy, unknown_context, unknown_buffer, other_context_buffer,
      kind_none, kind_last, not_recorded, ompt, rocdecode, rocdecode_ext,
      op_out_of_range, twice, empty_list, thread_null, assign_unknown_thread,
      assign_unknown_buffer, assign_ok;
} g_init;

rocprofiler_context_id_t g_ctx{0}, g_other{0};
rocprofiler_client_finalize_t g_fini = nullptr;
rocprofiler_client_id_t* g_client = nullptr;
size_t g_records_at_finalize = 0;
int g_finalize_calls = 0;
rocprofiler_buffer_id_t g_other_buffer{0};

int ToolInit(rocprofiler_client_finalize_t fini, void*) {
  g_fini = fini;
  EXPECT_EQ(rocprofiler_create_context(&g_ctx), ROCPROFILER_STATUS_SUCCESS);
  EXPECT_EQ(rocprofiler_create_context(&g_other), ROCPROFILER_STATUS_SUCCESS);
  auto create = [](Sink* s, size_t size, size_t watermark,
                   rocprofiler_buffer_policy_t p) {
    EXPECT_EQ(rocprofiler_create_buffer(g_ctx, size, watermark, p,
                                        &BufferCallback, s, &s->buffer),
              ROCPROFILER_STATUS_SUCCESS);
  };
  create(&g_lossless, 1 << 16, 1 << 12, ROCPROFILER_BUFFER_POLICY_LOSSLESS);
  create(&g_discard, 1 << 12, 512, ROCPROFILER_BUFFER_POLICY_DISCARD);
  create(&g_marker, 1 << 12, 1 << 10, ROCPROFILER_BUFFER_POLICY_LOSSLESS);
  EXPECT_EQ(rocprofiler_create_buffer(
                g_other, 4096, 1024, ROCPROFILER_BUFFER_POLICY_LOSSLESS,
                &BufferCallback, nullptr, &g_other_buffer),
            ROCPROFILER_STATUS_SUCCESS);
  rocprofiler_buffer_id_t unused;
  g_init.null_callback = rocprofiler_create_buffer(
      g_ctx, 4096, 1024, ROCPROFILER_BUFFER_POLICY_LOSSLESS, nullptr, nullptr,
      &unused);
  g_init.null_id = rocprofiler_create_buffer(g_ctx, 4096, 1024,
                                             ROCPROFILER_BUFFER_POLICY_LOSSLESS,
                                             &BufferCallback, nullptr, nullptr);
  g_init.zero_size =
      rocprofiler_create_buffer(g_ctx, 0, 0, ROCPROFILER_BUFFER_POLICY_LOSSLESS,
                                &BufferCallback, nullptr, &unused);
  g_init.watermark_over_size = rocprofiler_create_buffer(
      g_ctx, 1024, 4096, ROCPROFILER_BUFFER_POLICY_LOSSLESS, &BufferCallback,
      nullptr, &unused);
  g_init.bad_policy = rocprofiler_create_buffer(
      g_ctx, 4096, 1024, ROCPROFILER_BUFFER_POLICY_LAST, &BufferCallback,
      nullptr, &unused);
  g_init.unknown_context = rocprofiler_create_buffer(
      rocprofiler_context_id_t{999}, 4096, 1024,
      ROCPROFILER_BUFFER_POLICY_LOSSLESS, &BufferCallback, nullptr, &unused);

  const auto core = ROCPROFILER_BUFFER_TRACING_HSA_CORE_API;
  EXPECT_EQ(rocprofiler_configure_buffer_tracing_service(g_ctx, core, nullptr,
                                                         0, g_lossless.buffer),
            ROCPROFILER_STATUS_SUCCESS);
  const rocprofiler_tracing_operation_t get_info[] = {
      ROCPROFILER_HSA_AMD_EXT_API_ID_hsa_amd_profiling_get_dispatch_time};
  EXPECT_EQ(rocprofiler_configure_buffer_tracing_service(
                g_ctx, ROCPROFILER_BUFFER_TRACING_HSA_AMD_EXT_API, get_info, 1,
                g_discard.buffer),
            ROCPROFILER_STATUS_SUCCESS);
  EXPECT_EQ(rocprofiler_configure_buffer_tracing_service(
                g_ctx, ROCPROFILER_BUFFER_TRACING_MARKER_CORE_API, nullptr, 0,
                g_marker.buffer),
            ROCPROFILER_STATUS_SUCCESS);
  EXPECT_EQ(rocprofiler_configure_callback_tracing_service(
                g_ctx, ROCPROFILER_CALLBACK_TRACING_HSA_CORE_API, nullptr, 0,
                &Callback, nullptr),
            ROCPROFILER_STATUS_SUCCESS);

  g_init.unknown_buffer = rocprofiler_configure_buffer_tracing_service(
      g_ctx, ROCPROFILER_BUFFER_TRACING_HIP_RUNTIME_API, nullptr, 0,
      rocprofiler_buffer_id_t{777});
  g_init.other_context_buffer = rocprofiler_configure_buffer_tracing_service(
      g_ctx, ROCPROFILER_BUFFER_TRACING_HIP_RUNTIME_API, nullptr, 0,
      g_other_buffer);
  g_init.kind_none = rocprofiler_configure_buffer_tracing_service(
      g_ctx, ROCPROFILER_BUFFER_TRACING_NONE, nullptr, 0, g_lossless.buffer);
  g_init.kind_last = rocprofiler_configure_buffer_tracing_service(
      g_ctx, ROCPROFILER_BUFFER_TRACING_LAST, nullptr, 0, g_lossless.buffer);
  g_init.not_recorded = rocprofiler_configure_buffer_tracing_service(
      g_ctx, ROCPROFILER_BUFFER_TRACING_KFD_QUEUE, nullptr, 0,
      g_lossless.buffer);
  g_init.ompt = rocprofiler_configure_buffer_tracing_service(
      g_ctx, ROCPROFILER_BUFFER_TRACING_OMPT, nullptr, 0, g_lossless.buffer);
  g_init.rocdecode = rocprofiler_configure_buffer_tracing_service(
      g_ctx, ROCPROFILER_BUFFER_TRACING_ROCDECODE_API, nullptr, 0,
      g_lossless.buffer);
  const rocprofiler_tracing_operation_t decode_ops[] = {
      ROCPROFILER_ROCDECODE_API_ID_rocDecDecodeFrame};
  g_init.rocdecode_ext = rocprofiler_configure_buffer_tracing_service(
      g_ctx, ROCPROFILER_BUFFER_TRACING_ROCDECODE_API_EXT, decode_ops, 1,
      g_lossless.buffer);
  const rocprofiler_tracing_operation_t bad_op[] = {
      ROCPROFILER_HSA_CORE_API_ID_LAST};
  g_init.op_out_of_range = rocprofiler_configure_buffer_tracing_service(
      g_ctx, ROCPROFILER_BUFFER_TRACING_HSA_IMAGE_EXT_API, bad_op, 1,
      g_lossless.buffer);
  g_init.twice = rocprofiler_configure_buffer_tracing_service(
      g_ctx, core, nullptr, 0, g_lossless.buffer);
  g_init.empty_list = rocprofiler_configure_buffer_tracing_service(
      g_ctx, ROCPROFILER_BUFFER_TRACING_HIP_RUNTIME_API, get_info, 0,
      g_lossless.buffer);
  g_init.thread_null = rocprofiler_create_callback_thread(nullptr);
  rocprofiler_callback_thread_t thread{0};
  EXPECT_EQ(rocprofiler_create_callback_thread(&thread),
            ROCPROFILER_STATUS_SUCCESS);
  g_init.assign_unknown_thread = rocprofiler_assign_callback_thread(
      g_lossless.buffer, rocprofiler_callback_thread_t{thread.handle + 1});
  g_init.assign_unknown_buffer =
      rocprofiler_assign_callback_thread(rocprofiler_buffer_id_t{555}, thread);
  g_init.assign_ok =
      rocprofiler_assign_callback_thread(g_lossless.buffer, thread);
  EXPECT_EQ(rocprofiler_start_context(g_ctx), ROCPROFILER_STATUS_SUCCESS);
  return 0;
}

void ToolFini(void*) {
  ++g_finalize_calls;
  std::lock_guard<std::mutex> lock(g_lossless.mutex);
  g_records_at_finalize = g_lossless.records.size();
}

rocprofiler_tool_configure_result_t* ToolConfigure(
    uint32_t, const char*, uint32_t, rocprofiler_client_id_t* id) {
  id->name = "buffer_tracing_test";
  static rocprofiler_client_id_t saved{0, nullptr, 0};
  std::memcpy(static_cast<void*>(&saved), id, sizeof(saved));
  g_client = &saved;
  return sdk_test::Configure<&ToolInit, &ToolFini>(id, nullptr);
}

void TracedCall(uint32_t domain, uint32_t op, uint64_t corr, void* data) {
  fake_seam::Call(domain, op, kEnter, corr, data);
  fake_seam::Call(domain, op, kExit, corr, data);
}

hsa_api_data_t g_data{};

TEST(BufferTracing, ConfigurationStatuses) {
  EXPECT_EQ(g_init.null_callback, ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(g_init.null_id, ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(g_init.zero_size, ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(g_init.watermark_over_size,
            ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(g_init.bad_policy, ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(g_init.unknown_context, ROCPROFILER_STATUS_ERROR_CONTEXT_NOT_FOUND);
  EXPECT_EQ(g_init.unknown_buffer, ROCPROFILER_STATUS_ERROR_BUFFER_NOT_FOUND);
  EXPECT_EQ(g_init.other_context_buffer,
            ROCPROFILER_STATUS_ERROR_CONTEXT_INVALID);
  EXPECT_EQ(g_init.kind_none, ROCPROFILER_STATUS_ERROR_KIND_NOT_FOUND);
  EXPECT_EQ(g_init.kind_last, ROCPROFILER_STATUS_ERROR_KIND_NOT_FOUND);
  EXPECT_EQ(g_init.not_recorded, ROCPROFILER_STATUS_ERROR_NOT_IMPLEMENTED);
  EXPECT_EQ(g_init.ompt, ROCPROFILER_STATUS_ERROR_NOT_IMPLEMENTED);
  EXPECT_EQ(g_init.rocdecode, ROCPROFILER_STATUS_ERROR_NOT_IMPLEMENTED);
  EXPECT_EQ(g_init.rocdecode_ext, ROCPROFILER_STATUS_ERROR_NOT_IMPLEMENTED);
  EXPECT_EQ(g_init.op_out_of_range,
            ROCPROFILER_STATUS_ERROR_OPERATION_NOT_FOUND);
  EXPECT_EQ(g_init.twice, ROCPROFILER_STATUS_ERROR_SERVICE_ALREADY_CONFIGURED);
  EXPECT_EQ(g_init.empty_list, ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(g_init.thread_null, ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(g_init.assign_unknown_thread,
            ROCPROFILER_STATUS_ERROR_THREAD_NOT_FOUND);
  EXPECT_EQ(g_init.assign_unknown_buffer,
            ROCPROFILER_STATUS_ERROR_BUFFER_NOT_FOUND);
  EXPECT_EQ(g_init.assign_ok, ROCPROFILER_STATUS_SUCCESS);
}

TEST(BufferTracing, ConfigurationIsLockedAfterInitialize) {
  rocprofiler_buffer_id_t b;
  EXPECT_EQ(rocprofiler_create_buffer(g_ctx, 4096, 1024,
                                      ROCPROFILER_BUFFER_POLICY_LOSSLESS,
                                      &BufferCallback, nullptr, &b),
            ROCPROFILER_STATUS_ERROR_CONFIGURATION_LOCKED);
  EXPECT_EQ(rocprofiler_configure_buffer_tracing_service(
                g_ctx, ROCPROFILER_BUFFER_TRACING_HIP_RUNTIME_API, nullptr, 0,
                g_lossless.buffer),
            ROCPROFILER_STATUS_ERROR_CONFIGURATION_LOCKED);
  rocprofiler_callback_thread_t t;
  EXPECT_EQ(rocprofiler_create_callback_thread(&t),
            ROCPROFILER_STATUS_ERROR_CONFIGURATION_LOCKED);
}

// Every call gives exactly one record, with the call's kind, operation,
// correlation ID (the one its callback records carry), thread and times.
TEST(BufferTracing, OneRecordPerCallSharingTheCallbackCorrelationId) {
  g_lossless.Take();
  {
    std::lock_guard<std::mutex> lock(g_cb_mutex);
    g_callback_records.clear();
  }
  constexpr int kCalls = 1000;
  for (int i = 0; i < kCalls; ++i) {
    TracedCall(kHsa, HSA_API_ID_hsa_init, 1000 + i, &g_data);
  }
  rocprofiler_thread_id_t tid = 0;
  rocprofiler_get_thread_id(&tid);
  ASSERT_EQ(rocprofiler_flush_buffer(g_lossless.buffer),
            ROCPROFILER_STATUS_SUCCESS);
  std::vector<uint32_t> categories, kinds;
  {
    std::lock_guard<std::mutex> lock(g_lossless.mutex);
    categories = g_lossless.categories;
    kinds = g_lossless.kinds;
  }
  const auto records = g_lossless.Take();
  ASSERT_EQ(records.size(), static_cast<size_t>(kCalls));
  std::vector<rocprofiler_callback_tracing_record_t> cbs;
  {
    std::lock_guard<std::mutex> lock(g_cb_mutex);
    cbs.swap(g_callback_records);
  }
  ASSERT_EQ(cbs.size(), 2u * kCalls);  // ENTER and EXIT
  for (int i = 0; i < kCalls; ++i) {
    const auto& r = records[i];
    EXPECT_EQ(categories[i], ROCPROFILER_BUFFER_CATEGORY_TRACING);
    EXPECT_EQ(kinds[i], ROCPROFILER_BUFFER_TRACING_HSA_CORE_API);
    EXPECT_EQ(r.size, sizeof(rocprofiler_buffer_tracing_hsa_api_record_t));
    EXPECT_EQ(r.kind, ROCPROFILER_BUFFER_TRACING_HSA_CORE_API);
    EXPECT_EQ(r.operation, ROCPROFILER_HSA_CORE_API_ID_hsa_init);
    EXPECT_EQ(r.correlation_id.internal, 1000u + i);
    EXPECT_EQ(r.correlation_id.internal, cbs[2 * i].correlation_id.internal);
    EXPECT_EQ(r.correlation_id.internal,
              cbs[2 * i + 1].correlation_id.internal);
    EXPECT_EQ(cbs[2 * i].phase, ROCPROFILER_CALLBACK_PHASE_ENTER);
    EXPECT_EQ(cbs[2 * i + 1].phase, ROCPROFILER_CALLBACK_PHASE_EXIT);
    EXPECT_EQ(r.correlation_id.ancestor, 0u);
    EXPECT_EQ(r.thread_id, tid);
    EXPECT_LE(r.start_timestamp, r.end_timestamp);
    EXPECT_NE(r.start_timestamp, 0u);
  }
  std::lock_guard<std::mutex> lock(g_lossless.mutex);
  EXPECT_EQ(g_lossless.context.handle, g_ctx.handle);
  EXPECT_EQ(g_lossless.buffer.handle, g_lossless.buffer.handle);
  EXPECT_EQ(g_lossless.drops, 0u);
  // Delivered on the buffer's thread, never the calling one.
  EXPECT_EQ(g_lossless.threads.count(std::this_thread::get_id()), 0u);
}

TEST(BufferTracing, NestedCallRecordsNameTheirAncestorAndExternalId) {
  g_lossless.Take();
  rocprofiler_thread_id_t tid = 0;
  rocprofiler_get_thread_id(&tid);
  ASSERT_EQ(rocprofiler_push_external_correlation_id(
                g_ctx, tid, rocprofiler_user_data_t{77}),
            ROCPROFILER_STATUS_SUCCESS);
  fake_seam::Call(kHsa, HSA_API_ID_hsa_init, kEnter, 5000, &g_data);
  fake_seam::Call(kHsa, HSA_API_ID_hsa_shut_down, kEnter, 5001, &g_data);
  fake_seam::Call(kHsa, HSA_API_ID_hsa_shut_down, kExit, 5001, &g_data);
  fake_seam::Call(kHsa, HSA_API_ID_hsa_init, kExit, 5000, &g_data);
  rocprofiler_user_data_t popped{0};
  rocprofiler_pop_external_correlation_id(g_ctx, tid, &popped);
  rocprofiler_flush_buffer(g_lossless.buffer);
  const auto records = g_lossless.Take();
  ASSERT_EQ(records.size(), 2u);  // written at EXIT: inner first
  EXPECT_EQ(records[0].correlation_id.internal, 5001u);
  EXPECT_EQ(records[0].correlation_id.ancestor, 5000u);
  EXPECT_EQ(records[1].correlation_id.internal, 5000u);
  EXPECT_EQ(records[1].correlation_id.ancestor, 0u);
  for (const auto& r : records) EXPECT_EQ(r.correlation_id.external.value, 77u);
  EXPECT_LE(records[1].start_timestamp, records[0].start_timestamp);
  EXPECT_GE(records[1].end_timestamp, records[0].end_timestamp);
}

TEST(BufferTracing, OnlySelectedOperations) {
  g_discard.Take();
  TracedCall(kHsa, HSA_API_ID_hsa_amd_profiling_get_async_copy_time, 6000,
             &g_data);
  TracedCall(kHsa, HSA_API_ID_hsa_amd_profiling_get_dispatch_time, 6001,
             &g_data);
  rocprofiler_flush_buffer(g_discard.buffer);
  const auto records = g_discard.Take();
  ASSERT_EQ(records.size(), 1u);
  EXPECT_EQ(records[0].kind, ROCPROFILER_BUFFER_TRACING_HSA_AMD_EXT_API);
  EXPECT_EQ(records[0].operation,
            ROCPROFILER_HSA_AMD_EXT_API_ID_hsa_amd_profiling_get_dispatch_time);
}

TEST(BufferTracing, MarkerRecords) {
  g_marker.Take();
  roctx_api_data_t d{};
  d.args.message = "m";
  TracedCall(kRoctx, ROCTX_API_ID_roctxMarkA, 7000, &d);
  TracedCall(kRoctx, ROCTX_API_ID_roctxRangePushA, 7001, &d);
  TracedCall(kRoctx, ROCTX_API_ID_roctxRangePop, 7002, &d);
  rocprofiler_flush_buffer(g_marker.buffer);
  const auto records = g_marker.Take();
  ASSERT_EQ(records.size(), 3u);
  const int32_t ops[] = {ROCPROFILER_MARKER_CORE_API_ID_roctxMarkA,
                         ROCPROFILER_MARKER_CORE_API_ID_roctxRangePushA,
                         ROCPROFILER_MARKER_CORE_API_ID_roctxRangePop};
  for (int i = 0; i < 3; ++i) {
    EXPECT_EQ(records[i].kind, ROCPROFILER_BUFFER_TRACING_MARKER_CORE_API);
    EXPECT_EQ(records[i].operation, ops[i]);
    EXPECT_EQ(records[i].correlation_id.internal, 7000u + i);
  }
}

// With the consumer held in its callback, a DISCARD buffer drops what does
// not fit; every record is then either delivered or counted as dropped.
// What fits is what the buffer's size holds (4096 bytes: 64 records of 64
// bytes), less at most one watermark's worth (512 bytes: the batch held in
// the callback was sealed at the watermark).
TEST(BufferTracing, DiscardCountsEveryDroppedRecord) {
  g_discard.Take();
  uint64_t drops_before;
  {
    std::lock_guard<std::mutex> lock(g_discard.mutex);
    drops_before = g_discard.drops;
  }
  g_discard.hold = true;
  constexpr int kCalls = 20000;
  for (int i = 0; i < kCalls; ++i) {
    TracedCall(kHsa, HSA_API_ID_hsa_amd_profiling_get_dispatch_time, 100000 + i,
               &g_data);
  }
  g_discard.hold = false;
  ASSERT_EQ(rocprofiler_flush_buffer(g_discard.buffer),
            ROCPROFILER_STATUS_SUCCESS);
  const auto records = g_discard.Take();
  uint64_t drops;
  {
    std::lock_guard<std::mutex> lock(g_discard.mutex);
    drops = g_discard.drops - drops_before;
  }
  EXPECT_GT(drops, 0u);
  EXPECT_LT(records.size(), static_cast<size_t>(kCalls));
  EXPECT_EQ(records.size() + drops, static_cast<uint64_t>(kCalls));
  constexpr size_t kRecord =
      sizeof(rocprofiler_buffer_tracing_hsa_api_record_t);
  EXPECT_LE(records.size(), size_t{4096} / kRecord);
  EXPECT_GE(records.size(), size_t{4096 - 512} / kRecord);
  // What was kept arrives in call order.
  for (size_t i = 1; i < records.size(); ++i) {
    EXPECT_LT(records[i - 1].correlation_id.internal,
              records[i].correlation_id.internal);
  }
}

// Several threads into one LOSSLESS buffer: nothing lost.
TEST(BufferTracing, LosslessKeepsEveryRecordOfEveryThread) {
  g_lossless.Take();
  constexpr int kThreads = 8, kCalls = 20000;
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([t] {
      for (int i = 0; i < kCalls; ++i) {
        TracedCall(kHsa, HSA_API_ID_hsa_shut_down,
                   (uint64_t{1} << 40) + uint64_t(t) * kCalls + i, &g_data);
      }
    });
  }
  for (auto& th : threads) th.join();
  rocprofiler_flush_buffer(g_lossless.buffer);
  const auto records = g_lossless.Take();
  ASSERT_EQ(records.size(), static_cast<size_t>(kThreads * kCalls));
  std::set<uint64_t> ids;
  for (const auto& r : records) ids.insert(r.correlation_id.internal);
  EXPECT_EQ(ids.size(), static_cast<size_t>(kThreads * kCalls));
  std::lock_guard<std::mutex> lock(g_lossless.mutex);
  EXPECT_EQ(g_lossless.drops, 0u);
  // Assigned a callback thread: every batch was delivered on that one thread.
  EXPECT_EQ(g_lossless.threads.size(), 1u);
  std::lock_guard<std::mutex> lock2(g_discard.mutex);
  EXPECT_EQ(g_discard.threads.size(), 1u);
  EXPECT_NE(*g_lossless.threads.begin(), *g_discard.threads.begin());
}

TEST(BufferTracing, FlushFromACallbackOnACallbackThreadReturns) {
  g_lossless.Take();
  g_lossless.flush_inside = true;
  TracedCall(kHsa, HSA_API_ID_hsa_init, 8500, &g_data);
  ASSERT_EQ(rocprofiler_flush_buffer(g_lossless.buffer),
            ROCPROFILER_STATUS_SUCCESS);
  EXPECT_EQ(g_lossless.inside_flush_status, ROCPROFILER_STATUS_SUCCESS);
  EXPECT_EQ(g_lossless.Take().size(), 1u);
}

TEST(BufferTracing, FlushFromInsideTheBufferCallbackReturns) {
  g_marker.Take();
  g_marker.flush_inside = true;
  roctx_api_data_t d{};
  d.args.message = "m";
  TracedCall(kRoctx, ROCTX_API_ID_roctxMarkA, 8000, &d);
  ASSERT_EQ(rocprofiler_flush_buffer(g_marker.buffer),
            ROCPROFILER_STATUS_SUCCESS);
  EXPECT_EQ(g_marker.inside_flush_status, ROCPROFILER_STATUS_SUCCESS);
  EXPECT_EQ(g_marker.Take().size(), 1u);
}

TEST(BufferTracing, NamesAndIteration) {
  std::vector<rocprofiler_buffer_tracing_kind_t> kinds;
  ASSERT_EQ(
      rocprofiler_iterate_buffer_tracing_kinds(
          [](rocprofiler_buffer_tracing_kind_t k, void* data) {
            static_cast<std::vector<rocprofiler_buffer_tracing_kind_t>*>(data)
                ->push_back(k);
            return 0;
          },
          &kinds),
      ROCPROFILER_STATUS_SUCCESS);
  // Every kind in enum order, NONE included (as rocprofiler-sdk 1.0.0).
  ASSERT_EQ(kinds.size(), static_cast<size_t>(ROCPROFILER_BUFFER_TRACING_LAST));
  for (size_t i = 0; i < kinds.size(); ++i) {
    EXPECT_EQ(kinds[i], static_cast<int>(i));
  }
  std::set<std::string> names;
  for (auto k : kinds) {
    const char* name = nullptr;
    uint64_t len = 0;
    ASSERT_EQ(rocprofiler_query_buffer_tracing_kind_name(k, &name, &len),
              ROCPROFILER_STATUS_SUCCESS);
    EXPECT_EQ(std::strlen(name), len);
    names.insert(name);
  }
  EXPECT_EQ(names.size(), kinds.size());
  const char* name = nullptr;
  rocprofiler_query_buffer_tracing_kind_name(
      ROCPROFILER_BUFFER_TRACING_KERNEL_DISPATCH, &name, nullptr);
  EXPECT_STREQ(name, "KERNEL_DISPATCH");
  rocprofiler_query_buffer_tracing_kind_name(
      ROCPROFILER_BUFFER_TRACING_MARKER_CORE_RANGE_API, &name, nullptr);
  EXPECT_STREQ(name, "MARKER_CORE_RANGE_API");
  EXPECT_EQ(rocprofiler_query_buffer_tracing_kind_operation_name(
                ROCPROFILER_BUFFER_TRACING_HSA_CORE_API,
                ROCPROFILER_HSA_CORE_API_ID_hsa_init, &name, nullptr),
            ROCPROFILER_STATUS_SUCCESS);
  EXPECT_STREQ(name, "hsa_init");
  EXPECT_EQ(rocprofiler_query_buffer_tracing_kind_operation_name(
                ROCPROFILER_BUFFER_TRACING_MEMORY_COPY,
                ROCPROFILER_MEMORY_COPY_HOST_TO_DEVICE, &name, nullptr),
            ROCPROFILER_STATUS_SUCCESS);
  EXPECT_STREQ(name, "MEMORY_COPY_HOST_TO_DEVICE");
  std::vector<int32_t> ops;
  ASSERT_EQ(rocprofiler_iterate_buffer_tracing_kind_operations(
                ROCPROFILER_BUFFER_TRACING_KERNEL_DISPATCH,
                [](rocprofiler_buffer_tracing_kind_t, int32_t op, void* data) {
                  static_cast<std::vector<int32_t>*>(data)->push_back(op);
                  return 0;
                },
                &ops),
            ROCPROFILER_STATUS_SUCCESS);
  EXPECT_EQ(ops, (std::vector<int32_t>{ROCPROFILER_KERNEL_DISPATCH_ENQUEUE,
                                       ROCPROFILER_KERNEL_DISPATCH_COMPLETE}));
  // NONE: named, no operations.
  EXPECT_EQ(rocprofiler_query_buffer_tracing_kind_name(
                ROCPROFILER_BUFFER_TRACING_NONE, &name, nullptr),
            ROCPROFILER_STATUS_SUCCESS);
  EXPECT_STREQ(name, "NONE");
  EXPECT_EQ(rocprofiler_query_buffer_tracing_kind_operation_name(
                ROCPROFILER_BUFFER_TRACING_NONE, 0, &name, nullptr),
            ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(
      rocprofiler_iterate_buffer_tracing_kind_operations(
          ROCPROFILER_BUFFER_TRACING_NONE,
          [](rocprofiler_buffer_tracing_kind_t, int32_t, void*) { return 0; },
          nullptr),
      ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT);
  // Bad input.
  EXPECT_EQ(
      rocprofiler_query_buffer_tracing_kind_name(
          static_cast<rocprofiler_buffer_tracing_kind_t>(-5), &name, nullptr),
      ROCPROFILER_STATUS_ERROR_KIND_NOT_FOUND);
  EXPECT_EQ(rocprofiler_query_buffer_tracing_kind_operation_name(
                ROCPROFILER_BUFFER_TRACING_HSA_CORE_API,
                ROCPROFILER_HSA_CORE_API_ID_LAST, &name, nullptr),
            ROCPROFILER_STATUS_ERROR_OPERATION_NOT_FOUND);
  EXPECT_EQ(rocprofiler_query_buffer_tracing_kind_operation_name(
                ROCPROFILER_BUFFER_TRACING_LAST, 0, &name, nullptr),
            ROCPROFILER_STATUS_ERROR_KIND_NOT_FOUND);
  EXPECT_EQ(rocprofiler_iterate_buffer_tracing_kinds(nullptr, nullptr),
            ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(rocprofiler_iterate_buffer_tracing_kind_operations(
                ROCPROFILER_BUFFER_TRACING_HSA_CORE_API, nullptr, nullptr),
            ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT);
}

TEST(BufferTracing, HeaderHashIsCategoryAndKindTogether) {
  EXPECT_EQ(rocprofiler_record_header_compute_hash(
                ROCPROFILER_BUFFER_CATEGORY_TRACING,
                ROCPROFILER_BUFFER_TRACING_KERNEL_DISPATCH),
            (uint64_t{ROCPROFILER_BUFFER_TRACING_KERNEL_DISPATCH} << 32) |
                ROCPROFILER_BUFFER_CATEGORY_TRACING);
  // The hash of the headers delivered.
  rocprofiler_record_header_t h;
  h.hash = 0;
  h.category = ROCPROFILER_BUFFER_CATEGORY_TRACING;
  h.kind = ROCPROFILER_BUFFER_TRACING_MARKER_CORE_API;
  EXPECT_EQ(h.hash, rocprofiler_record_header_compute_hash(h.category, h.kind));
}

TEST(BufferTracing, ExternalCorrelationRequestKindNames) {
  const char* name = nullptr;
  uint64_t len = 0;
  ASSERT_EQ(rocprofiler_query_external_correlation_id_request_kind_name(
                ROCPROFILER_EXTERNAL_CORRELATION_REQUEST_KERNEL_DISPATCH, &name,
                &len),
            ROCPROFILER_STATUS_SUCCESS);
  EXPECT_STREQ(name, "KERNEL_DISPATCH");
  EXPECT_EQ(len, std::strlen("KERNEL_DISPATCH"));
  EXPECT_EQ(rocprofiler_query_external_correlation_id_request_kind_name(
                ROCPROFILER_EXTERNAL_CORRELATION_REQUEST_LAST, &name, &len),
            ROCPROFILER_STATUS_ERROR_KIND_NOT_FOUND);
}

// Runs last (gtest runs tests in order): destroys a buffer.
TEST(BufferTracing, ZDestroyDeliversThenForgetsTheBuffer) {
  g_marker.Take();
  roctx_api_data_t d{};
  d.args.message = "m";
  TracedCall(kRoctx, ROCTX_API_ID_roctxMarkA, 9000, &d);
  ASSERT_EQ(rocprofiler_destroy_buffer(g_marker.buffer),
            ROCPROFILER_STATUS_SUCCESS);
  EXPECT_EQ(g_marker.Take().size(), 1u);  // delivered by destroy
  TracedCall(kRoctx, ROCTX_API_ID_roctxMarkA, 9001, &d);
  EXPECT_EQ(rocprofiler_flush_buffer(g_marker.buffer),
            ROCPROFILER_STATUS_ERROR_BUFFER_NOT_FOUND);
  EXPECT_EQ(rocprofiler_destroy_buffer(g_marker.buffer),
            ROCPROFILER_STATUS_ERROR_BUFFER_NOT_FOUND);
  EXPECT_EQ(rocprofiler_flush_buffer(rocprofiler_buffer_id_t{0}),
            ROCPROFILER_STATUS_ERROR_BUFFER_NOT_FOUND);
  EXPECT_EQ(rocprofiler_flush_buffer(rocprofiler_buffer_id_t{12345}),
            ROCPROFILER_STATUS_ERROR_BUFFER_NOT_FOUND);
  EXPECT_TRUE(g_marker.Take().empty());
}

// Runs last: the tool's finalize sees every record written before it.
TEST(BufferTracing, ZZFinalizeDeliversBuffersBeforeTheToolsFinalize) {
  g_lossless.Take();
  TracedCall(kHsa, HSA_API_ID_hsa_init, 9100, &g_data);
  TracedCall(kHsa, HSA_API_ID_hsa_init, 9101, &g_data);
  ASSERT_NE(g_fini, nullptr);
  g_fini(*g_client);
  EXPECT_EQ(g_finalize_calls, 1);
  EXPECT_EQ(g_records_at_finalize, 2u);
}

}  // namespace

int main(int argc, char** argv) {
  return sdk_test::RunWithTool(argc, argv, &ToolConfigure);
}
