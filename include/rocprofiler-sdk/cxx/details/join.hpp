// rocprofiler::sdk::join: one string from several values, as rocprofiler-sdk
// 1.0.0's <rocprofiler-sdk/cxx/details/join.hpp> declares it (the tools'
// argument and log formatting). Header-only, C++17, needing only
// <rocprofiler-sdk/cxx/details/mpl.hpp>.
//
// join(delimiter, values...): each value written to a stream (booleans as
// true/false), strings as they are (QuoteStrings: in double quotes),
// containers as "[a, b]" and maps as "[{k, v}, ...]" (config::array and
// config::pair, recursively; an empty container is ""), separated by the
// delimiter; an empty value (empty() true, or an empty string) adds no
// delimiter before it. The result is wrapped in the config's prefix and
// suffix, and is "" when no more than the delimiter's length was written.
// The delimiter may be a config, a string, a C string or a char;
// join({delimiter, prefix, suffix}, values...) takes the three as an array
// (and, as in 1.0.0, never quotes strings). quoted(value) is the value in
// double quotes ("" for an empty one).
#ifndef ROCPROFILER_SDK_CXX_DETAILS_JOIN_HPP_
#define ROCPROFILER_SDK_CXX_DETAILS_JOIN_HPP_

#include <array>
#include <cstddef>
#include <ios>
#include <rocprofiler-sdk/cxx/details/mpl.hpp>
#include <sstream>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>

namespace rocprofiler {
namespace sdk {
namespace join {

// Uses its arguments, so that nothing is "set but not used".
template <typename... ArgsT>
inline void consume_args(ArgsT&&...) {}

enum { NoQuoteStrings = 0x0, QuoteStrings = 0x1 };

// A delimiter with the prefix and suffix around the joined text; Idx tells
// the three uses apart (the whole, a container's items, a map entry's key
// and value).
template <size_t Idx>
struct triplet_config {
  static constexpr auto index() { return Idx; }
  std::string_view delimiter = {};
  std::string_view prefix = {};
  std::string_view suffix = {};
};

using generic_config = triplet_config<0>;
using array_config = triplet_config<1>;
using pair_config = triplet_config<2>;

struct config : generic_config {
  using format_flags_t = std::ios_base::fmtflags;
  using base_type = generic_config;

  config() = default;
  ~config() = default;
  config(const config&) = default;
  config(config&&) noexcept = default;
  config& operator=(const config&) = default;
  config& operator=(config&&) noexcept = default;

  // The delimiter alone.
  config(std::string_view delim) : base_type{delim} {}
  config(const char* const delim) : base_type{delim} {}
  // Any of the three parts, the others left at their defaults.
  config(generic_config whole) : base_type{whole} {}
  config(array_config items) : array{items} {}
  config(pair_config entry) : pair{entry} {}
  config(generic_config whole, array_config items)
      : base_type{whole}, array{items} {}
  config(generic_config whole, pair_config entry)
      : base_type{whole}, pair{entry} {}
  config(array_config items, pair_config entry) : array{items}, pair{entry} {}

  format_flags_t flags = std::ios_base::boolalpha;
  array_config array = {", ", "[", "]"};
  pair_config pair = {", ", "{", "}"};
};

namespace impl {

// `text` (pieces each led by `delim`) without its leading delimiter, inside
// prefix and suffix; "" when no more than a delimiter was written.
inline std::string wrap(const std::string& text, std::string_view delim,
                        std::string_view prefix, std::string_view suffix) {
  if (text.length() <= delim.length()) return std::string{};
  const bool leads = text.compare(0, delim.length(), delim) == 0;
  std::string out{prefix};
  out.append(text, leads ? delim.length() : 0, std::string::npos);
  out.append(suffix);
  return out;
}

// A type the join treats as a container of items (strings are not: they
// have a traits_type).
template <typename Tp>
constexpr bool is_container() {
  return mpl::is_iterable<Tp>::value && !mpl::has_traits<Tp>(0) &&
         (mpl::has_value_type<Tp>(0) ||
          (mpl::has_key_type<Tp>(0) && mpl::has_mapped_type<Tp>(0)));
}

// One value as the join writes it: a string, the text of a container, or
// the value itself for the stream.
template <int TraitT, typename ArgT>
inline decltype(auto) join_arg(config cfg, ArgT&& value) {
  using arg_type = mpl::unqualified_identity_t<ArgT>;
  if constexpr (mpl::is_string_type<arg_type>::value) {
    if constexpr (TraitT == QuoteStrings) {
      std::string out{"\""};
      out += std::string{std::forward<ArgT>(value)};
      out += '"';
      return out;
    } else {
      return std::forward<ArgT>(value);
    }
  } else if constexpr (is_container<arg_type>()) {
    std::stringstream ss;
    ss.setf(cfg.flags);
    if constexpr (mpl::has_key_type<arg_type>(0) &&
                  mpl::has_mapped_type<arg_type>(0)) {
      for (auto&& entry : value) {
        ss << cfg.array.delimiter << cfg.pair.prefix
           << join_arg<TraitT>(cfg, entry.first) << cfg.pair.delimiter
           << join_arg<TraitT>(cfg, entry.second) << cfg.pair.suffix;
      }
    } else {
      for (auto&& item : value) {
        ss << cfg.array.delimiter << join_arg<TraitT>(cfg, item);
      }
    }
    return wrap(ss.str(), cfg.array.delimiter, cfg.array.prefix,
                cfg.array.suffix);
  } else {
    static_assert(mpl::supports_ostream<ArgT>::value,
                  "rocprofiler::sdk::join: a value must be a string, a "
                  "container or writable to a std::ostream");
    return std::forward<ArgT>(value);
  }
}

}  // namespace impl

template <int TraitT = NoQuoteStrings, typename... Args>
auto join(config cfg, Args&&... args) {
  static_assert(std::is_trivially_copyable<config>::value,
                "rocprofiler::sdk::join::config must be trivially copyable");
  std::stringstream ss;
  ss.setf(cfg.flags);
  ((ss << (mpl::is_empty(args) ? std::string_view{} : cfg.delimiter)
       << impl::join_arg<TraitT>(cfg, args)),
   ...);
  return impl::wrap(ss.str(), cfg.delimiter, cfg.prefix, cfg.suffix);
}

template <int TraitT = NoQuoteStrings, typename... Args>
auto join(std::array<std::string_view, 3>&& parts, Args&&... args) {
  config cfg{};
  cfg.delimiter = parts.at(0);
  cfg.prefix = parts.at(1);
  cfg.suffix = parts.at(2);
  return join(cfg, std::forward<Args>(args)...);
}

template <
    int TraitT = NoQuoteStrings, typename DelimT, typename... Args,
    std::enable_if_t<!mpl::is_same_unqualified_identity<config, DelimT>::value,
                     int> = 0>
auto join(DelimT&& delim, Args&&... args) {
  using delim_type = mpl::unqualified_identity_t<DelimT>;
  if constexpr (std::is_constructible<config, delim_type>::value) {
    return join<TraitT>(config{std::forward<DelimT>(delim)},
                        std::forward<Args>(args)...);
  } else if constexpr (std::is_same<delim_type, char>::value) {
    const char text[2] = {delim, '\0'};
    config cfg{};
    cfg.delimiter = std::string_view{text, 1};
    return join<TraitT>(cfg, std::forward<Args>(args)...);
  } else {
    config cfg{};
    cfg.delimiter = std::string_view{delim};
    return join<TraitT>(cfg, std::forward<Args>(args)...);
  }
}

template <typename ArgT>
auto quoted(ArgT&& value) {
  config cfg{};
  cfg.prefix = "\"";
  cfg.suffix = "\"";
  return join(cfg, std::forward<ArgT>(value));
}

}  // namespace join
}  // namespace sdk
}  // namespace rocprofiler

#endif  // ROCPROFILER_SDK_CXX_DETAILS_JOIN_HPP_
