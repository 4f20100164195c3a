// Event timing: 300 pairs of events around a fill, a kernel or a copy on a
// stream; every hipEventElapsedTime must be in [0, 1 s). HIP computes some
// of them from host CLOCK_MONOTONIC times and some from the runtime's system
// timestamps, so they agree only when the system domain is that clock
// (softhsa: SOFTHSA_SYSTEM_CLOCK=monotonic). Prints "events: OK".
#include <hip/hip_runtime.h>
#include <hsa/hsa.h>

#include <cstdio>
#include <cstdlib>

__global__ void touch(int* p) { p[0] = 1; }

extern "C" void softhsa_twin__Z5touchPi(const void* k,
                                       const hsa_kernel_dispatch_packet_t*,
                                       uint32_t, uint32_t, uint32_t) {
  int* p;
  __builtin_memcpy(&p, k, sizeof(p));
  p[0] = 1;
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
  hipStream_t stream;
  CHECK(hipStreamCreate(&stream));
  int* device;
  void* host;
  CHECK(hipMalloc(&device, 4096));
  CHECK(hipHostMalloc(&host, 4096));
  int wrong = 0;
  for (int i = 0; i < 300; ++i) {
    hipEvent_t start, stop;
    CHECK(hipEventCreate(&start));
    CHECK(hipEventCreate(&stop));
    CHECK(hipEventRecord(start, stream));
    if (i % 3 == 0) CHECK(hipMemsetAsync(device, 0, 4096, stream));
    if (i % 3 == 1) hipLaunchKernelGGL(touch, 1, 1, 0, stream, device);
    if (i % 3 == 2) {
      CHECK(hipMemcpyAsync(device, host, 4096, hipMemcpyHostToDevice, stream));
    }
    CHECK(hipEventRecord(stop, stream));
    CHECK(hipEventSynchronize(stop));
    float ms = -1;
    CHECK(hipEventElapsedTime(&ms, start, stop));
    if (ms < 0 || ms >= 1000) {
      if (++wrong <= 3) printf("WRONG pair %d: %f ms\n", i, ms);
    }
    CHECK(hipEventDestroy(start));
    CHECK(hipEventDestroy(stop));
  }
  CHECK(hipFree(device));
  CHECK(hipHostFree(host));
  CHECK(hipStreamDestroy(stream));
  if (wrong != 0) {
    printf("WRONG %d of 300 elapsed times\n", wrong);
    return 1;
  }
  printf("events: OK\n");
  return 0;
}
