// Kernels a GPU compiler builds into an AMDGPU code object (hipcc
// --cuda-device-only): loaded through HSA by
// tests/softhsa:amdgpu_code_object_test and through hipModuleLoad by
// module.hip. `scale`, `reverse_blocks` and `pick` have host twins there;
// `untwinned` has none; `table` is a device variable.
#include <hip/hip_runtime.h>

extern "C" __global__ void scale(float* data, float factor, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) data[i] *= factor;
}

__global__ void untwinned(int* out) { out[threadIdx.x] = 1; }

__device__ int table[4];

// LDS: a tile of the block in group memory (group_segment_fixed_size > 0).
extern "C" __global__ void reverse_blocks(int* data) {
  __shared__ int tile[256];
  tile[threadIdx.x] = data[blockIdx.x * 256 + threadIdx.x];
  __syncthreads();
  data[blockIdx.x * 256 + threadIdx.x] = tile[255 - threadIdx.x];
}

// Scratch: a per-work-item array indexed at run time lives in private
// memory (private_segment_fixed_size > 0).
extern "C" __global__ void pick(int* data, int which) {
  volatile int local[64];
  for (int i = 0; i < 64; ++i) local[i] = i * (threadIdx.x + 1);
  data[threadIdx.x] = local[which & 63];
}
