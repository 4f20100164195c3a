// Kernels whose code object (built with -g) codeobj_test disassembles with
// <rocprofiler-sdk/cxx/codeobj/code_printing.hpp>: scalar and vector
// instructions, memory operations, a loop and branches, source lines.
#include <hip/hip_runtime.h>

__global__ void saxpy(float a, const float* x, float* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i];
}

__global__ void weighted_sum(int* out, int n) {
  int sum = 0;
  for (int i = n; i > 0; --i) sum += i * out[i];
  out[0] = sum;
}

__global__ void block_reverse(float* data) {
  __shared__ float tile[64];
  int t = threadIdx.x;
  tile[t] = data[blockIdx.x * 64 + t];
  __syncthreads();
  data[blockIdx.x * 64 + t] = tile[63 - t];
}
