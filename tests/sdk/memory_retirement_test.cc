// MEMORY_ALLOCATION (callback and buffer) and CORRELATION_ID_RETIREMENT,
// driven through the consumer seam with synthetic HSA allocation and free
// calls as the interception layer reports them: exact record counts,
// ENTER/EXIT pairing, the fields a tool reads, correlation IDs shared with
// the enclosing call's records, one retirement per ID after every other
// record of it, the request service's external IDs, and the bad-input
// statuses of the new kinds and of
// rocprofiler_iterate_buffer_tracing_record_args.
#include <cstring>
#include <map>
#include <mutex>
#include <string>
#include <vector>

#include "ext/prof_protocol.h"
#include "gtest/gtest.h"
#include "hsa_api_data.h"
#include "hsa_api_id.h"
#include "rocprofiler-sdk/rocprofiler.h"
#include "tests/sdk/fake_consumer_seam.h"
#include "tests/sdk/run_with_tool.h"
#include "tests/sdk/tool_configure.h"

namespace {

constexpr uint32_t kHsa = ACTIVITY_DOMAIN_HSA_API;
constexpr uint32_t kEnter = ACTIVITY_API_PHASE_ENTER;
constexpr uint32_t kExit = ACTIVITY_API_PHASE_EXIT;
// rocprofiler-sdk 1.0.0's null agent ID: frees, and pools no agent owns.
constexpr uint64_t kNullAgent = UINT64_MAX;

// One delivered buffer record, whatever its kind.
struct Record {
  uint32_t kind;
  rocprofiler_buffer_tracing_memory_allocation_record_t memory;
  rocprofiler_buffer_tracing_hsa_api_record_t api;
  rocprofiler_buffer_tracing_correlation_id_retirement_record_t retirement;
  uint64_t Id() const {
    switch (kind) {
      case ROCPROFILER_BUFFER_TRACING_MEMORY_ALLOCATION:
        return memory.correlation_id.internal;
      case ROCPROFILER_BUFFER_TRACING_CORRELATION_ID_RETIREMENT:
        return retirement.internal_correlation_id;
      default:
        return api.correlation_id.internal;
    }
  }
};

struct Callback {
  rocprofiler_callback_tracing_record_t record;
  rocprofiler_callback_tracing_memory_allocation_data_t memory;
  uint64_t user_in;   // user_data as the callback received it
  uint64_t user_out;  // and as it left it
  std::string args;
};

std::mutex g_mutex;
std::vector<Record> g_records;
std::vector<Callback> g_callbacks;
std::vector<std::string> g_requests;
uint64_t g_next_user = 1;
// What the request callback answers (0: decline).
uint64_t g_request_answer = 0;

rocprofiler_context_id_t g_ctx{0};
rocprofiler_buffer_id_t g_buffer{0};

struct Statuses {
  rocprofiler_status_t memory_buffer, memory_callback, retirement,
      retirement_with_ops, retirement_empty_list, memory_op_none,
      memory_op_last, memory_twice, retirement_twice, memory_cb_op_last,
      request;
} g_init;

void BufferCallback(rocprofiler_context_id_t, rocprofiler_buffer_id_t,
                    rocprofiler_record_header_t** headers, size_t n, void*,
                    uint64_t) {
  std::lock_guard<std::mutex> lock(g_mutex);
  for (size_t i = 0; i < n; ++i) {
    Record r{};
    r.kind = headers[i]->kind;
    EXPECT_EQ(headers[i]->category, ROCPROFILER_BUFFER_CATEGORY_TRACING);
    switch (r.kind) {
      case ROCPROFILER_BUFFER_TRACING_MEMORY_ALLOCATION:
        std::memcpy(&r.memory, headers[i]->payload, sizeof(r.memory));
        break;
      case ROCPROFILER_BUFFER_TRACING_CORRELATION_ID_RETIREMENT:
        std::memcpy(&r.retirement, headers[i]->payload, sizeof(r.retirement));
        break;
      default:
        std::memcpy(&r.api, headers[i]->payload, sizeof(r.api));
        break;
    }
    g_records.push_back(r);
  }
}

int CollectArg(rocprofiler_callback_tracing_kind_t,
               rocprofiler_tracing_operation_t, uint32_t, const void* const,
               int32_t, const char*, const char* name, const char*, int32_t,
               void* data) {
  *static_cast<std::string*>(data) += std::string(name) + ";";
  return 0;
}

void TracingCallback(rocprofiler_callback_tracing_record_t record,
                     rocprofiler_user_data_t* user, void*) {
  Callback c{};
  c.record = record;
  c.user_in = user->value;
  if (record.kind == ROCPROFILER_CALLBACK_TRACING_MEMORY_ALLOCATION) {
    std::memcpy(&c.memory, record.payload, sizeof(c.memory));
    rocprofiler_iterate_callback_tracing_kind_operation_args(
        record, &CollectArg, 1, &c.args);
  }
  std::lock_guard<std::mutex> lock(g_mutex);
  if (record.phase == ROCPROFILER_CALLBACK_PHASE_ENTER) {
    user->value = g_next_user++;
  }
  c.user_out = user->value;
  g_callbacks.push_back(c);
}

int Request(rocprofiler_thread_id_t, rocprofiler_context_id_t,
            rocprofiler_external_correlation_id_request_kind_t kind,
            rocprofiler_tracing_operation_t op, uint64_t internal,
            rocprofiler_user_data_t* value, void*) {
  std::lock_guard<std::mutex> lock(g_mutex);
  g_requests.push_back(std::to_string(kind) + "/" + std::to_string(op) + "/" +
                       std::to_string(internal));
  if (g_request_answer == 0) return 1;
  value->value = g_request_answer;
  return 0;
}

int ToolInit(rocprofiler_client_finalize_t, void*) {
  EXPECT_EQ(rocprofiler_create_context(&g_ctx), ROCPROFILER_STATUS_SUCCESS);
  EXPECT_EQ(rocprofiler_create_buffer(g_ctx, 1 << 16, 1 << 12,
                                      ROCPROFILER_BUFFER_POLICY_LOSSLESS,
                                      &BufferCallback, nullptr, &g_buffer),
            ROCPROFILER_STATUS_SUCCESS);
  auto buffer = [](rocprofiler_buffer_tracing_kind_t kind,
                   const rocprofiler_tracing_operation_t* ops, size_t n) {
    return rocprofiler_configure_buffer_tracing_service(g_ctx, kind, ops, n,
                                                        g_buffer);
  };
  const rocprofiler_tracing_operation_t none[] = {
      ROCPROFILER_MEMORY_ALLOCATION_NONE};
  const rocprofiler_tracing_operation_t last[] = {
      ROCPROFILER_MEMORY_ALLOCATION_LAST};
  const rocprofiler_tracing_operation_t zero[] = {0};
  g_init.memory_op_none =
      buffer(ROCPROFILER_BUFFER_TRACING_MEMORY_ALLOCATION, none, 1);
  g_init.memory_op_last =
      buffer(ROCPROFILER_BUFFER_TRACING_MEMORY_ALLOCATION, last, 1);
  g_init.retirement_with_ops =
      buffer(ROCPROFILER_BUFFER_TRACING_CORRELATION_ID_RETIREMENT, zero, 1);
  g_init.retirement_empty_list =
      buffer(ROCPROFILER_BUFFER_TRACING_CORRELATION_ID_RETIREMENT, zero, 0);
  g_init.memory_buffer =
      buffer(ROCPROFILER_BUFFER_TRACING_MEMORY_ALLOCATION, nullptr, 0);
  g_init.retirement =
      buffer(ROCPROFILER_BUFFER_TRACING_CORRELATION_ID_RETIREMENT, nullptr, 0);
  g_init.memory_twice =
      buffer(ROCPROFILER_BUFFER_TRACING_MEMORY_ALLOCATION, nullptr, 0);
  g_init.retirement_twice =
      buffer(ROCPROFILER_BUFFER_TRACING_CORRELATION_ID_RETIREMENT, nullptr, 0);
  // hsa_init stands for a traced call an allocation is made from.
  const rocprofiler_tracing_operation_t init[] = {
      ROCPROFILER_HSA_CORE_API_ID_hsa_init};
  EXPECT_EQ(buffer(ROCPROFILER_BUFFER_TRACING_HSA_CORE_API, init, 1),
            ROCPROFILER_STATUS_SUCCESS);
  EXPECT_EQ(rocprofiler_configure_callback_tracing_service(
                g_ctx, ROCPROFILER_CALLBACK_TRACING_HSA_CORE_API, init, 1,
                &TracingCallback, nullptr),
            ROCPROFILER_STATUS_SUCCESS);
  g_init.memory_cb_op_last = rocprofiler_configure_callback_tracing_service(
      g_ctx, ROCPROFILER_CALLBACK_TRACING_MEMORY_ALLOCATION, last, 1,
      &TracingCallback, nullptr);
  g_init.memory_callback = rocprofiler_configure_callback_tracing_service(
      g_ctx, ROCPROFILER_CALLBACK_TRACING_MEMORY_ALLOCATION, nullptr, 0,
      &TracingCallback, nullptr);
  const rocprofiler_external_correlation_id_request_kind_t kinds[] = {
      ROCPROFILER_EXTERNAL_CORRELATION_REQUEST_MEMORY_ALLOCATION};
  g_init.request =
      rocprofiler_configure_external_correlation_id_request_service(
          g_ctx, kinds, 1, &Request, nullptr);
  return rocprofiler_start_context(g_ctx) == ROCPROFILER_STATUS_SUCCESS ? 0 : 1;
}

rocprofiler_tool_configure_result_t* ToolConfigure(
    uint32_t, const char*, uint32_t, rocprofiler_client_id_t* id) {
  return sdk_test::Configure<&ToolInit>(id, "memory_retirement_test");
}

// What the buffer and the callbacks got since the last Take.
struct Seen {
  std::vector<Record> records;
  std::vector<Callback> callbacks;
  std::vector<std::string> requests;
};
Seen Take() {
  EXPECT_EQ(rocprofiler_flush_buffer(g_buffer), ROCPROFILER_STATUS_SUCCESS);
  std::lock_guard<std::mutex> lock(g_mutex);
  Seen s;
  s.records.swap(g_records);
  s.callbacks.swap(g_callbacks);
  s.requests.swap(g_requests);
  return s;
}

std::vector<Record> OfKind(const std::vector<Record>& all, uint32_t kind) {
  std::vector<Record> out;
  for (const Record& r : all) {
    if (r.kind == kind) out.push_back(r);
  }
  return out;
}

// hsa_amd_memory_pool_allocate(pool, size, 0, &out): the runtime stores
// `address` in out between ENTER and EXIT.
void PoolAllocate(uint64_t corr, uint64_t pool, size_t size, void* address) {
  void* out = nullptr;
  hsa_api_data_t d{};
  d.args.hsa_amd_memory_pool_allocate.memory_pool.handle = pool;
  d.args.hsa_amd_memory_pool_allocate.size = size;
  d.args.hsa_amd_memory_pool_allocate.ptr = &out;
  fake_seam::Call(kHsa, HSA_API_ID_hsa_amd_memory_pool_allocate, kEnter, corr,
                  &d);
  out = address;
  d.hsa_status_t_retval = HSA_STATUS_SUCCESS;
  fake_seam::Call(kHsa, HSA_API_ID_hsa_amd_memory_pool_allocate, kExit, corr,
                  &d);
}

void Free(uint32_t id, uint64_t corr, void* address) {
  hsa_api_data_t d{};
  d.args.hsa_memory_free.ptr = address;
  fake_seam::Call(kHsa, id, kEnter, corr, &d);
  fake_seam::Call(kHsa, id, kExit, corr, &d);
}

void* Addr(uint64_t v) { return reinterpret_cast<void*>(v); }

TEST(MemoryRetirement, ConfigurationStatuses) {
  EXPECT_EQ(g_init.memory_buffer, ROCPROFILER_STATUS_SUCCESS);
  EXPECT_EQ(g_init.memory_callback, ROCPROFILER_STATUS_SUCCESS);
  EXPECT_EQ(g_init.retirement, ROCPROFILER_STATUS_SUCCESS);
  EXPECT_EQ(g_init.request, ROCPROFILER_STATUS_SUCCESS);
  EXPECT_EQ(g_init.retirement_with_ops,
            ROCPROFILER_STATUS_ERROR_OPERATION_NOT_FOUND);
  EXPECT_EQ(g_init.retirement_empty_list,
            ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(g_init.memory_op_none,
            ROCPROFILER_STATUS_ERROR_OPERATION_NOT_FOUND);
  EXPECT_EQ(g_init.memory_op_last,
            ROCPROFILER_STATUS_ERROR_OPERATION_NOT_FOUND);
  EXPECT_EQ(g_init.memory_cb_op_last,
            ROCPROFILER_STATUS_ERROR_OPERATION_NOT_FOUND);
  EXPECT_EQ(g_init.memory_twice,
            ROCPROFILER_STATUS_ERROR_SERVICE_ALREADY_CONFIGURED);
  EXPECT_EQ(g_init.retirement_twice,
            ROCPROFILER_STATUS_ERROR_SERVICE_ALREADY_CONFIGURED);
  // The allocation calls are reported to the SDK without any HSA kind
  // tracing them.
  EXPECT_TRUE(
      fake_seam::Interested(kHsa, HSA_API_ID_hsa_amd_memory_pool_allocate));
  EXPECT_TRUE(fake_seam::Interested(kHsa, HSA_API_ID_hsa_amd_memory_pool_free));
  EXPECT_TRUE(fake_seam::Interested(kHsa, HSA_API_ID_hsa_memory_allocate));
  EXPECT_TRUE(fake_seam::Interested(kHsa, HSA_API_ID_hsa_memory_free));
  EXPECT_FALSE(fake_seam::Interested(kHsa, HSA_API_ID_hsa_shut_down));
}

// An allocation made from no traced call: ENTER (no address, no times) and
// EXIT (the address, the call's times) callbacks sharing user data, one
// buffer record with the same fields and the call's own ID, then that ID's
// retirement.
TEST(MemoryRetirement, AllocationOutsideAnyTracedCall) {
  Take();
  rocprofiler_thread_id_t tid = 0;
  rocprofiler_get_thread_id(&tid);
  PoolAllocate(100, 0x5000, 4096, Addr(0xabc000));
  const Seen s = Take();
  ASSERT_EQ(s.callbacks.size(), 2u);
  const Callback& enter = s.callbacks[0];
  const Callback& exit = s.callbacks[1];
  for (const Callback& c : s.callbacks) {
    EXPECT_EQ(c.record.kind, ROCPROFILER_CALLBACK_TRACING_MEMORY_ALLOCATION);
    EXPECT_EQ(c.record.operation, ROCPROFILER_MEMORY_ALLOCATION_ALLOCATE);
    EXPECT_EQ(c.record.correlation_id.internal, 100u);
    EXPECT_EQ(c.record.correlation_id.ancestor, 0u);
    EXPECT_EQ(c.record.thread_id, tid);
    EXPECT_EQ(c.record.context_id.handle, g_ctx.handle);
    EXPECT_EQ(c.memory.size, sizeof(c.memory));
    EXPECT_EQ(c.memory.allocation_size, 4096u);
    // No agent owns pool 0x5000: rocprofiler-sdk's null agent ID.
    EXPECT_EQ(c.memory.agent_id.handle, kNullAgent);
    EXPECT_EQ(c.args,
              "start_timestamp;end_timestamp;agent_id;address;"
              "allocation_size;");
  }
  EXPECT_EQ(enter.record.phase, ROCPROFILER_CALLBACK_PHASE_ENTER);
  EXPECT_EQ(exit.record.phase, ROCPROFILER_CALLBACK_PHASE_EXIT);
  EXPECT_EQ(enter.memory.address.value, 0u);
  EXPECT_EQ(enter.memory.start_timestamp, 0u);
  EXPECT_EQ(enter.memory.end_timestamp, 0u);
  EXPECT_EQ(exit.memory.address.value, 0xabc000u);
  EXPECT_NE(exit.memory.start_timestamp, 0u);
  EXPECT_LE(exit.memory.start_timestamp, exit.memory.end_timestamp);
  EXPECT_EQ(enter.user_in, 0u);
  EXPECT_NE(enter.user_out, 0u);
  EXPECT_EQ(exit.user_in, enter.user_out);  // what ENTER left
  ASSERT_EQ(s.records.size(), 2u);
  const Record& m = s.records[0];
  ASSERT_EQ(m.kind, ROCPROFILER_BUFFER_TRACING_MEMORY_ALLOCATION);
  EXPECT_EQ(m.memory.size, sizeof(m.memory));
  EXPECT_EQ(m.memory.kind, ROCPROFILER_BUFFER_TRACING_MEMORY_ALLOCATION);
  EXPECT_EQ(m.memory.operation, ROCPROFILER_MEMORY_ALLOCATION_ALLOCATE);
  EXPECT_EQ(m.memory.correlation_id.internal, 100u);
  EXPECT_EQ(m.memory.thread_id, tid);
  EXPECT_EQ(m.memory.address.value, 0xabc000u);
  EXPECT_EQ(m.memory.allocation_size, 4096u);
  EXPECT_EQ(m.memory.start_timestamp, exit.memory.start_timestamp);
  EXPECT_EQ(m.memory.end_timestamp, exit.memory.end_timestamp);
  EXPECT_EQ(m.memory.agent_id.handle, exit.memory.agent_id.handle);
  const Record& r = s.records[1];
  ASSERT_EQ(r.kind, ROCPROFILER_BUFFER_TRACING_CORRELATION_ID_RETIREMENT);
  EXPECT_EQ(r.retirement.size, sizeof(r.retirement));
  EXPECT_EQ(r.retirement.kind,
            ROCPROFILER_BUFFER_TRACING_CORRELATION_ID_RETIREMENT);
  EXPECT_EQ(r.retirement.internal_correlation_id, 100u);
  EXPECT_GE(r.retirement.timestamp, m.memory.end_timestamp);
}

// Frees: the address at ENTER and EXIT, no size, the null agent ID (what
// rocprofiler-sdk 1.0.0 gives a free, whose pool it does not look up); an
// allocation from a region no agent owns has it too; both free calls
// and hsa_memory_allocate map to the SDK's operations.
TEST(MemoryRetirement, FreesAndRegionAllocations) {
  Take();
  Free(HSA_API_ID_hsa_amd_memory_pool_free, 300, Addr(0xabc000));
  Free(HSA_API_ID_hsa_memory_free, 301, Addr(0xdef000));
  {
    void* out = nullptr;
    hsa_api_data_t d{};
    d.args.hsa_memory_allocate.region.handle = 0x7000;
    d.args.hsa_memory_allocate.size = 64;
    d.args.hsa_memory_allocate.ptr = &out;
    fake_seam::Call(kHsa, HSA_API_ID_hsa_memory_allocate, kEnter, 302, &d);
    out = Addr(0x123000);
    fake_seam::Call(kHsa, HSA_API_ID_hsa_memory_allocate, kExit, 302, &d);
  }
  const Seen s = Take();
  ASSERT_EQ(s.callbacks.size(), 6u);
  for (int i = 0; i < 2; ++i) {
    for (const Callback* c : {&s.callbacks[2 * i], &s.callbacks[2 * i + 1]}) {
      EXPECT_EQ(c->record.operation, ROCPROFILER_MEMORY_ALLOCATION_FREE);
      EXPECT_EQ(c->memory.address.value, i == 0 ? 0xabc000u : 0xdef000u);
      EXPECT_EQ(c->memory.allocation_size, 0u);
      EXPECT_EQ(c->memory.agent_id.handle, kNullAgent);
      EXPECT_EQ(c->record.correlation_id.internal, 300u + i);
    }
  }
  EXPECT_EQ(s.callbacks[4].record.operation,
            ROCPROFILER_MEMORY_ALLOCATION_ALLOCATE);
  EXPECT_EQ(s.callbacks[5].memory.address.value, 0x123000u);
  EXPECT_EQ(s.callbacks[5].memory.allocation_size, 64u);
  EXPECT_EQ(s.callbacks[5].memory.agent_id.handle, kNullAgent);
  const auto memory =
      OfKind(s.records, ROCPROFILER_BUFFER_TRACING_MEMORY_ALLOCATION);
  ASSERT_EQ(memory.size(), 3u);
  EXPECT_EQ(memory[0].memory.operation, ROCPROFILER_MEMORY_ALLOCATION_FREE);
  EXPECT_EQ(memory[1].memory.operation, ROCPROFILER_MEMORY_ALLOCATION_FREE);
  EXPECT_EQ(memory[2].memory.operation, ROCPROFILER_MEMORY_ALLOCATION_ALLOCATE);
  EXPECT_EQ(memory[1].memory.address.value, 0xdef000u);
  for (const Record& r : memory) {
    EXPECT_EQ(r.memory.agent_id.handle, kNullAgent);
  }
  EXPECT_EQ(
      OfKind(s.records, ROCPROFILER_BUFFER_TRACING_CORRELATION_ID_RETIREMENT)
          .size(),
      3u);
}

// An allocation made from a traced call carries that call's ID (as
// rocprofiler-sdk's: the latest correlation ID of the thread); the callbacks
// nest inside the call's; the ID is retired once, after the call's own
// record, and the allocation call's own ID (in no record) never is.
TEST(MemoryRetirement, AllocationInsideATracedCallSharesItsId) {
  Take();
  hsa_api_data_t d{};
  fake_seam::Call(kHsa, HSA_API_ID_hsa_init, kEnter, 200, &d);
  PoolAllocate(201, 0x5000, 128, Addr(0x9000));
  fake_seam::Call(kHsa, HSA_API_ID_hsa_init, kExit, 200, &d);
  const Seen s = Take();
  ASSERT_EQ(s.callbacks.size(), 4u);
  EXPECT_EQ(s.callbacks[0].record.kind,
            ROCPROFILER_CALLBACK_TRACING_HSA_CORE_API);
  EXPECT_EQ(s.callbacks[1].record.kind,
            ROCPROFILER_CALLBACK_TRACING_MEMORY_ALLOCATION);
  EXPECT_EQ(s.callbacks[1].record.phase, ROCPROFILER_CALLBACK_PHASE_ENTER);
  EXPECT_EQ(s.callbacks[2].record.kind,
            ROCPROFILER_CALLBACK_TRACING_MEMORY_ALLOCATION);
  EXPECT_EQ(s.callbacks[2].record.phase, ROCPROFILER_CALLBACK_PHASE_EXIT);
  EXPECT_EQ(s.callbacks[3].record.kind,
            ROCPROFILER_CALLBACK_TRACING_HSA_CORE_API);
  for (const Callback& c : s.callbacks) {
    EXPECT_EQ(c.record.correlation_id.internal, 200u);
  }
  ASSERT_EQ(s.records.size(), 3u);
  EXPECT_EQ(s.records[0].kind, ROCPROFILER_BUFFER_TRACING_MEMORY_ALLOCATION);
  EXPECT_EQ(s.records[1].kind, ROCPROFILER_BUFFER_TRACING_HSA_CORE_API);
  EXPECT_EQ(s.records[2].kind,
            ROCPROFILER_BUFFER_TRACING_CORRELATION_ID_RETIREMENT);
  for (const Record& r : s.records) EXPECT_EQ(r.Id(), 200u);
  EXPECT_GE(s.records[2].retirement.timestamp, s.records[1].api.end_timestamp);
}

// Exact counts: N allocation/free pairs give 2N memory records, 2N ENTER
// and 2N EXIT callbacks, and 2N retirements, each after the last record of
// its ID (records of one thread arrive in the order written).
TEST(MemoryRetirement, ExactCountsAndRetirementLast) {
  Take();
  constexpr int kPairs = 500;
  for (int i = 0; i < kPairs; ++i) {
    PoolAllocate(10000 + 2 * i, 0x5000, 16 + i, Addr(0x100000 + 64 * i));
    Free(HSA_API_ID_hsa_amd_memory_pool_free, 10001 + 2 * i,
         Addr(0x100000 + 64 * i));
  }
  const Seen s = Take();
  int enters = 0, exits = 0;
  for (const Callback& c : s.callbacks) {
    if (c.record.phase == ROCPROFILER_CALLBACK_PHASE_ENTER) ++enters;
    if (c.record.phase == ROCPROFILER_CALLBACK_PHASE_EXIT) ++exits;
  }
  EXPECT_EQ(enters, 2 * kPairs);
  EXPECT_EQ(exits, 2 * kPairs);
  std::map<uint64_t, int> retired;  // ID -> index of its retirement
  std::map<uint64_t, int> last;     // ID -> index of its last other record
  for (size_t i = 0; i < s.records.size(); ++i) {
    const Record& r = s.records[i];
    if (r.kind == ROCPROFILER_BUFFER_TRACING_CORRELATION_ID_RETIREMENT) {
      EXPECT_EQ(retired.count(r.Id()), 0u) << "retired twice: " << r.Id();
      retired[r.Id()] = static_cast<int>(i);
    } else {
      EXPECT_EQ(retired.count(r.Id()), 0u) << "record after retirement";
      last[r.Id()] = static_cast<int>(i);
    }
  }
  EXPECT_EQ(
      OfKind(s.records, ROCPROFILER_BUFFER_TRACING_MEMORY_ALLOCATION).size(),
      2u * kPairs);
  EXPECT_EQ(retired.size(), 2u * kPairs);
  for (const auto& l : last) {
    ASSERT_EQ(retired.count(l.first), 1u) << l.first;
    EXPECT_GT(retired[l.first], l.second);
  }
}

// The request service asks for MEMORY_ALLOCATION with the records' ID when
// no external ID is pushed; its answer is the records' external ID; a
// pushed ID wins and is not asked for.
TEST(MemoryRetirement, RequestServiceGivesTheExternalId) {
  Take();
  g_request_answer = 555;
  PoolAllocate(400, 0x5000, 8, Addr(0x4000));
  Seen s = Take();
  ASSERT_EQ(s.requests.size(), 1u);
  EXPECT_EQ(s.requests[0],
            std::to_string(
                ROCPROFILER_EXTERNAL_CORRELATION_REQUEST_MEMORY_ALLOCATION) +
                "/" + std::to_string(ROCPROFILER_MEMORY_ALLOCATION_ALLOCATE) +
                "/400");
  ASSERT_EQ(s.callbacks.size(), 2u);
  EXPECT_EQ(s.callbacks[0].record.correlation_id.external.value, 555u);
  EXPECT_EQ(s.callbacks[1].record.correlation_id.external.value, 555u);
  auto memory = OfKind(s.records, ROCPROFILER_BUFFER_TRACING_MEMORY_ALLOCATION);
  ASSERT_EQ(memory.size(), 1u);
  EXPECT_EQ(memory[0].memory.correlation_id.external.value, 555u);

  rocprofiler_thread_id_t tid = 0;
  rocprofiler_get_thread_id(&tid);
  ASSERT_EQ(rocprofiler_push_external_correlation_id(
                g_ctx, tid, rocprofiler_user_data_t{77}),
            ROCPROFILER_STATUS_SUCCESS);
  PoolAllocate(401, 0x5000, 8, Addr(0x4000));
  rocprofiler_user_data_t popped{0};
  rocprofiler_pop_external_correlation_id(g_ctx, tid, &popped);
  g_request_answer = 0;
  s = Take();
  EXPECT_TRUE(s.requests.empty());
  memory = OfKind(s.records, ROCPROFILER_BUFFER_TRACING_MEMORY_ALLOCATION);
  ASSERT_EQ(memory.size(), 1u);
  EXPECT_EQ(memory[0].memory.correlation_id.external.value, 77u);

  // Declined: external 0.
  PoolAllocate(402, 0x5000, 8, Addr(0x4000));
  s = Take();
  EXPECT_EQ(s.requests.size(), 1u);
  memory = OfKind(s.records, ROCPROFILER_BUFFER_TRACING_MEMORY_ALLOCATION);
  ASSERT_EQ(memory.size(), 1u);
  EXPECT_EQ(memory[0].memory.correlation_id.external.value, 0u);
}

// Calls that are no allocation, and traced calls with no record: nothing
// but what their own kinds give (hsa_init's record and its retirement).
TEST(MemoryRetirement, OtherCallsGiveNoMemoryRecord) {
  Take();
  hsa_api_data_t d{};
  fake_seam::Call(kHsa, HSA_API_ID_hsa_init, kEnter, 500, &d);
  fake_seam::Call(kHsa, HSA_API_ID_hsa_init, kExit, 500, &d);
  fake_seam::CallUnfiltered(kHsa, HSA_API_ID_hsa_shut_down, kEnter, 501, &d);
  fake_seam::CallUnfiltered(kHsa, HSA_API_ID_hsa_shut_down, kExit, 501, &d);
  const Seen s = Take();
  ASSERT_EQ(s.records.size(), 2u);
  EXPECT_EQ(s.records[0].kind, ROCPROFILER_BUFFER_TRACING_HSA_CORE_API);
  EXPECT_EQ(s.records[1].kind,
            ROCPROFILER_BUFFER_TRACING_CORRELATION_ID_RETIREMENT);
  EXPECT_EQ(s.records[1].Id(), 500u);
}

int IgnoreArg(rocprofiler_buffer_tracing_kind_t,
              rocprofiler_tracing_operation_t, uint32_t, const void* const,
              int32_t, const char*, const char*, const char*, void* data) {
  ++*static_cast<int*>(data);
  return 0;
}

TEST(MemoryRetirement, IterateBufferRecordArgsStatuses) {
  rocprofiler_buffer_tracing_memory_allocation_record_t m{};
  rocprofiler_record_header_t h{};
  h.category = ROCPROFILER_BUFFER_CATEGORY_TRACING;
  h.kind = ROCPROFILER_BUFFER_TRACING_MEMORY_ALLOCATION;
  h.payload = &m;
  int calls = 0;
  EXPECT_EQ(rocprofiler_iterate_buffer_tracing_record_args(h, nullptr, &calls),
            ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(
      rocprofiler_iterate_buffer_tracing_record_args(h, &IgnoreArg, &calls),
      ROCPROFILER_STATUS_ERROR_NOT_IMPLEMENTED);
  h.kind = ROCPROFILER_BUFFER_TRACING_HSA_CORE_API;
  EXPECT_EQ(
      rocprofiler_iterate_buffer_tracing_record_args(h, &IgnoreArg, &calls),
      ROCPROFILER_STATUS_ERROR_NOT_IMPLEMENTED);
  for (uint32_t kind :
       {0u, static_cast<uint32_t>(ROCPROFILER_BUFFER_TRACING_LAST), 1000u}) {
    h.kind = kind;
    EXPECT_EQ(
        rocprofiler_iterate_buffer_tracing_record_args(h, &IgnoreArg, &calls),
        ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT)
        << kind;
  }
  h.kind = ROCPROFILER_BUFFER_TRACING_HSA_CORE_API;
  h.payload = nullptr;
  EXPECT_EQ(
      rocprofiler_iterate_buffer_tracing_record_args(h, &IgnoreArg, &calls),
      ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(calls, 0);
}

// Names and operations of the new kinds, as 1.0.0's.
TEST(MemoryRetirement, Names) {
  const char* name = nullptr;
  EXPECT_EQ(rocprofiler_query_buffer_tracing_kind_operation_name(
                ROCPROFILER_BUFFER_TRACING_MEMORY_ALLOCATION,
                ROCPROFILER_MEMORY_ALLOCATION_VMEM_FREE, &name, nullptr),
            ROCPROFILER_STATUS_SUCCESS);
  EXPECT_STREQ(name, "MEMORY_ALLOCATION_VMEM_FREE");
  EXPECT_EQ(rocprofiler_query_buffer_tracing_kind_operation_name(
                ROCPROFILER_BUFFER_TRACING_MEMORY_ALLOCATION,
                ROCPROFILER_MEMORY_ALLOCATION_LAST, &name, nullptr),
            ROCPROFILER_STATUS_ERROR_OPERATION_NOT_FOUND);
  EXPECT_EQ(
      rocprofiler_query_buffer_tracing_kind_name(
          ROCPROFILER_BUFFER_TRACING_CORRELATION_ID_RETIREMENT, &name, nullptr),
      ROCPROFILER_STATUS_SUCCESS);
  EXPECT_STREQ(name, "CORRELATION_ID_RETIREMENT");
  int ops = 0;
  EXPECT_EQ(rocprofiler_iterate_buffer_tracing_kind_operations(
                ROCPROFILER_BUFFER_TRACING_MEMORY_ALLOCATION,
                [](rocprofiler_buffer_tracing_kind_t,
                   rocprofiler_tracing_operation_t, void* d) {
                  ++*static_cast<int*>(d);
                  return 0;
                },
                &ops),
            ROCPROFILER_STATUS_SUCCESS);
  EXPECT_EQ(ops, 4);
}

// A stopped context gets nothing.
TEST(MemoryRetirement, ZStoppedContextRecordsNothing) {
  Take();
  ASSERT_EQ(rocprofiler_stop_context(g_ctx), ROCPROFILER_STATUS_SUCCESS);
  PoolAllocate(600, 0x5000, 8, Addr(0x4000));
  const Seen s = Take();
  EXPECT_TRUE(s.callbacks.empty());
  EXPECT_TRUE(s.records.empty());
  ASSERT_EQ(rocprofiler_start_context(g_ctx), ROCPROFILER_STATUS_SUCCESS);
}

}  // namespace

int main(int argc, char** argv) {
  return sdk_test::RunWithTool(argc, argv, &ToolConfigure);
}
