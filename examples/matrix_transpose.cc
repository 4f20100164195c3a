// The MatrixTranspose sample's HIP, HSA and rocTX calls with no tracing code
// at all: what a user's program looks like. `tools/run_sample.sh` runs it
// under `roctrace`, which injects the tracer from outside.
#include <hip/hip_runtime_api.h>
#include <hsa/hsa.h>
#include <roctx.h>

#include <cstdio>
#include <vector>

int main() {
  constexpr size_t kWidth = 64;
  constexpr size_t kBytes = kWidth * kWidth * sizeof(float);
  std::vector<float> matrix(kWidth * kWidth);
  for (size_t i = 0; i < matrix.size(); ++i) matrix[i] = static_cast<float>(i);

  roctxMark("before runtime initialisation");
  roctxRangePush("HSA");
  hsa_status_t hsa_status = hsa_init();
  uint16_t major = 0;
  hsa_status_t info_status =
      hsa_system_get_info(HSA_SYSTEM_INFO_VERSION_MAJOR, &major);
  std::printf("hsa_init: 0x%x, hsa_system_get_info: 0x%x\n",
              static_cast<unsigned>(hsa_status),
              static_cast<unsigned>(info_status));
  roctxRangePop();

  roctxRangePush("HIP");
  int device_count = -1;
  hipError_t count_status = hipGetDeviceCount(&device_count);
  std::printf("hipGetDeviceCount: %d (%s), %d device(s)\n",
              static_cast<int>(count_status), hipGetErrorString(count_status),
              device_count);
  float* device_matrix = nullptr;
  hipError_t malloc_status =
      hipMalloc(reinterpret_cast<void**>(&device_matrix), kBytes);
  hipError_t copy_status =
      hipMemcpy(device_matrix, matrix.data(), kBytes, hipMemcpyHostToDevice);
  hipError_t free_status = hipFree(device_matrix);
  std::printf("hipMalloc: %d, hipMemcpy: %d, hipFree: %d\n",
              static_cast<int>(malloc_status), static_cast<int>(copy_status),
              static_cast<int>(free_status));
  roctxRangePop();
  return 0;
}
