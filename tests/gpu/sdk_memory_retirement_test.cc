// MEMORY_ALLOCATION and CORRELATION_ID_RETIREMENT on softhsa, with
// libroctracer64.so.4 loaded as the HSA tool (HSA_TOOLS_LIB) as on ROCR: a
// tool written from rocprofiler-sdk's documentation records allocations and
// frees from the runtime's pools and regions (owning agents as
// rocprofiler_query_available_agents reports them, addresses the runtime
// returned, sizes), and retirements of the IDs its records carry, each once,
// after the kernel dispatch submitted under that ID completed.
#include <gtest/gtest.h>

#include <chrono>
#include <map>
#include <mutex>
#include <thread>
#include <vector>

#include "rocprofiler-sdk/rocprofiler.h"
#include "tests/gpu/gpu_test_util.h"
#include "tests/gpu/sdk_agents.h"
#include "tests/sdk/tool_configure.h"

namespace {

using gpu_test::SdkAgentId;

constexpr uint64_t kRequestOffset = 1000000;

struct Record {
  uint32_t kind;
  rocprofiler_buffer_tracing_memory_allocation_record_t memory;
  rocprofiler_buffer_tracing_kernel_dispatch_record_t dispatch;
  rocprofiler_buffer_tracing_hsa_api_record_t api;
  rocprofiler_buffer_tracing_correlation_id_retirement_record_t retirement;
  rocprofiler_buffer_tracing_scratch_memory_record_t scratch;

  uint64_t Id() const {
    switch (kind) {
      case ROCPROFILER_BUFFER_TRACING_SCRATCH_MEMORY:
        return scratch.correlation_id.internal;
      case ROCPROFILER_BUFFER_TRACING_MEMORY_ALLOCATION:
        return memory.correlation_id.internal;
      case ROCPROFILER_BUFFER_TRACING_KERNEL_DISPATCH:
        return dispatch.correlation_id.internal;
      case ROCPROFILER_BUFFER_TRACING_CORRELATION_ID_RETIREMENT:
        return retirement.internal_correlation_id;
      default:
        return api.correlation_id.internal;
    }
  }
  uint64_t End() const {
    switch (kind) {
      case ROCPROFILER_BUFFER_TRACING_SCRATCH_MEMORY:
        return scratch.end_timestamp;
      case ROCPROFILER_BUFFER_TRACING_MEMORY_ALLOCATION:
        return memory.end_timestamp;
      case ROCPROFILER_BUFFER_TRACING_KERNEL_DISPATCH:
        return dispatch.end_timestamp;
      case ROCPROFILER_BUFFER_TRACING_CORRELATION_ID_RETIREMENT:
        return retirement.timestamp;
      default:
        return api.end_timestamp;
    }
  }
};

// One SCRATCH_MEMORY callback as the tool saw it.
struct ScratchCall {
  rocprofiler_callback_tracing_record_t record;
  rocprofiler_callback_tracing_scratch_memory_data_t payload;
  uint64_t user_at_call;  // what user_data held when the callback ran
};

struct Tool {
  std::mutex mutex;
  std::vector<ScratchCall> scratch_calls;
  rocprofiler_status_t scratch_callback_status = ROCPROFILER_STATUS_ERROR;
  std::vector<Record> records;
  std::vector<rocprofiler_callback_tracing_record_t> callbacks;
  std::vector<rocprofiler_callback_tracing_memory_allocation_data_t> payloads;
  rocprofiler_context_id_t context{0};
  rocprofiler_buffer_id_t buffer{0};
  // A second context, started by one test: dispatches, the doorbell store
  // and retirements into a small buffer, whose writers' blocks fill and are
  // delivered one by one rather than all at a flush.
  rocprofiler_context_id_t small_context{0};
  rocprofiler_buffer_id_t small_buffer{0};
  std::vector<Record> small_records;
  rocprofiler_status_t status[5] = {};
  rocprofiler_status_t scratch_status = ROCPROFILER_STATUS_SUCCESS;
  rocprofiler_status_t request_status = ROCPROFILER_STATUS_ERROR;

  void Clear() {
    rocprofiler_flush_buffer(buffer);
    std::lock_guard<std::mutex> lock(mutex);
    records.clear();
    callbacks.clear();
    payloads.clear();
    scratch_calls.clear();
  }
  std::vector<Record> Of(uint32_t kind) {
    std::lock_guard<std::mutex> lock(mutex);
    std::vector<Record> out;
    for (const Record& r : records) {
      if (r.kind == kind) out.push_back(r);
    }
    return out;
  }
};
Tool& T() {
  static Tool* tool = new Tool;
  return *tool;
}

void BufferCallback(rocprofiler_context_id_t, rocprofiler_buffer_id_t buffer,
                    rocprofiler_record_header_t** headers, size_t n, void*,
                    uint64_t) {
  std::lock_guard<std::mutex> lock(T().mutex);
  std::vector<Record>& records = buffer.handle == T().small_buffer.handle
                                     ? T().small_records
                                     : T().records;
  for (size_t i = 0; i < n; ++i) {
    if (headers[i]->category != ROCPROFILER_BUFFER_CATEGORY_TRACING) continue;
    Record r{};
    r.kind = headers[i]->kind;
    switch (r.kind) {
      case ROCPROFILER_BUFFER_TRACING_MEMORY_ALLOCATION:
        r.memory = *static_cast<
            rocprofiler_buffer_tracing_memory_allocation_record_t*>(
            headers[i]->payload);
        break;
      case ROCPROFILER_BUFFER_TRACING_KERNEL_DISPATCH:
        r.dispatch =
            *static_cast<rocprofiler_buffer_tracing_kernel_dispatch_record_t*>(
                headers[i]->payload);
        break;
      case ROCPROFILER_BUFFER_TRACING_SCRATCH_MEMORY:
        r.scratch =
            *static_cast<rocprofiler_buffer_tracing_scratch_memory_record_t*>(
                headers[i]->payload);
        break;
      case ROCPROFILER_BUFFER_TRACING_CORRELATION_ID_RETIREMENT:
        r.retirement = *static_cast<
            rocprofiler_buffer_tracing_correlation_id_retirement_record_t*>(
            headers[i]->payload);
        break;
      default:
        r.api = *static_cast<rocprofiler_buffer_tracing_hsa_api_record_t*>(
            headers[i]->payload);
        break;
    }
    records.push_back(r);
  }
}

void Callback(rocprofiler_callback_tracing_record_t record,
              rocprofiler_user_data_t*, void*) {
  std::lock_guard<std::mutex> lock(T().mutex);
  T().callbacks.push_back(record);
  T().payloads.push_back(
      *static_cast<rocprofiler_callback_tracing_memory_allocation_data_t*>(
          record.payload));
}

// Leaves the correlation ID + 1 in user_data at ENTER: EXIT must get it back.
void ScratchCallback(rocprofiler_callback_tracing_record_t record,
                     rocprofiler_user_data_t* user, void*) {
  ScratchCall c{};
  c.record = record;
  c.payload = *static_cast<rocprofiler_callback_tracing_scratch_memory_data_t*>(
      record.payload);
  c.user_at_call = user->value;
  if (record.phase == ROCPROFILER_CALLBACK_PHASE_ENTER) {
    user->value = record.correlation_id.internal + 1;
  }
  std::lock_guard<std::mutex> lock(T().mutex);
  T().scratch_calls.push_back(c);
}

int Initialize(rocprofiler_client_finalize_t, void*) {
  Tool& t = T();
  if (rocprofiler_create_context(&t.context) != ROCPROFILER_STATUS_SUCCESS) {
    return 1;
  }
  t.status[0] = rocprofiler_create_buffer(t.context, 1 << 20, 1 << 16,
                                          ROCPROFILER_BUFFER_POLICY_LOSSLESS,
                                          &BufferCallback, nullptr, &t.buffer);
  t.status[1] = rocprofiler_configure_buffer_tracing_service(
      t.context, ROCPROFILER_BUFFER_TRACING_MEMORY_ALLOCATION, nullptr, 0,
      t.buffer);
  t.status[2] = rocprofiler_configure_buffer_tracing_service(
      t.context, ROCPROFILER_BUFFER_TRACING_KERNEL_DISPATCH, nullptr, 0,
      t.buffer);
  t.status[3] = rocprofiler_configure_buffer_tracing_service(
      t.context, ROCPROFILER_BUFFER_TRACING_CORRELATION_ID_RETIREMENT, nullptr,
      0, t.buffer);
  t.status[4] = rocprofiler_configure_callback_tracing_service(
      t.context, ROCPROFILER_CALLBACK_TRACING_MEMORY_ALLOCATION, nullptr, 0,
      &Callback, nullptr);
  t.scratch_status = rocprofiler_configure_buffer_tracing_service(
      t.context, ROCPROFILER_BUFFER_TRACING_SCRATCH_MEMORY, nullptr, 0,
      t.buffer);
  t.scratch_callback_status = rocprofiler_configure_callback_tracing_service(
      t.context, ROCPROFILER_CALLBACK_TRACING_SCRATCH_MEMORY, nullptr, 0,
      &ScratchCallback, nullptr);
  // External IDs on request for dispatches, allocations and scratch
  // memory: the internal ID + kRequestOffset.
  const rocprofiler_external_correlation_id_request_kind_t kinds[] = {
      ROCPROFILER_EXTERNAL_CORRELATION_REQUEST_KERNEL_DISPATCH,
      ROCPROFILER_EXTERNAL_CORRELATION_REQUEST_MEMORY_ALLOCATION,
      ROCPROFILER_EXTERNAL_CORRELATION_REQUEST_SCRATCH_MEMORY};
  t.request_status =
      rocprofiler_configure_external_correlation_id_request_service(
          t.context, kinds, 3,
          [](rocprofiler_thread_id_t, rocprofiler_context_id_t,
             rocprofiler_external_correlation_id_request_kind_t,
             rocprofiler_tracing_operation_t, uint64_t internal,
             rocprofiler_user_data_t* external, void*) {
            external->value = internal + kRequestOffset;
            return 0;
          },
          nullptr);
  // The doorbell store: the call GPU work is submitted under.
  rocprofiler_tracing_operation_t store =
      ROCPROFILER_HSA_CORE_API_ID_hsa_signal_store_screlease;
  rocprofiler_configure_buffer_tracing_service(
      t.context, ROCPROFILER_BUFFER_TRACING_HSA_CORE_API, &store, 1, t.buffer);
  if (rocprofiler_create_context(&t.small_context) !=
          ROCPROFILER_STATUS_SUCCESS ||
      rocprofiler_create_buffer(t.small_context, 4096, 2048,
                                ROCPROFILER_BUFFER_POLICY_LOSSLESS,
                                &BufferCallback, nullptr, &t.small_buffer) !=
          ROCPROFILER_STATUS_SUCCESS) {
    return 1;
  }
  for (rocprofiler_buffer_tracing_kind_t kind :
       {ROCPROFILER_BUFFER_TRACING_KERNEL_DISPATCH,
        ROCPROFILER_BUFFER_TRACING_CORRELATION_ID_RETIREMENT}) {
    rocprofiler_configure_buffer_tracing_service(t.small_context, kind, nullptr,
                                                 0, t.small_buffer);
  }
  rocprofiler_configure_buffer_tracing_service(
      t.small_context, ROCPROFILER_BUFFER_TRACING_HSA_CORE_API, &store, 1,
      t.small_buffer);
  return rocprofiler_start_context(t.context) == ROCPROFILER_STATUS_SUCCESS ? 0
                                                                            : 1;
}

rocprofiler_tool_configure_result_t* Configure(uint32_t, const char*, uint32_t,
                                               rocprofiler_client_id_t* id) {
  return sdk_test::Configure<&Initialize>(id, "sdk_memory_retirement_test");
}

hsa_region_t AllocatableRegion(hsa_agent_t agent) {
  hsa_region_t found{0};
  hsa_agent_iterate_regions(
      agent,
      [](hsa_region_t r, void* data) {
        bool ok = false;
        hsa_region_get_info(r, HSA_REGION_INFO_RUNTIME_ALLOC_ALLOWED, &ok);
        if (ok) {
          *static_cast<hsa_region_t*>(data) = r;
          return HSA_STATUS_INFO_BREAK;
        }
        return HSA_STATUS_SUCCESS;
      },
      &found);
  return found;
}

hsa_amd_memory_pool_t AllocatablePool(hsa_agent_t agent) {
  for (hsa_amd_memory_pool_t p : hsa_test::Pools(agent)) {
    bool ok = false;
    hsa_amd_memory_pool_get_info(
        p, HSA_AMD_MEMORY_POOL_INFO_RUNTIME_ALLOC_ALLOWED, &ok);
    if (ok) return p;
  }
  return hsa_amd_memory_pool_t{0};
}

class SdkMemoryRetirement : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    ASSERT_EQ(rocprofiler_force_configure(&Configure),
              ROCPROFILER_STATUS_SUCCESS);
  }
  void SetUp() override {
    ASSERT_TRUE(program_.Start());
    T().Clear();
  }
  void TearDown() override { program_.Stop(); }

  gpu_test::Program program_;
};

TEST_F(SdkMemoryRetirement, ConfigurationStatuses) {
  for (rocprofiler_status_t s : T().status) {
    EXPECT_EQ(s, ROCPROFILER_STATUS_SUCCESS) << rocprofiler_get_status_name(s);
  }
  EXPECT_EQ(T().request_status, ROCPROFILER_STATUS_SUCCESS);
}

// Two allocations (a GPU pool, a CPU region) and their frees: exactly four
// ENTER/EXIT pairs and four records, with the owning agents, the addresses
// the runtime returned, the sizes; then each call's ID retired once.
TEST_F(SdkMemoryRetirement, PoolAndRegionAllocationsAndFrees) {
  const hsa_amd_memory_pool_t pool = AllocatablePool(program_.gpu);
  const hsa_region_t region = AllocatableRegion(program_.cpu);
  ASSERT_NE(pool.handle, 0u);
  ASSERT_NE(region.handle, 0u);
  void* device = nullptr;
  void* host = nullptr;
  ASSERT_EQ(hsa_amd_memory_pool_allocate(pool, 8192, 0, &device),
            HSA_STATUS_SUCCESS);
  ASSERT_EQ(hsa_memory_allocate(region, 256, &host), HSA_STATUS_SUCCESS);
  ASSERT_EQ(hsa_amd_memory_pool_free(device), HSA_STATUS_SUCCESS);
  ASSERT_EQ(hsa_memory_free(host), HSA_STATUS_SUCCESS);
  ASSERT_EQ(rocprofiler_flush_buffer(T().buffer), ROCPROFILER_STATUS_SUCCESS);

  const auto memory = T().Of(ROCPROFILER_BUFFER_TRACING_MEMORY_ALLOCATION);
  ASSERT_EQ(memory.size(), 4u);
  const uint64_t gpu = SdkAgentId(program_.gpu);
  const uint64_t cpu = SdkAgentId(program_.cpu);
  struct Expected {
    int32_t op;
    uint64_t agent, address, size;
  } expected[] = {
      {ROCPROFILER_MEMORY_ALLOCATION_ALLOCATE, gpu,
       reinterpret_cast<uint64_t>(device), 8192},
      {ROCPROFILER_MEMORY_ALLOCATION_ALLOCATE, cpu,
       reinterpret_cast<uint64_t>(host), 256},
      // Frees carry rocprofiler-sdk's null agent ID (handle UINT64_MAX).
      {ROCPROFILER_MEMORY_ALLOCATION_FREE, UINT64_MAX,
       reinterpret_cast<uint64_t>(device), 0},
      {ROCPROFILER_MEMORY_ALLOCATION_FREE, UINT64_MAX,
       reinterpret_cast<uint64_t>(host), 0},
  };
  std::vector<rocprofiler_callback_tracing_record_t> callbacks;
  std::vector<rocprofiler_callback_tracing_memory_allocation_data_t> payloads;
  {
    std::lock_guard<std::mutex> lock(T().mutex);
    callbacks = T().callbacks;
    payloads = T().payloads;
  }
  ASSERT_EQ(callbacks.size(), 8u);
  for (size_t i = 0; i < 4; ++i) {
    const auto& r = memory[i].memory;
    EXPECT_EQ(r.operation, expected[i].op) << i;
    EXPECT_EQ(r.agent_id.handle, expected[i].agent) << i;
    EXPECT_EQ(r.address.value, expected[i].address) << i;
    EXPECT_EQ(r.allocation_size, expected[i].size) << i;
    EXPECT_LE(r.start_timestamp, r.end_timestamp);
    EXPECT_NE(r.correlation_id.internal, 0u);
    // The request service's answer.
    EXPECT_EQ(r.correlation_id.external.value,
              r.correlation_id.internal + kRequestOffset);
    const auto& enter = callbacks[2 * i];
    const auto& exit = callbacks[2 * i + 1];
    EXPECT_EQ(enter.phase, ROCPROFILER_CALLBACK_PHASE_ENTER);
    EXPECT_EQ(exit.phase, ROCPROFILER_CALLBACK_PHASE_EXIT);
    EXPECT_EQ(enter.correlation_id.internal, r.correlation_id.internal);
    EXPECT_EQ(exit.correlation_id.internal, r.correlation_id.internal);
    EXPECT_EQ(payloads[2 * i + 1].address.value, expected[i].address);
    EXPECT_EQ(payloads[2 * i + 1].agent_id.handle, expected[i].agent);
    EXPECT_EQ(payloads[2 * i + 1].end_timestamp, r.end_timestamp);
  }
  std::map<uint64_t, int> retired;
  for (const Record& r :
       T().Of(ROCPROFILER_BUFFER_TRACING_CORRELATION_ID_RETIREMENT)) {
    ++retired[r.Id()];
  }
  EXPECT_EQ(retired.size(), 4u);
  for (const Record& r : memory) EXPECT_EQ(retired[r.Id()], 1) << r.Id();
}

// A dispatch's record carries the doorbell store's ID; that ID is retired
// exactly once, no earlier than the end of every record carrying it (the
// kernel completes after the store returned).
TEST_F(SdkMemoryRetirement, RetirementFollowsTheKernelDispatch) {
  hsa_queue_t* q = program_.Queue();
  ASSERT_NE(q, nullptr);
  hsa_signal_t done;
  ASSERT_EQ(hsa_signal_create(1, 0, nullptr, &done), HSA_STATUS_SUCCESS);
  T().Clear();
  gpu_test::Dispatch(q, program_.empty, program_.kernarg, done);
  EXPECT_EQ(gpu_test::WaitZero(done), 0);
  hsa_queue_destroy(q);  // reports what has completed
  hsa_signal_destroy(done);
  ASSERT_EQ(rocprofiler_flush_buffer(T().buffer), ROCPROFILER_STATUS_SUCCESS);

  const auto dispatches = T().Of(ROCPROFILER_BUFFER_TRACING_KERNEL_DISPATCH);
  ASSERT_EQ(dispatches.size(), 1u);
  const uint64_t id = dispatches[0].Id();
  ASSERT_NE(id, 0u);
  // The request service was asked for the dispatch, with its ID.
  EXPECT_EQ(dispatches[0].dispatch.correlation_id.external.value,
            id + kRequestOffset);
  std::vector<Record> all;
  {
    std::lock_guard<std::mutex> lock(T().mutex);
    all = T().records;
  }
  int retirements = 0;
  uint64_t retired_at = 0, last_end = 0;
  std::map<uint64_t, int> retired;
  for (const Record& r : all) {
    if (r.kind == ROCPROFILER_BUFFER_TRACING_CORRELATION_ID_RETIREMENT) {
      ++retired[r.Id()];
      if (r.Id() == id) {
        ++retirements;
        retired_at = r.retirement.timestamp;
      }
    } else if (r.Id() == id) {
      last_end = std::max(last_end, r.End());
    }
  }
  EXPECT_EQ(retirements, 1);
  EXPECT_GE(retired_at, last_end);
  EXPECT_GE(retired_at, dispatches[0].dispatch.end_timestamp);
  // Every ID in a record is retired, once.
  for (const Record& r : all) {
    if (r.kind == ROCPROFILER_BUFFER_TRACING_CORRELATION_ID_RETIREMENT) {
      continue;
    }
    EXPECT_EQ(retired[r.Id()], 1) << "kind " << r.kind << " id " << r.Id();
  }
}

// In the order a buffer delivers them, no record of an ID comes after its
// retirement, although the doorbell store's record is written by the
// submitting thread and the kernels are completed, and their IDs retired, on
// the tracer's completion thread; with a small buffer, each thread's block
// is delivered when it fills, not together at a flush.
TEST_F(SdkMemoryRetirement, RetirementIsDeliveredAfterTheCallsOwnRecords) {
  constexpr size_t kKernels = 400;
  hsa_queue_t* q = program_.Queue();
  ASSERT_NE(q, nullptr);
  hsa_signal_t done;
  ASSERT_EQ(hsa_signal_create(kKernels, 0, nullptr, &done), HSA_STATUS_SUCCESS);
  ASSERT_EQ(rocprofiler_start_context(T().small_context),
            ROCPROFILER_STATUS_SUCCESS);
  for (size_t i = 0; i < kKernels; ++i) {
    gpu_test::Dispatch(q, program_.empty, program_.kernarg, done);
  }
  EXPECT_EQ(gpu_test::WaitZero(done), 0);
  // The completion thread reports the kernels and retires their IDs in its
  // own time (the queue stays alive, so nothing else harvests them): on a
  // loaded machine that can take long. Flushes until every kernel's record
  // is out; the order checked below holds across flushes too.
  const auto deadline =
      std::chrono::steady_clock::now() + std::chrono::seconds(30);
  for (size_t seen = 0;
       seen < kKernels && std::chrono::steady_clock::now() < deadline;) {
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
    ASSERT_EQ(rocprofiler_flush_buffer(T().small_buffer),
              ROCPROFILER_STATUS_SUCCESS);
    std::lock_guard<std::mutex> lock(T().mutex);
    seen = 0;
    for (const Record& r : T().small_records) {
      seen += r.kind == ROCPROFILER_BUFFER_TRACING_KERNEL_DISPATCH;
    }
  }
  ASSERT_EQ(rocprofiler_stop_context(T().small_context),
            ROCPROFILER_STATUS_SUCCESS);
  ASSERT_EQ(rocprofiler_flush_buffer(T().small_buffer),
            ROCPROFILER_STATUS_SUCCESS);
  std::vector<Record> all;
  {
    std::lock_guard<std::mutex> lock(T().mutex);
    all = T().small_records;
  }
  std::map<uint64_t, int> retired;
  size_t dispatches = 0, late = 0;
  for (const Record& r : all) {
    if (r.kind == ROCPROFILER_BUFFER_TRACING_CORRELATION_ID_RETIREMENT) {
      ++retired[r.Id()];
      continue;
    }
    late += retired.count(r.Id());
    if (r.kind == ROCPROFILER_BUFFER_TRACING_KERNEL_DISPATCH) ++dispatches;
  }
  EXPECT_EQ(late, 0u) << "records delivered after their ID's retirement";
  EXPECT_EQ(dispatches, kKernels);
  for (const Record& r : all) {
    if (r.kind == ROCPROFILER_BUFFER_TRACING_KERNEL_DISPATCH) {
      EXPECT_EQ(retired[r.Id()], 1) << r.Id();
    }
  }
  hsa_queue_destroy(q);
  hsa_signal_destroy(done);
}

// SCRATCH_MEMORY, buffer records and callbacks, where the runtime raises
// scratch events (headers with hsa/hsa_amd_tool.h): the queue's scratch
// allocated for a dispatch needing private segment memory, freed when the
// queue goes. Built against older headers the kind is configured (as
// rocprofiler-sdk configures it whatever the runtime) and nothing comes.
TEST_F(SdkMemoryRetirement, ScratchMemoryRecordsAndCallbacks) {
#if __has_include(<hsa/hsa_amd_tool.h>)
  constexpr bool kHaveEvents = true;
#else
  constexpr bool kHaveEvents = false;
#endif
  ASSERT_EQ(T().scratch_status, ROCPROFILER_STATUS_SUCCESS);
  ASSERT_EQ(T().scratch_callback_status, ROCPROFILER_STATUS_SUCCESS);
  setenv("SOFTHSA_SCRATCH_LIMIT", "200000", 1);
  unsetenv("SOFTHSA_SCRATCH_RECLAIM");
  hsa_queue_t* q = program_.Queue();
  ASSERT_NE(q, nullptr);
  const uint64_t queue_id = q->id;
  hsa_signal_t done;
  ASSERT_EQ(hsa_signal_create(1, 0, nullptr, &done), HSA_STATUS_SUCCESS);
  T().Clear();
  // 1 wave x 256 bytes a lane: 16 KiB, the queue's scratch.
  hsa_kernel_dispatch_packet_t p =
      hsa_test::DispatchPacket(program_.empty, program_.kernarg, 64, 64, done);
  p.private_segment_size = 256;
  hsa_test::Submit(q, &p);
  EXPECT_EQ(gpu_test::WaitZero(done), 0);
  hsa_queue_destroy(q);
  hsa_signal_destroy(done);
  ASSERT_EQ(rocprofiler_flush_buffer(T().buffer), ROCPROFILER_STATUS_SUCCESS);
  const auto scratch = T().Of(ROCPROFILER_BUFFER_TRACING_SCRATCH_MEMORY);
  std::vector<ScratchCall> calls;
  {
    std::lock_guard<std::mutex> lock(T().mutex);
    calls = T().scratch_calls;
  }
  if (!kHaveEvents) {
    EXPECT_TRUE(scratch.empty());
    EXPECT_TRUE(calls.empty());
    return;
  }
  ASSERT_EQ(scratch.size(), 2u);
  EXPECT_EQ(scratch[0].scratch.operation, ROCPROFILER_SCRATCH_MEMORY_ALLOC);
  EXPECT_EQ(scratch[1].scratch.operation, ROCPROFILER_SCRATCH_MEMORY_FREE);
  for (const Record& r : scratch) {
    EXPECT_EQ(r.scratch.size, sizeof(r.scratch));
    EXPECT_EQ(r.scratch.queue_id.handle, queue_id);
    EXPECT_EQ(r.scratch.agent_id.handle, SdkAgentId(program_.gpu));
    EXPECT_LE(r.scratch.start_timestamp, r.scratch.end_timestamp);
  }
  // ENTER and EXIT of the allocation, then of the free, on one thread, the
  // events' kinds in args_kind, user_data carried from ENTER to EXIT.
  ASSERT_EQ(calls.size(), 4u);
  const int32_t ops[] = {
      ROCPROFILER_SCRATCH_MEMORY_ALLOC, ROCPROFILER_SCRATCH_MEMORY_ALLOC,
      ROCPROFILER_SCRATCH_MEMORY_FREE, ROCPROFILER_SCRATCH_MEMORY_FREE};
  for (size_t i = 0; i < calls.size(); ++i) {
    const ScratchCall& c = calls[i];
    const bool enter = i % 2 == 0;
    EXPECT_EQ(c.record.kind, ROCPROFILER_CALLBACK_TRACING_SCRATCH_MEMORY);
    EXPECT_EQ(c.record.operation, ops[i]);
    EXPECT_EQ(c.record.phase, enter ? ROCPROFILER_CALLBACK_PHASE_ENTER
                                    : ROCPROFILER_CALLBACK_PHASE_EXIT);
    EXPECT_EQ(c.record.thread_id, calls[i - i % 2].record.thread_id);
    EXPECT_EQ(c.payload.size, sizeof(c.payload));
    EXPECT_EQ(c.payload.queue_id.handle, queue_id);
    EXPECT_EQ(c.payload.agent_id.handle, SdkAgentId(program_.gpu));
    EXPECT_EQ(static_cast<int>(c.payload.args_kind), static_cast<int>(i) + 1);
    EXPECT_EQ(c.user_at_call,
              enter ? 0 : calls[i - 1].record.correlation_id.internal + 1);
    // The same call as the buffer record of the operation; the external ID
    // the request service gave at ENTER, at ENTER and EXIT.
    EXPECT_EQ(c.record.correlation_id.internal,
              scratch[i / 2].scratch.correlation_id.internal);
    EXPECT_EQ(c.record.correlation_id.external.value,
              c.record.correlation_id.internal + kRequestOffset);
  }
  EXPECT_EQ(calls[0].payload.args.alloc_start.dispatch_id,
            calls[1].payload.args.alloc_end.dispatch_id);
  EXPECT_EQ(calls[1].payload.args.alloc_end.size, 16384u);
  EXPECT_EQ(calls[1].payload.args.alloc_end.num_slots, 1u);
}

}  // namespace
