// Tool registration state shared by the configuration functions.
#ifndef ROCPROFILER_SDK_IMPL_REGISTRATION_H_
#define ROCPROFILER_SDK_IMPL_REGISTRATION_H_

#include <cstdint>

namespace rocprofiler_sdk {

// True on the thread currently running a tool's initialize; *client is set
// to that tool's handle.
bool InToolInitialize(uint32_t* client) noexcept;

// True on the thread registering tools (running their rocprofiler_configure
// or initialize).
bool InToolRegistration() noexcept;

}  // namespace rocprofiler_sdk

#endif  // ROCPROFILER_SDK_IMPL_REGISTRATION_H_
