// Process and thread IDs for activity records, cached per thread (gettid is a
// system call).
#ifndef RUNTIME_PLATFORM_THREAD_ID_H_
#define RUNTIME_PLATFORM_THREAD_ID_H_

#include <cstdint>

namespace roctracer::platform {

uint32_t ProcessId() noexcept;
uint32_t ThreadId() noexcept;

}  // namespace roctracer::platform

#endif  // RUNTIME_PLATFORM_THREAD_ID_H_
