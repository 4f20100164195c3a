// Comparison operators for rocprofiler-sdk's handle types (two handles are
// equal when their `handle` fields are), so tools can compare them and keep
// them in ordered containers. Header-only, C++17.
#ifndef ROCPROFILER_SDK_CXX_OPERATORS_HPP_
#define ROCPROFILER_SDK_CXX_OPERATORS_HPP_

#include <rocprofiler-sdk/fwd.h>
#include <rocprofiler-sdk/internal_threading.h>

#define ROCPROFILER_CXX_HANDLE_OPERATORS_(TYPE)                        \
  inline bool operator==(TYPE lhs, TYPE rhs) {                         \
    return lhs.handle == rhs.handle;                                   \
  }                                                                    \
  inline bool operator!=(TYPE lhs, TYPE rhs) { return !(lhs == rhs); } \
  inline bool operator<(TYPE lhs, TYPE rhs) {                          \
    return lhs.handle < rhs.handle;                                    \
  }                                                                    \
  inline bool operator>(TYPE lhs, TYPE rhs) { return rhs < lhs; }      \
  inline bool operator<=(TYPE lhs, TYPE rhs) { return !(rhs < lhs); }  \
  inline bool operator>=(TYPE lhs, TYPE rhs) { return !(lhs < rhs); }

ROCPROFILER_CXX_HANDLE_OPERATORS_(rocprofiler_context_id_t)
ROCPROFILER_CXX_HANDLE_OPERATORS_(rocprofiler_buffer_id_t)
ROCPROFILER_CXX_HANDLE_OPERATORS_(rocprofiler_agent_id_t)
ROCPROFILER_CXX_HANDLE_OPERATORS_(rocprofiler_queue_id_t)
ROCPROFILER_CXX_HANDLE_OPERATORS_(rocprofiler_stream_id_t)
ROCPROFILER_CXX_HANDLE_OPERATORS_(rocprofiler_counter_id_t)
ROCPROFILER_CXX_HANDLE_OPERATORS_(rocprofiler_counter_config_id_t)
ROCPROFILER_CXX_HANDLE_OPERATORS_(rocprofiler_callback_thread_t)

#undef ROCPROFILER_CXX_HANDLE_OPERATORS_

inline bool operator==(rocprofiler_dim3_t lhs, rocprofiler_dim3_t rhs) {
  return lhs.x == rhs.x && lhs.y == rhs.y && lhs.z == rhs.z;
}
inline bool operator!=(rocprofiler_dim3_t lhs, rocprofiler_dim3_t rhs) {
  return !(lhs == rhs);
}

// Versions compare by major, then minor, then patch.
inline bool operator==(rocprofiler_version_triplet_t lhs,
                       rocprofiler_version_triplet_t rhs) {
  return lhs.major == rhs.major && lhs.minor == rhs.minor &&
         lhs.patch == rhs.patch;
}
inline bool operator!=(rocprofiler_version_triplet_t lhs,
                       rocprofiler_version_triplet_t rhs) {
  return !(lhs == rhs);
}
inline bool operator<(rocprofiler_version_triplet_t lhs,
                      rocprofiler_version_triplet_t rhs) {
  if (lhs.major != rhs.major) return lhs.major < rhs.major;
  if (lhs.minor != rhs.minor) return lhs.minor < rhs.minor;
  return lhs.patch < rhs.patch;
}
inline bool operator>(rocprofiler_version_triplet_t lhs,
                      rocprofiler_version_triplet_t rhs) {
  return rhs < lhs;
}
inline bool operator<=(rocprofiler_version_triplet_t lhs,
                       rocprofiler_version_triplet_t rhs) {
  return !(rhs < lhs);
}
inline bool operator>=(rocprofiler_version_triplet_t lhs,
                       rocprofiler_version_triplet_t rhs) {
  return !(lhs < rhs);
}

#endif  // ROCPROFILER_SDK_CXX_OPERATORS_HPP_
