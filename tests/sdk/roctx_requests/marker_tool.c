/* A rocprofiler-sdk tool, built as a shared library with the system compiler,
 * that prints every MARKER_CORE/CONTROL/NAME callback with its arguments:
 * "TOOL <kind> <operation> <phase> <type name=value; ...>". */
#include <rocprofiler-sdk/rocprofiler.h>
#include <string.h>

static rocprofiler_context_id_t g_context;

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
  (void)arg_number;
  (void)arg_value_addr;
  (void)arg_indirection_count;
  (void)arg_dereference_count;
  snprintf(out + used, 512 - used, "%s %s=%s; ", arg_type, arg_name,
           arg_value_str);
  return 0;
}

static void OnCall(rocprofiler_callback_tracing_record_t record,
                   rocprofiler_user_data_t* user_data, void* callback_data) {
  const char* kind = "?";
  const char* op = "?";
  char args[512] = "";
  (void)user_data;
  (void)callback_data;
  rocprofiler_query_callback_tracing_kind_name(record.kind, &kind, NULL);
  rocprofiler_query_callback_tracing_kind_operation_name(
      record.kind, record.operation, &op, NULL);
  rocprofiler_iterate_callback_tracing_kind_operation_args(record, &AppendArg,
                                                           1, args);
  printf("TOOL %s %s %s %s\n", kind, op,
         record.phase == ROCPROFILER_CALLBACK_PHASE_ENTER ? "ENTER" : "EXIT",
         args);
  fflush(stdout);
}

static int Initialize(rocprofiler_client_finalize_t fini, void* tool_data) {
  static const rocprofiler_callback_tracing_kind_t kKinds[] = {
      ROCPROFILER_CALLBACK_TRACING_MARKER_CORE_API,
      ROCPROFILER_CALLBACK_TRACING_MARKER_CONTROL_API,
      ROCPROFILER_CALLBACK_TRACING_MARKER_NAME_API};
  size_t i;
  (void)fini;
  (void)tool_data;
  if (rocprofiler_create_context(&g_context) != ROCPROFILER_STATUS_SUCCESS) {
    return -1;
  }
  for (i = 0; i < sizeof(kKinds) / sizeof(kKinds[0]); ++i) {
    rocprofiler_status_t s = rocprofiler_configure_callback_tracing_service(
        g_context, kKinds[i], NULL, 0, &OnCall, NULL);
    if (s != ROCPROFILER_STATUS_SUCCESS) {
      printf("TOOL configure kind %d: %s\n", (int)kKinds[i],
             rocprofiler_get_status_name(s));
      return -1;
    }
  }
  return rocprofiler_start_context(g_context) == ROCPROFILER_STATUS_SUCCESS
             ? 0
             : -1;
}

rocprofiler_tool_configure_result_t* rocprofiler_configure(
    uint32_t version, const char* runtime_version, uint32_t priority,
    rocprofiler_client_id_t* client_id) {
  static rocprofiler_tool_configure_result_t result = {
      sizeof(rocprofiler_tool_configure_result_t), &Initialize, NULL, NULL};
  (void)version;
  (void)runtime_version;
  (void)priority;
  client_id->name = "marker_tool";
  return &result;
}
