// rocprofiler_iterate_callback_tracing_kind_operation_args (and, for the
// records of the *_API_EXT buffer kinds, rocprofiler_iterate_buffer_tracing_
// record_args): the generated argument printers (//codegen:api_tables) seen
// through the SDK's callbacks.
#include "sdk/args.h"

#include <cstddef>
#include <cstring>

#include "codegen/support/arg_format.h"
#include "ext/prof_protocol.h"
#include "hip_api_tables.h"
#include "hsa_api_tables.h"
#include "rocprofiler-sdk/callback_tracing.h"
#include "sdk/gpu_kinds.h"
#include "sdk/kinds.h"
#include "sdk_op_tables.h"

namespace rocprofiler_sdk {

namespace {

template <class T>
union Storage {
  Storage() noexcept {}
  T value;
};

struct Adapter {
  rocprofiler_callback_tracing_kind_t kind;
  int32_t op;
  rocprofiler_callback_tracing_operation_args_cb_t callback;
  void* user;
  // Set instead of `callback` for a buffer record's arguments.
  rocprofiler_buffer_tracing_operation_args_cb_t buffer_callback;
  rocprofiler_buffer_tracing_kind_t buffer_kind;
  // Arguments are printed from a copy; addresses handed to the tool point
  // into the record's payload instead.
  const char* copy_begin;
  size_t copy_size;
  const char* payload_args;
};

int Visit(uint32_t index, const void* addr, int32_t indirection,
          const char* type, const char* name, const char* value, int32_t derefs,
          void* user) {
  auto* a = static_cast<Adapter*>(user);
  const char* p = static_cast<const char*>(addr);
  if (a->copy_begin != nullptr && p >= a->copy_begin &&
      p < a->copy_begin + a->copy_size) {
    p = a->payload_args + (p - a->copy_begin);
  }
  char spelled[512];
  roctracer::codegen::NormalizeTypeSpelling(type, spelled, sizeof(spelled));
  if (a->buffer_callback != nullptr) {
    return a->buffer_callback(a->buffer_kind, a->op, index, p, indirection,
                              spelled, name, value, a->user);
  }
  return a->callback(a->kind, a->op, index, p, indirection, spelled, name,
                     value, derefs, a->user);
}

// An HSA or HIP payload's arguments through the generated IterateArgs of
// its domain, on a copy laid out as the domain's own data struct.
template <class Data, auto kIterateArgs, class Payload>
void IterateApi(uint32_t id, const Payload* p, bool exit, int32_t max_deref,
                Adapter* a) {
  Storage<Data> tmp;
  std::memset(static_cast<void*>(&tmp.value), 0, sizeof(tmp.value));
  std::memcpy(static_cast<void*>(&tmp.value.args), &p->args, sizeof(p->args));
  a->copy_begin = reinterpret_cast<const char*>(&tmp.value.args);
  a->copy_size = sizeof(p->args);
  a->payload_args = reinterpret_cast<const char*>(&p->args);
  kIterateArgs(id, &tmp.value, exit, max_deref, &Visit, a);
}

// MARKER_CONTROL / MARKER_NAME: parameters as rocprofiler-sdk-roctx/roctx.h
// spells them. Agent and stream point to types opaque to a tool: never
// followed.
void IterateMarkerRequest(int32_t kind, int32_t op,
                          const rocprofiler_marker_api_args_t& args,
                          int32_t max_deref, Adapter* a) {
  using roctracer::codegen::VisitArg;
  if (kind == ROCPROFILER_CALLBACK_TRACING_MARKER_CONTROL_API) {
    // Pause and resume have the same parameter at the same place.
    VisitArg<0>(&Visit, a, max_deref, 0, "roctx_thread_id_t", "tid",
                op == ROCPROFILER_MARKER_CONTROL_API_ID_roctxProfilerPause
                    ? args.roctxProfilerPause.tid
                    : args.roctxProfilerResume.tid);
    return;
  }
  switch (op) {
    case ROCPROFILER_MARKER_NAME_API_ID_roctxNameOsThread:
      VisitArg<1>(&Visit, a, max_deref, 0, "const char *", "name",
                  args.roctxNameOsThread.name);
      break;
    case ROCPROFILER_MARKER_NAME_API_ID_roctxNameHsaAgent:
      VisitArg<1>(&Visit, a, max_deref, 0, "const char *", "name",
                  args.roctxNameHsaAgent.name);
      VisitArg<0>(&Visit, a, max_deref, 1, "const struct hsa_agent_s *",
                  "agent", args.roctxNameHsaAgent.agent);
      break;
    case ROCPROFILER_MARKER_NAME_API_ID_roctxNameHipDevice:
      VisitArg<1>(&Visit, a, max_deref, 0, "const char *", "name",
                  args.roctxNameHipDevice.name);
      VisitArg<0>(&Visit, a, max_deref, 1, "int", "device_id",
                  args.roctxNameHipDevice.device_id);
      break;
    case ROCPROFILER_MARKER_NAME_API_ID_roctxNameHipStream:
      VisitArg<1>(&Visit, a, max_deref, 0, "const char *", "name",
                  args.roctxNameHipStream.name);
      VisitArg<0>(&Visit, a, max_deref, 1, "const struct ihipStream_t *",
                  "stream", args.roctxNameHipStream.stream);
      break;
    default:
      break;
  }
}

void IterateMarker(int32_t kind, int32_t op,
                   const rocprofiler_callback_tracing_marker_api_data_t* p,
                   bool exit, int32_t max_deref, Adapter* a) {
  using roctracer::codegen::VisitArg;
  const auto& args = p->args;
  if (kind == ROCPROFILER_CALLBACK_TRACING_MARKER_CORE_RANGE_API) {
    // A range's message, or roctxGetThreadId's out-parameter (followed at
    // EXIT only).
    if (op == ROCPROFILER_MARKER_CORE_RANGE_API_ID_roctxGetThreadId) {
      if (exit) {
        VisitArg<1>(&Visit, a, max_deref, 0, "roctx_thread_id_t *", "tid",
                    args.roctxGetThreadId.tid);
      } else {
        VisitArg<0>(&Visit, a, max_deref, 0, "roctx_thread_id_t *", "tid",
                    args.roctxGetThreadId.tid);
      }
      return;
    }
    const char* message =
        op == ROCPROFILER_MARKER_CORE_RANGE_API_ID_roctxThreadRangeA
            ? args.roctxThreadRangeA.message
        : op == ROCPROFILER_MARKER_CORE_RANGE_API_ID_roctxProcessRangeA
            ? args.roctxProcessRangeA.message
            : args.roctxMarkA.message;
    VisitArg<1>(&Visit, a, max_deref, 0, "const char *", "message", message);
    return;
  }
  if (kind != ROCPROFILER_CALLBACK_TRACING_MARKER_CORE_API) {
    IterateMarkerRequest(kind, op, args, max_deref, a);
    return;
  }
  switch (op) {
    case ROCPROFILER_MARKER_CORE_API_ID_roctxMarkA:
      VisitArg<1>(&Visit, a, max_deref, 0, "const char *", "message",
                  args.roctxMarkA.message);
      break;
    case ROCPROFILER_MARKER_CORE_API_ID_roctxRangePushA:
      VisitArg<1>(&Visit, a, max_deref, 0, "const char *", "message",
                  args.roctxRangePushA.message);
      break;
    case ROCPROFILER_MARKER_CORE_API_ID_roctxRangeStartA:
      VisitArg<1>(&Visit, a, max_deref, 0, "const char *", "message",
                  args.roctxRangeStartA.message);
      break;
    case ROCPROFILER_MARKER_CORE_API_ID_roctxRangeStop:
      VisitArg<0>(&Visit, a, max_deref, 0, "roctx_range_id_t", "id",
                  args.roctxRangeStop.id);
      break;
    case ROCPROFILER_MARKER_CORE_API_ID_roctxGetThreadId:
      // An out-parameter: followed at EXIT only.
      if (exit) {
        VisitArg<1>(&Visit, a, max_deref, 0, "roctx_thread_id_t *", "tid",
                    args.roctxGetThreadId.tid);
      } else {
        VisitArg<0>(&Visit, a, max_deref, 0, "roctx_thread_id_t *", "tid",
                    args.roctxGetThreadId.tid);
      }
      break;
    default:  // roctxRangePop: no parameters
      break;
  }
}

}  // namespace

void IterateHipExtRecordArgs(
    const rocprofiler_buffer_tracing_hip_api_ext_record_t& record,
    rocprofiler_buffer_tracing_operation_args_cb_t callback,
    void* user_data) noexcept {
  const int32_t kind =
      RawValue(record.kind) == ROCPROFILER_BUFFER_TRACING_HIP_COMPILER_API_EXT
          ? ROCPROFILER_CALLBACK_TRACING_HIP_COMPILER_API
          : ROCPROFILER_CALLBACK_TRACING_HIP_RUNTIME_API;
  const KindInfo* k = FindKind(kind);
  if (k == nullptr || !ValidOp(*k, record.operation)) return;
  const uint32_t id = k->ids[record.operation];
  if (id == gen::kUntraced) return;
  Adapter a{static_cast<rocprofiler_callback_tracing_kind_t>(kind),
            record.operation,
            nullptr,
            user_data,
            callback,
            record.kind,
            nullptr,
            0,
            nullptr};
  // At EXIT (the record is written then), following no pointer.
  IterateApi<hip_api_data_t, &roctracer::hip_api::IterateArgs>(id, &record,
                                                               true, 0, &a);
}

}  // namespace rocprofiler_sdk

extern "C" rocprofiler_status_t
rocprofiler_iterate_callback_tracing_kind_operation_args(
    rocprofiler_callback_tracing_record_t record,
    rocprofiler_callback_tracing_operation_args_cb_t callback,
    int32_t max_dereference_count, void* user_data) {
  using namespace rocprofiler_sdk;
  const int32_t kind = RawValue(record.kind);
  // NONE has no operations (rocprofiler-sdk 1.0.0's answer).
  if (kind == ROCPROFILER_CALLBACK_TRACING_NONE) {
    return ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT;
  }
  const KindInfo* k = FindKind(kind);
  if (k == nullptr) return ROCPROFILER_STATUS_ERROR_KIND_NOT_FOUND;
  // RUNTIME_INITIALIZATION and HIP_STREAM payloads are no call's arguments:
  // rocprofiler-sdk 1.0.0 answers NOT_IMPLEMENTED for them too.
  if (k->source == Source::kNone || k->source == Source::kRuntimeInit ||
      k->source == Source::kHipStream) {
    return ROCPROFILER_STATUS_ERROR_NOT_IMPLEMENTED;
  }
  if (!ValidOp(*k, record.operation)) {
    return ROCPROFILER_STATUS_ERROR_OPERATION_NOT_FOUND;
  }
  if (callback == nullptr || record.payload == nullptr) {
    return ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT;
  }
  if (max_dereference_count < 0) max_dereference_count = 0;
  const bool exit = RawValue(record.phase) == ROCPROFILER_CALLBACK_PHASE_EXIT;
  Adapter a{static_cast<rocprofiler_callback_tracing_kind_t>(kind),
            record.operation,
            callback,
            user_data,
            nullptr,
            ROCPROFILER_BUFFER_TRACING_NONE,
            nullptr,
            0,
            nullptr};
  if (k->source == Source::kGpu || k->source == Source::kMemory) {
    IterateGpuPayload(record, callback, max_dereference_count, user_data);
    return ROCPROFILER_STATUS_SUCCESS;
  }
  if (k->source == Source::kRoctxRange) {
    IterateMarker(
        record.kind, record.operation,
        static_cast<const rocprofiler_callback_tracing_marker_api_data_t*>(
            record.payload),
        exit, max_dereference_count, &a);
    return ROCPROFILER_STATUS_SUCCESS;
  }
  const uint32_t id = k->ids[record.operation];
  // A table slot whose function the headers do not declare: no parameters
  // are known (and no such record is ever delivered).
  if (id == gen::kUntraced) return ROCPROFILER_STATUS_SUCCESS;
  switch (k->source) {
    case Source::kHsa:
      IterateApi<hsa_api_data_t, &roctracer::hsa_api::IterateArgs>(
          id,
          static_cast<const rocprofiler_callback_tracing_hsa_api_data_t*>(
              record.payload),
          exit, max_dereference_count, &a);
      break;
    case Source::kHip:
      IterateApi<hip_api_data_t, &roctracer::hip_api::IterateArgs>(
          id,
          static_cast<const rocprofiler_callback_tracing_hip_api_data_t*>(
              record.payload),
          exit, max_dereference_count, &a);
      break;
    default:
      IterateMarker(
          record.kind, record.operation,
          static_cast<const rocprofiler_callback_tracing_marker_api_data_t*>(
              record.payload),
          exit, max_dereference_count, &a);
      break;
  }
  return ROCPROFILER_STATUS_SUCCESS;
}
