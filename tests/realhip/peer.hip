// Two devices (softhsa with SOFTHSA_GPU_COUNT=2): an allocation on each, a
// peer copy between them, a kernel on the second. Prints "peer: OK" when
// the results are right.
#include <hip/hip_runtime.h>
#include <hsa/hsa.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>

__global__ void twice(int* data, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) data[i] *= 2;
}

// twice(int* data 0, int n 8)
extern "C" void softhsa_twin__Z5twicePii(const void* k,
                                        const hsa_kernel_dispatch_packet_t* p,
                                        uint32_t wx, uint32_t, uint32_t) {
  int* data;
  int n;
  memcpy(&data, k, 8);
  memcpy(&n, static_cast<const char*>(k) + 8, 4);
  for (uint32_t l = 0; l < p->workgroup_size_x; ++l) {
    int i = static_cast<int>(wx * p->workgroup_size_x + l);
    if (i < n) data[i] *= 2;
  }
}

#define CHECK(call)                                                      \
  do {                                                                   \
    hipError_t e_ = (call);                                              \
    if (e_ != hipSuccess) {                                              \
      printf("FAIL %s: %s\n", #call, hipGetErrorString(e_));             \
      exit(1);                                                           \
    }                                                                    \
  } while (0)

int main() {
  constexpr int kN = 1000;
  int count = 0;
  CHECK(hipGetDeviceCount(&count));
  if (count < 2) {
    printf("FAIL %d devices\n", count);
    return 1;
  }
  int host[kN], back[kN] = {};
  for (int i = 0; i < kN; ++i) host[i] = i;
  int *a, *b;
  CHECK(hipSetDevice(0));
  CHECK(hipMalloc(&a, sizeof(host)));
  CHECK(hipMemcpy(a, host, sizeof(host), hipMemcpyHostToDevice));
  CHECK(hipSetDevice(1));
  CHECK(hipMalloc(&b, sizeof(host)));
  CHECK(hipMemcpyPeer(b, 1, a, 0, sizeof(host)));
  hipLaunchKernelGGL(twice, dim3((kN + 255) / 256), dim3(256), 0, 0, b, kN);
  CHECK(hipGetLastError());
  CHECK(hipMemcpy(back, b, sizeof(back), hipMemcpyDeviceToHost));
  for (int i = 0; i < kN; ++i) {
    if (back[i] != 2 * i) {
      printf("WRONG element %d: %d\n", i, back[i]);
      return 1;
    }
  }
  CHECK(hipFree(b));
  CHECK(hipSetDevice(0));
  CHECK(hipFree(a));
  printf("peer: OK\n");
  return 0;
}
