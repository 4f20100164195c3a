// Kernels a GPU compiler builds into an AMDGPU code object (hipcc
// --cuda-device-only): loaded through HSA by
// tests/softhsa:amdgpu_code_object_test and through hipModuleLoad by
// module.hip. `scale` has host twins there; `untwinned` has none; `table`
// is a device variable.
#include <hip/hip_runtime.h>

extern "C" __global__ void scale(float* data, float factor, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) data[i] *= factor;
}

__global__ void untwinned(int* out) { out[threadIdx.x] = 1; }

__device__ int table[4];
