// The one clock of every timestamp the tracer produces. CLOCK_BOOTTIME: see
// roctracer_get_timestamp() in roctracer.h for why.
#ifndef RUNTIME_CLOCK_H_
#define RUNTIME_CLOCK_H_

#include <time.h>

#include <cstdint>

namespace roctracer {

inline uint64_t TimestampNs() noexcept {
  timespec ts;
  clock_gettime(CLOCK_BOOTTIME, &ts);
  return static_cast<uint64_t>(ts.tv_sec) * 1000000000ull +
         static_cast<uint64_t>(ts.tv_nsec);
}

}  // namespace roctracer

#endif  // RUNTIME_CLOCK_H_
