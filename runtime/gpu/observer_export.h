// The observer seam (gpu_events.h) for a tool outside libroctracer64.so.4:
// roctrace's libroctrace_tool.so registers its kernel-row observer through
// these two functions. They are exported under the private version node
// ROCTRACER_PRIVATE (runtime/capi/roctracer.map), never in a node ROCm's
// library has, and take the seam's layout version: Observer and the records
// are C++ types shared by both sides, so a tool built against another layout
// is refused instead of misreading them.
#ifndef RUNTIME_GPU_OBSERVER_EXPORT_H_
#define RUNTIME_GPU_OBSERVER_EXPORT_H_

#include <cstdint>

#include "runtime/gpu/gpu_events.h"

namespace roctracer::gpu {
// Raise on any change to Observer or to the structs it is given.
constexpr uint32_t kObserverAbiVersion = 2;
}  // namespace roctracer::gpu

extern "C" {
// AddObserver (gpu_events.h) when `abi_version` is kObserverAbiVersion, then
// ReplayLoaded (what is loaded now); false when the version differs or when
// every observer slot is taken.
__attribute__((visibility("default"))) bool roctracer_internal_gpu_add_observer(
    uint32_t abi_version, roctracer::gpu::Observer* observer);
// RemoveObserver: later calls skip `observer`; one already running may still
// be finishing, so the observer must stay valid.
__attribute__((visibility("default"))) void
roctracer_internal_gpu_remove_observer(roctracer::gpu::Observer* observer);
}

#endif  // RUNTIME_GPU_OBSERVER_EXPORT_H_
