// The observer seam (gpu_events.h) for a tool outside libroctracer64.so.4:
// roctrace's libroctrace_tool.so registers its kernel-row observer through
// these two functions. They are exported under the private version node
// ROCTRACER_PRIVATE (runtime/capi/roctracer.map), never in a node ROCm's
// library has, and take the seam's layout version: Observer and the records
// are C++ types shared by both sides, so a tool built against another layout
// is refused instead of misreading them.
#ifndef RUNTIME_PRIVATE_OBSERVER_EXPORT_H_
#define RUNTIME_PRIVATE_OBSERVER_EXPORT_H_

#include <cstdint>

#include "runtime/private/gpu_events.h"

namespace roctracer::gpu {
// Raise on any change to Observer or to the structs it is given.
constexpr uint32_t kObserverAbiVersion = 5;
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

// Streams (EnqueueInfo::stream), for a tool that numbers them in creation
// order (rocprofiler-sdk's rule) or traces only what names them: the APIs of
// `domain` that create a stream through an out-parameter (`created`: HIP's
// hipStreamCreate*) or else take one by value (the launches, async copies,
// ...), found by the generator from the headers. At most `capacity` of them
// are stored in `ops`; returns how many there are (0 for a domain without
// streams). EnqueueInfo::stream sees only calls that are traced (by
// activity or a callback).
__attribute__((visibility("default"))) uint32_t roctracer_internal_stream_ops(
    uint32_t domain, bool created, uint32_t* ops, uint32_t capacity);
// For such an op's callback data (roctracer_enable_op_callback): at the
// EXIT of a call that succeeded, the stream it created (read through the
// application's pointer, which may be invalid); false at ENTER, after a
// failed call and when there is none.
__attribute__((visibility("default"))) bool roctracer_internal_created_stream(
    uint32_t domain, uint32_t op, const void* data, uint64_t* stream);
}

#endif  // RUNTIME_PRIVATE_OBSERVER_EXPORT_H_
