/* A tool written in C99 against the documented rocprofiler-sdk signatures
 * only: registration, a context, the callback-tracing service of the HSA,
 * HIP and marker API kinds, name queries and argument iteration. */
#include "tests/sdk/sample_tool.h"

#include <rocprofiler-sdk/rocprofiler.h>
#include <stdio.h>
#include <string.h>

sample_tool_seen_t sample_tool_seen;

static rocprofiler_context_id_t g_context;
static int g_tool_data = 42;

static int AppendArg(rocprofiler_callback_tracing_kind_t kind,
                     rocprofiler_tracing_operation_t operation,
                     uint32_t arg_number, const void* const arg_value_addr,
                     int32_t arg_indirection_count, const char* arg_type,
                     const char* arg_name, const char* arg_value_str,
                     int32_t arg_dereference_count, void* data) {
  char* out = (char*)data;
  size_t used = strlen(out);
  (void)kind;
  (void)operation;
  (void)arg_value_addr;
  (void)arg_indirection_count;
  (void)arg_dereference_count;
  snprintf(out + used, sizeof(sample_tool_seen.last_args) - used, "%s %s=%s; ",
           arg_type, arg_name, arg_value_str);
  sample_tool_seen.last_arg_count = (int)arg_number + 1;
  return 0;
}

static void OnCall(rocprofiler_callback_tracing_record_t record,
                   rocprofiler_user_data_t* user_data, void* callback_data) {
  const char* name = NULL;
  if (callback_data != &g_tool_data) return;
  if (record.phase == ROCPROFILER_CALLBACK_PHASE_ENTER) {
    sample_tool_seen.enters++;
    sample_tool_seen.last_correlation_enter = record.correlation_id.internal;
    user_data->value = record.correlation_id.internal + 1;
    return;
  }
  sample_tool_seen.exits++;
  sample_tool_seen.last_correlation_exit = record.correlation_id.internal;
  sample_tool_seen.last_user_at_exit = user_data->value;
  if (rocprofiler_query_callback_tracing_kind_name(record.kind, &name, NULL) ==
      ROCPROFILER_STATUS_SUCCESS) {
    snprintf(sample_tool_seen.last_kind, sizeof(sample_tool_seen.last_kind),
             "%s", name);
  }
  if (rocprofiler_query_callback_tracing_kind_operation_name(
          record.kind, record.operation, &name, NULL) ==
      ROCPROFILER_STATUS_SUCCESS) {
    snprintf(sample_tool_seen.last_op, sizeof(sample_tool_seen.last_op), "%s",
             name);
  }
  if (record.kind == ROCPROFILER_CALLBACK_TRACING_HSA_CORE_API) {
    const rocprofiler_callback_tracing_hsa_api_data_t* p =
        (const rocprofiler_callback_tracing_hsa_api_data_t*)record.payload;
    sample_tool_seen.last_hsa_status = p->retval.hsa_status_t_retval;
  }
  if (record.kind == ROCPROFILER_CALLBACK_TRACING_HIP_RUNTIME_API) {
    const rocprofiler_callback_tracing_hip_api_data_t* p =
        (const rocprofiler_callback_tracing_hip_api_data_t*)record.payload;
    sample_tool_seen.last_hip_string_retval = p->retval.const_charp_retval;
  }
  sample_tool_seen.last_args[0] = '\0';
  sample_tool_seen.last_arg_count = 0;
  rocprofiler_iterate_callback_tracing_kind_operation_args(
      record, &AppendArg, 2, sample_tool_seen.last_args);
}

static int ToolInitialize(rocprofiler_client_finalize_t fini, void* tool_data) {
  static const rocprofiler_callback_tracing_kind_t kKinds[] = {
      ROCPROFILER_CALLBACK_TRACING_HSA_CORE_API,
      ROCPROFILER_CALLBACK_TRACING_HIP_RUNTIME_API,
      ROCPROFILER_CALLBACK_TRACING_MARKER_CORE_API};
  size_t i;
  (void)fini;
  if (tool_data != &g_tool_data) return -1;
  sample_tool_seen.initialized++;
  if (rocprofiler_create_context(&g_context) != ROCPROFILER_STATUS_SUCCESS) {
    return -1;
  }
  for (i = 0; i < sizeof(kKinds) / sizeof(kKinds[0]); ++i) {
    if (rocprofiler_configure_callback_tracing_service(
            g_context, kKinds[i], NULL, 0, &OnCall, &g_tool_data) !=
        ROCPROFILER_STATUS_SUCCESS) {
      return -1;
    }
  }
  return rocprofiler_start_context(g_context) == ROCPROFILER_STATUS_SUCCESS
             ? 0
             : -1;
}

static void ToolFinalize(void* tool_data) {
  if (tool_data != &g_tool_data) return;
  sample_tool_seen.finalized++;
  fprintf(stderr, "sample_tool: finalize after %d calls\n",
          sample_tool_seen.exits);
}

rocprofiler_tool_configure_result_t* rocprofiler_configure(
    uint32_t version, const char* runtime_version, uint32_t priority,
    rocprofiler_client_id_t* client_id) {
  static rocprofiler_tool_configure_result_t result = {
      sizeof(rocprofiler_tool_configure_result_t), &ToolInitialize,
      &ToolFinalize, &g_tool_data};
  (void)runtime_version;
  if (priority > 0 || version < 400) return NULL;
  client_id->name = "sample_tool";
  return &result;
}
