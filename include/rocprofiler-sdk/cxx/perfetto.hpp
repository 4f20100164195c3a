// Perfetto track-event categories for rocprofiler-sdk's tracing kinds, and
// a helper that adds a typed debug annotation to a Perfetto event: for a
// tool that writes its own Perfetto trace with the Perfetto SDK.
//
// Needs the Perfetto SDK's <perfetto.h> (the amalgamated sdk/perfetto.h of a
// Perfetto release) on the include path, and the tool links the SDK's
// perfetto.cc. This project does not ship Perfetto: Debian packages no
// Perfetto SDK. Including this header defines the track-event categories
// (PERFETTO_DEFINE_CATEGORIES, in Perfetto's default namespace), so the tool
// puts PERFETTO_TRACK_EVENT_STATIC_STORAGE() in one of its sources and does
// not define categories of its own.
#ifndef ROCPROFILER_SDK_CXX_PERFETTO_HPP_
#define ROCPROFILER_SDK_CXX_PERFETTO_HPP_

#if !defined(__has_include)
#error "rocprofiler-sdk/cxx/perfetto.hpp needs a compiler with __has_include"
#elif !__has_include(<perfetto.h>)
#error \
    "rocprofiler-sdk/cxx/perfetto.hpp needs the Perfetto SDK: add the directory holding its perfetto.h (sdk/ of a Perfetto release) to the include path. Debian packages no Perfetto SDK, and this library does not ship one."
#else

#include <rocprofiler-sdk/fwd.h>

#include <cstddef>
#include <cstdint>
#include <rocprofiler-sdk/cxx/details/mpl.hpp>
#include <sstream>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>

namespace rocprofiler {
namespace sdk {

// A category's Perfetto name and description, by its tag type below.
template <typename Tp>
struct perfetto_category;

namespace category {
struct hsa_api {};
struct hip_api {};
struct marker_api {};
struct rccl_api {};
struct openmp {};
struct kernel_dispatch {};
struct memory_copy {};
struct memory_allocation {};
struct rocdecode_api {};
struct rocjpeg_api {};
struct counter_collection {};
struct kfd_events {};
struct none {};
}  // namespace category

// Each tag's name is its own spelling, as rocprofiler-sdk 1.0.0 names them.
#define ROCPROFILER_SDK_PERFETTO_NAME_CATEGORY_(TAG, DESCRIPTION) \
  template <>                                                     \
  struct perfetto_category<category::TAG> {                       \
    static constexpr const char* name = #TAG;                     \
    static constexpr const char* description = DESCRIPTION;       \
  };

ROCPROFILER_SDK_PERFETTO_NAME_CATEGORY_(hsa_api, "HSA API function")
ROCPROFILER_SDK_PERFETTO_NAME_CATEGORY_(hip_api, "HIP API function")
ROCPROFILER_SDK_PERFETTO_NAME_CATEGORY_(marker_api, "Marker API region")
ROCPROFILER_SDK_PERFETTO_NAME_CATEGORY_(rccl_api, "RCCL API function")
ROCPROFILER_SDK_PERFETTO_NAME_CATEGORY_(openmp, "OpenMP")
ROCPROFILER_SDK_PERFETTO_NAME_CATEGORY_(kernel_dispatch, "GPU kernel dispatch")
ROCPROFILER_SDK_PERFETTO_NAME_CATEGORY_(memory_copy, "Async memory copy")
ROCPROFILER_SDK_PERFETTO_NAME_CATEGORY_(memory_allocation, "Memory Allocation")
ROCPROFILER_SDK_PERFETTO_NAME_CATEGORY_(rocdecode_api, "rocDecode API function")
ROCPROFILER_SDK_PERFETTO_NAME_CATEGORY_(rocjpeg_api, "rocJPEG API function")
ROCPROFILER_SDK_PERFETTO_NAME_CATEGORY_(counter_collection,
                                        "Counter Collection")
ROCPROFILER_SDK_PERFETTO_NAME_CATEGORY_(kfd_events, "KFD events collection")
ROCPROFILER_SDK_PERFETTO_NAME_CATEGORY_(none, "Unknown category")

#undef ROCPROFILER_SDK_PERFETTO_NAME_CATEGORY_

}  // namespace sdk
}  // namespace rocprofiler

#include <perfetto.h>

#define ROCPROFILER_SDK_PERFETTO_CATEGORY_(TAG)                      \
  ::perfetto::Category(::rocprofiler::sdk::perfetto_category<        \
                           ::rocprofiler::sdk::category::TAG>::name) \
      .SetDescription(::rocprofiler::sdk::perfetto_category<         \
                      ::rocprofiler::sdk::category::TAG>::description)

// The categories Perfetto knows, in 1.0.0's order (a category's index is its
// position). kfd_events is named above but, as in 1.0.0, not registered.
PERFETTO_DEFINE_CATEGORIES(
    ROCPROFILER_SDK_PERFETTO_CATEGORY_(hsa_api),
    ROCPROFILER_SDK_PERFETTO_CATEGORY_(hip_api),
    ROCPROFILER_SDK_PERFETTO_CATEGORY_(marker_api),
    ROCPROFILER_SDK_PERFETTO_CATEGORY_(rccl_api),
    ROCPROFILER_SDK_PERFETTO_CATEGORY_(openmp),
    ROCPROFILER_SDK_PERFETTO_CATEGORY_(kernel_dispatch),
    ROCPROFILER_SDK_PERFETTO_CATEGORY_(memory_copy),
    ROCPROFILER_SDK_PERFETTO_CATEGORY_(counter_collection),
    ROCPROFILER_SDK_PERFETTO_CATEGORY_(memory_allocation),
    ROCPROFILER_SDK_PERFETTO_CATEGORY_(rocdecode_api),
    ROCPROFILER_SDK_PERFETTO_CATEGORY_(rocjpeg_api),
    ROCPROFILER_SDK_PERFETTO_CATEGORY_(none));

#undef ROCPROFILER_SDK_PERFETTO_CATEGORY_

namespace rocprofiler {
namespace sdk {

using perfetto_event_context_t = ::perfetto::EventContext;

namespace perfetto_detail {

// The text of a string argument; a NULL C string is "".
inline std::string text_of(const char* text) {
  return text != nullptr ? std::string(text) : std::string();
}
inline std::string text_of(std::string_view text) { return std::string(text); }

}  // namespace perfetto_detail

// Adds a debug annotation `name` = `value` to the event `ctx` writes, typed
// by the value's C++ type: strings as strings (a NULL C string as ""), bool
// as bool, enums and signed integers as int, unsigned integers as uint,
// floating point as double, other pointers as pointer, and anything with an
// operator<< as the string it prints. Other types do not compile.
template <typename Np, typename Tp>
void add_perfetto_annotation(perfetto_event_context_t& ctx, Np&& name,
                             Tp&& value) {
  using name_type = mpl::unqualified_identity_t<Np>;
  using value_type = mpl::unqualified_identity_t<Tp>;
  static_assert(mpl::is_string_type<name_type>::value,
                "add_perfetto_annotation: the name must be a string");

  auto* annotation = ctx.event()->add_debug_annotations();
  annotation->set_name(perfetto_detail::text_of(name));

  if constexpr (mpl::is_string_type<value_type>::value) {
    annotation->set_string_value(perfetto_detail::text_of(value));
  } else if constexpr (std::is_same<value_type, bool>::value) {
    annotation->set_bool_value(value);
  } else if constexpr (std::is_enum<value_type>::value) {
    annotation->set_int_value(static_cast<int64_t>(value));
  } else if constexpr (std::is_floating_point<value_type>::value) {
    annotation->set_double_value(static_cast<double>(value));
  } else if constexpr (std::is_integral<value_type>::value &&
                       std::is_unsigned<value_type>::value) {
    annotation->set_uint_value(static_cast<uint64_t>(value));
  } else if constexpr (std::is_integral<value_type>::value) {
    annotation->set_int_value(static_cast<int64_t>(value));
  } else if constexpr (std::is_pointer<value_type>::value) {
    annotation->set_pointer_value(reinterpret_cast<uint64_t>(value));
  } else if constexpr (mpl::can_stringify<value_type>::value) {
    std::ostringstream text;
    text << std::forward<Tp>(value);
    annotation->set_string_value(text.str());
  } else {
    static_assert(mpl::assert_false<value_type>::value,
                  "add_perfetto_annotation: no annotation type for this value");
  }
}

namespace perfetto_detail {

// The category of each buffer-tracing kind, as 1.0.0 files them; nullptr for
// a value that is not a kind.
constexpr const char* category_of(rocprofiler_buffer_tracing_kind_t kind) {
  switch (kind) {
    case ROCPROFILER_BUFFER_TRACING_HSA_CORE_API:
    case ROCPROFILER_BUFFER_TRACING_HSA_AMD_EXT_API:
    case ROCPROFILER_BUFFER_TRACING_HSA_IMAGE_EXT_API:
    case ROCPROFILER_BUFFER_TRACING_HSA_FINALIZE_EXT_API:
      return perfetto_category<category::hsa_api>::name;
    case ROCPROFILER_BUFFER_TRACING_HIP_RUNTIME_API:
    case ROCPROFILER_BUFFER_TRACING_HIP_COMPILER_API:
    case ROCPROFILER_BUFFER_TRACING_HIP_STREAM:
    case ROCPROFILER_BUFFER_TRACING_HIP_RUNTIME_API_EXT:
    case ROCPROFILER_BUFFER_TRACING_HIP_COMPILER_API_EXT:
      return perfetto_category<category::hip_api>::name;
    case ROCPROFILER_BUFFER_TRACING_MARKER_CORE_API:
    case ROCPROFILER_BUFFER_TRACING_MARKER_CORE_RANGE_API:
    case ROCPROFILER_BUFFER_TRACING_MARKER_CONTROL_API:
    case ROCPROFILER_BUFFER_TRACING_MARKER_NAME_API:
      return perfetto_category<category::marker_api>::name;
    case ROCPROFILER_BUFFER_TRACING_MEMORY_COPY:
      return perfetto_category<category::memory_copy>::name;
    case ROCPROFILER_BUFFER_TRACING_MEMORY_ALLOCATION:
    case ROCPROFILER_BUFFER_TRACING_SCRATCH_MEMORY:
      return perfetto_category<category::memory_allocation>::name;
    case ROCPROFILER_BUFFER_TRACING_KERNEL_DISPATCH:
      return perfetto_category<category::kernel_dispatch>::name;
    case ROCPROFILER_BUFFER_TRACING_RCCL_API:
      return perfetto_category<category::rccl_api>::name;
    case ROCPROFILER_BUFFER_TRACING_OMPT:
      return perfetto_category<category::openmp>::name;
    case ROCPROFILER_BUFFER_TRACING_ROCDECODE_API:
    case ROCPROFILER_BUFFER_TRACING_ROCDECODE_API_EXT:
      return perfetto_category<category::rocdecode_api>::name;
    case ROCPROFILER_BUFFER_TRACING_ROCJPEG_API:
      return perfetto_category<category::rocjpeg_api>::name;
    case ROCPROFILER_BUFFER_TRACING_KFD_EVENT_PAGE_MIGRATE:
    case ROCPROFILER_BUFFER_TRACING_KFD_EVENT_PAGE_FAULT:
    case ROCPROFILER_BUFFER_TRACING_KFD_EVENT_QUEUE:
    case ROCPROFILER_BUFFER_TRACING_KFD_EVENT_UNMAP_FROM_GPU:
    case ROCPROFILER_BUFFER_TRACING_KFD_EVENT_DROPPED_EVENTS:
    case ROCPROFILER_BUFFER_TRACING_KFD_PAGE_MIGRATE:
    case ROCPROFILER_BUFFER_TRACING_KFD_PAGE_FAULT:
    case ROCPROFILER_BUFFER_TRACING_KFD_QUEUE:
      return perfetto_category<category::kfd_events>::name;
    case ROCPROFILER_BUFFER_TRACING_NONE:
    case ROCPROFILER_BUFFER_TRACING_CORRELATION_ID_RETIREMENT:
    case ROCPROFILER_BUFFER_TRACING_RUNTIME_INITIALIZATION:
      return perfetto_category<category::none>::name;
    case ROCPROFILER_BUFFER_TRACING_LAST:
      break;
  }
  return nullptr;
}

// The same for callback-tracing kinds.
constexpr const char* category_of(rocprofiler_callback_tracing_kind_t kind) {
  switch (kind) {
    case ROCPROFILER_CALLBACK_TRACING_HSA_CORE_API:
    case ROCPROFILER_CALLBACK_TRACING_HSA_AMD_EXT_API:
    case ROCPROFILER_CALLBACK_TRACING_HSA_IMAGE_EXT_API:
    case ROCPROFILER_CALLBACK_TRACING_HSA_FINALIZE_EXT_API:
      return perfetto_category<category::hsa_api>::name;
    case ROCPROFILER_CALLBACK_TRACING_HIP_RUNTIME_API:
    case ROCPROFILER_CALLBACK_TRACING_HIP_COMPILER_API:
    case ROCPROFILER_CALLBACK_TRACING_HIP_STREAM:
      return perfetto_category<category::hip_api>::name;
    case ROCPROFILER_CALLBACK_TRACING_MARKER_CORE_API:
    case ROCPROFILER_CALLBACK_TRACING_MARKER_CORE_RANGE_API:
    case ROCPROFILER_CALLBACK_TRACING_MARKER_CONTROL_API:
    case ROCPROFILER_CALLBACK_TRACING_MARKER_NAME_API:
      return perfetto_category<category::marker_api>::name;
    case ROCPROFILER_CALLBACK_TRACING_SCRATCH_MEMORY:
    case ROCPROFILER_CALLBACK_TRACING_MEMORY_ALLOCATION:
      return perfetto_category<category::memory_allocation>::name;
    case ROCPROFILER_CALLBACK_TRACING_KERNEL_DISPATCH:
      return perfetto_category<category::kernel_dispatch>::name;
    case ROCPROFILER_CALLBACK_TRACING_MEMORY_COPY:
      return perfetto_category<category::memory_copy>::name;
    case ROCPROFILER_CALLBACK_TRACING_RCCL_API:
      return perfetto_category<category::rccl_api>::name;
    case ROCPROFILER_CALLBACK_TRACING_OMPT:
      return perfetto_category<category::openmp>::name;
    case ROCPROFILER_CALLBACK_TRACING_ROCDECODE_API:
      return perfetto_category<category::rocdecode_api>::name;
    case ROCPROFILER_CALLBACK_TRACING_ROCJPEG_API:
      return perfetto_category<category::rocjpeg_api>::name;
    case ROCPROFILER_CALLBACK_TRACING_NONE:
    case ROCPROFILER_CALLBACK_TRACING_CODE_OBJECT:
    case ROCPROFILER_CALLBACK_TRACING_RUNTIME_INITIALIZATION:
      return perfetto_category<category::none>::name;
    case ROCPROFILER_CALLBACK_TRACING_LAST:
      break;
  }
  return nullptr;
}

template <typename KindT>
struct kind_count;
template <>
struct kind_count<rocprofiler_buffer_tracing_kind_t>
    : std::integral_constant<size_t, ROCPROFILER_BUFFER_TRACING_LAST> {};
template <>
struct kind_count<rocprofiler_callback_tracing_kind_t>
    : std::integral_constant<size_t, ROCPROFILER_CALLBACK_TRACING_LAST> {};

}  // namespace perfetto_detail

// The category name of kind `Idx` of KindT (rocprofiler_buffer_tracing_kind_t
// or rocprofiler_callback_tracing_kind_t), at compile time.
template <typename KindT, size_t Idx>
struct rocprofiler_tracing_perfetto_category {
  static_assert(Idx < perfetto_detail::kind_count<KindT>::value,
                "not a tracing kind");
  static constexpr const char* name =
      perfetto_detail::category_of(static_cast<KindT>(Idx));
};

// The category name of a buffer- or callback-tracing kind; nullptr for a
// value that is not one.
template <typename KindT>
const char* get_perfetto_category(KindT kind) {
  static_assert(
      std::is_same<KindT, rocprofiler_buffer_tracing_kind_t>::value ||
          std::is_same<KindT, rocprofiler_callback_tracing_kind_t>::value,
      "get_perfetto_category: not a tracing kind type");
  return perfetto_detail::category_of(kind);
}

// 1.0.0 also takes the kinds to search as an index sequence; every kind is
// known here, so the sequence only has to be accepted.
template <typename KindT, size_t Idx, size_t... Tail>
const char* get_perfetto_category(KindT kind,
                                  std::index_sequence<Idx, Tail...>) {
  return get_perfetto_category(kind);
}

}  // namespace sdk
}  // namespace rocprofiler

#endif  // __has_include(<perfetto.h>)
#endif  // ROCPROFILER_SDK_CXX_PERFETTO_HPP_
