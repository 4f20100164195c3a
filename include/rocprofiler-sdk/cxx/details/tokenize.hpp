// String parsing helpers of rocprofiler-sdk's C++ headers
// (rocprofiler::sdk::parse), as rocprofiler-sdk 1.0.0 declares them in
// <rocprofiler-sdk/cxx/details/tokenize.hpp>. Header-only, C++17.
#ifndef ROCPROFILER_SDK_CXX_DETAILS_TOKENIZE_HPP_
#define ROCPROFILER_SDK_CXX_DETAILS_TOKENIZE_HPP_

#include <functional>
#include <sstream>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "rocprofiler-sdk/cxx/details/mpl.hpp"

namespace rocprofiler {
namespace sdk {
namespace parse {

// The value operator>> reads from the start of the text (Tp{} if none).
template <typename Tp>
inline Tp from_string(const std::string& str) {
  std::istringstream in{str};
  Tp value{};
  in >> value;
  return value;
}

template <typename Tp>
inline Tp from_string(const char* cstr) {
  return from_string<Tp>(std::string{cstr});
}

// The non-empty runs of `line` between any of the characters in
// `delimiters`, each passed through `predicate`, added to a ContainerT in
// order (appended to a sequence, inserted into a set).
template <typename ContainerT = std::vector<std::string>,
          typename ValueT = typename ContainerT::value_type,
          typename PredicateT = std::function<ValueT(ValueT&&)>>
inline ContainerT tokenize(
    std::string_view line, std::string_view delimiters = "\"',;: ",
    PredicateT&& predicate = [](ValueT&& s) -> ValueT { return s; }) {
  ContainerT result{};
  size_t pos = 0;
  while (pos < line.size()) {
    const size_t begin = line.find_first_not_of(delimiters, pos);
    if (begin == std::string_view::npos) break;
    size_t end = line.find_first_of(delimiters, begin);
    if (end == std::string_view::npos) end = line.size();
    ValueT token = ValueT{line.substr(begin, end - begin)};
    mpl::emplace(result, predicate(std::move(token)));
    pos = end;
  }
  return result;
}

// `line` split at each occurrence of any of the (multi-character)
// `delimiters`, the earliest first; empty pieces are kept, and the text after
// the last delimiter is the last piece.
template <typename ContainerT = std::vector<std::string>,
          typename DelimT = std::string_view,
          typename ValueT = typename ContainerT::value_type,
          typename PredicateT = ValueT (*)(DelimT&&)>
inline ContainerT tokenize(
    std::string_view line, const std::vector<DelimT>& delimiters,
    PredicateT&& predicate = [](DelimT&& s) -> ValueT { return ValueT{s}; }) {
  ContainerT result{};
  size_t start = 0;
  while (true) {
    size_t found = std::string_view::npos;
    size_t found_length = 0;
    for (const auto& delimiter : delimiters) {
      const std::string_view d{delimiter};
      if (d.empty()) continue;
      const size_t at = line.find(d, start);
      if (at != std::string_view::npos &&
          (found == std::string_view::npos || at < found)) {
        found = at;
        found_length = d.size();
      }
    }
    if (found == std::string_view::npos) {
      mpl::emplace(result, predicate(DelimT{line.substr(start)}));
      break;
    }
    mpl::emplace(result, predicate(DelimT{line.substr(start, found - start)}));
    start = found + found_length;
  }
  return result;
}

// `input` with each span that starts with `begin` and runs up to (not
// including) the next `end` after it (or is `begin` itself when `end` is
// empty) replaced by predicate(span).
template <typename PredicateT = std::function<std::string(const std::string&)>>
inline std::string str_transform(std::string_view input, std::string_view begin,
                                 std::string_view end, PredicateT&& predicate) {
  std::string result{input};
  size_t pos = 0;
  while (pos < result.size()) {
    const size_t span_begin = result.find(begin, pos);
    if (span_begin == std::string::npos) break;
    const size_t span_end = end.empty() ? span_begin + begin.size()
                                        : result.find(end, span_begin + 1);
    if (span_end == std::string::npos) break;
    const std::string span = result.substr(span_begin, span_end - span_begin);
    const std::string replaced = predicate(span);
    if (replaced != span) {
      result.replace(span_begin, span.size(), replaced);
      pos = span_begin + replaced.size();
    } else {
      pos = span_end;
    }
  }
  return result;
}

// `str` without the leading and trailing characters found in `characters`
// (a string made only of them is returned as it is).
inline std::string strip(std::string&& str, std::string_view characters) {
  const size_t first = str.find_first_not_of(characters);
  if (first == std::string::npos) return std::move(str);
  const size_t last = str.find_last_not_of(characters);
  return str.substr(first, last - first + 1);
}

}  // namespace parse
}  // namespace sdk
}  // namespace rocprofiler

#endif  // ROCPROFILER_SDK_CXX_DETAILS_TOKENIZE_HPP_
