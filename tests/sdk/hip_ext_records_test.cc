// HIP_RUNTIME_API_EXT / HIP_COMPILER_API_EXT buffer records, driven through
// the consumer seam with synthetic HIP calls as the interception layer
// reports them: one record per call of the configured operations, with the
// call's arguments, return value and the same correlation ID as the plain
// HIP record; rocprofiler_iterate_buffer_tracing_record_args over them; the
// interest an EXT-only context gives; the statuses of the EXT kinds.
#include <cstring>
#include <mutex>
#include <string>
#include <vector>

#include "ext/prof_protocol.h"
#include "gtest/gtest.h"
#include "hip_api_data.h"
#include "hsa_api_data.h"
#include "hsa_api_id.h"
#include "rocprofiler-sdk/rocprofiler.h"
#include "tests/sdk/fake_consumer_seam.h"
#include "tests/sdk/run_with_tool.h"
#include "tests/sdk/tool_configure.h"

namespace {

constexpr uint32_t kHip = ACTIVITY_DOMAIN_HIP_API;
constexpr uint32_t kHsa = ACTIVITY_DOMAIN_HSA_API;
constexpr uint32_t kEnter = ACTIVITY_API_PHASE_ENTER;
constexpr uint32_t kExit = ACTIVITY_API_PHASE_EXIT;

// One argument as rocprofiler_iterate_buffer_tracing_record_args gave it.
struct Arg {
  uint32_t kind;
  int32_t operation;
  uint32_t number;
  bool address_in_record;
  int32_t indirection;
  std::string type, name, value;
};

struct Seen {
  uint32_t kind;
  int32_t operation;
  uint64_t size;  // the record's own
  uint64_t correlation_id;
  uint64_t start, end, thread_id;
  // EXT records only.
  void* malloc_ptr = nullptr;
  size_t malloc_size = 0;
  void* free_ptr = nullptr;
  int retval = 0;
  rocprofiler_status_t args_status = ROCPROFILER_STATUS_ERROR;
  std::vector<Arg> args;
};

std::mutex g_mutex;
std::vector<Seen> g_seen;

struct IterateState {
  const char* begin;
  const char* end;
  std::vector<Arg>* out;
};

int OnArg(rocprofiler_buffer_tracing_kind_t kind,
          rocprofiler_tracing_operation_t operation, uint32_t arg_number,
          const void* const arg_value_addr, int32_t arg_indirection_count,
          const char* arg_type, const char* arg_name, const char* arg_value_str,
          void* data) {
  auto* s = static_cast<IterateState*>(data);
  const char* p = static_cast<const char*>(arg_value_addr);
  s->out->push_back(Arg{static_cast<uint32_t>(kind), operation, arg_number,
                        p >= s->begin && p < s->end, arg_indirection_count,
                        arg_type, arg_name, arg_value_str});
  return 0;
}

void BufferCallback(rocprofiler_context_id_t, rocprofiler_buffer_id_t,
                    rocprofiler_record_header_t** headers, size_t n, void*,
                    uint64_t) {
  std::lock_guard<std::mutex> lock(g_mutex);
  for (size_t i = 0; i < n; ++i) {
    Seen s{};
    s.kind = headers[i]->kind;
    const auto* api =
        static_cast<const rocprofiler_buffer_tracing_hip_api_record_t*>(
            headers[i]->payload);
    s.operation = api->operation;
    s.size = api->size;
    s.correlation_id = api->correlation_id.internal;
    s.start = api->start_timestamp;
    s.end = api->end_timestamp;
    s.thread_id = api->thread_id;
    IterateState state{nullptr, nullptr, &s.args};
    if (s.kind == ROCPROFILER_BUFFER_TRACING_HIP_RUNTIME_API_EXT) {
      const auto* ext =
          static_cast<const rocprofiler_buffer_tracing_hip_api_ext_record_t*>(
              headers[i]->payload);
      s.malloc_ptr = ext->args.hipMalloc.ptr;
      s.malloc_size = ext->args.hipMalloc.size;
      s.free_ptr = ext->args.hipFree.ptr;
      s.retval = ext->retval.hipError_t_retval;
      state.begin = reinterpret_cast<const char*>(ext);
      state.end = state.begin + sizeof(*ext);
    }
    s.args_status = rocprofiler_iterate_buffer_tracing_record_args(
        *headers[i], &OnArg, &state);
    g_seen.push_back(s);
  }
}

rocprofiler_context_id_t g_ctx{0}, g_free_only{0};
rocprofiler_buffer_id_t g_buffer{0}, g_free_buffer{0};

struct Statuses {
  rocprofiler_status_t plain, runtime_ext, compiler_ext, rocdecode_ext, bad_op,
      free_only, free_only_memory, twice;
} g_init;

int ToolInit(rocprofiler_client_finalize_t, void*) {
  if (rocprofiler_create_context(&g_ctx) != ROCPROFILER_STATUS_SUCCESS ||
      rocprofiler_create_buffer(
          g_ctx, 1 << 16, 1 << 15, ROCPROFILER_BUFFER_POLICY_LOSSLESS,
          &BufferCallback, nullptr, &g_buffer) != ROCPROFILER_STATUS_SUCCESS) {
    return 1;
  }
  g_init.plain = rocprofiler_configure_buffer_tracing_service(
      g_ctx, ROCPROFILER_BUFFER_TRACING_HIP_RUNTIME_API, nullptr, 0, g_buffer);
  const rocprofiler_tracing_operation_t malloc_free[] = {
      ROCPROFILER_HIP_RUNTIME_API_ID_hipMalloc,
      ROCPROFILER_HIP_RUNTIME_API_ID_hipFree};
  g_init.runtime_ext = rocprofiler_configure_buffer_tracing_service(
      g_ctx, ROCPROFILER_BUFFER_TRACING_HIP_RUNTIME_API_EXT, malloc_free, 2,
      g_buffer);
  g_init.twice = rocprofiler_configure_buffer_tracing_service(
      g_ctx, ROCPROFILER_BUFFER_TRACING_HIP_RUNTIME_API_EXT, nullptr, 0,
      g_buffer);
  g_init.compiler_ext = rocprofiler_configure_buffer_tracing_service(
      g_ctx, ROCPROFILER_BUFFER_TRACING_HIP_COMPILER_API_EXT, nullptr, 0,
      g_buffer);
  g_init.rocdecode_ext = rocprofiler_configure_buffer_tracing_service(
      g_ctx, ROCPROFILER_BUFFER_TRACING_ROCDECODE_API_EXT, nullptr, 0,
      g_buffer);

  // A context that records only hipFree, with arguments.
  if (rocprofiler_create_context(&g_free_only) != ROCPROFILER_STATUS_SUCCESS ||
      rocprofiler_create_buffer(g_free_only, 1 << 16, 1 << 15,
                                ROCPROFILER_BUFFER_POLICY_LOSSLESS,
                                &BufferCallback, nullptr,
                                &g_free_buffer) != ROCPROFILER_STATUS_SUCCESS) {
    return 1;
  }
  const rocprofiler_tracing_operation_t bad[] = {
      ROCPROFILER_HIP_RUNTIME_API_ID_LAST};
  g_init.bad_op = rocprofiler_configure_buffer_tracing_service(
      g_free_only, ROCPROFILER_BUFFER_TRACING_HIP_RUNTIME_API_EXT, bad, 1,
      g_free_buffer);
  const rocprofiler_tracing_operation_t free_op[] = {
      ROCPROFILER_HIP_RUNTIME_API_ID_hipFree};
  g_init.free_only = rocprofiler_configure_buffer_tracing_service(
      g_free_only, ROCPROFILER_BUFFER_TRACING_HIP_RUNTIME_API_EXT, free_op, 1,
      g_free_buffer);
  g_init.free_only_memory = rocprofiler_configure_buffer_tracing_service(
      g_free_only, ROCPROFILER_BUFFER_TRACING_MEMORY_ALLOCATION, nullptr, 0,
      g_free_buffer);
  return rocprofiler_start_context(g_ctx) == ROCPROFILER_STATUS_SUCCESS ? 0 : 1;
}

rocprofiler_tool_configure_result_t* ToolConfigure(
    uint32_t, const char*, uint32_t, rocprofiler_client_id_t* id) {
  return sdk_test::Configure<&ToolInit>(id, "hip_ext_records_test");
}

std::vector<Seen> Take(rocprofiler_buffer_id_t buffer) {
  EXPECT_EQ(rocprofiler_flush_buffer(buffer), ROCPROFILER_STATUS_SUCCESS);
  std::lock_guard<std::mutex> lock(g_mutex);
  std::vector<Seen> out;
  out.swap(g_seen);
  return out;
}

// HIP's data struct holds members with constructors: raw storage, zeroed.
union HipData {
  HipData() { std::memset(static_cast<void*>(&value), 0, sizeof(value)); }
  hip_api_data_t value;
};

// hipMalloc(&out, size): the runtime stores `address` and returns `rc`.
void Malloc(uint64_t corr, void** out, size_t size, void* address, int rc) {
  HipData d;
  d.value.args.hipMalloc.ptr = out;
  d.value.args.hipMalloc.size = size;
  fake_seam::Call(kHip, HIP_API_ID_hipMalloc, kEnter, corr, &d.value);
  *out = address;
  d.value.hipError_t_retval = static_cast<hipError_t>(rc);
  fake_seam::Call(kHip, HIP_API_ID_hipMalloc, kExit, corr, &d.value);
}

void Free(uint64_t corr, void* ptr) {
  HipData d;
  d.value.args.hipFree.ptr = ptr;
  fake_seam::Call(kHip, HIP_API_ID_hipFree, kEnter, corr, &d.value);
  fake_seam::Call(kHip, HIP_API_ID_hipFree, kExit, corr, &d.value);
}

void GetDevice(uint64_t corr) {
  HipData d;
  int device = 0;
  d.value.args.hipGetDevice.deviceId = &device;
  fake_seam::Call(kHip, HIP_API_ID_hipGetDevice, kEnter, corr, &d.value);
  fake_seam::Call(kHip, HIP_API_ID_hipGetDevice, kExit, corr, &d.value);
}

TEST(HipExtRecords, ConfigurationStatuses) {
  EXPECT_EQ(g_init.plain, ROCPROFILER_STATUS_SUCCESS);
  EXPECT_EQ(g_init.runtime_ext, ROCPROFILER_STATUS_SUCCESS);
  EXPECT_EQ(g_init.compiler_ext, ROCPROFILER_STATUS_SUCCESS);
  EXPECT_EQ(g_init.twice, ROCPROFILER_STATUS_ERROR_SERVICE_ALREADY_CONFIGURED);
  EXPECT_EQ(g_init.bad_op, ROCPROFILER_STATUS_ERROR_OPERATION_NOT_FOUND);
  EXPECT_EQ(g_init.free_only, ROCPROFILER_STATUS_SUCCESS);
  // rocDecode is not traced by this library.
  EXPECT_EQ(g_init.rocdecode_ext, ROCPROFILER_STATUS_ERROR_NOT_IMPLEMENTED);
}

TEST(HipExtRecords, OneRecordPerConfiguredCallWithItsArguments) {
  Take(g_buffer);
  void* out = nullptr;
  void* const address = reinterpret_cast<void*>(0x7000);
  Malloc(11, &out, 4096, address, 2);
  GetDevice(12);
  Free(13, address);
  const std::vector<Seen> seen = Take(g_buffer);
  std::vector<Seen> plain, ext;
  for (const Seen& s : seen) {
    (s.kind == ROCPROFILER_BUFFER_TRACING_HIP_RUNTIME_API_EXT ? ext : plain)
        .push_back(s);
  }
  ASSERT_EQ(plain.size(), 3u);  // every call
  ASSERT_EQ(ext.size(), 2u);    // hipMalloc and hipFree only
  const Seen& m = ext[0];
  EXPECT_EQ(m.operation, ROCPROFILER_HIP_RUNTIME_API_ID_hipMalloc);
  EXPECT_EQ(m.size, sizeof(rocprofiler_buffer_tracing_hip_api_ext_record_t));
  EXPECT_EQ(m.correlation_id, 11u);
  EXPECT_EQ(m.correlation_id, plain[0].correlation_id);
  EXPECT_EQ(m.thread_id, plain[0].thread_id);
  EXPECT_LE(m.start, m.end);
  EXPECT_NE(m.start, 0u);
  EXPECT_EQ(m.malloc_ptr, static_cast<void*>(&out));
  EXPECT_EQ(m.malloc_size, 4096u);
  EXPECT_EQ(m.retval, 2);
  const Seen& f = ext[1];
  EXPECT_EQ(f.operation, ROCPROFILER_HIP_RUNTIME_API_ID_hipFree);
  EXPECT_EQ(f.correlation_id, 13u);
  EXPECT_EQ(f.free_ptr, address);
  EXPECT_EQ(f.retval, 0);
}

TEST(HipExtRecords, IterateRecordArgs) {
  Take(g_buffer);
  void* out = nullptr;
  Malloc(21, &out, 256, reinterpret_cast<void*>(0x9000), 0);
  const std::vector<Seen> seen = Take(g_buffer);
  ASSERT_EQ(seen.size(), 2u);
  for (const Seen& s : seen) {
    if (s.kind == ROCPROFILER_BUFFER_TRACING_HIP_RUNTIME_API) {
      // Records without arguments.
      EXPECT_EQ(s.args_status, ROCPROFILER_STATUS_ERROR_NOT_IMPLEMENTED);
      EXPECT_TRUE(s.args.empty());
      continue;
    }
    EXPECT_EQ(s.args_status, ROCPROFILER_STATUS_SUCCESS);
    ASSERT_EQ(s.args.size(), 2u);
    EXPECT_EQ(s.args[0].name, "ptr");
    EXPECT_EQ(s.args[0].type, "void**");
    EXPECT_EQ(s.args[0].indirection, 2);
    EXPECT_EQ(s.args[1].name, "size");
    EXPECT_EQ(s.args[1].value, "256");
    for (uint32_t i = 0; i < 2; ++i) {
      EXPECT_EQ(s.args[i].number, i);
      EXPECT_EQ(s.args[i].kind, ROCPROFILER_BUFFER_TRACING_HIP_RUNTIME_API_EXT);
      EXPECT_EQ(s.args[i].operation, ROCPROFILER_HIP_RUNTIME_API_ID_hipMalloc);
      EXPECT_TRUE(s.args[i].address_in_record) << i;
    }
  }
}

TEST(HipExtRecords, AnExtOnlyContextMakesItsCallsTraced) {
  ASSERT_EQ(rocprofiler_stop_context(g_ctx), ROCPROFILER_STATUS_SUCCESS);
  ASSERT_EQ(rocprofiler_start_context(g_free_only), ROCPROFILER_STATUS_SUCCESS);
  EXPECT_TRUE(fake_seam::Interested(kHip, HIP_API_ID_hipFree));
  EXPECT_FALSE(fake_seam::Interested(kHip, HIP_API_ID_hipMalloc));
  Take(g_free_buffer);
  Free(31, reinterpret_cast<void*>(0xa000));
  const std::vector<Seen> seen = Take(g_free_buffer);
  ASSERT_EQ(seen.size(), 1u);
  EXPECT_EQ(seen[0].kind, ROCPROFILER_BUFFER_TRACING_HIP_RUNTIME_API_EXT);
  EXPECT_EQ(seen[0].correlation_id, 31u);
  EXPECT_EQ(seen[0].free_ptr, reinterpret_cast<void*>(0xa000));
  ASSERT_EQ(rocprofiler_stop_context(g_free_only), ROCPROFILER_STATUS_SUCCESS);
  EXPECT_FALSE(fake_seam::Interested(kHip, HIP_API_ID_hipFree));
  ASSERT_EQ(rocprofiler_start_context(g_ctx), ROCPROFILER_STATUS_SUCCESS);
}

// An allocation made inside a call that a context traces only as an EXT
// record belongs to that call, as inside any traced call.
TEST(HipExtRecords, AnAllocationInsideAnExtOnlyCallSharesItsId) {
  ASSERT_EQ(g_init.free_only_memory, ROCPROFILER_STATUS_SUCCESS);
  ASSERT_EQ(rocprofiler_stop_context(g_ctx), ROCPROFILER_STATUS_SUCCESS);
  ASSERT_EQ(rocprofiler_start_context(g_free_only), ROCPROFILER_STATUS_SUCCESS);
  Take(g_free_buffer);
  HipData d;
  d.value.args.hipFree.ptr = reinterpret_cast<void*>(0xb000);
  fake_seam::Call(kHip, HIP_API_ID_hipFree, kEnter, 41, &d.value);
  void* out = nullptr;
  hsa_api_data_t h{};
  h.args.hsa_amd_memory_pool_allocate.memory_pool.handle = 0x5000;
  h.args.hsa_amd_memory_pool_allocate.size = 64;
  h.args.hsa_amd_memory_pool_allocate.ptr = &out;
  fake_seam::Call(kHsa, HSA_API_ID_hsa_amd_memory_pool_allocate, kEnter, 42,
                  &h);
  out = reinterpret_cast<void*>(0xc000);
  h.hsa_status_t_retval = HSA_STATUS_SUCCESS;
  fake_seam::Call(kHsa, HSA_API_ID_hsa_amd_memory_pool_allocate, kExit, 42, &h);
  fake_seam::Call(kHip, HIP_API_ID_hipFree, kExit, 41, &d.value);
  const std::vector<Seen> seen = Take(g_free_buffer);
  ASSERT_EQ(rocprofiler_stop_context(g_free_only), ROCPROFILER_STATUS_SUCCESS);
  ASSERT_EQ(rocprofiler_start_context(g_ctx), ROCPROFILER_STATUS_SUCCESS);
  size_t allocations = 0;
  for (const Seen& s : seen) {
    if (s.kind != ROCPROFILER_BUFFER_TRACING_MEMORY_ALLOCATION) continue;
    ++allocations;
    EXPECT_EQ(s.correlation_id, 41u);
  }
  EXPECT_EQ(allocations, 1u);
}

TEST(HipExtRecords, BadRecordsForArgumentIteration) {
  rocprofiler_buffer_tracing_hip_api_ext_record_t r{};
  r.size = sizeof(r);
  r.kind = ROCPROFILER_BUFFER_TRACING_HIP_RUNTIME_API_EXT;
  r.operation = ROCPROFILER_HIP_RUNTIME_API_ID_LAST;  // no such operation
  rocprofiler_record_header_t h{};
  h.category = ROCPROFILER_BUFFER_CATEGORY_TRACING;
  h.kind = r.kind;
  h.payload = &r;
  std::vector<Arg> args;
  IterateState state{nullptr, nullptr, &args};
  EXPECT_EQ(rocprofiler_iterate_buffer_tracing_record_args(h, &OnArg, &state),
            ROCPROFILER_STATUS_SUCCESS);
  EXPECT_TRUE(args.empty());
  EXPECT_EQ(rocprofiler_iterate_buffer_tracing_record_args(h, nullptr, &state),
            ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT);
  h.payload = nullptr;
  EXPECT_EQ(rocprofiler_iterate_buffer_tracing_record_args(h, &OnArg, &state),
            ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT);
}

}  // namespace

int main(int argc, char** argv) {
  return sdk_test::RunWithTool(argc, argv, &ToolConfigure);
}
