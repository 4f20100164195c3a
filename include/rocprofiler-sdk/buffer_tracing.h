/* Buffer tracing: one record per traced call or GPU operation, written to
 * a buffer (buffer.h) and delivered later, instead of synchronous
 * callbacks. Each record starts with its size, kind and operation; its
 * header's category is ROCPROFILER_BUFFER_CATEGORY_TRACING and its kind the
 * record's kind. Records of an API call share the call's correlation ID with
 * its callback records and with the GPU work it started. C99 and C++. */
#ifndef ROCPROFILER_SDK_BUFFER_TRACING_H_
#define ROCPROFILER_SDK_BUFFER_TRACING_H_

#include <stddef.h>
#include <stdint.h>

#include "rocprofiler-sdk/defines.h"
#include "rocprofiler-sdk/fwd.h"
#include "rocprofiler-sdk/hip.h"
#include "rocprofiler-sdk/hsa/scratch_memory_id.h"
#include "rocprofiler-sdk/rocdecode/api_args.h"
#include "rocprofiler-sdk/rocdecode/api_id.h"

ROCPROFILER_EXTERN_C_INIT

/* The fields every API record has, in this order. */
#define ROCPROFILER_BUFFER_TRACING_API_RECORD_FIELDS_ \
  uint64_t size;                                      \
  rocprofiler_buffer_tracing_kind_t kind;             \
  rocprofiler_tracing_operation_t operation;          \
  rocprofiler_correlation_id_t correlation_id;        \
  rocprofiler_timestamp_t start_timestamp;            \
  rocprofiler_timestamp_t end_timestamp;              \
  rocprofiler_thread_id_t thread_id

/* The HSA API kinds: one record per call, written when it returns. */
typedef struct rocprofiler_buffer_tracing_hsa_api_record_t {
  ROCPROFILER_BUFFER_TRACING_API_RECORD_FIELDS_;
} rocprofiler_buffer_tracing_hsa_api_record_t;

/* The HIP runtime and compiler API kinds. */
typedef struct rocprofiler_buffer_tracing_hip_api_record_t {
  ROCPROFILER_BUFFER_TRACING_API_RECORD_FIELDS_;
} rocprofiler_buffer_tracing_hip_api_record_t;

/* HIP_RUNTIME_API_EXT, HIP_COMPILER_API_EXT: the HIP record with the call's
 * arguments and return value at its return (args is the argument union of
 * <rocprofiler-sdk/hip/api_args.h>, generated for the HIP release built
 * against, so the record's size is that release's). */
typedef struct rocprofiler_buffer_tracing_hip_api_ext_record_t {
  ROCPROFILER_BUFFER_TRACING_API_RECORD_FIELDS_;
  rocprofiler_hip_api_args_t args;
  rocprofiler_hip_api_retval_t retval;
} rocprofiler_buffer_tracing_hip_api_ext_record_t;

/* The marker kinds. */
typedef struct rocprofiler_buffer_tracing_marker_api_record_t {
  ROCPROFILER_BUFFER_TRACING_API_RECORD_FIELDS_;
} rocprofiler_buffer_tracing_marker_api_record_t;

/* RCCL_API, ROCDECODE_API, ROCJPEG_API: declared; this library does not
 * intercept those libraries. */
typedef struct rocprofiler_buffer_tracing_rccl_api_record_t {
  ROCPROFILER_BUFFER_TRACING_API_RECORD_FIELDS_;
} rocprofiler_buffer_tracing_rccl_api_record_t;

typedef struct rocprofiler_buffer_tracing_rocdecode_api_record_t {
  ROCPROFILER_BUFFER_TRACING_API_RECORD_FIELDS_;
} rocprofiler_buffer_tracing_rocdecode_api_record_t;

/* ROCDECODE_API_EXT: the rocDecode record with the call's arguments and
 * return value. */
typedef struct rocprofiler_buffer_tracing_rocdecode_api_ext_record_t {
  ROCPROFILER_BUFFER_TRACING_API_RECORD_FIELDS_;
  rocprofiler_rocdecode_api_args_t args;
  rocprofiler_rocdecode_api_retval_t retval;
} rocprofiler_buffer_tracing_rocdecode_api_ext_record_t;

typedef struct rocprofiler_buffer_tracing_rocjpeg_api_record_t {
  ROCPROFILER_BUFFER_TRACING_API_RECORD_FIELDS_;
} rocprofiler_buffer_tracing_rocjpeg_api_record_t;

/* The OMPT kind (declared; this library is not an OpenMP tool, ompt.h):
 * target regions, their data operations and kernels, operation
 * rocprofiler_ompt_operation_t. */
typedef struct rocprofiler_buffer_tracing_ompt_target_t {
  int32_t kind;       /* ompt_target_t */
  int32_t device_num; /* the region's OpenMP device */
  uint64_t task_id;   /* from the callback's task_data */
  uint64_t target_id; /* from the callback's target_data */
  const void* codeptr_ra;
} rocprofiler_buffer_tracing_ompt_target_t;

typedef struct rocprofiler_buffer_tracing_ompt_target_data_op_t {
  uint64_t host_op_id;
  int32_t optype; /* ompt_target_data_op_t */
  int32_t src_device_num;
  int32_t dst_device_num;
  int32_t reserved;
  uint64_t bytes;
  const void* codeptr_ra;
} rocprofiler_buffer_tracing_ompt_target_data_op_t;

typedef struct rocprofiler_buffer_tracing_ompt_target_kernel_t {
  uint64_t host_op_id;
  int32_t device_num;
  uint32_t requested_num_teams;
} rocprofiler_buffer_tracing_ompt_target_kernel_t;

typedef struct rocprofiler_buffer_tracing_ompt_record_t {
  ROCPROFILER_BUFFER_TRACING_API_RECORD_FIELDS_;
  union {
    rocprofiler_buffer_tracing_ompt_target_t target;
    rocprofiler_buffer_tracing_ompt_target_data_op_t target_data_op;
    rocprofiler_buffer_tracing_ompt_target_kernel_t target_kernel;
    uint64_t reserved[5];
  };
} rocprofiler_buffer_tracing_ompt_record_t;

/* MEMORY_COPY (operation = direction): written when the copy completed;
 * times of the copy. */
typedef struct rocprofiler_buffer_tracing_memory_copy_record_t {
  uint64_t size;
  rocprofiler_buffer_tracing_kind_t kind;
  rocprofiler_memory_copy_operation_t operation;
  rocprofiler_async_correlation_id_t correlation_id;
  rocprofiler_thread_id_t thread_id; /* the thread that submitted it */
  rocprofiler_timestamp_t start_timestamp;
  rocprofiler_timestamp_t end_timestamp;
  rocprofiler_agent_id_t dst_agent_id;
  rocprofiler_agent_id_t src_agent_id;
  uint64_t bytes;
  rocprofiler_address_t dst_address;
  rocprofiler_address_t src_address;
} rocprofiler_buffer_tracing_memory_copy_record_t;

/* MEMORY_ALLOCATION: one record per HSA allocation or free call, written
 * at its return; times of the call. `address` is the allocation's (the vmem
 * handle's value for VMEM_*); `agent_id` the agent owning the pool or region
 * allocated from (0 for frees); `allocation_size` 0 for frees. */
typedef struct rocprofiler_buffer_tracing_memory_allocation_record_t {
  uint64_t size;
  rocprofiler_buffer_tracing_kind_t kind;
  rocprofiler_memory_allocation_operation_t operation;
  rocprofiler_correlation_id_t correlation_id;
  rocprofiler_thread_id_t thread_id;
  rocprofiler_timestamp_t start_timestamp;
  rocprofiler_timestamp_t end_timestamp;
  rocprofiler_agent_id_t agent_id;
  rocprofiler_address_t address;
  uint64_t allocation_size;
} rocprofiler_buffer_tracing_memory_allocation_record_t;

/* KERNEL_DISPATCH (operation COMPLETE): written when the kernel finished;
 * times of the kernel. */
typedef struct rocprofiler_buffer_tracing_kernel_dispatch_record_t {
  uint64_t size;
  rocprofiler_buffer_tracing_kind_t kind;
  rocprofiler_kernel_dispatch_operation_t operation;
  rocprofiler_async_correlation_id_t correlation_id;
  rocprofiler_thread_id_t thread_id; /* the thread that dispatched it */
  rocprofiler_timestamp_t start_timestamp;
  rocprofiler_timestamp_t end_timestamp;
  rocprofiler_kernel_dispatch_info_t dispatch_info;
} rocprofiler_buffer_tracing_kernel_dispatch_record_t;

/* The KFD kinds: declared; this library has no kernel-driver events. */
typedef struct rocprofiler_buffer_tracing_kfd_event_page_migrate_record_t {
  uint64_t size;
  rocprofiler_buffer_tracing_kind_t kind;
  rocprofiler_tracing_operation_t operation;
  rocprofiler_timestamp_t timestamp;
  uint32_t pid;
  rocprofiler_address_t start_address;
  rocprofiler_address_t end_address;
  rocprofiler_agent_id_t src_agent;
  rocprofiler_agent_id_t dst_agent;
  rocprofiler_agent_id_t prefetch_agent;
  rocprofiler_agent_id_t preferred_agent;
  int32_t error_code;
} rocprofiler_buffer_tracing_kfd_event_page_migrate_record_t;

typedef struct rocprofiler_buffer_tracing_kfd_event_page_fault_record_t {
  uint64_t size;
  rocprofiler_buffer_tracing_kind_t kind;
  rocprofiler_tracing_operation_t operation;
  rocprofiler_timestamp_t timestamp;
  uint32_t pid;
  rocprofiler_agent_id_t agent_id;
  rocprofiler_address_t address;
} rocprofiler_buffer_tracing_kfd_event_page_fault_record_t;

typedef struct rocprofiler_buffer_tracing_kfd_event_queue_record_t {
  uint64_t size;
  rocprofiler_buffer_tracing_kind_t kind;
  rocprofiler_tracing_operation_t operation;
  rocprofiler_timestamp_t timestamp;
  uint32_t pid;
  rocprofiler_agent_id_t agent_id;
} rocprofiler_buffer_tracing_kfd_event_queue_record_t;

typedef struct rocprofiler_buffer_tracing_kfd_event_unmap_from_gpu_record_t {
  uint64_t size;
  rocprofiler_buffer_tracing_kind_t kind;
  rocprofiler_tracing_operation_t operation;
  rocprofiler_timestamp_t timestamp;
  uint32_t pid;
  rocprofiler_agent_id_t agent_id;
  rocprofiler_address_t start_address;
  rocprofiler_address_t end_address;
} rocprofiler_buffer_tracing_kfd_event_unmap_from_gpu_record_t;

typedef struct rocprofiler_buffer_tracing_kfd_event_dropped_events_record_t {
  uint64_t size;
  rocprofiler_buffer_tracing_kind_t kind;
  rocprofiler_tracing_operation_t operation;
  rocprofiler_timestamp_t timestamp;
  uint32_t pid;
  uint32_t count;
} rocprofiler_buffer_tracing_kfd_event_dropped_events_record_t;

typedef struct rocprofiler_buffer_tracing_kfd_page_migrate_record_t {
  uint64_t size;
  rocprofiler_buffer_tracing_kind_t kind;
  rocprofiler_tracing_operation_t operation;
  rocprofiler_timestamp_t start_timestamp;
  rocprofiler_timestamp_t end_timestamp;
  uint32_t pid;
  rocprofiler_address_t start_address;
  rocprofiler_address_t end_address;
  rocprofiler_agent_id_t src_agent;
  rocprofiler_agent_id_t dst_agent;
  rocprofiler_agent_id_t prefetch_agent;
  rocprofiler_agent_id_t preferred_agent;
  int32_t error_code;
} rocprofiler_buffer_tracing_kfd_page_migrate_record_t;

typedef struct rocprofiler_buffer_tracing_kfd_page_fault_record_t {
  uint64_t size;
  rocprofiler_buffer_tracing_kind_t kind;
  rocprofiler_tracing_operation_t operation;
  rocprofiler_timestamp_t start_timestamp;
  rocprofiler_timestamp_t end_timestamp;
  uint32_t pid;
  rocprofiler_agent_id_t agent_id;
  rocprofiler_address_t address;
} rocprofiler_buffer_tracing_kfd_page_fault_record_t;

typedef struct rocprofiler_buffer_tracing_kfd_queue_record_t {
  uint64_t size;
  rocprofiler_buffer_tracing_kind_t kind;
  rocprofiler_tracing_operation_t operation;
  rocprofiler_timestamp_t start_timestamp;
  rocprofiler_timestamp_t end_timestamp;
  uint32_t pid;
  rocprofiler_agent_id_t agent_id;
} rocprofiler_buffer_tracing_kfd_queue_record_t;

/* SCRATCH_MEMORY: one record per scratch operation of the HSA runtime
 * (START to END), where the headers built against have its events (ROCm >=
 * 6.1); none with older headers. */
typedef struct rocprofiler_buffer_tracing_scratch_memory_record_t {
  uint64_t size;
  rocprofiler_buffer_tracing_kind_t kind;
  rocprofiler_scratch_memory_operation_t operation;
  rocprofiler_correlation_id_t correlation_id;
  rocprofiler_agent_id_t agent_id;
  rocprofiler_queue_id_t queue_id;
  rocprofiler_thread_id_t thread_id;
  rocprofiler_timestamp_t start_timestamp;
  rocprofiler_timestamp_t end_timestamp;
  rocprofiler_scratch_alloc_flag_t flags;
} rocprofiler_buffer_tracing_scratch_memory_record_t;

/* CORRELATION_ID_RETIREMENT: written once no further record of any kind
 * will carry `internal_correlation_id` (its call returned and the GPU work it
 * submitted was reported); no operations. */
typedef struct rocprofiler_buffer_tracing_correlation_id_retirement_record_t {
  uint64_t size;
  rocprofiler_buffer_tracing_kind_t kind;
  rocprofiler_timestamp_t timestamp;
  uint64_t internal_correlation_id;
} rocprofiler_buffer_tracing_correlation_id_retirement_record_t;

/* RUNTIME_INITIALIZATION: declared; not recorded by this library. */
typedef struct rocprofiler_buffer_tracing_runtime_initialization_record_t {
  uint64_t size;
  rocprofiler_buffer_tracing_kind_t kind;
  rocprofiler_runtime_initialization_operation_t operation;
  rocprofiler_correlation_id_t correlation_id;
  rocprofiler_thread_id_t thread_id;
  rocprofiler_timestamp_t timestamp;
  uint64_t version;
  uint64_t instance;
} rocprofiler_buffer_tracing_runtime_initialization_record_t;

/* Iteration callbacks: returning non-zero stops the iteration. */
typedef int (*rocprofiler_buffer_tracing_kind_cb_t)(
    rocprofiler_buffer_tracing_kind_t kind, void* data);
typedef int (*rocprofiler_buffer_tracing_kind_operation_cb_t)(
    rocprofiler_buffer_tracing_kind_t kind,
    rocprofiler_tracing_operation_t operation, void* data);

/* One call per argument of a buffer record's traced function (the records
 * of the *_API_EXT kinds hold them); returning non-zero stops the
 * iteration. */
typedef int (*rocprofiler_buffer_tracing_operation_args_cb_t)(
    rocprofiler_buffer_tracing_kind_t kind,
    rocprofiler_tracing_operation_t operation, uint32_t arg_number,
    const void* const arg_value_addr, int32_t arg_indirection_count,
    const char* arg_type, const char* arg_name, const char* arg_value_str,
    void* data);

/* Records `kind` into `buffer_id`: only inside a tool's initialize
 * (ROCPROFILER_STATUS_ERROR_CONFIGURATION_LOCKED otherwise), once per kind
 * per context (ROCPROFILER_STATUS_ERROR_SERVICE_ALREADY_CONFIGURED). NULL
 * `operations` means every operation of the kind. Unknown context:
 * ROCPROFILER_STATUS_ERROR_CONTEXT_NOT_FOUND; unknown buffer:
 * ROCPROFILER_STATUS_ERROR_BUFFER_NOT_FOUND; a buffer of another context:
 * ROCPROFILER_STATUS_ERROR_CONTEXT_INVALID; kind outside the enum:
 * ROCPROFILER_STATUS_ERROR_KIND_NOT_FOUND; a kind this library does not
 * record: ROCPROFILER_STATUS_ERROR_NOT_IMPLEMENTED; an operation outside the
 * kind: ROCPROFILER_STATUS_ERROR_OPERATION_NOT_FOUND. */
rocprofiler_status_t rocprofiler_configure_buffer_tracing_service(
    rocprofiler_context_id_t context_id, rocprofiler_buffer_tracing_kind_t kind,
    const rocprofiler_tracing_operation_t* operations, size_t operations_count,
    rocprofiler_buffer_id_t buffer_id) ROCPROFILER_API;

/* Names are string literals ("HSA_CORE_API", "hsa_init"); name and
 * name_len may each be NULL. NONE is named "NONE" and has no operations
 * (its operation names and operations:
 * ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT, as rocprofiler-sdk 1.0.0). Unknown
 * kind: ROCPROFILER_STATUS_ERROR_KIND_NOT_FOUND; unknown operation:
 * ROCPROFILER_STATUS_ERROR_OPERATION_NOT_FOUND. */
rocprofiler_status_t rocprofiler_query_buffer_tracing_kind_name(
    rocprofiler_buffer_tracing_kind_t kind, const char** name,
    uint64_t* name_len) ROCPROFILER_API;
rocprofiler_status_t rocprofiler_query_buffer_tracing_kind_operation_name(
    rocprofiler_buffer_tracing_kind_t kind,
    rocprofiler_tracing_operation_t operation, const char** name,
    uint64_t* name_len) ROCPROFILER_API;

/* Every kind from NONE to LAST - 1, in enum order (NONE included, as
 * rocprofiler-sdk 1.0.0). */
rocprofiler_status_t rocprofiler_iterate_buffer_tracing_kinds(
    rocprofiler_buffer_tracing_kind_cb_t callback, void* data) ROCPROFILER_API;

/* Every operation of `kind`, from 0 to the kind's LAST - 1. */
rocprofiler_status_t rocprofiler_iterate_buffer_tracing_kind_operations(
    rocprofiler_buffer_tracing_kind_t kind,
    rocprofiler_buffer_tracing_kind_operation_cb_t callback,
    void* data) ROCPROFILER_API;

/* The arguments of the function a buffer record traced, as
 * rocprofiler-sdk 1.0.0: a record of a kind outside the enum (NONE, LAST and
 * beyond), a NULL payload or a NULL callback is
 * ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT. The HIP_RUNTIME_API_EXT and
 * HIP_COMPILER_API_EXT records hold them: one callback per argument, with
 * the value as the record holds it (pointers are not followed: what they
 * pointed to may be gone by the time the record is read), its address in
 * the record. The records of the other kinds hold no arguments:
 * ROCPROFILER_STATUS_ERROR_NOT_IMPLEMENTED. */
rocprofiler_status_t rocprofiler_iterate_buffer_tracing_record_args(
    rocprofiler_record_header_t record,
    rocprofiler_buffer_tracing_operation_args_cb_t callback,
    void* user_data) ROCPROFILER_API;

ROCPROFILER_EXTERN_C_FINI

#endif /* ROCPROFILER_SDK_BUFFER_TRACING_H_ */
