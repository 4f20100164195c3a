// The kernel's CLOCK_BOOTTIME read directly: what the tracer's clock is held
// against in the clock tests (which may interpose clock_gettime themselves).
#ifndef TESTS_CORE_KERNEL_CLOCK_H_
#define TESTS_CORE_KERNEL_CLOCK_H_

#include <time.h>

#include <cstdint>

namespace roctracer::test {

inline uint64_t KernelNs() {
  timespec ts;
  clock_gettime(CLOCK_BOOTTIME, &ts);
  return static_cast<uint64_t>(ts.tv_sec) * 1000000000ull +
         static_cast<uint64_t>(ts.tv_nsec);
}

}  // namespace roctracer::test

#endif  // TESTS_CORE_KERNEL_CLOCK_H_
