// Writing rocprofiler-sdk's types with cereal, as rocprofiler-sdk 1.0.0's
// <rocprofiler-sdk/cxx/serialization/save.hpp> offers it to tools that write
// records as JSON or binary: `save(archive, value)` functions in namespace
// cereal (ROCPROFILER_SDK_CEREAL_NAMESPACE_BEGIN/END, overridable) for the
// identifiers, the callback record and payloads, every buffer-tracing record,
// the counter and PC-sampling records, agents and the name tables of
// cxx/name_info.hpp. ROCP_SDK_SAVE_VALUE stays defined for the includer; the
// ROCP_SDK_SAVE_DATA_* macros the functions are written with are undefined
// at the end, as in 1.0.0, so they never clash with a tool's own.
// <rocprofiler-sdk/cxx/serialization/load.hpp> reads agents and code-object
// records back.
//
//   cereal::JSONOutputArchive json{out};
//   json(cereal::make_nvp("record", *static_cast<
//       rocprofiler_buffer_tracing_kernel_dispatch_record_t*>(h->payload)));
//
// Every type is written as 1.0.0 writes it: the same fields, under the same
// names, in the same order, with values of the same C types, so a JSON file
// has 1.0.0's keys in 1.0.0's order and a binary archive 1.0.0's bytes (which
// a binary archive, read in order, needs). That order is mostly the C
// headers' declaration order, but not everywhere (the callback record writes
// kind and operation before correlation_id; the GPU-kind buffer records
// write thread_id before correlation_id). Numbers and enums are written as
// numbers, C strings as strings ("" for NULL), identifiers as {handle},
// correlation IDs as {internal, external[, ancestor]} (external as its
// value). Some names are not the fields': a PC sample writes corr_id,
// wrkgrp_id, wave_in_grp, wave_cnt, has_mem_cnt, its instruction type and
// stall reason as their enumerators' names, and its hardware ID's
// workgroup_id as "workgroup_id " (with a trailing space, as 1.0.0 spells
// it); an OMPT target writes device_num as device; an allocation writes its
// address as a hexadecimal string ("0x" and 16 digits).
//
// Left out as 1.0.0 leaves them out: argument unions of the callback payloads
// (a tool reads them with rocprofiler_iterate_callback_tracing_kind_operation_
// args; the *_API_EXT records write theirs as `args`, a list of {type, name,
// value} from rocprofiler_iterate_buffer_tracing_record_args), a code
// object's runtime `hsa_agent` handle, a copy's addresses, the KFD records'
// kind, a counter record's user_data and agent_id, a stochastic PC sample's
// memory counters. A union member is written as the one its discriminator
// names (a code object's storage, an OMPT record's target); a return value
// as 1.0.0's member (HIP's and HSA's as uint64_t_retval).
//
// The agent fields typed as the KFD's bit-field unions (HSA_CAPABILITY,
// HSA_ENGINE_ID, HSA_ENGINE_VERSION, a cache's HsaCacheType, an I/O link's
// HSA_LINKPROPERTY, a memory bank's HSA_MEMORYPROPERTY; agent.h includes
// hsakmttypes.h, as 1.0.0's does) are written as 1.0.0 writes those unions:
// an object of the named bit-fields, each a 32-bit number, in 1.0.0's order
// and at the bits 1.0.0's hsakmttypes.h gives them, whichever release's
// hsakmttypes.h is installed (reserved bits not written).
// The HSA runtime's scratch events (hsa_amd_event_scratch_*) have their save
// where the HSA headers declare them (ROCm >= 6.1).
//
// Needs cereal's headers (Debian: libcereal-dev). Header-only, C++17.
#ifndef ROCPROFILER_SDK_CXX_SERIALIZATION_SAVE_HPP_
#define ROCPROFILER_SDK_CXX_SERIALIZATION_SAVE_HPP_

#include <rocprofiler-sdk/agent.h>
#include <rocprofiler-sdk/buffer.h>
#include <rocprofiler-sdk/buffer_tracing.h>
#include <rocprofiler-sdk/callback_tracing.h>
#include <rocprofiler-sdk/counters.h>
#include <rocprofiler-sdk/dispatch_counting_service.h>
#include <rocprofiler-sdk/fwd.h>
#include <rocprofiler-sdk/pc_sampling.h>

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
#include <cstring>
#include <rocprofiler-sdk/cxx/name_info.hpp>
#include <rocprofiler-sdk/cxx/utility.hpp>
#include <string>
#include <vector>

// A field of `data` under its own name; a value under NAME; a C string
// field as a std::string; a bit-field (which cannot be bound to a
// reference) through a copy of its declared type.
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

namespace detail {

// One bit-field of a KFD topology union: its name as 1.0.0 writes it, and
// where it sits in the 32-bit value (hsakmttypes.h's layout).
struct kfd_bit_field {
  const char* name;
  uint32_t shift;
  uint32_t width;
};

// The written bit-fields of each union, in 1.0.0's order.
struct kfd_cache_type {  // HsaCacheType
  static constexpr kfd_bit_field fields[] = {
      {"Data", 0, 1}, {"Instruction", 1, 1}, {"CPU", 2, 1}, {"HSACU", 3, 1}};
};
struct kfd_link_property {  // HSA_LINKPROPERTY
  static constexpr kfd_bit_field fields[] = {{"Override", 0, 1},
                                             {"NonCoherent", 1, 1},
                                             {"NoAtomics32bit", 2, 1},
                                             {"NoAtomics64bit", 3, 1},
                                             {"NoPeerToPeerDMA", 4, 1}};
};
struct kfd_capability {  // HSA_CAPABILITY
  static constexpr kfd_bit_field fields[] = {
      {"HotPluggable", 0, 1},
      {"HSAMMUPresent", 1, 1},
      {"SharedWithGraphics", 2, 1},
      {"QueueSizePowerOfTwo", 3, 1},
      {"QueueSize32bit", 4, 1},
      {"QueueIdleEvent", 5, 1},
      {"VALimit", 6, 1},
      {"WatchPointsSupported", 7, 1},
      {"WatchPointsTotalBits", 8, 4},
      {"DoorbellType", 12, 2},
      {"AQLQueueDoubleMap", 14, 1},
      {"DebugTrapSupported", 15, 1},
      {"WaveLaunchTrapOverrideSupported", 16, 1},
      {"WaveLaunchModeSupported", 17, 1},
      {"PreciseMemoryOperationsSupported", 18, 1},
      {"DEPRECATED_SRAM_EDCSupport", 19, 1},
      {"Mem_EDCSupport", 20, 1},
      {"RASEventNotify", 21, 1},
      {"ASICRevision", 22, 4},
      {"SRAM_EDCSupport", 26, 1},
      {"SVMAPISupported", 27, 1},
      {"CoherentHostAccess", 28, 1},
      {"DebugSupportedFirmware", 29, 1}};
};
struct kfd_memory_property {  // HSA_MEMORYPROPERTY
  static constexpr kfd_bit_field fields[] = {{"HotPluggable", 0, 1},
                                             {"NonVolatile", 1, 1}};
};
struct kfd_engine_version {  // HSA_ENGINE_VERSION
  static constexpr kfd_bit_field fields[] = {{"uCodeSDMA", 0, 10},
                                             {"uCodeRes", 10, 10}};
};
struct kfd_engine_id {  // HSA_ENGINE_ID
  static constexpr kfd_bit_field fields[] = {{"uCode", 0, 10},
                                             {"Major", 10, 6},
                                             {"Minor", 16, 8},
                                             {"Stepping", 24, 8}};
};

constexpr uint32_t kfd_mask(uint32_t width) {
  return width >= 32 ? ~0u : ((1u << width) - 1u);
}

}  // namespace detail
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

// A KFD union's bit-fields, at the level of the struct being written.
template <typename LayoutT, typename ArchiveT>
void save_kfd_bit_fields(ArchiveT& ar, uint32_t value) {
  for (const auto& field : LayoutT::fields) {
    const uint32_t bits =
        (value >> field.shift) &
        ::rocprofiler::sdk::serialization::detail::kfd_mask(field.width);
    ar(make_nvp(field.name, bits));
  }
}

// The KFD unions, as their bit-fields.
#define ROCP_SDK_SAVE_KFD_UNION_(TYPE, LAYOUT, MEMBER)                      \
  template <typename ArchiveT>                                              \
  void save(ArchiveT& ar, TYPE data) {                                      \
    save_kfd_bit_fields<::rocprofiler::sdk::serialization::detail::LAYOUT>( \
        ar, data.MEMBER);                                                   \
  }
ROCP_SDK_SAVE_KFD_UNION_(HsaCacheType, kfd_cache_type, Value)
ROCP_SDK_SAVE_KFD_UNION_(HSA_LINKPROPERTY, kfd_link_property, LinkProperty)
ROCP_SDK_SAVE_KFD_UNION_(HSA_CAPABILITY, kfd_capability, Value)
ROCP_SDK_SAVE_KFD_UNION_(HSA_MEMORYPROPERTY, kfd_memory_property,
                         MemoryProperty)
ROCP_SDK_SAVE_KFD_UNION_(HSA_ENGINE_VERSION, kfd_engine_version, Value)
ROCP_SDK_SAVE_KFD_UNION_(HSA_ENGINE_ID, kfd_engine_id, Value)
#undef ROCP_SDK_SAVE_KFD_UNION_

// Identifiers.
#define ROCP_SDK_SAVE_HANDLE_(TYPE)    \
  template <typename ArchiveT>         \
  void save(ArchiveT& ar, TYPE data) { \
    ROCP_SDK_SAVE_DATA_FIELD(handle);  \
  }
ROCP_SDK_SAVE_HANDLE_(rocprofiler_context_id_t)
ROCP_SDK_SAVE_HANDLE_(rocprofiler_agent_id_t)
ROCP_SDK_SAVE_HANDLE_(hsa_agent_t)
ROCP_SDK_SAVE_HANDLE_(rocprofiler_queue_id_t)
ROCP_SDK_SAVE_HANDLE_(rocprofiler_stream_id_t)
ROCP_SDK_SAVE_HANDLE_(rocprofiler_counter_id_t)
ROCP_SDK_SAVE_HANDLE_(rocprofiler_address_t)
#undef ROCP_SDK_SAVE_HANDLE_

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
void save(ArchiveT& ar, rocprofiler_uuid_t data) {
  ROCP_SDK_SAVE_DATA_FIELD(value);
}

// Code objects.
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

// Return values: 1.0.0's member of each union.
template <typename ArchiveT>
void save(ArchiveT& ar, rocprofiler_hsa_api_retval_t data) {
  ROCP_SDK_SAVE_DATA_FIELD(uint64_t_retval);
}

template <typename ArchiveT>
void save(ArchiveT& ar, rocprofiler_hip_api_retval_t data) {
  ROCP_SDK_SAVE_DATA_FIELD(uint64_t_retval);
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

// The HSA runtime's queue, as its ID; the scratch events, with their queue.
// A NULL queue pointer is written as a queue of ID 0.
template <typename ArchiveT>
void save(ArchiveT& ar, const hsa_queue_t& data) {
  ROCP_SDK_SAVE_VALUE("queue_id", data.id);
}

#ifdef ROCPROFILER_SDK_DETAIL_HSA_AMD_TOOL_EVENTS
template <typename ArchiveT>
void save_hsa_event_queue(ArchiveT& ar, const hsa_queue_t* queue) {
  ROCP_SDK_SAVE_VALUE("queue_id", queue ? *queue : hsa_queue_t{});
}

template <typename ArchiveT>
void save(ArchiveT& ar, hsa_amd_event_scratch_alloc_start_t data) {
  save_hsa_event_queue(ar, data.queue);
  ROCP_SDK_SAVE_DATA_FIELD(dispatch_id);
}

template <typename ArchiveT>
void save(ArchiveT& ar, hsa_amd_event_scratch_alloc_end_t data) {
  save_hsa_event_queue(ar, data.queue);
  ROCP_SDK_SAVE_DATA_FIELD(dispatch_id);
  ROCP_SDK_SAVE_DATA_FIELD(size);
  ROCP_SDK_SAVE_DATA_FIELD(num_slots);
  ROCP_SDK_SAVE_DATA_FIELD(flags);
}

template <typename ArchiveT>
void save(ArchiveT& ar, hsa_amd_event_scratch_free_start_t data) {
  save_hsa_event_queue(ar, data.queue);
}

template <typename ArchiveT>
void save(ArchiveT& ar, hsa_amd_event_scratch_free_end_t data) {
  save_hsa_event_queue(ar, data.queue);
  ROCP_SDK_SAVE_DATA_FIELD(flags);
}

template <typename ArchiveT>
void save(ArchiveT& ar, hsa_amd_event_scratch_async_reclaim_start_t data) {
  save_hsa_event_queue(ar, data.queue);
}

template <typename ArchiveT>
void save(ArchiveT& ar, hsa_amd_event_scratch_async_reclaim_end_t data) {
  save_hsa_event_queue(ar, data.queue);
  ROCP_SDK_SAVE_DATA_FIELD(flags);
}
#endif

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
          rocprofiler_callback_tracing_scratch_memory_data_t data) {
  ROCP_SDK_SAVE_DATA_FIELD(size);
  ROCP_SDK_SAVE_DATA_FIELD(agent_id);
  ROCP_SDK_SAVE_DATA_FIELD(queue_id);
  ROCP_SDK_SAVE_DATA_FIELD(flags);
  ROCP_SDK_SAVE_DATA_FIELD(args_kind);
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
}

template <typename ArchiveT>
void save(ArchiveT& ar,
          rocprofiler_callback_tracing_memory_allocation_data_t data) {
  ROCP_SDK_SAVE_DATA_FIELD(size);
  ROCP_SDK_SAVE_DATA_FIELD(start_timestamp);
  ROCP_SDK_SAVE_DATA_FIELD(end_timestamp);
  ROCP_SDK_SAVE_DATA_FIELD(agent_id);
  ROCP_SDK_SAVE_VALUE(
      "address", ::rocprofiler::sdk::utility::as_hex(data.address.handle, 16));
  ROCP_SDK_SAVE_DATA_FIELD(allocation_size);
}

template <typename ArchiveT>
void save(ArchiveT& ar,
          rocprofiler_callback_tracing_runtime_initialization_data_t data) {
  ROCP_SDK_SAVE_DATA_FIELD(size);
  ROCP_SDK_SAVE_DATA_FIELD(version);
  ROCP_SDK_SAVE_DATA_FIELD(instance);
}

// Dispatch counting.
template <typename ArchiveT>
void save(ArchiveT& ar, rocprofiler_dispatch_counting_service_data_t data) {
  ROCP_SDK_SAVE_DATA_FIELD(size);
  ROCP_SDK_SAVE_DATA_FIELD(correlation_id);
  ROCP_SDK_SAVE_DATA_FIELD(start_timestamp);
  ROCP_SDK_SAVE_DATA_FIELD(end_timestamp);
  ROCP_SDK_SAVE_DATA_FIELD(dispatch_info);
}

template <typename ArchiveT>
void save(ArchiveT& ar, rocprofiler_dispatch_counting_service_record_t data) {
  ROCP_SDK_SAVE_DATA_FIELD(size);
  ROCP_SDK_SAVE_DATA_FIELD(num_records);
  ROCP_SDK_SAVE_DATA_FIELD(correlation_id);
  ROCP_SDK_SAVE_DATA_FIELD(start_timestamp);
  ROCP_SDK_SAVE_DATA_FIELD(end_timestamp);
  ROCP_SDK_SAVE_DATA_FIELD(dispatch_info);
}

// The callback record (its payload is written by the payload's own save).
template <typename ArchiveT>
void save(ArchiveT& ar, rocprofiler_callback_tracing_record_t data) {
  ROCP_SDK_SAVE_DATA_FIELD(context_id);
  ROCP_SDK_SAVE_DATA_FIELD(thread_id);
  ROCP_SDK_SAVE_DATA_FIELD(kind);
  ROCP_SDK_SAVE_DATA_FIELD(operation);
  ROCP_SDK_SAVE_DATA_FIELD(correlation_id);
  ROCP_SDK_SAVE_DATA_FIELD(phase);
}

// Buffer records of the API kinds.
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

// OMPT: the API record, then the target member the operation names.
template <typename ArchiveT>
void save(ArchiveT& ar, rocprofiler_buffer_tracing_ompt_target_t data) {
  ROCP_SDK_SAVE_DATA_FIELD(kind);
  ROCP_SDK_SAVE_DATA_VALUE("device", device_num);
  ROCP_SDK_SAVE_DATA_FIELD(task_id);
  ROCP_SDK_SAVE_DATA_FIELD(target_id);
}

template <typename ArchiveT>
void save(ArchiveT& ar, rocprofiler_buffer_tracing_ompt_target_data_op_t data) {
  ROCP_SDK_SAVE_DATA_FIELD(host_op_id);
  ROCP_SDK_SAVE_DATA_FIELD(optype);
  ROCP_SDK_SAVE_DATA_FIELD(src_device_num);
  ROCP_SDK_SAVE_DATA_FIELD(dst_device_num);
  ROCP_SDK_SAVE_DATA_FIELD(bytes);
}

template <typename ArchiveT>
void save(ArchiveT& ar, rocprofiler_buffer_tracing_ompt_target_kernel_t data) {
  ROCP_SDK_SAVE_DATA_FIELD(host_op_id);
  ROCP_SDK_SAVE_DATA_FIELD(device_num);
  ROCP_SDK_SAVE_DATA_FIELD(requested_num_teams);
}

template <typename ArchiveT>
void save(ArchiveT& ar, rocprofiler_buffer_tracing_ompt_record_t data) {
  save_buffer_tracing_api_record(ar, data);
  switch (data.operation) {
    case ROCPROFILER_OMPT_ID_target_emi:
      ROCP_SDK_SAVE_DATA_FIELD(target);
      break;
    case ROCPROFILER_OMPT_ID_target_data_op_emi:
      ROCP_SDK_SAVE_DATA_FIELD(target_data_op);
      break;
    case ROCPROFILER_OMPT_ID_target_submit_emi:
      ROCP_SDK_SAVE_DATA_FIELD(target_kernel);
      break;
    default:
      break;
  }
}

// Buffer records of the GPU and runtime kinds.
template <typename ArchiveT>
void save(ArchiveT& ar,
          rocprofiler_buffer_tracing_kernel_dispatch_record_t data) {
  ROCP_SDK_SAVE_DATA_FIELD(size);
  ROCP_SDK_SAVE_DATA_FIELD(kind);
  ROCP_SDK_SAVE_DATA_FIELD(operation);
  ROCP_SDK_SAVE_DATA_FIELD(thread_id);
  ROCP_SDK_SAVE_DATA_FIELD(correlation_id);
  ROCP_SDK_SAVE_DATA_FIELD(start_timestamp);
  ROCP_SDK_SAVE_DATA_FIELD(end_timestamp);
  ROCP_SDK_SAVE_DATA_FIELD(dispatch_info);
}

template <typename ArchiveT>
void save(ArchiveT& ar, rocprofiler_buffer_tracing_memory_copy_record_t data) {
  ROCP_SDK_SAVE_DATA_FIELD(size);
  ROCP_SDK_SAVE_DATA_FIELD(kind);
  ROCP_SDK_SAVE_DATA_FIELD(operation);
  ROCP_SDK_SAVE_DATA_FIELD(thread_id);
  ROCP_SDK_SAVE_DATA_FIELD(correlation_id);
  ROCP_SDK_SAVE_DATA_FIELD(start_timestamp);
  ROCP_SDK_SAVE_DATA_FIELD(end_timestamp);
  ROCP_SDK_SAVE_DATA_FIELD(dst_agent_id);
  ROCP_SDK_SAVE_DATA_FIELD(src_agent_id);
  ROCP_SDK_SAVE_DATA_FIELD(bytes);
}

template <typename ArchiveT>
void save(ArchiveT& ar,
          rocprofiler_buffer_tracing_memory_allocation_record_t data) {
  ROCP_SDK_SAVE_DATA_FIELD(size);
  ROCP_SDK_SAVE_DATA_FIELD(kind);
  ROCP_SDK_SAVE_DATA_FIELD(operation);
  ROCP_SDK_SAVE_DATA_FIELD(thread_id);
  ROCP_SDK_SAVE_DATA_FIELD(correlation_id);
  ROCP_SDK_SAVE_DATA_FIELD(start_timestamp);
  ROCP_SDK_SAVE_DATA_FIELD(end_timestamp);
  ROCP_SDK_SAVE_DATA_FIELD(agent_id);
  ROCP_SDK_SAVE_VALUE(
      "address", ::rocprofiler::sdk::utility::as_hex(data.address.handle, 16));
  ROCP_SDK_SAVE_DATA_FIELD(allocation_size);
}

template <typename ArchiveT>
void save(ArchiveT& ar,
          rocprofiler_buffer_tracing_scratch_memory_record_t data) {
  ROCP_SDK_SAVE_DATA_FIELD(size);
  ROCP_SDK_SAVE_DATA_FIELD(kind);
  ROCP_SDK_SAVE_DATA_FIELD(operation);
  ROCP_SDK_SAVE_DATA_FIELD(agent_id);
  ROCP_SDK_SAVE_DATA_FIELD(queue_id);
  ROCP_SDK_SAVE_DATA_FIELD(thread_id);
  ROCP_SDK_SAVE_DATA_FIELD(start_timestamp);
  ROCP_SDK_SAVE_DATA_FIELD(end_timestamp);
  ROCP_SDK_SAVE_DATA_FIELD(correlation_id);
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
  ROCP_SDK_SAVE_DATA_FIELD(timestamp);
  ROCP_SDK_SAVE_DATA_FIELD(thread_id);
  ROCP_SDK_SAVE_DATA_FIELD(version);
  ROCP_SDK_SAVE_DATA_FIELD(instance);
}

// The KFD records (declared; not recorded by this library): no kind.
template <typename ArchiveT>
void save(ArchiveT& ar,
          rocprofiler_buffer_tracing_kfd_event_page_migrate_record_t data) {
  ROCP_SDK_SAVE_DATA_FIELD(size);
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
  ROCP_SDK_SAVE_DATA_FIELD(operation);
  ROCP_SDK_SAVE_DATA_FIELD(timestamp);
  ROCP_SDK_SAVE_DATA_FIELD(pid);
  ROCP_SDK_SAVE_DATA_FIELD(agent_id);
}

template <typename ArchiveT>
void save(ArchiveT& ar,
          rocprofiler_buffer_tracing_kfd_event_unmap_from_gpu_record_t data) {
  ROCP_SDK_SAVE_DATA_FIELD(size);
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
  ROCP_SDK_SAVE_DATA_FIELD(operation);
  ROCP_SDK_SAVE_DATA_FIELD(timestamp);
  ROCP_SDK_SAVE_DATA_FIELD(pid);
  ROCP_SDK_SAVE_DATA_FIELD(count);
}

template <typename ArchiveT>
void save(ArchiveT& ar,
          rocprofiler_buffer_tracing_kfd_page_migrate_record_t data) {
  ROCP_SDK_SAVE_DATA_FIELD(size);
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
}

template <typename ArchiveT>
void save(ArchiveT& ar, rocprofiler_counter_record_dimension_info_t data) {
  ROCP_SDK_SAVE_DATA_FIELD(id);
  ROCP_SDK_SAVE_DATA_FIELD(instance_size);
  ROCP_SDK_SAVE_DATA_CSTR(name);
}

template <typename ArchiveT>
void save(ArchiveT& ar, rocprofiler_counter_info_v0_t data) {
  ROCP_SDK_SAVE_DATA_FIELD(id);
  ROCP_SDK_SAVE_DATA_BITFIELD("is_constant", is_constant);
  ROCP_SDK_SAVE_DATA_BITFIELD("is_derived", is_derived);
  ROCP_SDK_SAVE_DATA_CSTR(name);
  ROCP_SDK_SAVE_DATA_CSTR(description);
  ROCP_SDK_SAVE_DATA_CSTR(block);
  ROCP_SDK_SAVE_DATA_CSTR(expression);
}

// Version 0's fields, then the dimensions as `dims` and the instance IDs as
// `instances` (lists of their counts' length; empty for NULL).
template <typename ArchiveT>
void save(ArchiveT& ar, rocprofiler_counter_info_v1_t data) {
  ROCP_SDK_SAVE_DATA_FIELD(id);
  ROCP_SDK_SAVE_DATA_BITFIELD("is_constant", is_constant);
  ROCP_SDK_SAVE_DATA_BITFIELD("is_derived", is_derived);
  ROCP_SDK_SAVE_DATA_CSTR(name);
  ROCP_SDK_SAVE_DATA_CSTR(description);
  ROCP_SDK_SAVE_DATA_CSTR(block);
  ROCP_SDK_SAVE_DATA_CSTR(expression);
  ROCP_SDK_SAVE_VALUE(
      "dims",
      std::vector<rocprofiler_counter_record_dimension_info_t>(
          data.dimensions,
          data.dimensions + (data.dimensions ? data.dimensions_count : 0)));
  ROCP_SDK_SAVE_VALUE(
      "instances", std::vector<rocprofiler_counter_instance_id_t>(
                       data.instance_ids,
                       data.instance_ids +
                           (data.instance_ids ? data.instance_ids_count : 0)));
}

// PC sampling.
template <typename ArchiveT>
void save(ArchiveT& ar, rocprofiler_pc_t data) {
  ROCP_SDK_SAVE_DATA_FIELD(code_object_id);
  ROCP_SDK_SAVE_DATA_FIELD(code_object_offset);
}

template <typename ArchiveT>
void save(ArchiveT& ar, rocprofiler_pc_sampling_hw_id_v0_t data) {
  ROCP_SDK_SAVE_DATA_BITFIELD("chiplet", chiplet);
  ROCP_SDK_SAVE_DATA_BITFIELD("wave_id", wave_id);
  ROCP_SDK_SAVE_DATA_BITFIELD("simd_id", simd_id);
  ROCP_SDK_SAVE_DATA_BITFIELD("pipe_id", pipe_id);
  ROCP_SDK_SAVE_DATA_BITFIELD("cu_or_wgp_id", cu_or_wgp_id);
  ROCP_SDK_SAVE_DATA_BITFIELD("shader_array_id", shader_array_id);
  ROCP_SDK_SAVE_DATA_BITFIELD("shader_engine_id", shader_engine_id);
  // 1.0.0's key has the trailing space; readers of its files look for it.
  ROCP_SDK_SAVE_DATA_BITFIELD("workgroup_id ", workgroup_id);
  ROCP_SDK_SAVE_DATA_BITFIELD("vm_id", vm_id);
  ROCP_SDK_SAVE_DATA_BITFIELD("queue_id", queue_id);
  ROCP_SDK_SAVE_DATA_BITFIELD("microengine_id", microengine_id);
}

template <typename ArchiveT>
void save(ArchiveT& ar, rocprofiler_pc_sampling_record_host_trap_v0_t data) {
  ROCP_SDK_SAVE_DATA_FIELD(hw_id);
  ROCP_SDK_SAVE_DATA_FIELD(pc);
  ROCP_SDK_SAVE_DATA_FIELD(exec_mask);
  ROCP_SDK_SAVE_DATA_FIELD(timestamp);
  ROCP_SDK_SAVE_DATA_FIELD(dispatch_id);
  ROCP_SDK_SAVE_DATA_VALUE("corr_id", correlation_id);
  ROCP_SDK_SAVE_DATA_VALUE("wrkgrp_id", workgroup_id);
  ROCP_SDK_SAVE_DATA_BITFIELD("wave_in_grp", wave_in_group);
}

template <typename ArchiveT>
void save(ArchiveT& ar,
          rocprofiler_pc_sampling_record_stochastic_header_t data) {
  ROCP_SDK_SAVE_DATA_BITFIELD("has_mem_cnt", has_memory_counter);
}

// An instruction type and a not-issued reason as their enumerators' names
// ("" for a value that has none).
template <typename ArchiveT>
void save_pc_sampling_inst_type(
    ArchiveT& ar, rocprofiler_pc_sampling_instruction_type_t inst_type) {
  const char* name =
      rocprofiler_get_pc_sampling_instruction_type_name(inst_type);
  ROCP_SDK_SAVE_VALUE("inst_type", std::string{name ? name : ""});
}

template <typename ArchiveT>
void save_pc_sampling_stall_reason(
    ArchiveT& ar,
    rocprofiler_pc_sampling_instruction_not_issued_reason_t stall_reason) {
  const char* name =
      rocprofiler_get_pc_sampling_instruction_not_issued_reason_name(
          stall_reason);
  ROCP_SDK_SAVE_VALUE("stall_reason", std::string{name ? name : ""});
}

template <typename ArchiveT>
void save(ArchiveT& ar, rocprofiler_pc_sampling_snapshot_v0_t data) {
  save_pc_sampling_stall_reason(
      ar, static_cast<rocprofiler_pc_sampling_instruction_not_issued_reason_t>(
              data.reason_not_issued));
  ROCP_SDK_SAVE_DATA_BITFIELD("dual_issue_valu", dual_issue_valu);
  // The pipes the wave issued to, then those it stalled on.
  ROCP_SDK_SAVE_DATA_BITFIELD("arb_state_issue_valu", arb_state_issue_valu);
  ROCP_SDK_SAVE_DATA_BITFIELD("arb_state_issue_matrix", arb_state_issue_matrix);
  ROCP_SDK_SAVE_DATA_BITFIELD("arb_state_issue_lds", arb_state_issue_lds);
  ROCP_SDK_SAVE_DATA_BITFIELD("arb_state_issue_lds_direct",
                              arb_state_issue_lds_direct);
  ROCP_SDK_SAVE_DATA_BITFIELD("arb_state_issue_scalar", arb_state_issue_scalar);
  ROCP_SDK_SAVE_DATA_BITFIELD("arb_state_issue_vmem_tex",
                              arb_state_issue_vmem_tex);
  ROCP_SDK_SAVE_DATA_BITFIELD("arb_state_issue_flat", arb_state_issue_flat);
  ROCP_SDK_SAVE_DATA_BITFIELD("arb_state_issue_exp", arb_state_issue_exp);
  ROCP_SDK_SAVE_DATA_BITFIELD("arb_state_issue_misc", arb_state_issue_misc);
  ROCP_SDK_SAVE_DATA_BITFIELD("arb_state_issue_brmsg", arb_state_issue_brmsg);
  ROCP_SDK_SAVE_DATA_BITFIELD("arb_state_stall_valu", arb_state_stall_valu);
  ROCP_SDK_SAVE_DATA_BITFIELD("arb_state_stall_matrix", arb_state_stall_matrix);
  ROCP_SDK_SAVE_DATA_BITFIELD("arb_state_stall_lds", arb_state_stall_lds);
  ROCP_SDK_SAVE_DATA_BITFIELD("arb_state_stall_lds_direct",
                              arb_state_stall_lds_direct);
  ROCP_SDK_SAVE_DATA_BITFIELD("arb_state_stall_scalar", arb_state_stall_scalar);
  ROCP_SDK_SAVE_DATA_BITFIELD("arb_state_stall_vmem_tex",
                              arb_state_stall_vmem_tex);
  ROCP_SDK_SAVE_DATA_BITFIELD("arb_state_stall_flat", arb_state_stall_flat);
  ROCP_SDK_SAVE_DATA_BITFIELD("arb_state_stall_exp", arb_state_stall_exp);
  ROCP_SDK_SAVE_DATA_BITFIELD("arb_state_stall_misc", arb_state_stall_misc);
  ROCP_SDK_SAVE_DATA_BITFIELD("arb_state_stall_brmsg", arb_state_stall_brmsg);
}

template <typename ArchiveT>
void save(ArchiveT& ar, rocprofiler_pc_sampling_record_stochastic_v0_t data) {
  ROCP_SDK_SAVE_DATA_FIELD(flags);
  // As a host-trap sample.
  ROCP_SDK_SAVE_DATA_FIELD(hw_id);
  ROCP_SDK_SAVE_DATA_FIELD(pc);
  ROCP_SDK_SAVE_DATA_FIELD(exec_mask);
  ROCP_SDK_SAVE_DATA_FIELD(timestamp);
  ROCP_SDK_SAVE_DATA_FIELD(dispatch_id);
  ROCP_SDK_SAVE_DATA_VALUE("corr_id", correlation_id);
  ROCP_SDK_SAVE_DATA_VALUE("wrkgrp_id", workgroup_id);
  ROCP_SDK_SAVE_DATA_BITFIELD("wave_in_grp", wave_in_group);
  // Then the stochastic sampler's own.
  ROCP_SDK_SAVE_DATA_BITFIELD("wave_issued", wave_issued);
  save_pc_sampling_inst_type(
      ar,
      static_cast<rocprofiler_pc_sampling_instruction_type_t>(data.inst_type));
  ROCP_SDK_SAVE_DATA_BITFIELD("wave_cnt", wave_count);
  ROCP_SDK_SAVE_DATA_FIELD(snapshot);
}

template <typename ArchiveT>
void save(ArchiveT& ar, rocprofiler_pc_sampling_configuration_t data) {
  ROCP_SDK_SAVE_DATA_FIELD(method);
  ROCP_SDK_SAVE_DATA_FIELD(unit);
  ROCP_SDK_SAVE_DATA_FIELD(min_interval);
  ROCP_SDK_SAVE_DATA_FIELD(max_interval);
  ROCP_SDK_SAVE_DATA_FIELD(flags);
}

// Agents. The KFD-typed fields as their bit-fields (see the top).
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

// The memory bank, cache and I/O link arrays come last, as lists of their
// counts' length (empty for NULL), in the order load.hpp reads them.
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
  // An array, not an object: the entries have no names of their own (a
  // binary archive gets the count first, as for any list).
  ar(::cereal::make_size_tag(static_cast<::cereal::size_type>(data.size())));
  for (const auto& kind : data) ar(kind);
}

ROCPROFILER_SDK_CEREAL_NAMESPACE_END

#undef ROCP_SDK_SAVE_DATA_FIELD
#undef ROCP_SDK_SAVE_DATA_VALUE
#undef ROCP_SDK_SAVE_DATA_CSTR
#undef ROCP_SDK_SAVE_DATA_BITFIELD

#endif  // ROCPROFILER_SDK_CXX_SERIALIZATION_SAVE_HPP_
