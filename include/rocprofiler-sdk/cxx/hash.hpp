// std::hash for rocprofiler-sdk's handle types (the hash of `handle`), so
// they can key unordered containers. Header-only, C++17.
#ifndef ROCPROFILER_SDK_CXX_HASH_HPP_
#define ROCPROFILER_SDK_CXX_HASH_HPP_

#include <rocprofiler-sdk/fwd.h>
#include <rocprofiler-sdk/internal_threading.h>

#include <cstddef>
#include <cstdint>
#include <functional>
#include <rocprofiler-sdk/cxx/operators.hpp>

#define ROCPROFILER_CXX_HANDLE_HASH_(TYPE)         \
  template <>                                      \
  struct hash<TYPE> {                              \
    size_t operator()(TYPE value) const noexcept { \
      return hash<uint64_t>{}(value.handle);       \
    }                                              \
  };

namespace std {
ROCPROFILER_CXX_HANDLE_HASH_(rocprofiler_context_id_t)
ROCPROFILER_CXX_HANDLE_HASH_(rocprofiler_buffer_id_t)
ROCPROFILER_CXX_HANDLE_HASH_(rocprofiler_agent_id_t)
ROCPROFILER_CXX_HANDLE_HASH_(rocprofiler_queue_id_t)
ROCPROFILER_CXX_HANDLE_HASH_(rocprofiler_stream_id_t)
ROCPROFILER_CXX_HANDLE_HASH_(rocprofiler_counter_id_t)
ROCPROFILER_CXX_HANDLE_HASH_(rocprofiler_counter_config_id_t)
ROCPROFILER_CXX_HANDLE_HASH_(rocprofiler_callback_thread_t)
}  // namespace std

#undef ROCPROFILER_CXX_HANDLE_HASH_

#endif  // ROCPROFILER_SDK_CXX_HASH_HPP_
