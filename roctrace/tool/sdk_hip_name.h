// The name a traced HIP function is written under: HIP >= 6's headers
// rename some functions by macro with an ABI suffix (`#define
// hipChooseDevice hipChooseDeviceR0600`), so a program built against them
// calls, and roctracer traces, the suffixed function. rocprofiler-sdk
// numbers such a call at the slot of the name before the rename, unless it
// has an operation of the suffixed name itself (hipGetDevicePropertiesR0600
// is one of its own), and rocprofv3 writes the call under the SDK's name.
#ifndef ROCTRACE_TOOL_SDK_HIP_NAME_H_
#define ROCTRACE_TOOL_SDK_HIP_NAME_H_

#include <string>
#include <unordered_set>

namespace roctrace {

// A HIP function renamed with an ABI suffix ("hip...R" and four digits):
// its name before the rename (hipChooseDeviceR0600 -> hipChooseDevice); ""
// for any other name.
std::string HipNameBeforeRename(const std::string& name);

// `name` as the SDK whose HIP runtime operations are `sdk_names` names it:
// the name before the rename when the SDK has that operation and not
// `name` itself; otherwise `name` (always, when `sdk_names` is empty: a
// process without the SDK's API).
std::string SdkHipName(const std::string& name,
                       const std::unordered_set<std::string>& sdk_names);

}  // namespace roctrace

#endif  // ROCTRACE_TOOL_SDK_HIP_NAME_H_
