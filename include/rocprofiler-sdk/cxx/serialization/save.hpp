// Writing rocprofiler-sdk's types with cereal, as rocprofiler-sdk 1.0.0's
// <rocprofiler-sdk/cxx/serialization/save.hpp> offers it to tools that write
// records as JSON or binary: `save(archive, value)` functions in namespace
// cereal (ROCPROFILER_SDK_CEREAL_NAMESPACE_BEGIN/END, overridable) for the
// identifiers, the callback record and payloads, every buffer-tracing record,
// counter records, agents and the name tables of cxx/name_info.hpp.
// ROCP_SDK_SAVE_VALUE stays defined for the includer; the ROCP_SDK_SAVE_DATA_*
// macros the functions are written with are undefined at the end, as in
// 1.0.0, so they never clash with a tool's own.
// <rocprofiler-sdk/cxx/serialization/load.hpp> reads agents and code-object
// records back.
//
//   cereal::JSONOutputArchive json{out};
//   json(cereal::make_nvp("record", *static_cast<
//       rocprofiler_buffer_tracing_kernel_dispatch_record_t*>(h->payload)));
//
// Each struct is written as its fields, named as in the C headers, in
// declaration order: numbers and enums as numbers, C strings as strings (""
// for NULL), identifiers as {handle}, correlation IDs as {internal,
// external[, ancestor]} (external as its value), addresses as {handle}. Not
// written: argument unions of the callback payloads (a tool reads them with
// rocprofiler_iterate_callback_tracing_kind_operation_args); the *_API_EXT
// records write theirs as `args`, a list of {type, name, value} from
// rocprofiler_iterate_buffer_tracing_record_args. A union member is written
// as the one its discriminator names (a code object's storage); a return
// value as its widest integer member (HIP's as hipError_t_retval: the
// generated union has no 64-bit member for every HIP release). Left out as
// 1.0.0 leaves them out: a code object's runtime `hsa_agent` handle (its
// `agent_id` is written). An agent's memory bank, cache and I/O link arrays
// are written last, as lists of their counts' length, in the order load.hpp
// reads them (so binary archives read back too).
//
// Needs cereal's headers (Debian: libcereal-dev). Header-only, C++17.
#ifndef ROCPROFILER_SDK_CXX_SERIALIZATION_SAVE_HPP_
#define ROCPROFILER_SDK_CXX_SERIALIZATION_SAVE_HPP_

#include <rocprofiler-sdk/agent.h>
#include <rocprofiler-sdk/buffer.h>
#include <rocprofiler-sdk/buffer_tracing.h>
#include <rocprofiler-sdk/callback_tracing.h>
#include <rocprofiler-sdk/counters.h>
#include <rocprofiler-sdk/fwd.h>

#include <cereal/archives/binary.hpp>
#include <cereal/archives/json.hpp>
#include <cereal/archives/portable_binary.hpp>
#include <cereal/cereal.hpp>
#include <cereal/types/array.hpp>
#include <cereal/types/common.hpp>
#include <cereal/types/map.hpp>
#include <cereal/types/optional.hpp>
#include <cereal/types/string.hpp>
#include <cereal/types/utility.hpp>
#include <cereal/types/vector.hpp>
#include <cstddef>
#include <cstdint>
#include <rocprofiler-sdk/cxx/name_info.hpp>
#include <string>
#include <vector>

// A field of `data` under its own name; a value under NAME; a C string
// field as a std::string; a bit-field (which cannot be bound to a
// reference) through a copy.
#define ROCP_SDK_SAVE_DATA_FIELD(FIELD) ar(make_nvp(#FIELD, data.FIELD))
#define ROCP_SDK_SAVE_DATA_VALUE(NAME, VALUE) ar(make_nvp(NAME, data.VALUE))
#define ROCP_SDK_SAVE_VALUE(NAME, VALUE) ar(make_nvp(NAME, VALUE))
#define ROCP_SDK_SAVE_DATA_CSTR(FIELD) \
  ar(make_nvp(#FIELD, std::string{data.FIELD ? data.FIELD : ""}))
#define ROCP_SDK_SAVE_DATA_BITFIELD(NAME, VALUE) \
  {                                              \
    auto value_copy_ = data.VALUE;               \
    ar(make_nvp(NAME, value_copy_));             \
  }

#if !defined(ROCPROFILER_SDK_CEREAL_NAMESPACE_BEGIN)
#define ROCPROFILER_SDK_CEREAL_NAMESPACE_BEGIN namespace cereal {
#endif
#if !defined(ROCPROFILER_SDK_CEREAL_NAMESPACE_END)
#define ROCPROFILER_SDK_CEREAL_NAMESPACE_END }  // namespace cereal
#endif

namespace rocprofiler {
namespace sdk {
namespace serialization {

// One argument of a *_API_EXT record.
struct buffer_tracing_args {
  std::string type = {};
  std::string name = {};
  std::string value = {};
};

// The arguments a buffer record holds (empty for a kind without them), in
// argument order.
template <typename RecordT>
std::vector<buffer_tracing_args> get_buffer_tracing_args(
    const RecordT& record) {
  std::vector<buffer_tracing_args> out;
  rocprofiler_record_header_t header{};
  header.category = ROCPROFILER_BUFFER_CATEGORY_TRACING;
  header.kind = static_cast<uint32_t>(record.kind);
  header.payload = const_cast<RecordT*>(&record);
  rocprofiler_iterate_buffer_tracing_record_args(
      header,
      [](rocprofiler_buffer_tracing_kind_t, rocprofiler_tracing_operation_t,
         uint32_t number, const void* const, int32_t, const char* type,
         const char* name, const char* value, void* data) -> int {
        auto* args = static_cast<std::vector<buffer_tracing_args>*>(data);
        if (args->size() <= number) args->resize(number + 1);
        (*args)[number] = buffer_tracing_args{
            type ? type : "", name ? name : "", value ? value : ""};
        return 0;
      },
      &out);
  return out;
}

}  // namespace serialization
}  // namespace sdk
}  // namespace rocprofiler

ROCPROFILER_SDK_CEREAL_NAMESPACE_BEGIN

template <typename ArchiveT>
void save(ArchiveT& ar,
          const ::rocprofiler::sdk::serialization::buffer_tracing_args& data) {
  ROCP_SDK_SAVE_DATA_FIELD(type);
  ROCP_SDK_SAVE_DATA_FIELD(name);
  ROCP_SDK_SAVE_DATA_FIELD(value);
}

// Identifiers.
#define ROCP_SDK_SAVE_HANDLE_(TYPE)    \
  template <typename ArchiveT>         \
  void save(ArchiveT& ar, TYPE data) { \
    ROCP_SDK_SAVE_DATA_FIELD(handle);  \
  }
ROCP_SDK_SAVE_HANDLE_(rocprofiler_context_id_t)
ROCP_SDK_SAVE_HANDLE_(rocprofiler_buffer_id_t)
ROCP_SDK_SAVE_HANDLE_(rocprofiler_agent_id_t)
ROCP_SDK_SAVE_HANDLE_(rocprofiler_queue_id_t)
ROCP_SDK_SAVE_HANDLE_(rocprofiler_stream_id_t)
ROCP_SDK_SAVE_HANDLE_(rocprofiler_counter_id_t)
ROCP_SDK_SAVE_HANDLE_(rocprofiler_counter_config_id_t)
ROCP_SDK_SAVE_HANDLE_(rocprofiler_address_t)
ROCP_SDK_SAVE_HANDLE_(hsa_agent_t)
#undef ROCP_SDK_SAVE_HANDLE_

template <typename ArchiveT>
void save(ArchiveT& ar, rocprofiler_user_data_t data) {
  ROCP_SDK_SAVE_DATA_FIELD(value);
}

template <typename ArchiveT>
void save(ArchiveT& ar, rocprofiler_uuid_t data) {
  ROCP_SDK_SAVE_DATA_FIELD(value);
}

template <typename ArchiveT>
void save(ArchiveT& ar, rocprofiler_version_triplet_t data) {
  ROCP_SDK_SAVE_DATA_FIELD(major);
  ROCP_SDK_SAVE_DATA_FIELD(minor);
  ROCP_SDK_SAVE_DATA_FIELD(patch);
}

template <typename ArchiveT>
void save(ArchiveT& ar, rocprofiler_correlation_id_t data) {
  ROCP_SDK_SAVE_DATA_FIELD(internal);
  ROCP_SDK_SAVE_DATA_VALUE("external", external.value);
  ROCP_SDK_SAVE_DATA_FIELD(ancestor);
}

template <typename ArchiveT>
void save(ArchiveT& ar, rocprofiler_async_correlation_id_t data) {
  ROCP_SDK_SAVE_DATA_FIELD(internal);
  ROCP_SDK_SAVE_DATA_VALUE("external", external.value);
}

template <typename ArchiveT>
void save(ArchiveT& ar, rocprofiler_dim3_t data) {
  ROCP_SDK_SAVE_DATA_FIELD(x);
  ROCP_SDK_SAVE_DATA_FIELD(y);
  ROCP_SDK_SAVE_DATA_FIELD(z);
}

template <typename ArchiveT>
void save(ArchiveT& ar, rocprofiler_record_header_t data) {
  ROCP_SDK_SAVE_DATA_FIELD(hash);
  ROCP_SDK_SAVE_DATA_FIELD(category);
  ROCP_SDK_SAVE_DATA_FIELD(kind);
}

template <typename ArchiveT>
void save(ArchiveT& ar, rocprofiler_kernel_dispatch_info_t data) {
  ROCP_SDK_SAVE_DATA_FIELD(size);
  ROCP_SDK_SAVE_DATA_FIELD(agent_id);
  ROCP_SDK_SAVE_DATA_FIELD(queue_id);
  ROCP_SDK_SAVE_DATA_FIELD(kernel_id);
  ROCP_SDK_SAVE_DATA_FIELD(dispatch_id);
  ROCP_SDK_SAVE_DATA_FIELD(private_segment_size);
  ROCP_SDK_SAVE_DATA_FIELD(group_segment_size);
  ROCP_SDK_SAVE_DATA_FIELD(workgroup_size);
  ROCP_SDK_SAVE_DATA_FIELD(grid_size);
}

// Return values: the widest integer member of each union (HIP:
// hipError_t_retval).
template <typename ArchiveT>
void save(ArchiveT& ar, rocprofiler_hsa_api_retval_t data) {
  ROCP_SDK_SAVE_DATA_FIELD(uint64_t_retval);
}

template <typename ArchiveT>
void save(ArchiveT& ar, rocprofiler_hip_api_retval_t data) {
  ROCP_SDK_SAVE_DATA_FIELD(hipError_t_retval);
}

template <typename ArchiveT>
void save(ArchiveT& ar, rocprofiler_marker_api_retval_t data) {
  ROCP_SDK_SAVE_DATA_FIELD(int64_t_retval);
}

template <typename ArchiveT>
void save(ArchiveT& ar, rocprofiler_rccl_api_retval_t data) {
  ROCP_SDK_SAVE_DATA_FIELD(ncclResult_t_retval);
}

template <typename ArchiveT>
void save(ArchiveT& ar, rocprofiler_rocdecode_api_retval_t data) {
  ROCP_SDK_SAVE_DATA_FIELD(uint64_t_retval);
}

template <typename ArchiveT>
void save(ArchiveT& ar, rocprofiler_rocjpeg_api_retval_t data) {
  ROCP_SDK_SAVE_DATA_FIELD(rocJpegStatus_retval);
}

// The callback record (its payload is written by the payload's own save).
template <typename ArchiveT>
void save(ArchiveT& ar, rocprofiler_callback_tracing_record_t data) {
  ROCP_SDK_SAVE_DATA_FIELD(context_id);
  ROCP_SDK_SAVE_DATA_FIELD(thread_id);
  ROCP_SDK_SAVE_DATA_FIELD(correlation_id);
  ROCP_SDK_SAVE_DATA_FIELD(kind);
  ROCP_SDK_SAVE_DATA_FIELD(operation);
  ROCP_SDK_SAVE_DATA_FIELD(phase);
}

// Callback payloads of the API kinds: size and return value.
#define ROCP_SDK_SAVE_API_PAYLOAD_(TYPE) \
  template <typename ArchiveT>           \
  void save(ArchiveT& ar, TYPE data) {   \
    ROCP_SDK_SAVE_DATA_FIELD(size);      \
    ROCP_SDK_SAVE_DATA_FIELD(retval);    \
  }
ROCP_SDK_SAVE_API_PAYLOAD_(rocprofiler_callback_tracing_hsa_api_data_t)
ROCP_SDK_SAVE_API_PAYLOAD_(rocprofiler_callback_tracing_hip_api_data_t)
ROCP_SDK_SAVE_API_PAYLOAD_(rocprofiler_callback_tracing_marker_api_data_t)
ROCP_SDK_SAVE_API_PAYLOAD_(rocprofiler_callback_tracing_rccl_api_data_t)
ROCP_SDK_SAVE_API_PAYLOAD_(rocprofiler_callback_tracing_rocdecode_api_data_t)
ROCP_SDK_SAVE_API_PAYLOAD_(rocprofiler_callback_tracing_rocjpeg_api_data_t)
#undef ROCP_SDK_SAVE_API_PAYLOAD_

template <typename ArchiveT>
void save(ArchiveT& ar, rocprofiler_callback_tracing_ompt_data_t data) {
  ROCP_SDK_SAVE_DATA_FIELD(size);
}

template <typename ArchiveT>
void save(ArchiveT& ar,
          rocprofiler_callback_tracing_code_object_load_data_t data) {
  ROCP_SDK_SAVE_DATA_FIELD(size);
  ROCP_SDK_SAVE_DATA_FIELD(code_object_id);
  ROCP_SDK_SAVE_DATA_FIELD(agent_id);
  ROCP_SDK_SAVE_DATA_CSTR(uri);
  ROCP_SDK_SAVE_DATA_FIELD(load_base);
  ROCP_SDK_SAVE_DATA_FIELD(load_size);
  ROCP_SDK_SAVE_DATA_FIELD(load_delta);
  ROCP_SDK_SAVE_DATA_FIELD(storage_type);
  if (data.storage_type == ROCPROFILER_CODE_OBJECT_STORAGE_TYPE_FILE) {
    ROCP_SDK_SAVE_DATA_FIELD(storage_file);
  } else if (data.storage_type == ROCPROFILER_CODE_OBJECT_STORAGE_TYPE_MEMORY) {
    ROCP_SDK_SAVE_DATA_FIELD(memory_base);
    ROCP_SDK_SAVE_DATA_FIELD(memory_size);
  }
}

template <typename ArchiveT>
void save(ArchiveT& ar,
          rocprofiler_callback_tracing_code_object_kernel_symbol_register_data_t
              data) {
  ROCP_SDK_SAVE_DATA_FIELD(size);
  ROCP_SDK_SAVE_DATA_FIELD(kernel_id);
  ROCP_SDK_SAVE_DATA_FIELD(code_object_id);
  ROCP_SDK_SAVE_DATA_CSTR(kernel_name);
  ROCP_SDK_SAVE_DATA_FIELD(kernel_object);
  ROCP_SDK_SAVE_DATA_FIELD(kernarg_segment_size);
  ROCP_SDK_SAVE_DATA_FIELD(kernarg_segment_alignment);
  ROCP_SDK_SAVE_DATA_FIELD(group_segment_size);
  ROCP_SDK_SAVE_DATA_FIELD(private_segment_size);
  ROCP_SDK_SAVE_DATA_FIELD(sgpr_count);
  ROCP_SDK_SAVE_DATA_FIELD(arch_vgpr_count);
  ROCP_SDK_SAVE_DATA_FIELD(accum_vgpr_count);
  ROCP_SDK_SAVE_DATA_FIELD(kernel_code_entry_byte_offset);
  ROCP_SDK_SAVE_DATA_FIELD(kernel_address);
}

template <typename ArchiveT>
void save(
    ArchiveT& ar,
    rocprofiler_callback_tracing_code_object_host_kernel_symbol_register_data_t
        data) {
  ROCP_SDK_SAVE_DATA_FIELD(size);
  ROCP_SDK_SAVE_DATA_FIELD(host_function_id);
  ROCP_SDK_SAVE_DATA_FIELD(kernel_id);
  ROCP_SDK_SAVE_DATA_FIELD(code_object_id);
  ROCP_SDK_SAVE_DATA_FIELD(host_function);
  ROCP_SDK_SAVE_DATA_FIELD(modules);
  ROCP_SDK_SAVE_DATA_CSTR(device_function);
  ROCP_SDK_SAVE_DATA_FIELD(thread_limit);
  ROCP_SDK_SAVE_DATA_FIELD(thread_ids);
  ROCP_SDK_SAVE_DATA_FIELD(block_ids);
  ROCP_SDK_SAVE_DATA_FIELD(block_dims);
  ROCP_SDK_SAVE_DATA_FIELD(grid_dims);
  ROCP_SDK_SAVE_DATA_FIELD(workgroup_size);
}

template <typename ArchiveT>
void save(ArchiveT& ar,
          rocprofiler_callback_tracing_kernel_dispatch_data_t data) {
  ROCP_SDK_SAVE_DATA_FIELD(size);
  ROCP_SDK_SAVE_DATA_FIELD(start_timestamp);
  ROCP_SDK_SAVE_DATA_FIELD(end_timestamp);
  ROCP_SDK_SAVE_DATA_FIELD(dispatch_info);
}

template <typename ArchiveT>
void save(ArchiveT& ar, rocprofiler_callback_tracing_memory_copy_data_t data) {
  ROCP_SDK_SAVE_DATA_FIELD(size);
  ROCP_SDK_SAVE_DATA_FIELD(start_timestamp);
  ROCP_SDK_SAVE_DATA_FIELD(end_timestamp);
  ROCP_SDK_SAVE_DATA_FIELD(dst_agent_id);
  ROCP_SDK_SAVE_DATA_FIELD(src_agent_id);
  ROCP_SDK_SAVE_DATA_FIELD(bytes);
  ROCP_SDK_SAVE_DATA_FIELD(dst_address);
  ROCP_SDK_SAVE_DATA_FIELD(src_address);
}

template <typename ArchiveT>
void save(ArchiveT& ar,
          rocprofiler_callback_tracing_memory_allocation_data_t data) {
  ROCP_SDK_SAVE_DATA_FIELD(size);
  ROCP_SDK_SAVE_DATA_FIELD(start_timestamp);
  ROCP_SDK_SAVE_DATA_FIELD(end_timestamp);
  ROCP_SDK_SAVE_DATA_FIELD(agent_id);
  ROCP_SDK_SAVE_DATA_FIELD(address);
  ROCP_SDK_SAVE_DATA_FIELD(allocation_size);
}

template <typename ArchiveT>
void save(ArchiveT& ar,
          rocprofiler_callback_tracing_scratch_memory_data_t data) {
  ROCP_SDK_SAVE_DATA_FIELD(size);
  ROCP_SDK_SAVE_DATA_FIELD(agent_id);
  ROCP_SDK_SAVE_DATA_FIELD(queue_id);
  ROCP_SDK_SAVE_DATA_FIELD(flags);
  ROCP_SDK_SAVE_DATA_FIELD(args_kind);
}

template <typename ArchiveT>
void save(ArchiveT& ar,
          rocprofiler_callback_tracing_runtime_initialization_data_t data) {
  ROCP_SDK_SAVE_DATA_FIELD(size);
  ROCP_SDK_SAVE_DATA_FIELD(version);
  ROCP_SDK_SAVE_DATA_FIELD(instance);
}

template <typename ArchiveT>
void save(ArchiveT& ar, rocprofiler_callback_tracing_hip_stream_data_t data) {
  ROCP_SDK_SAVE_DATA_FIELD(size);
  ROCP_SDK_SAVE_DATA_FIELD(stream_id);
  ROCP_SDK_SAVE_DATA_FIELD(stream_value);
}

// Buffer records.
template <typename ArchiveT, typename RecordT>
void save_buffer_tracing_api_record(ArchiveT& ar, const RecordT& data) {
  ROCP_SDK_SAVE_DATA_FIELD(size);
  ROCP_SDK_SAVE_DATA_FIELD(kind);
  ROCP_SDK_SAVE_DATA_FIELD(operation);
  ROCP_SDK_SAVE_DATA_FIELD(correlation_id);
  ROCP_SDK_SAVE_DATA_FIELD(start_timestamp);
  ROCP_SDK_SAVE_DATA_FIELD(end_timestamp);
  ROCP_SDK_SAVE_DATA_FIELD(thread_id);
}

#define ROCP_SDK_SAVE_API_RECORD_(TYPE)       \
  template <typename ArchiveT>                \
  void save(ArchiveT& ar, TYPE data) {        \
    save_buffer_tracing_api_record(ar, data); \
  }
ROCP_SDK_SAVE_API_RECORD_(rocprofiler_buffer_tracing_hsa_api_record_t)
ROCP_SDK_SAVE_API_RECORD_(rocprofiler_buffer_tracing_hip_api_record_t)
ROCP_SDK_SAVE_API_RECORD_(rocprofiler_buffer_tracing_marker_api_record_t)
ROCP_SDK_SAVE_API_RECORD_(rocprofiler_buffer_tracing_rccl_api_record_t)
ROCP_SDK_SAVE_API_RECORD_(rocprofiler_buffer_tracing_rocdecode_api_record_t)
ROCP_SDK_SAVE_API_RECORD_(rocprofiler_buffer_tracing_rocjpeg_api_record_t)
#undef ROCP_SDK_SAVE_API_RECORD_

// The records with arguments: the API record, `args`, `retval`.
template <typename ArchiveT>
void save(ArchiveT& ar,
          const rocprofiler_buffer_tracing_hip_api_ext_record_t& data) {
  save_buffer_tracing_api_record(ar, data);
  ROCP_SDK_SAVE_VALUE(
      "args", ::rocprofiler::sdk::serialization::get_buffer_tracing_args(data));
  ROCP_SDK_SAVE_DATA_FIELD(retval);
}

template <typename ArchiveT>
void save(ArchiveT& ar,
          const rocprofiler_buffer_tracing_rocdecode_api_ext_record_t& data) {
  save_buffer_tracing_api_record(ar, data);
  ROCP_SDK_SAVE_VALUE(
      "args", ::rocprofiler::sdk::serialization::get_buffer_tracing_args(data));
  ROCP_SDK_SAVE_DATA_FIELD(retval);
}

template <typename ArchiveT>
void save(ArchiveT& ar, rocprofiler_buffer_tracing_ompt_record_t data) {
  save_buffer_tracing_api_record(ar, data);
}

template <typename ArchiveT>
void save(ArchiveT& ar, rocprofiler_buffer_tracing_memory_copy_record_t data) {
  ROCP_SDK_SAVE_DATA_FIELD(size);
  ROCP_SDK_SAVE_DATA_FIELD(kind);
  ROCP_SDK_SAVE_DATA_FIELD(operation);
  ROCP_SDK_SAVE_DATA_FIELD(correlation_id);
  ROCP_SDK_SAVE_DATA_FIELD(thread_id);
  ROCP_SDK_SAVE_DATA_FIELD(start_timestamp);
  ROCP_SDK_SAVE_DATA_FIELD(end_timestamp);
  ROCP_SDK_SAVE_DATA_FIELD(dst_agent_id);
  ROCP_SDK_SAVE_DATA_FIELD(src_agent_id);
  ROCP_SDK_SAVE_DATA_FIELD(bytes);
  ROCP_SDK_SAVE_DATA_FIELD(dst_address);
  ROCP_SDK_SAVE_DATA_FIELD(src_address);
}

template <typename ArchiveT>
void save(ArchiveT& ar,
          rocprofiler_buffer_tracing_memory_allocation_record_t data) {
  ROCP_SDK_SAVE_DATA_FIELD(size);
  ROCP_SDK_SAVE_DATA_FIELD(kind);
  ROCP_SDK_SAVE_DATA_FIELD(operation);
  ROCP_SDK_SAVE_DATA_FIELD(correlation_id);
  ROCP_SDK_SAVE_DATA_FIELD(thread_id);
  ROCP_SDK_SAVE_DATA_FIELD(start_timestamp);
  ROCP_SDK_SAVE_DATA_FIELD(end_timestamp);
  ROCP_SDK_SAVE_DATA_FIELD(agent_id);
  ROCP_SDK_SAVE_DATA_FIELD(address);
  ROCP_SDK_SAVE_DATA_FIELD(allocation_size);
}

template <typename ArchiveT>
void save(ArchiveT& ar,
          rocprofiler_buffer_tracing_kernel_dispatch_record_t data) {
  ROCP_SDK_SAVE_DATA_FIELD(size);
  ROCP_SDK_SAVE_DATA_FIELD(kind);
  ROCP_SDK_SAVE_DATA_FIELD(operation);
  ROCP_SDK_SAVE_DATA_FIELD(correlation_id);
  ROCP_SDK_SAVE_DATA_FIELD(thread_id);
  ROCP_SDK_SAVE_DATA_FIELD(start_timestamp);
  ROCP_SDK_SAVE_DATA_FIELD(end_timestamp);
  ROCP_SDK_SAVE_DATA_FIELD(dispatch_info);
}

template <typename ArchiveT>
void save(ArchiveT& ar,
          rocprofiler_buffer_tracing_scratch_memory_record_t data) {
  ROCP_SDK_SAVE_DATA_FIELD(size);
  ROCP_SDK_SAVE_DATA_FIELD(kind);
  ROCP_SDK_SAVE_DATA_FIELD(operation);
  ROCP_SDK_SAVE_DATA_FIELD(correlation_id);
  ROCP_SDK_SAVE_DATA_FIELD(agent_id);
  ROCP_SDK_SAVE_DATA_FIELD(queue_id);
  ROCP_SDK_SAVE_DATA_FIELD(thread_id);
  ROCP_SDK_SAVE_DATA_FIELD(start_timestamp);
  ROCP_SDK_SAVE_DATA_FIELD(end_timestamp);
  ROCP_SDK_SAVE_DATA_FIELD(flags);
}

template <typename ArchiveT>
void save(ArchiveT& ar,
          rocprofiler_buffer_tracing_correlation_id_retirement_record_t data) {
  ROCP_SDK_SAVE_DATA_FIELD(size);
  ROCP_SDK_SAVE_DATA_FIELD(kind);
  ROCP_SDK_SAVE_DATA_FIELD(timestamp);
  ROCP_SDK_SAVE_DATA_FIELD(internal_correlation_id);
}

template <typename ArchiveT>
void save(ArchiveT& ar,
          rocprofiler_buffer_tracing_runtime_initialization_record_t data) {
  ROCP_SDK_SAVE_DATA_FIELD(size);
  ROCP_SDK_SAVE_DATA_FIELD(kind);
  ROCP_SDK_SAVE_DATA_FIELD(operation);
  ROCP_SDK_SAVE_DATA_FIELD(correlation_id);
  ROCP_SDK_SAVE_DATA_FIELD(thread_id);
  ROCP_SDK_SAVE_DATA_FIELD(timestamp);
  ROCP_SDK_SAVE_DATA_FIELD(version);
  ROCP_SDK_SAVE_DATA_FIELD(instance);
}

// The KFD records (declared; not recorded by this library).
template <typename ArchiveT>
void save(ArchiveT& ar,
          rocprofiler_buffer_tracing_kfd_event_page_migrate_record_t data) {
  ROCP_SDK_SAVE_DATA_FIELD(size);
  ROCP_SDK_SAVE_DATA_FIELD(kind);
  ROCP_SDK_SAVE_DATA_FIELD(operation);
  ROCP_SDK_SAVE_DATA_FIELD(timestamp);
  ROCP_SDK_SAVE_DATA_FIELD(pid);
  ROCP_SDK_SAVE_DATA_FIELD(start_address);
  ROCP_SDK_SAVE_DATA_FIELD(end_address);
  ROCP_SDK_SAVE_DATA_FIELD(src_agent);
  ROCP_SDK_SAVE_DATA_FIELD(dst_agent);
  ROCP_SDK_SAVE_DATA_FIELD(prefetch_agent);
  ROCP_SDK_SAVE_DATA_FIELD(preferred_agent);
  ROCP_SDK_SAVE_DATA_FIELD(error_code);
}

template <typename ArchiveT>
void save(ArchiveT& ar,
          rocprofiler_buffer_tracing_kfd_event_page_fault_record_t data) {
  ROCP_SDK_SAVE_DATA_FIELD(size);
  ROCP_SDK_SAVE_DATA_FIELD(kind);
  ROCP_SDK_SAVE_DATA_FIELD(operation);
  ROCP_SDK_SAVE_DATA_FIELD(timestamp);
  ROCP_SDK_SAVE_DATA_FIELD(pid);
  ROCP_SDK_SAVE_DATA_FIELD(agent_id);
  ROCP_SDK_SAVE_DATA_FIELD(address);
}

template <typename ArchiveT>
void save(ArchiveT& ar,
          rocprofiler_buffer_tracing_kfd_event_queue_record_t data) {
  ROCP_SDK_SAVE_DATA_FIELD(size);
  ROCP_SDK_SAVE_DATA_FIELD(kind);
  ROCP_SDK_SAVE_DATA_FIELD(operation);
  ROCP_SDK_SAVE_DATA_FIELD(timestamp);
  ROCP_SDK_SAVE_DATA_FIELD(pid);
  ROCP_SDK_SAVE_DATA_FIELD(agent_id);
}

template <typename ArchiveT>
void save(ArchiveT& ar,
          rocprofiler_buffer_tracing_kfd_event_unmap_from_gpu_record_t data) {
  ROCP_SDK_SAVE_DATA_FIELD(size);
  ROCP_SDK_SAVE_DATA_FIELD(kind);
  ROCP_SDK_SAVE_DATA_FIELD(operation);
  ROCP_SDK_SAVE_DATA_FIELD(timestamp);
  ROCP_SDK_SAVE_DATA_FIELD(pid);
  ROCP_SDK_SAVE_DATA_FIELD(agent_id);
  ROCP_SDK_SAVE_DATA_FIELD(start_address);
  ROCP_SDK_SAVE_DATA_FIELD(end_address);
}

template <typename ArchiveT>
void save(ArchiveT& ar,
          rocprofiler_buffer_tracing_kfd_event_dropped_events_record_t data) {
  ROCP_SDK_SAVE_DATA_FIELD(size);
  ROCP_SDK_SAVE_DATA_FIELD(kind);
  ROCP_SDK_SAVE_DATA_FIELD(operation);
  ROCP_SDK_SAVE_DATA_FIELD(timestamp);
  ROCP_SDK_SAVE_DATA_FIELD(pid);
  ROCP_SDK_SAVE_DATA_FIELD(count);
}

template <typename ArchiveT>
void save(ArchiveT& ar,
          rocprofiler_buffer_tracing_kfd_page_migrate_record_t data) {
  ROCP_SDK_SAVE_DATA_FIELD(size);
  ROCP_SDK_SAVE_DATA_FIELD(kind);
  ROCP_SDK_SAVE_DATA_FIELD(operation);
  ROCP_SDK_SAVE_DATA_FIELD(start_timestamp);
  ROCP_SDK_SAVE_DATA_FIELD(end_timestamp);
  ROCP_SDK_SAVE_DATA_FIELD(pid);
  ROCP_SDK_SAVE_DATA_FIELD(start_address);
  ROCP_SDK_SAVE_DATA_FIELD(end_address);
  ROCP_SDK_SAVE_DATA_FIELD(src_agent);
  ROCP_SDK_SAVE_DATA_FIELD(dst_agent);
  ROCP_SDK_SAVE_DATA_FIELD(prefetch_agent);
  ROCP_SDK_SAVE_DATA_FIELD(preferred_agent);
  ROCP_SDK_SAVE_DATA_FIELD(error_code);
}

template <typename ArchiveT>
void save(ArchiveT& ar,
          rocprofiler_buffer_tracing_kfd_page_fault_record_t data) {
  ROCP_SDK_SAVE_DATA_FIELD(size);
  ROCP_SDK_SAVE_DATA_FIELD(kind);
  ROCP_SDK_SAVE_DATA_FIELD(operation);
  ROCP_SDK_SAVE_DATA_FIELD(start_timestamp);
  ROCP_SDK_SAVE_DATA_FIELD(end_timestamp);
  ROCP_SDK_SAVE_DATA_FIELD(pid);
  ROCP_SDK_SAVE_DATA_FIELD(agent_id);
  ROCP_SDK_SAVE_DATA_FIELD(address);
}

template <typename ArchiveT>
void save(ArchiveT& ar, rocprofiler_buffer_tracing_kfd_queue_record_t data) {
  ROCP_SDK_SAVE_DATA_FIELD(size);
  ROCP_SDK_SAVE_DATA_FIELD(kind);
  ROCP_SDK_SAVE_DATA_FIELD(operation);
  ROCP_SDK_SAVE_DATA_FIELD(start_timestamp);
  ROCP_SDK_SAVE_DATA_FIELD(end_timestamp);
  ROCP_SDK_SAVE_DATA_FIELD(pid);
  ROCP_SDK_SAVE_DATA_FIELD(agent_id);
}

// Counters.
template <typename ArchiveT>
void save(ArchiveT& ar, rocprofiler_counter_record_t data) {
  ROCP_SDK_SAVE_DATA_FIELD(id);
  ROCP_SDK_SAVE_DATA_FIELD(counter_value);
  ROCP_SDK_SAVE_DATA_FIELD(dispatch_id);
  ROCP_SDK_SAVE_DATA_FIELD(user_data);
  ROCP_SDK_SAVE_DATA_FIELD(agent_id);
}

// Agents.
template <typename ArchiveT>
void save(ArchiveT& ar, rocprofiler_agent_cache_t data) {
  ROCP_SDK_SAVE_DATA_FIELD(processor_id_low);
  ROCP_SDK_SAVE_DATA_FIELD(size);
  ROCP_SDK_SAVE_DATA_FIELD(level);
  ROCP_SDK_SAVE_DATA_FIELD(cache_line_size);
  ROCP_SDK_SAVE_DATA_FIELD(cache_lines_per_tag);
  ROCP_SDK_SAVE_DATA_FIELD(association);
  ROCP_SDK_SAVE_DATA_FIELD(latency);
  ROCP_SDK_SAVE_DATA_FIELD(type);
}

template <typename ArchiveT>
void save(ArchiveT& ar, rocprofiler_agent_io_link_t data) {
  ROCP_SDK_SAVE_DATA_FIELD(type);
  ROCP_SDK_SAVE_DATA_FIELD(version_major);
  ROCP_SDK_SAVE_DATA_FIELD(version_minor);
  ROCP_SDK_SAVE_DATA_FIELD(node_from);
  ROCP_SDK_SAVE_DATA_FIELD(node_to);
  ROCP_SDK_SAVE_DATA_FIELD(weight);
  ROCP_SDK_SAVE_DATA_FIELD(min_latency);
  ROCP_SDK_SAVE_DATA_FIELD(max_latency);
  ROCP_SDK_SAVE_DATA_FIELD(min_bandwidth);
  ROCP_SDK_SAVE_DATA_FIELD(max_bandwidth);
  ROCP_SDK_SAVE_DATA_FIELD(recommended_transfer_size);
  ROCP_SDK_SAVE_DATA_FIELD(flags);
}

template <typename ArchiveT>
void save(ArchiveT& ar, rocprofiler_agent_mem_bank_t data) {
  ROCP_SDK_SAVE_DATA_FIELD(heap_type);
  ROCP_SDK_SAVE_DATA_FIELD(flags);
  ROCP_SDK_SAVE_DATA_FIELD(width);
  ROCP_SDK_SAVE_DATA_FIELD(mem_clk_max);
  ROCP_SDK_SAVE_DATA_FIELD(size_in_bytes);
}

template <typename ArchiveT>
void save(ArchiveT& ar, rocprofiler_agent_runtime_visiblity_t data) {
  ROCP_SDK_SAVE_DATA_BITFIELD("hsa", hsa);
  ROCP_SDK_SAVE_DATA_BITFIELD("hip", hip);
  ROCP_SDK_SAVE_DATA_BITFIELD("rccl", rccl);
  ROCP_SDK_SAVE_DATA_BITFIELD("rocdecode", rocdecode);
}

template <typename ArchiveT>
void save(ArchiveT& ar, const rocprofiler_agent_v0_t& data) {
  ROCP_SDK_SAVE_DATA_FIELD(size);
  ROCP_SDK_SAVE_DATA_FIELD(id);
  ROCP_SDK_SAVE_DATA_FIELD(type);
  ROCP_SDK_SAVE_DATA_FIELD(cpu_cores_count);
  ROCP_SDK_SAVE_DATA_FIELD(simd_count);
  ROCP_SDK_SAVE_DATA_FIELD(mem_banks_count);
  ROCP_SDK_SAVE_DATA_FIELD(caches_count);
  ROCP_SDK_SAVE_DATA_FIELD(io_links_count);
  ROCP_SDK_SAVE_DATA_FIELD(cpu_core_id_base);
  ROCP_SDK_SAVE_DATA_FIELD(simd_id_base);
  ROCP_SDK_SAVE_DATA_FIELD(max_waves_per_simd);
  ROCP_SDK_SAVE_DATA_FIELD(lds_size_in_kb);
  ROCP_SDK_SAVE_DATA_FIELD(gds_size_in_kb);
  ROCP_SDK_SAVE_DATA_FIELD(num_gws);
  ROCP_SDK_SAVE_DATA_FIELD(wave_front_size);
  ROCP_SDK_SAVE_DATA_FIELD(num_xcc);
  ROCP_SDK_SAVE_DATA_FIELD(cu_count);
  ROCP_SDK_SAVE_DATA_FIELD(array_count);
  ROCP_SDK_SAVE_DATA_FIELD(num_shader_banks);
  ROCP_SDK_SAVE_DATA_FIELD(simd_arrays_per_engine);
  ROCP_SDK_SAVE_DATA_FIELD(cu_per_simd_array);
  ROCP_SDK_SAVE_DATA_FIELD(simd_per_cu);
  ROCP_SDK_SAVE_DATA_FIELD(max_slots_scratch_cu);
  ROCP_SDK_SAVE_DATA_FIELD(gfx_target_version);
  ROCP_SDK_SAVE_DATA_FIELD(vendor_id);
  ROCP_SDK_SAVE_DATA_FIELD(device_id);
  ROCP_SDK_SAVE_DATA_FIELD(location_id);
  ROCP_SDK_SAVE_DATA_FIELD(domain);
  ROCP_SDK_SAVE_DATA_FIELD(drm_render_minor);
  ROCP_SDK_SAVE_DATA_FIELD(num_sdma_engines);
  ROCP_SDK_SAVE_DATA_FIELD(num_sdma_xgmi_engines);
  ROCP_SDK_SAVE_DATA_FIELD(num_sdma_queues_per_engine);
  ROCP_SDK_SAVE_DATA_FIELD(num_cp_queues);
  ROCP_SDK_SAVE_DATA_FIELD(max_engine_clk_ccompute);
  ROCP_SDK_SAVE_DATA_FIELD(max_engine_clk_fcompute);
  ROCP_SDK_SAVE_DATA_FIELD(sdma_fw_version);
  ROCP_SDK_SAVE_DATA_FIELD(fw_version);
  ROCP_SDK_SAVE_DATA_FIELD(capability);
  ROCP_SDK_SAVE_DATA_FIELD(cu_per_engine);
  ROCP_SDK_SAVE_DATA_FIELD(max_waves_per_cu);
  ROCP_SDK_SAVE_DATA_FIELD(family_id);
  ROCP_SDK_SAVE_DATA_FIELD(workgroup_max_size);
  ROCP_SDK_SAVE_DATA_FIELD(grid_max_size);
  ROCP_SDK_SAVE_DATA_FIELD(local_mem_size);
  ROCP_SDK_SAVE_DATA_FIELD(hive_id);
  ROCP_SDK_SAVE_DATA_FIELD(gpu_id);
  ROCP_SDK_SAVE_DATA_FIELD(workgroup_max_dim);
  ROCP_SDK_SAVE_DATA_FIELD(grid_max_dim);
  ROCP_SDK_SAVE_DATA_CSTR(name);
  ROCP_SDK_SAVE_DATA_CSTR(vendor_name);
  ROCP_SDK_SAVE_DATA_CSTR(product_name);
  ROCP_SDK_SAVE_DATA_CSTR(model_name);
  ROCP_SDK_SAVE_DATA_FIELD(node_id);
  ROCP_SDK_SAVE_DATA_FIELD(logical_node_id);
  ROCP_SDK_SAVE_DATA_FIELD(logical_node_type_id);
  ROCP_SDK_SAVE_DATA_FIELD(runtime_visibility);
  ROCP_SDK_SAVE_DATA_FIELD(uuid);
  ROCP_SDK_SAVE_VALUE(
      "mem_banks",
      std::vector<rocprofiler_agent_mem_bank_t>(
          data.mem_banks,
          data.mem_banks + (data.mem_banks ? data.mem_banks_count : 0)));
  ROCP_SDK_SAVE_VALUE(
      "caches",
      std::vector<rocprofiler_agent_cache_t>(
          data.caches, data.caches + (data.caches ? data.caches_count : 0)));
  ROCP_SDK_SAVE_VALUE(
      "io_links",
      std::vector<rocprofiler_agent_io_link_t>(
          data.io_links,
          data.io_links + (data.io_links ? data.io_links_count : 0)));
}

// The name tables of cxx/name_info.hpp: a list with one {kind, operations}
// per kind (kind 0 included), operations as a list of names indexed by
// operation number ("" for numbers that are no operation).
template <typename ArchiveT, typename EnumT, typename ValueT>
void save(
    ArchiveT& ar,
    const ::rocprofiler::sdk::utility::name_info_impl<EnumT, ValueT>& data) {
  ROCP_SDK_SAVE_VALUE("kind", std::string{data.name});
  std::vector<std::string> operations;
  operations.reserve(data.operations.size());
  for (const auto& op : data.operations) operations.emplace_back(op);
  ROCP_SDK_SAVE_VALUE("operations", operations);
}

template <typename ArchiveT, typename EnumT, typename ValueT>
void save(ArchiveT& ar,
          const ::rocprofiler::sdk::utility::name_info<EnumT, ValueT>& data) {
  // An array, not an object: the entries have no names of their own.
  ar(::cereal::make_size_tag(static_cast<::cereal::size_type>(data.size())));
  for (const auto& kind : data) ar(kind);
}

ROCPROFILER_SDK_CEREAL_NAMESPACE_END

#undef ROCP_SDK_SAVE_DATA_FIELD
#undef ROCP_SDK_SAVE_DATA_VALUE
#undef ROCP_SDK_SAVE_DATA_CSTR
#undef ROCP_SDK_SAVE_DATA_BITFIELD

#endif  // ROCPROFILER_SDK_CXX_SERIALIZATION_SAVE_HPP_
