// Every tracing kind's name and its operations' names, read once from the
// library's queries, indexed by kind and then by operation, with the
// interface of rocprofiler-sdk 1.0.0's helper:
//
//   auto names = rocprofiler::sdk::get_callback_tracing_names();
//   std::string_view kind =
//   names.at(ROCPROFILER_CALLBACK_TRACING_HIP_RUNTIME_API); std::string_view op
//   = names[ROCPROFILER_CALLBACK_TRACING_HIP_RUNTIME_API][id];
//   // the same: names.at(kind, id), names[kind].operations[id]
//   for (const auto& kind : names)            // kind.value, kind.name
//     for (auto [op, name] : kind.items())    // name: const std::string_view*
//
// Names are std::string_view by default (callback_name_info_t<std::string>
// or <const char*> hold other types). An entry exists for every kind value
// from 0 to the largest kind (NONE's name is "NONE", as the library names
// it; it has no operations), and in a kind for every
// operation number from 0 to its largest operation; a number that is no
// operation of the kind (NONE of the kinds numbered from 1) has an empty
// name. Indexing past them throws std::out_of_range (the lookups are
// std::vector::at). Header-only, C++17.
#ifndef ROCPROFILER_SDK_CXX_NAME_INFO_HPP_
#define ROCPROFILER_SDK_CXX_NAME_INFO_HPP_

#include <rocprofiler-sdk/buffer_tracing.h>
#include <rocprofiler-sdk/callback_tracing.h>
#include <rocprofiler-sdk/fwd.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace rocprofiler {
namespace sdk {
namespace utility {
namespace detail {

// How a name of type ValueT is made from the library's C string, and what a
// missing name is.
template <typename ValueT>
struct name_support {
  using return_type = ValueT;
  static ValueT empty() { return ValueT{}; }
  static ValueT from(const char* s) { return ValueT{s}; }
};

template <>
struct name_support<const char*> {
  using return_type = const char*;
  static const char* empty() { return ""; }
  static const char* from(const char* s) { return s; }
};

template <>
struct name_support<std::string> {
  using return_type = const std::string&;
  static std::string empty() { return std::string{}; }
  static std::string from(const char* s) { return std::string{s}; }
};

}  // namespace detail

// One kind: its value, its name, its operations' names.
template <typename EnumT, typename ValueT = std::string_view>
struct name_info_impl {
  using support_type = detail::name_support<ValueT>;
  using enum_type = EnumT;
  using value_type = ValueT;
  using return_type = typename support_type::return_type;
  // (operation number, its name)
  using item_type =
      std::pair<rocprofiler_tracing_operation_t, const value_type*>;
  using item_array_t = std::vector<item_type>;

  return_type operator()() const { return name; }
  return_type operator()(size_t idx) const { return operations.at(idx); }
  return_type operator[](size_t idx) const { return operations.at(idx); }

  // Every operation number with its name, in order.
  item_array_t items() const {
    item_array_t out;
    out.reserve(operations.size());
    for (size_t i = 0; i < operations.size(); ++i) {
      out.emplace_back(static_cast<rocprofiler_tracing_operation_t>(i),
                       &operations[i]);
    }
    return out;
  }

  EnumT value = static_cast<EnumT>(0);
  value_type name = support_type::empty();
  std::vector<value_type> operations = {};
};

// Every kind, indexed by its value.
template <typename EnumT, typename ValueT = std::string_view>
struct name_info {
  using value_type = name_info_impl<EnumT, ValueT>;
  using enum_type = EnumT;
  using support_type = typename value_type::support_type;
  using return_type = typename value_type::return_type;
  using item_type = const value_type*;
  using item_array_t = std::vector<item_type>;

  // Names kind `idx` (creating the entries up to it).
  void emplace(EnumT idx, const char* name) {
    value_type& v = grow(idx);
    v.name = support_type::from(name);
  }
  // Names operation `opidx` of kind `idx`.
  void emplace(EnumT idx, rocprofiler_tracing_operation_t opidx,
               const char* name) {
    if (opidx < 0) return;
    value_type& v = grow(idx);
    const auto op = static_cast<size_t>(opidx);
    if (v.operations.size() <= op) {
      v.operations.resize(op + 1, support_type::empty());
    }
    v.operations.at(op) = support_type::from(name);
  }

  return_type at(EnumT idx) const { return impl.at(index(idx)).name; }
  return_type at(EnumT idx, rocprofiler_tracing_operation_t opidx) const {
    return impl.at(index(idx)).operations.at(static_cast<size_t>(opidx));
  }

  // Every kind entry, in value order.
  item_array_t items() const {
    item_array_t out;
    out.reserve(impl.size());
    for (const value_type& v : impl) out.emplace_back(&v);
    return out;
  }

  size_t size() const { return impl.size(); }
  typename std::vector<value_type>::iterator begin() { return impl.begin(); }
  typename std::vector<value_type>::const_iterator begin() const {
    return impl.begin();
  }
  typename std::vector<value_type>::iterator end() { return impl.end(); }
  typename std::vector<value_type>::const_iterator end() const {
    return impl.end();
  }

  value_type& operator[](size_t idx) { return impl.at(idx); }
  const value_type& operator[](size_t idx) const { return impl.at(idx); }

 private:
  // A negative kind becomes a huge index: at() throws, as past the end.
  static size_t index(EnumT idx) {
    return static_cast<size_t>(static_cast<int64_t>(idx));
  }
  value_type& grow(EnumT idx) {
    const size_t i = index(idx);
    for (size_t k = impl.size(); k <= i; ++k) {
      impl.emplace_back();
      impl.back().value = static_cast<EnumT>(k);
    }
    return impl.at(i);
  }

  std::vector<value_type> impl = {};
};

}  // namespace utility

template <typename Tp = std::string_view>
using callback_name_info_t =
    utility::name_info<rocprofiler_callback_tracing_kind_t, Tp>;
template <typename Tp = std::string_view>
using buffer_name_info_t =
    utility::name_info<rocprofiler_buffer_tracing_kind_t, Tp>;

using callback_name_info = callback_name_info_t<std::string_view>;
using buffer_name_info = buffer_name_info_t<std::string_view>;

namespace utility {

// Every kind's name and its operations' names, as the library answers them:
// one walk for the callback and the buffer services, which differ only in
// their kind type and their four query functions.
template <typename InfoT, typename KindT, auto kIterateKinds, auto kKindName,
          auto kIterateOperations, auto kOperationName>
InfoT collect_names(KindT none) {
  InfoT info;
  info.emplace(none, "");
  kIterateKinds(
      [](KindT kind, void* data) {
        auto* names = static_cast<InfoT*>(data);
        const char* name = nullptr;
        if (kKindName(kind, &name, nullptr) == ROCPROFILER_STATUS_SUCCESS &&
            name != nullptr) {
          names->emplace(kind, name);
        }
        kIterateOperations(
            kind,
            [](KindT k, int32_t op, void* d) {
              const char* op_name = nullptr;
              if (kOperationName(k, op, &op_name, nullptr) ==
                      ROCPROFILER_STATUS_SUCCESS &&
                  op_name != nullptr) {
                static_cast<InfoT*>(d)->emplace(k, op, op_name);
              }
              return 0;
            },
            names);
        return 0;
      },
      &info);
  return info;
}

}  // namespace utility

template <typename Tp = std::string_view>
callback_name_info_t<Tp> get_callback_tracing_names() {
  return utility::collect_names<
      callback_name_info_t<Tp>, rocprofiler_callback_tracing_kind_t,
      &rocprofiler_iterate_callback_tracing_kinds,
      &rocprofiler_query_callback_tracing_kind_name,
      &rocprofiler_iterate_callback_tracing_kind_operations,
      &rocprofiler_query_callback_tracing_kind_operation_name>(
      ROCPROFILER_CALLBACK_TRACING_NONE);
}

template <typename Tp = std::string_view>
buffer_name_info_t<Tp> get_buffer_tracing_names() {
  return utility::collect_names<
      buffer_name_info_t<Tp>, rocprofiler_buffer_tracing_kind_t,
      &rocprofiler_iterate_buffer_tracing_kinds,
      &rocprofiler_query_buffer_tracing_kind_name,
      &rocprofiler_iterate_buffer_tracing_kind_operations,
      &rocprofiler_query_buffer_tracing_kind_operation_name>(
      ROCPROFILER_BUFFER_TRACING_NONE);
}

}  // namespace sdk
}  // namespace rocprofiler

#endif  // ROCPROFILER_SDK_CXX_NAME_INFO_HPP_
