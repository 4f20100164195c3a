// Splitting a packed version number (as rocprofiler_configure receives it,
// 10000 * major + 100 * minor + patch) into a rocprofiler_version_triplet_t.
// Header-only, C++17.
#ifndef ROCPROFILER_SDK_CXX_VERSION_HPP_
#define ROCPROFILER_SDK_CXX_VERSION_HPP_

#include <rocprofiler-sdk/fwd.h>

#include <cstdint>

namespace rocprofiler {
namespace sdk {
namespace version {

// FactorV: the weight between two parts (100 for rocprofiler-sdk's).
template <uint64_t FactorV = 100>
constexpr rocprofiler_version_triplet_t compute_version_triplet(
    uint64_t version) {
  static_assert(FactorV > 1, "a factor above 1");
  return rocprofiler_version_triplet_t{
      static_cast<uint32_t>(version / (FactorV * FactorV)),
      static_cast<uint32_t>((version / FactorV) % FactorV),
      static_cast<uint32_t>(version % FactorV)};
}

}  // namespace version
}  // namespace sdk
}  // namespace rocprofiler

#endif  // ROCPROFILER_SDK_CXX_VERSION_HPP_
