// Kind and operation names and their iteration.
#include <cstring>

#include "rocprofiler-sdk/callback_tracing.h"
#include "sdk/kinds.h"

using rocprofiler_sdk::FindKind;
using rocprofiler_sdk::KindInfo;

extern "C" {

// NONE is a kind as rocprofiler-sdk 1.0.0 has it: iterated and named
// ("NONE"), with no operations (the operation functions answer
// INVALID_ARGUMENT for it, as 1.0.0 does).
rocprofiler_status_t rocprofiler_query_callback_tracing_kind_name(
    rocprofiler_callback_tracing_kind_t kind, const char** name,
    uint64_t* name_len) {
  const int32_t value = rocprofiler_sdk::RawValue(kind);
  const KindInfo* k = FindKind(value);
  const char* n = value == ROCPROFILER_CALLBACK_TRACING_NONE ? "NONE"
                  : k != nullptr                             ? k->name
                                                             : nullptr;
  if (n == nullptr) return ROCPROFILER_STATUS_ERROR_KIND_NOT_FOUND;
  if (name != nullptr) *name = n;
  if (name_len != nullptr) *name_len = std::strlen(n);
  return ROCPROFILER_STATUS_SUCCESS;
}

rocprofiler_status_t rocprofiler_query_callback_tracing_kind_operation_name(
    rocprofiler_callback_tracing_kind_t kind,
    rocprofiler_tracing_operation_t operation, const char** name,
    uint64_t* name_len) {
  const int32_t value = rocprofiler_sdk::RawValue(kind);
  if (value == ROCPROFILER_CALLBACK_TRACING_NONE) {
    return ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT;
  }
  const KindInfo* k = FindKind(value);
  if (k == nullptr) return ROCPROFILER_STATUS_ERROR_KIND_NOT_FOUND;
  const char* n = rocprofiler_sdk::OperationName(*k, operation);
  if (n == nullptr) return ROCPROFILER_STATUS_ERROR_OPERATION_NOT_FOUND;
  if (name != nullptr) *name = n;
  if (name_len != nullptr) *name_len = std::strlen(n);
  return ROCPROFILER_STATUS_SUCCESS;
}

rocprofiler_status_t rocprofiler_iterate_callback_tracing_kinds(
    rocprofiler_callback_tracing_kind_cb_t callback, void* data) {
  if (callback == nullptr) return ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT;
  for (int k = ROCPROFILER_CALLBACK_TRACING_NONE;
       k < ROCPROFILER_CALLBACK_TRACING_LAST; ++k) {
    if (callback(static_cast<rocprofiler_callback_tracing_kind_t>(k), data) !=
        0) {
      break;
    }
  }
  return ROCPROFILER_STATUS_SUCCESS;
}

rocprofiler_status_t rocprofiler_iterate_callback_tracing_kind_operations(
    rocprofiler_callback_tracing_kind_t kind,
    rocprofiler_callback_tracing_kind_operation_cb_t callback, void* data) {
  const int32_t value = rocprofiler_sdk::RawValue(kind);
  if (value == ROCPROFILER_CALLBACK_TRACING_NONE) {
    return ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT;
  }
  const KindInfo* k = FindKind(value);
  if (k == nullptr) return ROCPROFILER_STATUS_ERROR_KIND_NOT_FOUND;
  if (callback == nullptr) return ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT;
  for (int32_t op = k->first_op; op < k->last_op; ++op) {
    if (callback(kind, op, data) != 0) break;
  }
  return ROCPROFILER_STATUS_SUCCESS;
}

}  // extern "C"
