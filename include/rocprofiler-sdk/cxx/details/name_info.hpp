// The definitions behind <rocprofiler-sdk/cxx/name_info.hpp>: in
// rocprofiler-sdk 1.0.0 this header holds the out-of-line members of the
// name tables and the get_*_tracing_names() functions, and includes
// name_info.hpp when included first. Here name_info.hpp holds everything,
// so including either header gives the same declarations. Header-only,
// C++17.
#ifndef ROCPROFILER_SDK_CXX_DETAILS_NAME_INFO_HPP_
#define ROCPROFILER_SDK_CXX_DETAILS_NAME_INFO_HPP_

#include <rocprofiler-sdk/cxx/name_info.hpp>

#endif  // ROCPROFILER_SDK_CXX_DETAILS_NAME_INFO_HPP_
