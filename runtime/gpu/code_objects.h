// The code objects and kernel symbols the runtime has loaded, for naming a
// dispatch by its kernel object. Kept from the application's executables:
// after hsa_executable_freeze its kernel symbols are read
// (hsa_executable_iterate_symbols) and its loaded code objects walked with
// the loader extension (hsa_ven_amd_loader 1.01); before
// hsa_executable_destroy they are forgotten. Loads and unloads go to the
// observers (gpu_events.h) as they happen.
#ifndef RUNTIME_GPU_CODE_OBJECTS_H_
#define RUNTIME_GPU_CODE_OBJECTS_H_

#include <hsa/hsa.h>

#include <cstddef>
#include <string>

namespace roctracer::gpu {

// The table slots (installed by gpu_tool.cc). Destroy first reports every
// completed operation, so dispatches of the executable's kernels still get
// their names.
hsa_status_t ExecutableFreeze(hsa_executable_t executable, const char* options);
hsa_status_t ExecutableDestroy(hsa_executable_t executable);

// The kernel's name (demangled, without ".kd") when `kernel_object` belongs
// to a loaded executable. Takes the tracker's mutex: not for the submission
// path.
bool KernelName(uint64_t kernel_object, std::string* name);

// A symbol name as records show it: a code object v3 ".kd" descriptor
// suffix removed, an Itanium-mangled name ("_Z...") demangled (left as is if
// it does not demangle).
std::string KernelDisplayName(const char* symbol_name);

// The runtime is shutting down: every executable is reported unloaded.
void UnloadAllCodeObjects();

}  // namespace roctracer::gpu

#endif  // RUNTIME_GPU_CODE_OBJECTS_H_
