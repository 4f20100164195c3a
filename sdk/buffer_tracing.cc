// rocprofiler_configure_buffer_tracing_service and the buffer kinds' names
// and iteration. A buffer kind's operations are those of the callback kind
// of the same name (buffer kinds are numbered differently after the API
// kinds); kinds with no callback counterpart here have no operations.
#include "rocprofiler-sdk/buffer_tracing.h"

#include <cstring>
#include <mutex>

#include "sdk/args.h"
#include "sdk/buffers.h"
#include "sdk/config_lock.h"
#include "sdk/context.h"
#include "sdk/gpu_kinds.h"
#include "sdk/interest.h"
#include "sdk/kinds.h"
#include "sdk/registration.h"
#include "sdk/retirement.h"

namespace rocprofiler_sdk {
namespace {

struct BufferKind {
  const char* name;
  int32_t callback_kind;  // 0: none
};

// Indexed by rocprofiler_buffer_tracing_kind_t.
constexpr BufferKind kBufferKinds[] = {
    {nullptr, 0},
    {"HSA_CORE_API", ROCPROFILER_CALLBACK_TRACING_HSA_CORE_API},
    {"HSA_AMD_EXT_API", ROCPROFILER_CALLBACK_TRACING_HSA_AMD_EXT_API},
    {"HSA_IMAGE_EXT_API", ROCPROFILER_CALLBACK_TRACING_HSA_IMAGE_EXT_API},
    {"HSA_FINALIZE_EXT_API", ROCPROFILER_CALLBACK_TRACING_HSA_FINALIZE_EXT_API},
    {"HIP_RUNTIME_API", ROCPROFILER_CALLBACK_TRACING_HIP_RUNTIME_API},
    {"HIP_COMPILER_API", ROCPROFILER_CALLBACK_TRACING_HIP_COMPILER_API},
    {"MARKER_CORE_API", ROCPROFILER_CALLBACK_TRACING_MARKER_CORE_API},
    {"MARKER_CONTROL_API", ROCPROFILER_CALLBACK_TRACING_MARKER_CONTROL_API},
    {"MARKER_NAME_API", ROCPROFILER_CALLBACK_TRACING_MARKER_NAME_API},
    {"MEMORY_COPY", ROCPROFILER_CALLBACK_TRACING_MEMORY_COPY},
    {"KERNEL_DISPATCH", ROCPROFILER_CALLBACK_TRACING_KERNEL_DISPATCH},
    {"SCRATCH_MEMORY", ROCPROFILER_CALLBACK_TRACING_SCRATCH_MEMORY},
    {"CORRELATION_ID_RETIREMENT", 0},
    {"RCCL_API", ROCPROFILER_CALLBACK_TRACING_RCCL_API},
    {"OMPT", ROCPROFILER_CALLBACK_TRACING_OMPT},
    {"MEMORY_ALLOCATION", ROCPROFILER_CALLBACK_TRACING_MEMORY_ALLOCATION},
    {"RUNTIME_INITIALIZATION",
     ROCPROFILER_CALLBACK_TRACING_RUNTIME_INITIALIZATION},
    {"ROCDECODE_API", ROCPROFILER_CALLBACK_TRACING_ROCDECODE_API},
    {"ROCJPEG_API", ROCPROFILER_CALLBACK_TRACING_ROCJPEG_API},
    {"HIP_STREAM", ROCPROFILER_CALLBACK_TRACING_HIP_STREAM},
    {"HIP_RUNTIME_API_EXT", ROCPROFILER_CALLBACK_TRACING_HIP_RUNTIME_API},
    {"HIP_COMPILER_API_EXT", ROCPROFILER_CALLBACK_TRACING_HIP_COMPILER_API},
    {"ROCDECODE_API_EXT", ROCPROFILER_CALLBACK_TRACING_ROCDECODE_API},
    {"KFD_EVENT_PAGE_MIGRATE", 0},
    {"KFD_EVENT_PAGE_FAULT", 0},
    {"KFD_EVENT_QUEUE", 0},
    {"KFD_EVENT_UNMAP_FROM_GPU", 0},
    {"KFD_EVENT_DROPPED_EVENTS", 0},
    {"KFD_PAGE_MIGRATE", 0},
    {"KFD_PAGE_FAULT", 0},
    {"KFD_QUEUE", 0},
    {"MARKER_CORE_RANGE_API",
     ROCPROFILER_CALLBACK_TRACING_MARKER_CORE_RANGE_API},
};
static_assert(sizeof(kBufferKinds) / sizeof(kBufferKinds[0]) ==
                  ROCPROFILER_BUFFER_TRACING_LAST,
              "one entry per buffer kind");

// SCRATCH_MEMORY is configured whatever the headers: where they lack the
// runtime's scratch events (before ROCm 6.1) no record ever comes, as with
// rocprofiler-sdk on a runtime that never raises them.
bool IsGpuBufferKind(int32_t kind) noexcept {
  return kind == ROCPROFILER_BUFFER_TRACING_KERNEL_DISPATCH ||
         kind == ROCPROFILER_BUFFER_TRACING_MEMORY_COPY ||
         kind == ROCPROFILER_BUFFER_TRACING_SCRATCH_MEMORY;
}

// The kinds this library records: the API kinds (and HIP's with arguments),
// the GPU kinds, memory allocations, correlation-ID retirements, runtime
// initializations and rocTX ranges. HIP_STREAM is configured and never
// written, as in rocprofiler-sdk 1.0.0 (its stream events are callbacks
// only: 1.0.0 has no buffer record for them).
bool IsRecordedKind(int32_t kind) noexcept {
  return kind <= kLastBufferApiKind || IsGpuBufferKind(kind) ||
         kind == ROCPROFILER_BUFFER_TRACING_HIP_RUNTIME_API_EXT ||
         kind == ROCPROFILER_BUFFER_TRACING_HIP_COMPILER_API_EXT ||
         kind == ROCPROFILER_BUFFER_TRACING_MEMORY_ALLOCATION ||
         kind == ROCPROFILER_BUFFER_TRACING_CORRELATION_ID_RETIREMENT ||
         kind == ROCPROFILER_BUFFER_TRACING_RUNTIME_INITIALIZATION ||
         kind == ROCPROFILER_BUFFER_TRACING_HIP_STREAM ||
         kind == ROCPROFILER_BUFFER_TRACING_MARKER_CORE_RANGE_API;
}

const BufferKind* FindBufferKind(int32_t kind) noexcept {
  if (kind <= ROCPROFILER_BUFFER_TRACING_NONE ||
      kind >= ROCPROFILER_BUFFER_TRACING_LAST) {
    return nullptr;
  }
  return &kBufferKinds[kind];
}

// The operations of a buffer kind; nullptr when it has none.
const KindInfo* Operations(const BufferKind& k) noexcept {
  return k.callback_kind != 0 ? FindKind(k.callback_kind) : nullptr;
}

}  // namespace
}  // namespace rocprofiler_sdk

extern "C" {

ROCPROFILER_API rocprofiler_status_t
rocprofiler_configure_buffer_tracing_service(
    rocprofiler_context_id_t context_id, rocprofiler_buffer_tracing_kind_t kind,
    const rocprofiler_tracing_operation_t* operations, size_t operations_count,
    rocprofiler_buffer_id_t buffer_id) {
  using namespace rocprofiler_sdk;
  uint32_t client = 0;
  if (!InToolInitialize(&client)) {
    return ROCPROFILER_STATUS_ERROR_CONFIGURATION_LOCKED;
  }
  const int32_t kind_value = RawValue(kind);
  // GPU kinds need the SDK's observer on the GPU half's seam: registered
  // before the lock (gpu_kinds.h says why).
  if (IsGpuBufferKind(kind_value) && !EnableGpuKinds()) {
    return ROCPROFILER_STATUS_ERROR_OUT_OF_RESOURCES;
  }
  std::lock_guard<std::mutex> lock(ConfigMutex());
  Context* ctx = FindContext(context_id);
  if (ctx == nullptr) return ROCPROFILER_STATUS_ERROR_CONTEXT_NOT_FOUND;
  const BufferKind* bk = FindBufferKind(kind_value);
  if (bk == nullptr) return ROCPROFILER_STATUS_ERROR_KIND_NOT_FOUND;
  const int index = static_cast<int>(ctx - g_contexts);
  const int buffer = BufferIndex(buffer_id);
  if (buffer < 0) return ROCPROFILER_STATUS_ERROR_BUFFER_NOT_FOUND;
  if (BufferContext(buffer) != index) {
    return ROCPROFILER_STATUS_ERROR_CONTEXT_INVALID;
  }
  // CORRELATION_ID_RETIREMENT is the one recorded kind without operations.
  const bool no_ops =
      kind_value == ROCPROFILER_BUFFER_TRACING_CORRELATION_ID_RETIREMENT;
  const KindInfo* info = Operations(*bk);
  if (!IsRecordedKind(kind_value) ||
      (!no_ops && (info == nullptr || info->source == Source::kNone))) {
    return ROCPROFILER_STATUS_ERROR_NOT_IMPLEMENTED;
  }
  BufferService& s = ctx->buffer_services[kind_value];
  if (s.configured.load(std::memory_order_relaxed)) {
    return ROCPROFILER_STATUS_ERROR_SERVICE_ALREADY_CONFIGURED;
  }
  if (operations != nullptr && operations_count == 0) {
    return ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT;
  }
  uint64_t bits[kOpWords] = {};
  if (no_ops) {
    if (operations != nullptr) {
      return ROCPROFILER_STATUS_ERROR_OPERATION_NOT_FOUND;
    }
  } else if (operations == nullptr) {
    for (int32_t op = info->first_op; op < info->last_op; ++op) {
      bits[op >> 6] |= uint64_t{1} << (op & 63);
    }
  } else {
    for (size_t i = 0; i < operations_count; ++i) {
      const int32_t op = operations[i];
      if (!ValidOp(*info, op)) {
        return ROCPROFILER_STATUS_ERROR_OPERATION_NOT_FOUND;
      }
      bits[op >> 6] |= uint64_t{1} << (op & 63);
    }
  }
  for (int w = 0; w < kOpWords; ++w) {
    s.ops[w].store(bits[w], std::memory_order_relaxed);
  }
  s.buffer = buffer;
  const bool active =
      g_active_mask.load(std::memory_order_relaxed) & (uint64_t{1} << index);
  if (active) RemoveContextInterest(*ctx);
  s.configured.store(true, std::memory_order_release);
  g_buffer_kind_mask[kind_value].fetch_or(uint64_t{1} << index,
                                          std::memory_order_release);
  if (kind_value <= kLastBufferApiKind) {
    for (int32_t op = 0; op < kMaxOps; ++op) {
      if ((bits[op >> 6] >> (op & 63)) & 1u) {
        g_api_buffer_op_mask[kind_value][op].fetch_or(
            uint64_t{1} << index, std::memory_order_release);
      }
    }
  }
  for (int api_kind = 1; api_kind <= kLastBufferApiKind; ++api_kind) {
    if (ExtBufferKindOf(api_kind) == kind_value) {
      g_buffer_ext_mask[api_kind].fetch_or(uint64_t{1} << index,
                                           std::memory_order_release);
      g_api_general_mask[api_kind].fetch_or(uint64_t{1} << index,
                                            std::memory_order_release);
    }
  }
  if (active) AddContextInterest(*ctx);
  if (no_ops) StartRetirementThread();
  return ROCPROFILER_STATUS_SUCCESS;
}

ROCPROFILER_API rocprofiler_status_t rocprofiler_query_buffer_tracing_kind_name(
    rocprofiler_buffer_tracing_kind_t kind, const char** name,
    uint64_t* name_len) {
  using namespace rocprofiler_sdk;
  // NONE is named and iterated, as in rocprofiler-sdk 1.0.0; it has no
  // operations (INVALID_ARGUMENT from the operation functions, as there).
  const int32_t value = RawValue(kind);
  const BufferKind* k = FindBufferKind(value);
  const char* n = value == ROCPROFILER_BUFFER_TRACING_NONE ? "NONE"
                  : k != nullptr                           ? k->name
                                                           : nullptr;
  if (n == nullptr) return ROCPROFILER_STATUS_ERROR_KIND_NOT_FOUND;
  if (name != nullptr) *name = n;
  if (name_len != nullptr) *name_len = std::strlen(n);
  return ROCPROFILER_STATUS_SUCCESS;
}

ROCPROFILER_API rocprofiler_status_t
rocprofiler_query_buffer_tracing_kind_operation_name(
    rocprofiler_buffer_tracing_kind_t kind,
    rocprofiler_tracing_operation_t operation, const char** name,
    uint64_t* name_len) {
  using namespace rocprofiler_sdk;
  const int32_t value = RawValue(kind);
  if (value == ROCPROFILER_BUFFER_TRACING_NONE) {
    return ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT;
  }
  const BufferKind* k = FindBufferKind(value);
  if (k == nullptr) return ROCPROFILER_STATUS_ERROR_KIND_NOT_FOUND;
  const KindInfo* ops = Operations(*k);
  const char* n = ops != nullptr ? OperationName(*ops, operation) : nullptr;
  if (n == nullptr) return ROCPROFILER_STATUS_ERROR_OPERATION_NOT_FOUND;
  if (name != nullptr) *name = n;
  if (name_len != nullptr) *name_len = std::strlen(n);
  return ROCPROFILER_STATUS_SUCCESS;
}

ROCPROFILER_API rocprofiler_status_t rocprofiler_iterate_buffer_tracing_kinds(
    rocprofiler_buffer_tracing_kind_cb_t callback, void* data) {
  if (callback == nullptr) return ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT;
  for (int k = ROCPROFILER_BUFFER_TRACING_NONE;
       k < ROCPROFILER_BUFFER_TRACING_LAST; ++k) {
    if (callback(static_cast<rocprofiler_buffer_tracing_kind_t>(k), data) !=
        0) {
      break;
    }
  }
  return ROCPROFILER_STATUS_SUCCESS;
}

ROCPROFILER_API rocprofiler_status_t
rocprofiler_iterate_buffer_tracing_kind_operations(
    rocprofiler_buffer_tracing_kind_t kind,
    rocprofiler_buffer_tracing_kind_operation_cb_t callback, void* data) {
  using namespace rocprofiler_sdk;
  const int32_t value = RawValue(kind);
  if (callback == nullptr || value == ROCPROFILER_BUFFER_TRACING_NONE) {
    return ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT;
  }
  const BufferKind* k = FindBufferKind(value);
  if (k == nullptr) return ROCPROFILER_STATUS_ERROR_KIND_NOT_FOUND;
  const KindInfo* ops = Operations(*k);
  if (ops == nullptr) return ROCPROFILER_STATUS_SUCCESS;
  for (int32_t op = ops->first_op; op < ops->last_op; ++op) {
    if (callback(kind, op, data) != 0) break;
  }
  return ROCPROFILER_STATUS_SUCCESS;
}

ROCPROFILER_API rocprofiler_status_t
rocprofiler_iterate_buffer_tracing_record_args(
    rocprofiler_record_header_t record,
    rocprofiler_buffer_tracing_operation_args_cb_t callback, void* user_data) {
  if (callback == nullptr || record.payload == nullptr ||
      record.kind <= ROCPROFILER_BUFFER_TRACING_NONE ||
      record.kind >= ROCPROFILER_BUFFER_TRACING_LAST) {
    return ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT;
  }
  // Only the *_API_EXT records hold their call's arguments.
  const int32_t kind = static_cast<int32_t>(record.kind);
  if (kind == ROCPROFILER_BUFFER_TRACING_HIP_RUNTIME_API_EXT ||
      kind == ROCPROFILER_BUFFER_TRACING_HIP_COMPILER_API_EXT) {
    rocprofiler_sdk::IterateHipExtRecordArgs(
        *static_cast<const rocprofiler_buffer_tracing_hip_api_ext_record_t*>(
            record.payload),
        callback, user_data);
    return ROCPROFILER_STATUS_SUCCESS;
  }
  return ROCPROFILER_STATUS_ERROR_NOT_IMPLEMENTED;
}

}  // extern "C"
