// Every tracing kind's name and its operations' names, read once from the
// library's queries, indexed by kind and then by operation:
//
//   auto names = rocprofiler::sdk::get_callback_tracing_names();
//   const char* kind =
//   names[ROCPROFILER_CALLBACK_TRACING_HIP_RUNTIME_API].name; const char* op =
//       names[ROCPROFILER_CALLBACK_TRACING_HIP_RUNTIME_API].operations[id];
//
// `operations` has one entry per operation number from 0 to the kind's
// largest operation; a number that is no operation of the kind (NONE of the
// kinds numbered from 1) is "". Indexing with a kind outside the enum gives
// an entry with name "" and no operations. Header-only, C++17.
#ifndef ROCPROFILER_SDK_CXX_NAME_INFO_HPP_
#define ROCPROFILER_SDK_CXX_NAME_INFO_HPP_

#include <rocprofiler-sdk/buffer_tracing.h>
#include <rocprofiler-sdk/callback_tracing.h>
#include <rocprofiler-sdk/fwd.h>

#include <cstddef>
#include <cstdint>
#include <vector>

namespace rocprofiler {
namespace sdk {

template <typename KindT>
struct name_info_item {
  KindT value{};
  const char* name = "";
  std::vector<const char*> operations;
};

template <typename KindT>
class name_info {
 public:
  using item_type = name_info_item<KindT>;

  const item_type& operator[](KindT kind) const {
    const auto i = static_cast<size_t>(kind);
    static const item_type none{};
    return i < items_.size() ? items_[i] : none;
  }
  const item_type& at(KindT kind) const { return (*this)[kind]; }
  // Entries by kind value (index 0, NONE, has name "").
  size_t size() const { return items_.size(); }
  typename std::vector<item_type>::const_iterator begin() const {
    return items_.begin();
  }
  typename std::vector<item_type>::const_iterator end() const {
    return items_.end();
  }

  // Used by the get_*_names functions below.
  item_type& emplace(KindT kind) {
    const auto i = static_cast<size_t>(kind);
    if (items_.size() <= i) items_.resize(i + 1);
    items_[i].value = kind;
    return items_[i];
  }

 private:
  std::vector<item_type> items_;
};

using callback_name_info = name_info<rocprofiler_callback_tracing_kind_t>;
using buffer_name_info = name_info<rocprofiler_buffer_tracing_kind_t>;

namespace detail {

template <typename KindT>
void set_operation(name_info_item<KindT>& item, int32_t op, const char* name) {
  if (op < 0) return;
  const auto i = static_cast<size_t>(op);
  if (item.operations.size() <= i) item.operations.resize(i + 1, "");
  item.operations[i] = name;
}

}  // namespace detail

inline callback_name_info get_callback_tracing_names() {
  callback_name_info info;
  info.emplace(ROCPROFILER_CALLBACK_TRACING_NONE);
  rocprofiler_iterate_callback_tracing_kinds(
      [](rocprofiler_callback_tracing_kind_t kind, void* data) {
        auto& item = static_cast<callback_name_info*>(data)->emplace(kind);
        const char* name = nullptr;
        if (rocprofiler_query_callback_tracing_kind_name(
                kind, &name, nullptr) == ROCPROFILER_STATUS_SUCCESS &&
            name != nullptr) {
          item.name = name;
        }
        rocprofiler_iterate_callback_tracing_kind_operations(
            kind,
            [](rocprofiler_callback_tracing_kind_t k, int32_t op, void* d) {
              const char* op_name = nullptr;
              if (rocprofiler_query_callback_tracing_kind_operation_name(
                      k, op, &op_name, nullptr) == ROCPROFILER_STATUS_SUCCESS &&
                  op_name != nullptr) {
                detail::set_operation(
                    *static_cast<callback_name_info::item_type*>(d), op,
                    op_name);
              }
              return 0;
            },
            &item);
        return 0;
      },
      &info);
  return info;
}

inline buffer_name_info get_buffer_tracing_names() {
  buffer_name_info info;
  info.emplace(ROCPROFILER_BUFFER_TRACING_NONE);
  rocprofiler_iterate_buffer_tracing_kinds(
      [](rocprofiler_buffer_tracing_kind_t kind, void* data) {
        auto& item = static_cast<buffer_name_info*>(data)->emplace(kind);
        const char* name = nullptr;
        if (rocprofiler_query_buffer_tracing_kind_name(kind, &name, nullptr) ==
                ROCPROFILER_STATUS_SUCCESS &&
            name != nullptr) {
          item.name = name;
        }
        rocprofiler_iterate_buffer_tracing_kind_operations(
            kind,
            [](rocprofiler_buffer_tracing_kind_t k, int32_t op, void* d) {
              const char* op_name = nullptr;
              if (rocprofiler_query_buffer_tracing_kind_operation_name(
                      k, op, &op_name, nullptr) == ROCPROFILER_STATUS_SUCCESS &&
                  op_name != nullptr) {
                detail::set_operation(
                    *static_cast<buffer_name_info::item_type*>(d), op, op_name);
              }
              return 0;
            },
            &item);
        return 0;
      },
      &info);
  return info;
}

}  // namespace sdk
}  // namespace rocprofiler

#endif  // ROCPROFILER_SDK_CXX_NAME_INFO_HPP_
