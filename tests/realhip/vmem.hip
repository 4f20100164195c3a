// HIP's virtual memory and dma-buf functions on a runtime without either
// (softhsa reports no virtual memory API and no dma-buf export, as ROCR on
// a system without them): each call in the order an application makes
// them, its return code printed as "vmem NAME CODE". A call that fails
// must fail with an error HIP documents (release_hip_test checks), and be
// traced like any other HIP call.
#include <dlfcn.h>
#include <hip/hip_runtime.h>

#include <cstdio>

namespace {

void Report(const char* name, hipError_t status) {
  std::printf("vmem %s %d\n", name, static_cast<int>(status));
}

#define CALL(name, ...) Report(#name, name(__VA_ARGS__))

// HIP 7.2's dma-buf export of a device range (not in older HIPs' headers):
// found at run time, where the HIP loaded has it.
using GetHandleForAddressRange = hipError_t (*)(void*, hipDeviceptr_t, size_t,
                                                int, unsigned long long);
constexpr int kDmaBufFd = 1;  // hipMemRangeHandleTypeDmaBufFd

}  // namespace

int main() {
  constexpr size_t kSize = 2 << 20;
  hipMemAllocationProp prop{};
  prop.type = hipMemAllocationTypePinned;
  prop.location.type = hipMemLocationTypeDevice;
  prop.location.id = 0;
  size_t granularity = 0;
  CALL(hipMemGetAllocationGranularity, &granularity, &prop,
       hipMemAllocationGranularityMinimum);
  hipMemGenericAllocationHandle_t handle{};
  CALL(hipMemCreate, &handle, kSize, &prop, 0);
  void* va = nullptr;
  CALL(hipMemAddressReserve, &va, kSize, 0, nullptr, 0);
  CALL(hipMemMap, va, kSize, 0, handle, 0);
  hipMemAccessDesc access{};
  access.location = prop.location;
  access.flags = hipMemAccessFlagsProtReadWrite;
  CALL(hipMemSetAccess, va, kSize, &access, 1);
  int fd = -1;
  CALL(hipMemExportToShareableHandle, &fd, handle,
       hipMemHandleTypePosixFileDescriptor, 0);
  CALL(hipMemUnmap, va, kSize);
  CALL(hipMemRelease, handle);
  CALL(hipMemAddressFree, va, kSize);
  void* device = nullptr;
  if (hipMalloc(&device, kSize) != hipSuccess) return 1;
  auto get_handle = reinterpret_cast<GetHandleForAddressRange>(
      dlsym(RTLD_DEFAULT, "hipMemGetHandleForAddressRange"));
  if (get_handle != nullptr) {
    int dmabuf = -1;
    Report("hipMemGetHandleForAddressRange",
           get_handle(&dmabuf, reinterpret_cast<hipDeviceptr_t>(device), kSize,
                      kDmaBufFd, 0));
  }
  if (hipFree(device) != hipSuccess) return 1;
  std::printf("vmem: OK\n");
  return 0;
}
