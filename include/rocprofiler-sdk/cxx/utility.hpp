// Small formatting helpers of rocprofiler-sdk's C++ interface
// (rocprofiler::sdk::utility), as rocprofiler-sdk 1.0.0 declares them in
// <rocprofiler-sdk/cxx/utility.hpp>. Header-only, C++17.
#ifndef ROCPROFILER_SDK_CXX_UTILITY_HPP_
#define ROCPROFILER_SDK_CXX_UTILITY_HPP_

#include <cstddef>
#include <cstdint>
#include <iomanip>
#include <sstream>
#include <string>
#include <type_traits>

namespace rocprofiler {
namespace sdk {
namespace utility {

// "0x" then the value (a pointer's address, or an integer's bits as
// uintptr_t) in lower-case hexadecimal, zero-padded to `width` digits:
// as_hex(255, 4) is "0x00ff", as_hex(0) "0x0".
template <typename Tp>
std::string as_hex(Tp val, size_t width = 0) {
  uintptr_t bits = 0;
  if constexpr (std::is_pointer<Tp>::value) {
    bits = reinterpret_cast<uintptr_t>(val);
  } else {
    bits = static_cast<uintptr_t>(val);
  }
  std::ostringstream out;
  out << "0x" << std::hex << std::setfill('0')
      << std::setw(static_cast<int>(width)) << bits;
  return out.str();
}

}  // namespace utility
}  // namespace sdk
}  // namespace rocprofiler

#endif  // ROCPROFILER_SDK_CXX_UTILITY_HPP_
