// Reading rocprofiler-sdk's types back with cereal, as rocprofiler-sdk 1.0.0's
// <rocprofiler-sdk/cxx/serialization/load.hpp> offers it to tools that keep
// what they wrote with save.hpp (an agent list, the code objects and kernels
// a trace refers to) and read it back later: `load(archive, value)` functions
// in namespace cereal (ROCPROFILER_SDK_CEREAL_NAMESPACE_BEGIN/END,
// overridable) for agent IDs, addresses, rocprofiler_dim3_t, agents with
// their cache, I/O-link and memory-bank arrays, the code-object load record
// and the kernel-symbol record. Each reads the fields save.hpp writes, under
// the same names and in the same order, so a JSON archive (read by name) and
// a binary one (read in order) both come back equal to what was saved. The
// agent fields typed as KFD bit-field unions (capability, fw_version,
// sdma_fw_version, a cache's type, a link's and a memory bank's flags) are
// read from those bit-fields (bits outside the fields keep their value).
// Including this header includes save.hpp.
//
//   cereal::JSONInputArchive json{in};
//   rocprofiler_agent_v0_t agent{};
//   json(cereal::make_nvp("agent", agent));
//
// The C structs only point at their strings and arrays, so something must
// own what is read. A string is kept in one table of distinct texts for the
// whole process (never freed: the pointer stays valid as long as the record
// may be used, and reading the same name a million times keeps one copy). An
// agent's arrays are allocated with new[] for each agent read and belong to
// the caller from then on (`delete[]` them when done; 1.0.0 frees them
// never). A field missing from a JSON archive, or a binary archive that ends
// early, throws cereal::Exception, with the struct partly filled.
//
// ROCP_SDK_LOAD_VALUE stays defined for the includer; the ROCP_SDK_LOAD_DATA_*
// macros the functions are written with are undefined at the end, as in
// 1.0.0. With ROCPROFILER_SDK_CXX_SERIALIZATION_LOAD_DEBUG > 0, each field's
// name goes to std::clog before it is read (where a malformed file stops).
//
// Needs cereal's headers (Debian: libcereal-dev). Header-only, C++17.
#ifndef ROCPROFILER_SDK_CXX_SERIALIZATION_LOAD_HPP_
#define ROCPROFILER_SDK_CXX_SERIALIZATION_LOAD_HPP_

#include <rocprofiler-sdk/agent.h>
#include <rocprofiler-sdk/buffer.h>
#include <rocprofiler-sdk/callback_tracing.h>
#include <rocprofiler-sdk/external_correlation.h>
#include <rocprofiler-sdk/fwd.h>
#include <rocprofiler-sdk/internal_threading.h>
#include <rocprofiler-sdk/rocprofiler.h>

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
#include <iostream>
#include <mutex>
#include <rocprofiler-sdk/cxx/name_info.hpp>
#include <rocprofiler-sdk/cxx/serialization/save.hpp>
#include <rocprofiler-sdk/cxx/utility.hpp>
#include <string>
#include <type_traits>
#include <unordered_set>
#include <vector>

#if defined(ROCPROFILER_SDK_CXX_SERIALIZATION_LOAD_DEBUG) && \
    ROCPROFILER_SDK_CXX_SERIALIZATION_LOAD_DEBUG > 0
#define ROCP_SDK_LOAD_MESSAGE(NAME)                                     \
  (std::clog << "[" << __func__ << "] loading field " << (NAME) << "\n" \
             << std::flush)
#else
#define ROCP_SDK_LOAD_MESSAGE(NAME) ((void)0)
#endif

#define ROCP_SDK_LOAD_DATA_FIELD(FIELD) \
  ROCP_SDK_LOAD_MESSAGE(#FIELD);        \
  ar(make_nvp(#FIELD, data.FIELD))
#define ROCP_SDK_LOAD_DATA_VALUE(NAME, VALUE) \
  ROCP_SDK_LOAD_MESSAGE(NAME);                \
  ar(make_nvp(NAME, data.VALUE))
#define ROCP_SDK_LOAD_VALUE(NAME, VALUE) \
  ROCP_SDK_LOAD_MESSAGE(NAME);           \
  ar(make_nvp(NAME, VALUE))
// A C string: read as std::string, kept in the process-wide table.
#define ROCP_SDK_LOAD_DATA_CSTR(FIELD)                                   \
  {                                                                      \
    ROCP_SDK_LOAD_MESSAGE(#FIELD);                                       \
    std::string rocp_sdk_text_;                                          \
    ar(make_nvp(#FIELD, rocp_sdk_text_));                                \
    data.FIELD = ::rocprofiler::sdk::serialization::detail::keep_string( \
        std::move(rocp_sdk_text_));                                      \
  }
// A bit-field: read into a variable of its type (a bit-field has no address
// for cereal to write to), then stored.
#define ROCP_SDK_LOAD_DATA_BITFIELD(NAME, VALUE) \
  {                                              \
    ROCP_SDK_LOAD_MESSAGE(NAME);                 \
    auto rocp_sdk_bits_ = data.VALUE;            \
    ar(make_nvp(NAME, rocp_sdk_bits_));          \
    data.VALUE = rocp_sdk_bits_;                 \
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
namespace detail {

// The C string a loaded record points at: one copy per distinct text for
// the process's life (a std::unordered_set never moves its elements).
inline const char* keep_string(std::string&& text) {
  static std::mutex* lock = new std::mutex{};
  // Never destroyed: records read back may be used from static destructors.
  static auto* kept = new std::unordered_set<std::string>{};
  std::lock_guard<std::mutex> hold{*lock};
  return kept->emplace(std::move(text)).first->c_str();
}

// The new[] array a struct's pointer owns, from values already read (an
// archive that throws mid-struct leaves nothing allocated); its length goes
// to `count`. An empty list gives nullptr.
template <typename ValueT, typename CountT>
void publish_array(const std::vector<ValueT>& values, const ValueT*& out,
                   CountT& count) {
  ValueT* array = values.empty() ? nullptr : new ValueT[values.size()];
  for (size_t i = 0; i < values.size(); ++i) array[i] = values[i];
  out = array;
  count = static_cast<CountT>(values.size());
}

}  // namespace detail
}  // namespace serialization
}  // namespace sdk
}  // namespace rocprofiler

ROCPROFILER_SDK_CEREAL_NAMESPACE_BEGIN

// A KFD union's bit-fields (save.hpp), read at the level of the struct
// being read; the bits of other fields keep their value.
template <typename LayoutT, typename ArchiveT>
void load_kfd_bit_fields(ArchiveT& ar, uint32_t& value) {
  for (const auto& field : LayoutT::fields) {
    ROCP_SDK_LOAD_MESSAGE(field.name);
    uint32_t bits = 0;
    ar(make_nvp(field.name, bits));
    const uint32_t mask =
        ::rocprofiler::sdk::serialization::detail::kfd_mask(field.width);
    value = (value & ~(mask << field.shift)) | ((bits & mask) << field.shift);
  }
}

// The KFD unions, from their bit-fields.
#define ROCP_SDK_LOAD_KFD_UNION_(TYPE, LAYOUT, MEMBER)                      \
  template <typename ArchiveT>                                              \
  void load(ArchiveT& ar, TYPE& data) {                                     \
    load_kfd_bit_fields<::rocprofiler::sdk::serialization::detail::LAYOUT>( \
        ar, data.MEMBER);                                                   \
  }
ROCP_SDK_LOAD_KFD_UNION_(HsaCacheType, kfd_cache_type, Value)
ROCP_SDK_LOAD_KFD_UNION_(HSA_LINKPROPERTY, kfd_link_property, LinkProperty)
ROCP_SDK_LOAD_KFD_UNION_(HSA_CAPABILITY, kfd_capability, Value)
ROCP_SDK_LOAD_KFD_UNION_(HSA_MEMORYPROPERTY, kfd_memory_property,
                         MemoryProperty)
ROCP_SDK_LOAD_KFD_UNION_(HSA_ENGINE_VERSION, kfd_engine_version, Value)
ROCP_SDK_LOAD_KFD_UNION_(HSA_ENGINE_ID, kfd_engine_id, Value)
#undef ROCP_SDK_LOAD_KFD_UNION_

template <typename ArchiveT>
void load(ArchiveT& ar, rocprofiler_agent_id_t& data) {
  ROCP_SDK_LOAD_DATA_FIELD(handle);
}

template <typename ArchiveT>
void load(ArchiveT& ar, rocprofiler_address_t& data) {
  ROCP_SDK_LOAD_DATA_FIELD(handle);
}

template <typename ArchiveT>
void load(ArchiveT& ar, rocprofiler_dim3_t& data) {
  ROCP_SDK_LOAD_DATA_FIELD(x);
  ROCP_SDK_LOAD_DATA_FIELD(y);
  ROCP_SDK_LOAD_DATA_FIELD(z);
}

template <typename ArchiveT>
void load(ArchiveT& ar, rocprofiler_uuid_t& data) {
  ROCP_SDK_LOAD_DATA_FIELD(value);
}

// Agents.
template <typename ArchiveT>
void load(ArchiveT& ar, rocprofiler_agent_cache_t& data) {
  ROCP_SDK_LOAD_DATA_FIELD(processor_id_low);
  ROCP_SDK_LOAD_DATA_FIELD(size);
  ROCP_SDK_LOAD_DATA_FIELD(level);
  ROCP_SDK_LOAD_DATA_FIELD(cache_line_size);
  ROCP_SDK_LOAD_DATA_FIELD(cache_lines_per_tag);
  ROCP_SDK_LOAD_DATA_FIELD(association);
  ROCP_SDK_LOAD_DATA_FIELD(latency);
  ROCP_SDK_LOAD_DATA_FIELD(type);
}

template <typename ArchiveT>
void load(ArchiveT& ar, rocprofiler_agent_io_link_t& data) {
  ROCP_SDK_LOAD_DATA_FIELD(type);
  ROCP_SDK_LOAD_DATA_FIELD(version_major);
  ROCP_SDK_LOAD_DATA_FIELD(version_minor);
  ROCP_SDK_LOAD_DATA_FIELD(node_from);
  ROCP_SDK_LOAD_DATA_FIELD(node_to);
  ROCP_SDK_LOAD_DATA_FIELD(weight);
  ROCP_SDK_LOAD_DATA_FIELD(min_latency);
  ROCP_SDK_LOAD_DATA_FIELD(max_latency);
  ROCP_SDK_LOAD_DATA_FIELD(min_bandwidth);
  ROCP_SDK_LOAD_DATA_FIELD(max_bandwidth);
  ROCP_SDK_LOAD_DATA_FIELD(recommended_transfer_size);
  ROCP_SDK_LOAD_DATA_FIELD(flags);
}

template <typename ArchiveT>
void load(ArchiveT& ar, rocprofiler_agent_mem_bank_t& data) {
  ROCP_SDK_LOAD_DATA_FIELD(heap_type);
  ROCP_SDK_LOAD_DATA_FIELD(flags);
  ROCP_SDK_LOAD_DATA_FIELD(width);
  ROCP_SDK_LOAD_DATA_FIELD(mem_clk_max);
  ROCP_SDK_LOAD_DATA_FIELD(size_in_bytes);
}

template <typename ArchiveT>
void load(ArchiveT& ar, rocprofiler_agent_runtime_visiblity_t& data) {
  ROCP_SDK_LOAD_DATA_BITFIELD("hsa", hsa);
  ROCP_SDK_LOAD_DATA_BITFIELD("hip", hip);
  ROCP_SDK_LOAD_DATA_BITFIELD("rccl", rccl);
  ROCP_SDK_LOAD_DATA_BITFIELD("rocdecode", rocdecode);
}

template <typename ArchiveT>
void load(ArchiveT& ar, rocprofiler_agent_v0_t& data) {
  ROCP_SDK_LOAD_DATA_FIELD(size);
  ROCP_SDK_LOAD_DATA_FIELD(id);
  ROCP_SDK_LOAD_DATA_FIELD(type);
  ROCP_SDK_LOAD_DATA_FIELD(cpu_cores_count);
  ROCP_SDK_LOAD_DATA_FIELD(simd_count);
  ROCP_SDK_LOAD_DATA_FIELD(mem_banks_count);
  ROCP_SDK_LOAD_DATA_FIELD(caches_count);
  ROCP_SDK_LOAD_DATA_FIELD(io_links_count);
  ROCP_SDK_LOAD_DATA_FIELD(cpu_core_id_base);
  ROCP_SDK_LOAD_DATA_FIELD(simd_id_base);
  ROCP_SDK_LOAD_DATA_FIELD(max_waves_per_simd);
  ROCP_SDK_LOAD_DATA_FIELD(lds_size_in_kb);
  ROCP_SDK_LOAD_DATA_FIELD(gds_size_in_kb);
  ROCP_SDK_LOAD_DATA_FIELD(num_gws);
  ROCP_SDK_LOAD_DATA_FIELD(wave_front_size);
  ROCP_SDK_LOAD_DATA_FIELD(num_xcc);
  ROCP_SDK_LOAD_DATA_FIELD(cu_count);
  ROCP_SDK_LOAD_DATA_FIELD(array_count);
  ROCP_SDK_LOAD_DATA_FIELD(num_shader_banks);
  ROCP_SDK_LOAD_DATA_FIELD(simd_arrays_per_engine);
  ROCP_SDK_LOAD_DATA_FIELD(cu_per_simd_array);
  ROCP_SDK_LOAD_DATA_FIELD(simd_per_cu);
  ROCP_SDK_LOAD_DATA_FIELD(max_slots_scratch_cu);
  ROCP_SDK_LOAD_DATA_FIELD(gfx_target_version);
  ROCP_SDK_LOAD_DATA_FIELD(vendor_id);
  ROCP_SDK_LOAD_DATA_FIELD(device_id);
  ROCP_SDK_LOAD_DATA_FIELD(location_id);
  ROCP_SDK_LOAD_DATA_FIELD(domain);
  ROCP_SDK_LOAD_DATA_FIELD(drm_render_minor);
  ROCP_SDK_LOAD_DATA_FIELD(num_sdma_engines);
  ROCP_SDK_LOAD_DATA_FIELD(num_sdma_xgmi_engines);
  ROCP_SDK_LOAD_DATA_FIELD(num_sdma_queues_per_engine);
  ROCP_SDK_LOAD_DATA_FIELD(num_cp_queues);
  ROCP_SDK_LOAD_DATA_FIELD(max_engine_clk_ccompute);
  ROCP_SDK_LOAD_DATA_FIELD(max_engine_clk_fcompute);
  ROCP_SDK_LOAD_DATA_FIELD(sdma_fw_version);
  ROCP_SDK_LOAD_DATA_FIELD(fw_version);
  ROCP_SDK_LOAD_DATA_FIELD(capability);
  ROCP_SDK_LOAD_DATA_FIELD(cu_per_engine);
  ROCP_SDK_LOAD_DATA_FIELD(max_waves_per_cu);
  ROCP_SDK_LOAD_DATA_FIELD(family_id);
  ROCP_SDK_LOAD_DATA_FIELD(workgroup_max_size);
  ROCP_SDK_LOAD_DATA_FIELD(grid_max_size);
  ROCP_SDK_LOAD_DATA_FIELD(local_mem_size);
  ROCP_SDK_LOAD_DATA_FIELD(hive_id);
  ROCP_SDK_LOAD_DATA_FIELD(gpu_id);
  ROCP_SDK_LOAD_DATA_FIELD(workgroup_max_dim);
  ROCP_SDK_LOAD_DATA_FIELD(grid_max_dim);
  ROCP_SDK_LOAD_DATA_CSTR(name);
  ROCP_SDK_LOAD_DATA_CSTR(vendor_name);
  ROCP_SDK_LOAD_DATA_CSTR(product_name);
  ROCP_SDK_LOAD_DATA_CSTR(model_name);
  ROCP_SDK_LOAD_DATA_FIELD(node_id);
  ROCP_SDK_LOAD_DATA_FIELD(logical_node_id);
  ROCP_SDK_LOAD_DATA_FIELD(logical_node_type_id);
  ROCP_SDK_LOAD_DATA_FIELD(runtime_visibility);
  ROCP_SDK_LOAD_DATA_FIELD(uuid);
  // The counts follow the lists read (they were read above as well, and
  // agree with them for anything save.hpp wrote).
  // All three lists are read before any is allocated.
  std::vector<rocprofiler_agent_mem_bank_t> mem_banks;
  std::vector<rocprofiler_agent_cache_t> caches;
  std::vector<rocprofiler_agent_io_link_t> io_links;
  ROCP_SDK_LOAD_MESSAGE("mem_banks");
  ar(::cereal::make_nvp("mem_banks", mem_banks));
  ROCP_SDK_LOAD_MESSAGE("caches");
  ar(::cereal::make_nvp("caches", caches));
  ROCP_SDK_LOAD_MESSAGE("io_links");
  ar(::cereal::make_nvp("io_links", io_links));
  ::rocprofiler::sdk::serialization::detail::publish_array(
      mem_banks, data.mem_banks, data.mem_banks_count);
  ::rocprofiler::sdk::serialization::detail::publish_array(caches, data.caches,
                                                           data.caches_count);
  ::rocprofiler::sdk::serialization::detail::publish_array(
      io_links, data.io_links, data.io_links_count);
}

// Code objects.
template <typename ArchiveT>
void load(ArchiveT& ar,
          rocprofiler_callback_tracing_code_object_load_data_t& data) {
  ROCP_SDK_LOAD_DATA_FIELD(size);
  ROCP_SDK_LOAD_DATA_FIELD(code_object_id);
  ROCP_SDK_LOAD_DATA_FIELD(agent_id);
  ROCP_SDK_LOAD_DATA_CSTR(uri);
  ROCP_SDK_LOAD_DATA_FIELD(load_base);
  ROCP_SDK_LOAD_DATA_FIELD(load_size);
  ROCP_SDK_LOAD_DATA_FIELD(load_delta);
  ROCP_SDK_LOAD_DATA_FIELD(storage_type);
  // Only the storage member the discriminator names was written.
  if (data.storage_type == ROCPROFILER_CODE_OBJECT_STORAGE_TYPE_FILE) {
    ROCP_SDK_LOAD_DATA_FIELD(storage_file);
  } else if (data.storage_type == ROCPROFILER_CODE_OBJECT_STORAGE_TYPE_MEMORY) {
    ROCP_SDK_LOAD_DATA_FIELD(memory_base);
    ROCP_SDK_LOAD_DATA_FIELD(memory_size);
  }
}

template <typename ArchiveT>
void load(
    ArchiveT& ar,
    rocprofiler_callback_tracing_code_object_kernel_symbol_register_data_t&
        data) {
  ROCP_SDK_LOAD_DATA_FIELD(size);
  ROCP_SDK_LOAD_DATA_FIELD(kernel_id);
  ROCP_SDK_LOAD_DATA_FIELD(code_object_id);
  ROCP_SDK_LOAD_DATA_CSTR(kernel_name);
  ROCP_SDK_LOAD_DATA_FIELD(kernel_object);
  ROCP_SDK_LOAD_DATA_FIELD(kernarg_segment_size);
  ROCP_SDK_LOAD_DATA_FIELD(kernarg_segment_alignment);
  ROCP_SDK_LOAD_DATA_FIELD(group_segment_size);
  ROCP_SDK_LOAD_DATA_FIELD(private_segment_size);
  ROCP_SDK_LOAD_DATA_FIELD(sgpr_count);
  ROCP_SDK_LOAD_DATA_FIELD(arch_vgpr_count);
  ROCP_SDK_LOAD_DATA_FIELD(accum_vgpr_count);
  ROCP_SDK_LOAD_DATA_FIELD(kernel_code_entry_byte_offset);
  ROCP_SDK_LOAD_DATA_FIELD(kernel_address);
}

ROCPROFILER_SDK_CEREAL_NAMESPACE_END

#undef ROCP_SDK_LOAD_DATA_FIELD
#undef ROCP_SDK_LOAD_DATA_VALUE
#undef ROCP_SDK_LOAD_DATA_CSTR
#undef ROCP_SDK_LOAD_DATA_BITFIELD

#endif  // ROCPROFILER_SDK_CXX_SERIALIZATION_LOAD_HPP_
