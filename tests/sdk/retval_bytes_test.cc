// The retval a tool gets, through the real library on real HIP 5.2.3 and HSA
// calls, holds the call's result and zero in every other byte of its union:
// the callback payload's at EXIT (HIP runtime and compiler APIs, HSA core
// API) and the HIP_*_API_EXT buffer record's, for calls returning a 4-byte
// status and for void calls. Each call is made just after the stack below
// the caller is filled with 0xA5, where the interception stub then keeps its
// data, so a byte the library did not clear shows as 0xA5 (serializers write
// `uint64_t_retval`, which reads past a 4-byte status). The HSA calls go
// through an HSA table handed over as a runtime does, so that the void call
// needs no initialised runtime.
#include <hip/hip_runtime_api.h>
#include <hip/hip_version.h>
#include <hsa/hsa.h>
#include <hsa/hsa_api_trace.h>

#include <cstdint>
#include <cstring>
#include <mutex>
#include <vector>

#include "gtest/gtest.h"
#include "rocprofiler-sdk/rocprofiler.h"
#include "tests/sdk/tool_configure.h"

// HIP's void API the SDK traces: __hipGetPCH, a compiler-table op up to HIP
// 5; HIP 6's SDK operations have none (only the 4-byte status is checked
// there).
#if HIP_VERSION_MAJOR < 6
#define RETVAL_TEST_HIP_VOID 1
extern "C" void __hipGetPCH(const char** pch, unsigned int* size);
#endif
extern "C" int rocprofiler_set_api_table(const char* name, uint64_t version,
                                         uint64_t instance, void** tables,
                                         uint64_t num_tables);

namespace {

struct Retval {
  uint32_t kind;  // callback or buffer tracing kind
  int32_t operation;
  unsigned char bytes[sizeof(rocprofiler_hip_api_retval_t)];
  size_t size;  // of the union the tool got
};

std::mutex g_mutex;
std::vector<Retval> g_callbacks;  // EXIT payloads
std::vector<Retval> g_records;    // EXT buffer records
rocprofiler_buffer_id_t g_buffer{0};
int g_initialized = 0;

template <class Union>
Retval Take(uint32_t kind, int32_t operation, const Union& retval) {
  Retval r{kind, operation, {}, sizeof(retval)};
  std::memcpy(r.bytes, &retval, sizeof(retval));
  return r;
}

void Callback(rocprofiler_callback_tracing_record_t r, rocprofiler_user_data_t*,
              void*) {
  if (r.phase != ROCPROFILER_CALLBACK_PHASE_EXIT) return;
  std::lock_guard<std::mutex> lock(g_mutex);
  if (r.kind == ROCPROFILER_CALLBACK_TRACING_HSA_CORE_API) {
    const auto* p =
        static_cast<const rocprofiler_callback_tracing_hsa_api_data_t*>(
            r.payload);
    g_callbacks.push_back(Take(r.kind, r.operation, p->retval));
  } else {
    const auto* p =
        static_cast<const rocprofiler_callback_tracing_hip_api_data_t*>(
            r.payload);
    g_callbacks.push_back(Take(r.kind, r.operation, p->retval));
  }
}

void Deliver(rocprofiler_context_id_t, rocprofiler_buffer_id_t,
             rocprofiler_record_header_t** headers, size_t n, void*, uint64_t) {
  std::lock_guard<std::mutex> lock(g_mutex);
  for (size_t i = 0; i < n; ++i) {
    const auto* ext =
        static_cast<const rocprofiler_buffer_tracing_hip_api_ext_record_t*>(
            headers[i]->payload);
    g_records.push_back(Take(ext->kind, ext->operation, ext->retval));
  }
}

int Initialize(rocprofiler_client_finalize_t, void*) {
  rocprofiler_context_id_t ctx{0};
  const rocprofiler_tracing_operation_t hip_runtime[] = {
      ROCPROFILER_HIP_RUNTIME_API_ID_hipGetLastError};
  const rocprofiler_tracing_operation_t hsa_core[] = {
      ROCPROFILER_HSA_CORE_API_ID_hsa_system_get_info,
      ROCPROFILER_HSA_CORE_API_ID_hsa_signal_store_relaxed};
  if (rocprofiler_create_context(&ctx) != ROCPROFILER_STATUS_SUCCESS ||
      rocprofiler_create_buffer(
          ctx, 1 << 16, 1 << 15, ROCPROFILER_BUFFER_POLICY_LOSSLESS, &Deliver,
          nullptr, &g_buffer) != ROCPROFILER_STATUS_SUCCESS ||
      rocprofiler_configure_buffer_tracing_service(
          ctx, ROCPROFILER_BUFFER_TRACING_HIP_RUNTIME_API_EXT, hip_runtime, 1,
          g_buffer) != ROCPROFILER_STATUS_SUCCESS ||
      rocprofiler_configure_callback_tracing_service(
          ctx, ROCPROFILER_CALLBACK_TRACING_HIP_RUNTIME_API, hip_runtime, 1,
          &Callback, nullptr) != ROCPROFILER_STATUS_SUCCESS ||
      rocprofiler_configure_callback_tracing_service(
          ctx, ROCPROFILER_CALLBACK_TRACING_HSA_CORE_API, hsa_core, 2,
          &Callback, nullptr) != ROCPROFILER_STATUS_SUCCESS) {
    return 1;
  }
#ifdef RETVAL_TEST_HIP_VOID
  const rocprofiler_tracing_operation_t hip_compiler[] = {
      ROCPROFILER_HIP_COMPILER_API_ID___hipGetPCH};
  if (rocprofiler_configure_buffer_tracing_service(
          ctx, ROCPROFILER_BUFFER_TRACING_HIP_COMPILER_API_EXT, hip_compiler, 1,
          g_buffer) != ROCPROFILER_STATUS_SUCCESS ||
      rocprofiler_configure_callback_tracing_service(
          ctx, ROCPROFILER_CALLBACK_TRACING_HIP_COMPILER_API, hip_compiler, 1,
          &Callback, nullptr) != ROCPROFILER_STATUS_SUCCESS) {
    return 1;
  }
#endif
  g_initialized = 1;
  return rocprofiler_start_context(ctx) == ROCPROFILER_STATUS_SUCCESS ? 0 : 1;
}

}  // namespace

SDK_TEST_DEFINE_ROCPROFILER_CONFIGURE(Initialize, "retval_bytes_test")

namespace {

// Fills the stack below the caller's frame, where the next call's frames go.
__attribute__((noinline)) void DirtyStack() {
  unsigned char junk[64 * 1024];
  std::memset(junk, 0xA5, sizeof(junk));
  asm volatile("" : : "r"(junk) : "memory");
}

std::vector<Retval> TakeAll(std::vector<Retval>* from) {
  rocprofiler_flush_buffer(g_buffer);
  std::lock_guard<std::mutex> lock(g_mutex);
  std::vector<Retval> out;
  out.swap(*from);
  return out;
}

// The one retval of (kind, operation) in `seen`: its first `width` bytes
// equal `result`'s, all others zero.
void ExpectRetval(const std::vector<Retval>& seen, uint32_t kind,
                  int32_t operation, const void* result, size_t width,
                  size_t union_size) {
  SCOPED_TRACE(testing::Message() << "kind " << kind << " op " << operation);
  int found = 0;
  for (const Retval& r : seen) {
    if (r.kind != kind || r.operation != operation) continue;
    ++found;
    ASSERT_EQ(r.size, union_size);
    if (width > 0) {
      EXPECT_EQ(std::memcmp(r.bytes, result, width), 0);
    }
    for (size_t i = width; i < r.size; ++i) {
      EXPECT_EQ(r.bytes[i], 0) << "byte " << i;
    }
  }
  EXPECT_EQ(found, 1);
}

TEST(RetvalBytes, HipStatusAndVoidCallsLeaveNoStackBytes) {
  // The tool is registered at the runtimes' first call.
  hipGetErrorString(hipSuccess);
  ASSERT_EQ(g_initialized, 1);
  TakeAll(&g_callbacks);
  TakeAll(&g_records);

  DirtyStack();
  const hipError_t status = hipGetLastError();
#ifdef RETVAL_TEST_HIP_VOID
  DirtyStack();
  const char* pch = nullptr;
  unsigned int pch_size = 0;
  __hipGetPCH(&pch, &pch_size);
#endif

  const auto callbacks = TakeAll(&g_callbacks);
  const auto records = TakeAll(&g_records);
  constexpr size_t kUnion = sizeof(rocprofiler_hip_api_retval_t);
  ExpectRetval(callbacks, ROCPROFILER_CALLBACK_TRACING_HIP_RUNTIME_API,
               ROCPROFILER_HIP_RUNTIME_API_ID_hipGetLastError, &status,
               sizeof(status), kUnion);
  ExpectRetval(records, ROCPROFILER_BUFFER_TRACING_HIP_RUNTIME_API_EXT,
               ROCPROFILER_HIP_RUNTIME_API_ID_hipGetLastError, &status,
               sizeof(status), kUnion);
#ifdef RETVAL_TEST_HIP_VOID
  ExpectRetval(callbacks, ROCPROFILER_CALLBACK_TRACING_HIP_COMPILER_API,
               ROCPROFILER_HIP_COMPILER_API_ID___hipGetPCH, nullptr, 0, kUnion);
  ExpectRetval(records, ROCPROFILER_BUFFER_TRACING_HIP_COMPILER_API_EXT,
               ROCPROFILER_HIP_COMPILER_API_ID___hipGetPCH, nullptr, 0, kUnion);
#endif
}

void FakeSignalStoreRelaxed(hsa_signal_t, hsa_signal_value_t) {}

TEST(RetvalBytes, HsaStatusAndVoidCallsLeaveNoStackBytes) {
  hipGetErrorString(hipSuccess);
  ASSERT_EQ(g_initialized, 1);
  // An HSA table as a runtime hands it over (rocprofiler-register's way):
  // the tracer's wrappers go into its slots. The void call's slot forwards
  // to a stand-in, as a signal needs an initialised runtime (no GPU here).
  static CoreApiTable core;
  std::memset(&core, 0, sizeof(core));
  core.version.major_id = HSA_CORE_API_TABLE_MAJOR_VERSION;
  core.version.minor_id = sizeof(CoreApiTable);
  core.hsa_system_get_info_fn = &hsa_system_get_info;
  core.hsa_signal_store_relaxed_fn = &FakeSignalStoreRelaxed;
  static HsaApiTable table;
  std::memset(&table, 0, sizeof(table));
  table.version.major_id = HSA_API_TABLE_MAJOR_VERSION;
  table.version.minor_id = sizeof(HsaApiTable);
  table.core_ = &core;
  void* tables[1] = {&table};
  ASSERT_EQ(rocprofiler_set_api_table("hsa", 1, 0, tables, 1), 0);
  ASSERT_NE(core.hsa_signal_store_relaxed_fn, &FakeSignalStoreRelaxed);
  TakeAll(&g_callbacks);

  DirtyStack();
  uint64_t timestamp = 0;
  const hsa_status_t status =
      core.hsa_system_get_info_fn(HSA_SYSTEM_INFO_TIMESTAMP, &timestamp);
  DirtyStack();
  core.hsa_signal_store_relaxed_fn(hsa_signal_t{1}, 2);

  const auto callbacks = TakeAll(&g_callbacks);
  constexpr size_t kUnion = sizeof(rocprofiler_hsa_api_retval_t);
  ExpectRetval(callbacks, ROCPROFILER_CALLBACK_TRACING_HSA_CORE_API,
               ROCPROFILER_HSA_CORE_API_ID_hsa_system_get_info, &status,
               sizeof(status), kUnion);
  ExpectRetval(callbacks, ROCPROFILER_CALLBACK_TRACING_HSA_CORE_API,
               ROCPROFILER_HSA_CORE_API_ID_hsa_signal_store_relaxed, nullptr, 0,
               kUnion);
}

}  // namespace
