// Type traits and container helpers of rocprofiler-sdk's C++ headers
// (rocprofiler::sdk::mpl), as rocprofiler-sdk 1.0.0 declares them in
// <rocprofiler-sdk/cxx/details/mpl.hpp>: the other helpers and tools use
// them to treat strings, containers and streamable types alike.
// Header-only, C++17.
#ifndef ROCPROFILER_SDK_CXX_DETAILS_MPL_HPP_
#define ROCPROFILER_SDK_CXX_DETAILS_MPL_HPP_

#include <cstddef>
#include <cstdint>
#include <iterator>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>

namespace rocprofiler {
namespace sdk {
namespace mpl {

// Tp without references, const/volatile, or array/function decay.
template <typename Tp>
struct unqualified_identity {
  using type = std::remove_cv_t<std::remove_reference_t<std::decay_t<Tp>>>;
};

template <typename Tp>
using unqualified_identity_t = typename unqualified_identity<Tp>::type;

template <typename Tp, typename Up>
struct is_same_unqualified_identity
    : std::is_same<unqualified_identity_t<Tp>, unqualified_identity_t<Up>> {};

// Whether Tp can hold a name given as const char* (value), the name's type
// as returned (return_type), the "no name" value (default_value()) and the
// conversion (operator()).
template <typename Tp>
struct string_support {
  using type = Tp;
  using return_type = void;
  static constexpr auto value = false;
  static constexpr void default_value() {}
};

template <>
struct string_support<const char*> {
  using type = const char*;
  using return_type = type;
  static constexpr auto value = true;
  static constexpr type default_value() { return nullptr; }
  type operator()(const char* val) const { return val; }
};

template <>
struct string_support<std::string_view> {
  using type = std::string_view;
  using return_type = type;
  static constexpr auto value = true;
  static constexpr type default_value() { return type{}; }
  type operator()(const char* val) const { return type{val}; }
};

template <>
struct string_support<std::string> {
  using type = std::string;
  using return_type = type;
  static constexpr auto value = true;
  static type default_value() { return type{}; }
  type operator()(const char* val) const { return type{val}; }
};

namespace impl {
template <typename Tp>
struct is_string_type : std::false_type {};
template <>
struct is_string_type<std::string> : std::true_type {};
template <>
struct is_string_type<char*> : std::true_type {};
template <>
struct is_string_type<const char*> : std::true_type {};
template <>
struct is_string_type<std::string_view> : std::true_type {};
}  // namespace impl

// std::string, std::string_view and C strings, however qualified.
template <typename Tp>
struct is_string_type : impl::is_string_type<unqualified_identity_t<Tp>> {};

// has_traits<Tp>(0) ... : whether Tp declares the member type (called with
// the int 0, as in 1.0.0).
template <typename Tp, typename = typename Tp::traits_type>
inline constexpr bool has_traits(int) {
  return true;
}
template <typename Tp>
inline constexpr bool has_traits(long) {
  return false;
}
template <typename Tp, typename = typename Tp::value_type>
inline constexpr bool has_value_type(int) {
  return true;
}
template <typename Tp>
inline constexpr bool has_value_type(long) {
  return false;
}
template <typename Tp, typename = typename Tp::key_type>
inline constexpr bool has_key_type(int) {
  return true;
}
template <typename Tp>
inline constexpr bool has_key_type(long) {
  return false;
}
template <typename Tp, typename = typename Tp::mapped_type>
inline constexpr bool has_mapped_type(int) {
  return true;
}
template <typename Tp>
inline constexpr bool has_mapped_type(long) {
  return false;
}

namespace impl {
template <typename Tp, typename = void>
struct has_empty : std::false_type {};
template <typename Tp>
struct has_empty<Tp, std::void_t<decltype(std::declval<Tp>().empty())>>
    : std::true_type {};
template <typename Tp, typename = void>
struct streamable : std::false_type {};
template <typename Tp>
struct streamable<Tp, std::void_t<decltype(std::declval<std::ostream&>()
                                           << std::declval<Tp>())>>
    : std::true_type {};
template <typename Tp, typename = void>
struct iterable : std::false_type {};
template <typename Tp>
struct iterable<Tp, std::void_t<decltype(std::begin(std::declval<Tp>())),
                                decltype(std::end(std::declval<Tp>()))>>
    : std::true_type {};
}  // namespace impl

// Trait objects: ::value, or call them.
template <typename Tp>
struct has_empty_member_function {
  static constexpr bool value = impl::has_empty<Tp>::value;
  constexpr bool operator()() const { return value; }
};

template <typename Tp>
struct can_stringify {
  static constexpr bool value = impl::streamable<Tp>::value;
  constexpr bool operator()() const { return value; }
};

template <typename Tp>
struct is_iterable {
  static constexpr bool value = impl::iterable<Tp>::value;
  constexpr bool operator()() const { return value; }
};

template <typename Tp>
using supports_ostream = can_stringify<Tp>;

// Whether the argument is empty: its empty() where it has one, a string's
// length, otherwise false.
template <typename ArgT>
inline bool is_empty(ArgT&& value) {
  using arg_type = unqualified_identity_t<ArgT>;
  if constexpr (has_empty_member_function<arg_type>::value) {
    return std::forward<ArgT>(value).empty();
  } else if constexpr (is_string_type<arg_type>::value) {
    return std::string_view{std::forward<ArgT>(value)}.empty();
  } else {
    return false;
  }
}

namespace impl {
template <typename ContainerT, typename... Args>
inline auto emplace(ContainerT& c, int, Args&&... args)
    -> decltype(c.emplace_back(std::forward<Args>(args)...)) {
  return c.emplace_back(std::forward<Args>(args)...);
}
template <typename ContainerT, typename... Args>
inline auto emplace(ContainerT& c, long, Args&&... args)
    -> decltype(c.emplace(std::forward<Args>(args)...)) {
  return c.emplace(std::forward<Args>(args)...);
}
template <typename ContainerT, typename ArgT>
inline auto reserve(ContainerT& c, int, ArgT n)
    -> decltype(c.reserve(n), bool()) {
  c.reserve(n);
  return true;
}
template <typename ContainerT, typename ArgT>
inline bool reserve(ContainerT&, long, ArgT) {
  return false;
}
}  // namespace impl

// Appends to a sequence (emplace_back) or inserts into a set or map
// (emplace).
template <typename ContainerT, typename... Args>
inline auto emplace(ContainerT& c, Args&&... args) {
  return impl::emplace(c, 0, std::forward<Args>(args)...);
}

// Reserves room where the container can; true if it could.
template <typename ContainerT, typename ArgT>
inline bool reserve(ContainerT& c, ArgT n) {
  return impl::reserve(c, 0, n);
}

// For static_assert in a branch that must not be instantiated.
template <typename Tp>
struct assert_false {
  static constexpr auto value = false;
};

}  // namespace mpl
}  // namespace sdk
}  // namespace rocprofiler

#endif  // ROCPROFILER_SDK_CXX_DETAILS_MPL_HPP_
