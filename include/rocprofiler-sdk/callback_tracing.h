/* Synchronous callback tracing: a callback on the calling thread before
 * (ENTER) and after (EXIT) each traced API call, and callbacks for GPU work
 * and code objects (the phases of each GPU kind are at its payload below;
 * sdk/README.md, "GPU kinds", says on which thread). C99 and C++ (in C++ the
 * HIP payload cannot be default-constructed: HIP's dim3 has a constructor;
 * tools receive payloads by pointer). */
#ifndef ROCPROFILER_SDK_CALLBACK_TRACING_H_
#define ROCPROFILER_SDK_CALLBACK_TRACING_H_

#include <hsa/hsa.h>
#include <hsa/hsa_ven_amd_loader.h>

/* The scratch-memory payload's event kind is the HSA runtime's
 * hsa_amd_tool_event_kind_t where the headers declare it, a 32-bit integer
 * with the same values where they do not (before ROCm 6.1). */
#if defined(__has_include)
#if __has_include(<hsa/hsa_amd_tool.h>)
#include <hsa/hsa_amd_tool.h>
#define ROCPROFILER_SDK_DETAIL_HSA_AMD_TOOL_EVENTS 1
#endif
#endif

#include "rocprofiler-sdk/defines.h"
#include "rocprofiler-sdk/fwd.h"
#include "rocprofiler-sdk/hip.h"
#include "rocprofiler-sdk/hsa.h"
#include "rocprofiler-sdk/marker.h"
#include "rocprofiler-sdk/ompt.h"
#include "rocprofiler-sdk/rccl.h"
#include "rocprofiler-sdk/rocdecode.h"
#include "rocprofiler-sdk/rocjpeg.h"

ROCPROFILER_EXTERN_C_INIT

/* How a code object was handed to the loader (the values of
 * hsa_ven_amd_loader_code_object_storage_type_t). */
typedef enum rocprofiler_code_object_storage_type_t {
  ROCPROFILER_CODE_OBJECT_STORAGE_TYPE_NONE =
      HSA_VEN_AMD_LOADER_CODE_OBJECT_STORAGE_TYPE_NONE,
  ROCPROFILER_CODE_OBJECT_STORAGE_TYPE_FILE =
      HSA_VEN_AMD_LOADER_CODE_OBJECT_STORAGE_TYPE_FILE,
  ROCPROFILER_CODE_OBJECT_STORAGE_TYPE_MEMORY =
      HSA_VEN_AMD_LOADER_CODE_OBJECT_STORAGE_TYPE_MEMORY,
  ROCPROFILER_CODE_OBJECT_STORAGE_TYPE_LAST
} rocprofiler_code_object_storage_type_t;

/* Payload of the four HSA API kinds. `args` holds the arguments as passed
 * (pointers are not followed); `retval` is written at EXIT. */
typedef struct rocprofiler_callback_tracing_hsa_api_data_t {
  uint64_t size; /* sizeof this struct */
  rocprofiler_hsa_api_args_t args;
  rocprofiler_hsa_api_retval_t retval;
} rocprofiler_callback_tracing_hsa_api_data_t;

/* Payload of the HIP runtime and compiler API kinds. */
typedef struct rocprofiler_callback_tracing_hip_api_data_t {
  uint64_t size;
  rocprofiler_hip_api_args_t args;
  rocprofiler_hip_api_retval_t retval;
} rocprofiler_callback_tracing_hip_api_data_t;

/* Payload of the marker kinds (core, control, name). rocTX does not report
 * return values to the tracer: retval is 0 except roctxRangeStartA's range ID
 * at EXIT (the control and name requests return 0 when they are reported). */
typedef struct rocprofiler_callback_tracing_marker_api_data_t {
  uint64_t size;
  rocprofiler_marker_api_args_t args;
  rocprofiler_marker_api_retval_t retval;
} rocprofiler_callback_tracing_marker_api_data_t;

/* CODE_OBJECT / ROCPROFILER_CODE_OBJECT_LOAD: phase LOAD after the
 * executable holding it was frozen, UNLOAD before it is destroyed. */
typedef struct rocprofiler_callback_tracing_code_object_load_data_t {
  uint64_t size;
  uint64_t code_object_id; /* from 1; unique in the process */
  union {
    rocprofiler_agent_id_t rocp_agent; /* the older name of agent_id */
    rocprofiler_agent_id_t agent_id;
  };
  hsa_agent_t hsa_agent;
  const char* uri; /* "" when the loader gives none; valid in the call */
  uint64_t load_base;
  uint64_t load_size;
  int64_t load_delta;
  rocprofiler_code_object_storage_type_t storage_type;
  union {
    struct {
      int storage_file; /* storage_type FILE: the descriptor it was read from */
    };
    struct {
      uint64_t memory_base; /* storage_type MEMORY: where it was read from */
      uint64_t memory_size;
    };
  };
} rocprofiler_callback_tracing_code_object_load_data_t;

#define ROCPROFILER_CODE_OBJECT_ID_NONE ROCPROFILER_UINT64_C(0)

/* CODE_OBJECT / ROCPROFILER_CODE_OBJECT_DEVICE_KERNEL_SYMBOL_REGISTER: phase
 * LOAD when the kernel's executable was frozen, UNLOAD before it is
 * destroyed. kernel_id is what KERNEL_DISPATCH records carry. The register
 * counts and the entry offset come from the GPU kernel descriptor, which
 * this library does not decode: they are 0 (kernel_address too). */
typedef struct
    rocprofiler_callback_tracing_code_object_kernel_symbol_register_data_t {
  uint64_t size;
  uint64_t kernel_id; /* from 1; unique in the process */
  uint64_t code_object_id;
  const char* kernel_name; /* the symbol as the runtime names it */
  uint64_t kernel_object;
  uint32_t kernarg_segment_size;
  uint32_t kernarg_segment_alignment;
  uint32_t group_segment_size;
  uint32_t private_segment_size;
  uint32_t sgpr_count;
  uint32_t arch_vgpr_count;
  uint32_t accum_vgpr_count;
  int64_t kernel_code_entry_byte_offset;
  rocprofiler_address_t kernel_address;
} rocprofiler_callback_tracing_code_object_kernel_symbol_register_data_t;

/* CODE_OBJECT / ROCPROFILER_CODE_OBJECT_HOST_KERNEL_SYMBOL_REGISTER: a
 * host function registered with HIP for a kernel. Not reported by this
 * library (HIP's registration calls are traced as HIP_COMPILER_API). */
typedef struct
    rocprofiler_callback_tracing_code_object_host_kernel_symbol_register_data_t {
  uint64_t size;
  uint64_t host_function_id;
  uint64_t kernel_id;
  uint64_t code_object_id;
  rocprofiler_address_t host_function;
  rocprofiler_address_t modules;
  const char* device_function;
  uint32_t thread_limit;
  rocprofiler_dim3_t thread_ids;
  rocprofiler_dim3_t block_ids;
  rocprofiler_dim3_t block_dims;
  rocprofiler_dim3_t grid_dims;
  uint64_t workgroup_size;
} rocprofiler_callback_tracing_code_object_host_kernel_symbol_register_data_t;

/* KERNEL_DISPATCH: ENQUEUE with ENTER and EXIT as the packet reaches the
 * runtime (timestamps 0), COMPLETE with phase NONE when it has finished
 * (times of the kernel, in rocprofiler_get_timestamp's clock). */
typedef struct rocprofiler_callback_tracing_kernel_dispatch_data_t {
  uint64_t size;
  rocprofiler_timestamp_t start_timestamp;
  rocprofiler_timestamp_t end_timestamp;
  rocprofiler_kernel_dispatch_info_t dispatch_info;
} rocprofiler_callback_tracing_kernel_dispatch_data_t;

/* MEMORY_COPY (operation = direction): ENTER as the copy is submitted
 * (timestamps 0), EXIT when it has completed. */
typedef struct rocprofiler_callback_tracing_memory_copy_data_t {
  uint64_t size;
  rocprofiler_timestamp_t start_timestamp;
  rocprofiler_timestamp_t end_timestamp;
  rocprofiler_agent_id_t dst_agent_id;
  rocprofiler_agent_id_t src_agent_id;
  uint64_t bytes;
  rocprofiler_address_t dst_address;
  rocprofiler_address_t src_address;
} rocprofiler_callback_tracing_memory_copy_data_t;

/* MEMORY_ALLOCATION: ENTER (times 0; for an allocation, address 0) and
 * EXIT (times of the call, the address) around each HSA allocation or free
 * call. */
typedef struct rocprofiler_callback_tracing_memory_allocation_data_t {
  uint64_t size;
  rocprofiler_timestamp_t start_timestamp;
  rocprofiler_timestamp_t end_timestamp;
  rocprofiler_agent_id_t agent_id;
  rocprofiler_address_t address;
  uint64_t allocation_size;
} rocprofiler_callback_tracing_memory_allocation_data_t;

/* Payload of the RCCL_API kind (declared; RCCL is not traced by this
 * library). */
typedef struct rocprofiler_callback_tracing_rccl_api_data_t {
  uint64_t size;
  rocprofiler_rccl_api_args_t args;
  rocprofiler_rccl_api_retval_t retval;
} rocprofiler_callback_tracing_rccl_api_data_t;

/* Payload of the OMPT kind (declared; this library is not an OpenMP tool,
 * ompt.h): the callback's arguments, the member named by the operation. */
typedef struct rocprofiler_callback_tracing_ompt_data_t {
  uint64_t size;
  rocprofiler_ompt_args_t args;
} rocprofiler_callback_tracing_ompt_data_t;

/* Payload of the ROCDECODE_API kind (declared; rocDecode is not traced by
 * this library). */
typedef struct rocprofiler_callback_tracing_rocdecode_api_data_t {
  uint64_t size;
  rocprofiler_rocdecode_api_args_t args;
  rocprofiler_rocdecode_api_retval_t retval;
} rocprofiler_callback_tracing_rocdecode_api_data_t;

/* Payload of the ROCJPEG_API kind (declared; rocJPEG is not traced by this
 * library). */
typedef struct rocprofiler_callback_tracing_rocjpeg_api_data_t {
  uint64_t size;
  rocprofiler_rocjpeg_api_args_t args;
  rocprofiler_rocjpeg_api_retval_t retval;
} rocprofiler_callback_tracing_rocjpeg_api_data_t;

/* SCRATCH_MEMORY (operation: ALLOC, FREE or ASYNC_RECLAIM): ENTER at the
 * runtime's START event and EXIT at its END, on the thread that raised them,
 * the correlation ID that of the innermost traced call in progress there (0
 * when none). `args_kind` is the event (hsa_amd_tool_event_kind_t:
 * 1 ALLOC_START, 2 ALLOC_END, 3 FREE_START, 4 FREE_END, 5 ASYNC_RECLAIM_START,
 * 6 ASYNC_RECLAIM_END) and names the member of `args` it filled. Raised by
 * runtimes whose headers have hsa/hsa_amd_tool.h (ROCm >= 6.1); built
 * against older headers, this library configures the kind and never calls
 * it. */
typedef struct rocprofiler_callback_tracing_scratch_memory_data_t {
  uint64_t size;
  rocprofiler_agent_id_t agent_id;
  rocprofiler_queue_id_t queue_id;
  rocprofiler_scratch_alloc_flag_t flags;
#ifdef ROCPROFILER_SDK_DETAIL_HSA_AMD_TOOL_EVENTS
  hsa_amd_tool_event_kind_t args_kind;
#else
  int32_t args_kind;
#endif
  rocprofiler_scratch_memory_args_t args;
} rocprofiler_callback_tracing_scratch_memory_data_t;

/* RUNTIME_INITIALIZATION (declared; not reported by this library). */
typedef struct rocprofiler_callback_tracing_runtime_initialization_data_t {
  uint64_t size;
  uint64_t version;
  uint64_t instance;
} rocprofiler_callback_tracing_runtime_initialization_data_t;

/* HIP_STREAM (declared; not reported by this library). */
typedef struct rocprofiler_callback_tracing_hip_stream_data_t {
  uint64_t size;
  rocprofiler_stream_id_t stream_id;
  rocprofiler_address_t stream_value;
} rocprofiler_callback_tracing_hip_stream_data_t;

/* Called at ENTER and EXIT. `user_data` is one slot per call and context:
 * zero at ENTER, and what ENTER left in it at EXIT. */
typedef void (*rocprofiler_callback_tracing_cb_t)(
    rocprofiler_callback_tracing_record_t record,
    rocprofiler_user_data_t* user_data, void* callback_data);

/* Iteration callbacks: returning non-zero stops the iteration. */
typedef int (*rocprofiler_callback_tracing_kind_cb_t)(
    rocprofiler_callback_tracing_kind_t kind, void* data);
typedef int (*rocprofiler_callback_tracing_kind_operation_cb_t)(
    rocprofiler_callback_tracing_kind_t kind,
    rocprofiler_tracing_operation_t operation, void* data);

/* One argument of a traced call. arg_value_addr points into the record's
 * payload; arg_type is the C spelling of the parameter's type in the ROCm
 * header (`hsa_agent_t*`, `const char*`), arg_name its name in the
 * prototype; arg_dereference_count says how many pointer levels were followed
 * to produce arg_value_str. */
typedef int (*rocprofiler_callback_tracing_operation_args_cb_t)(
    rocprofiler_callback_tracing_kind_t kind,
    rocprofiler_tracing_operation_t operation, uint32_t arg_number,
    const void* const arg_value_addr, int32_t arg_indirection_count,
    const char* arg_type, const char* arg_name, const char* arg_value_str,
    int32_t arg_dereference_count, void* data);

/* Configures `kind` in a context: only inside a tool's initialize
 * (ROCPROFILER_STATUS_ERROR_CONFIGURATION_LOCKED otherwise), once per kind per
 * context (ROCPROFILER_STATUS_ERROR_SERVICE_ALREADY_CONFIGURED). NULL
 * `operations` means every operation of the kind. Unknown context:
 * ROCPROFILER_STATUS_ERROR_CONTEXT_NOT_FOUND; kind outside the enum:
 * ROCPROFILER_STATUS_ERROR_KIND_NOT_FOUND; a kind this library does not
 * trace: ROCPROFILER_STATUS_ERROR_NOT_IMPLEMENTED; an operation outside the
 * kind: ROCPROFILER_STATUS_ERROR_OPERATION_NOT_FOUND; NULL callback:
 * ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT. */
rocprofiler_status_t rocprofiler_configure_callback_tracing_service(
    rocprofiler_context_id_t context_id,
    rocprofiler_callback_tracing_kind_t kind,
    const rocprofiler_tracing_operation_t* operations,
    unsigned long operations_count, rocprofiler_callback_tracing_cb_t callback,
    void* callback_args) ROCPROFILER_API;

/* Names are string literals ("HSA_CORE_API", "hsa_init"); name and
 * name_len may each be NULL. NONE is named "NONE" and has no operations
 * (its operation names and operations:
 * ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT, as rocprofiler-sdk 1.0.0). Unknown
 * kind: ROCPROFILER_STATUS_ERROR_KIND_NOT_FOUND; unknown operation:
 * ROCPROFILER_STATUS_ERROR_OPERATION_NOT_FOUND. */
rocprofiler_status_t rocprofiler_query_callback_tracing_kind_name(
    rocprofiler_callback_tracing_kind_t kind, const char** name,
    uint64_t* name_len) ROCPROFILER_API;
rocprofiler_status_t rocprofiler_query_callback_tracing_kind_operation_name(
    rocprofiler_callback_tracing_kind_t kind,
    rocprofiler_tracing_operation_t operation, const char** name,
    uint64_t* name_len) ROCPROFILER_API;

/* Every kind from NONE to LAST - 1, in enum order (NONE included, as
 * rocprofiler-sdk 1.0.0). */
rocprofiler_status_t rocprofiler_iterate_callback_tracing_kinds(
    rocprofiler_callback_tracing_kind_cb_t callback,
    void* data) ROCPROFILER_API;

/* Every operation of `kind`, from 0 to the kind's LAST - 1. */
rocprofiler_status_t rocprofiler_iterate_callback_tracing_kind_operations(
    rocprofiler_callback_tracing_kind_t kind,
    rocprofiler_callback_tracing_kind_operation_cb_t callback,
    void* data) ROCPROFILER_API;

/* Every argument of the call in `record`. Pointers are followed at most
 * max_dereference_count levels, never when NULL, never through void*,
 * opaque handles or functions, and never through an out-parameter at ENTER
 * (not written yet). The GPU kinds have no arguments: each field of their
 * payload is given as one, named as the field (agent, queue and address
 * handles as numbers, the URI and kernel name as strings). */
rocprofiler_status_t rocprofiler_iterate_callback_tracing_kind_operation_args(
    rocprofiler_callback_tracing_record_t record,
    rocprofiler_callback_tracing_operation_args_cb_t callback,
    int32_t max_dereference_count, void* user_data) ROCPROFILER_API;

ROCPROFILER_EXTERN_C_FINI

#endif /* ROCPROFILER_SDK_CALLBACK_TRACING_H_ */
