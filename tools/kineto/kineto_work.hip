// The GPU work Kineto traces in tools/kineto_check.sh: a kernel launched
// three times and copies host to device (from pageable and from pinned
// memory), device to device and device to host, built by hipcc into a shared
// library the driver calls. On softhsa the kernel runs its host twin below
// (exported by the library).
#include <hip/hip_runtime.h>
#include <hsa/hsa.h>

#include <cstdio>
#include <cstring>
#include <vector>

__global__ void kineto_scale(float* data, float factor, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) data[i] *= factor;
}

// The kernel's host twin: data at kernarg offset 0, factor at 8, n at 12;
// one call per workgroup.
extern "C" void softhsa_twin__Z12kineto_scalePffi(
    const void* kernarg, const hsa_kernel_dispatch_packet_t* packet,
    uint32_t wx, uint32_t, uint32_t) {
  const char* k = static_cast<const char*>(kernarg);
  float* data;
  float factor;
  int n;
  memcpy(&data, k, 8);
  memcpy(&factor, k + 8, 4);
  memcpy(&n, k + 12, 4);
  for (int lx = 0; lx < packet->workgroup_size_x; ++lx) {
    int i = wx * packet->workgroup_size_x + lx;
    if (i < n) data[i] *= factor;
  }
}

#define CHECK(call)                                          \
  do {                                                       \
    hipError_t e_ = (call);                                  \
    if (e_ != hipSuccess) {                                  \
      printf("FAIL %s: %s\n", #call, hipGetErrorString(e_)); \
      return 1;                                              \
    }                                                        \
  } while (0)

// Runs the work; 0 when every result is right.
extern "C" int kineto_work_run() {
  constexpr int kN = 1024;
  std::vector<float> host(kN), back(kN);
  for (int i = 0; i < kN; ++i) host[i] = static_cast<float>(i);
  float *a = nullptr, *b = nullptr;
  CHECK(hipMalloc(&a, kN * sizeof(float)));
  CHECK(hipMalloc(&b, kN * sizeof(float)));
  // From pageable memory HIP 5.2 writes small copies with the CPU (no HSA
  // copy to trace); from pinned memory it submits an HSA copy.
  CHECK(hipMemcpy(a, host.data(), kN * sizeof(float), hipMemcpyHostToDevice));
  float* pinned = nullptr;
  CHECK(hipHostMalloc(&pinned, kN * sizeof(float)));
  memcpy(pinned, host.data(), kN * sizeof(float));
  CHECK(hipMemcpy(a, pinned, kN * sizeof(float), hipMemcpyHostToDevice));
  CHECK(hipHostFree(pinned));
  for (int r = 0; r < 3; ++r) {
    hipLaunchKernelGGL(kineto_scale, dim3(kN / 256), dim3(256), 0, 0, a, 2.0f,
                       kN);
  }
  CHECK(hipGetLastError());
  CHECK(hipMemcpy(b, a, kN * sizeof(float), hipMemcpyDeviceToDevice));
  CHECK(hipMemcpy(back.data(), b, kN * sizeof(float), hipMemcpyDeviceToHost));
  CHECK(hipDeviceSynchronize());
  CHECK(hipFree(a));
  CHECK(hipFree(b));
  for (int i = 0; i < kN; ++i) {
    if (back[i] != 8.0f * i) {
      printf("WRONG element %d: %f\n", i, back[i]);
      return 1;
    }
  }
  return 0;
}

// Before tracing: brings HIP up (device discovery, code objects).
extern "C" int kineto_work_warm_up() {
  int count = 0;
  CHECK(hipGetDeviceCount(&count));
  float* p = nullptr;
  CHECK(hipMalloc(&p, 64));
  CHECK(hipFree(p));
  return count > 0 ? 0 : 1;
}
