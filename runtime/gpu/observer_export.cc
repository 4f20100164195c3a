#include "runtime/private/observer_export.h"

extern "C" bool roctracer_internal_gpu_add_observer(
    uint32_t abi_version, roctracer::gpu::Observer* observer) {
  if (abi_version != roctracer::gpu::kObserverAbiVersion) return false;
  if (!roctracer::gpu::AddObserver(observer)) return false;
  // A tool registered after executables were frozen still learns their
  // kernel symbols (roctrace's LDS_Block_Size needs them).
  roctracer::gpu::ReplayLoaded(observer);
  return true;
}

extern "C" void roctracer_internal_gpu_remove_observer(
    roctracer::gpu::Observer* observer) {
  roctracer::gpu::RemoveObserver(observer);
}
