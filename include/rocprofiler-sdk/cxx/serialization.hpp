// cereal serialization of rocprofiler-sdk's types, as rocprofiler-sdk 1.0.0's
// <rocprofiler-sdk/cxx/serialization.hpp>: both halves, writing
// (serialization/save.hpp) and reading back (serialization/load.hpp).
//
//   cereal::JSONOutputArchive json{out};
//   json(cereal::make_nvp("record", *static_cast<
//       rocprofiler_buffer_tracing_kernel_dispatch_record_t*>(h->payload)));
//
// Needs cereal's headers (Debian: libcereal-dev). Header-only, C++17.
#ifndef ROCPROFILER_SDK_CXX_SERIALIZATION_HPP_
#define ROCPROFILER_SDK_CXX_SERIALIZATION_HPP_

#include <rocprofiler-sdk/cxx/serialization/load.hpp>
#include <rocprofiler-sdk/cxx/serialization/save.hpp>

#endif  // ROCPROFILER_SDK_CXX_SERIALIZATION_HPP_
