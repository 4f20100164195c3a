// A HIP program as users write it: a matrix transpose kernel, copies in
// every direction, fills, two streams with events. Built by hipcc for
// gfx90a (and the other processors tests/realhip runs it as); on softhsa the
// kernel runs its host twin below. Prints "transpose: OK" when every result
// is right, else what was wrong (exit 1).
#include <hip/hip_runtime.h>
#include <hsa/hsa.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

constexpr int kWidth = 96, kHeight = 64, kTile = 16;

__global__ void transpose(float* out, const float* in, int width, int height) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < width && y < height) out[x * height + y] = in[y * width + x];
}

// The kernel's host twin: its arguments where the kernarg segment holds
// them (out 0, in 8, width 16, height 20); one call per workgroup.
extern "C" void softhsa_twin__Z9transposePfPKfii(
    const void* kernarg, const hsa_kernel_dispatch_packet_t* packet,
    uint32_t wx, uint32_t wy, uint32_t) {
  const char* k = static_cast<const char*>(kernarg);
  float* out;
  const float* in;
  int width, height;
  memcpy(&out, k, 8);
  memcpy(&in, k + 8, 8);
  memcpy(&width, k + 16, 4);
  memcpy(&height, k + 20, 4);
  for (int ly = 0; ly < packet->workgroup_size_y; ++ly) {
    for (int lx = 0; lx < packet->workgroup_size_x; ++lx) {
      int x = wx * packet->workgroup_size_x + lx;
      int y = wy * packet->workgroup_size_y + ly;
      if (x < width && y < height) out[x * height + y] = in[y * width + x];
    }
  }
}

namespace {

int failures = 0;

#define CHECK(call)                                                      \
  do {                                                                   \
    hipError_t e_ = (call);                                              \
    if (e_ != hipSuccess) {                                              \
      printf("FAIL %s: %s\n", #call, hipGetErrorString(e_));             \
      exit(1);                                                           \
    }                                                                    \
  } while (0)

void Expect(bool ok, const char* what) {
  if (!ok) {
    printf("WRONG %s\n", what);
    ++failures;
  }
}

bool IsTransposed(const std::vector<float>& in, const std::vector<float>& out) {
  for (int y = 0; y < kHeight; ++y) {
    for (int x = 0; x < kWidth; ++x) {
      if (out[x * kHeight + y] != in[y * kWidth + x]) return false;
    }
  }
  return true;
}

void Launch(float* out, const float* in, hipStream_t stream) {
  hipLaunchKernelGGL(transpose, dim3(kWidth / kTile, kHeight / kTile),
                     dim3(kTile, kTile), 0, stream, out, in, kWidth, kHeight);
}

}  // namespace

int main() {
  const size_t n = kWidth * kHeight, bytes = n * sizeof(float);
  std::vector<float> in(n), out(n), back(n);
  for (size_t i = 0; i < n; ++i) in[i] = static_cast<float>(i) * 0.5f;

  // Synchronous: host to device, kernel, device to device, device to host.
  float *d_in, *d_out, *d_copy;
  CHECK(hipMalloc(&d_in, bytes));
  CHECK(hipMalloc(&d_out, bytes));
  CHECK(hipMalloc(&d_copy, bytes));
  CHECK(hipMemcpy(d_in, in.data(), bytes, hipMemcpyHostToDevice));
  Launch(d_out, d_in, 0);
  CHECK(hipGetLastError());
  CHECK(hipDeviceSynchronize());
  CHECK(hipMemcpy(d_copy, d_out, bytes, hipMemcpyDeviceToDevice));
  CHECK(hipMemcpy(out.data(), d_copy, bytes, hipMemcpyDeviceToHost));
  Expect(IsTransposed(in, out), "transpose through H2D, kernel, D2D, D2H");

  // Fills: bytes (odd count), 32-bit words, whole buffer.
  CHECK(hipMemset(d_copy, 0, bytes));
  CHECK(hipMemset(d_copy, 0xab, 13));
  CHECK(hipMemsetD32(reinterpret_cast<hipDeviceptr_t>(d_copy + 8), 0x01020304,
                     5));
  CHECK(hipMemcpy(back.data(), d_copy, bytes, hipMemcpyDeviceToHost));
  const auto* b = reinterpret_cast<const unsigned char*>(back.data());
  bool fill_ok = b[0] == 0xab && b[12] == 0xab && b[13] == 0 && b[31] == 0;
  uint32_t word;
  memcpy(&word, b + 32, 4);
  fill_ok &= word == 0x01020304;
  memcpy(&word, b + 48, 4);
  fill_ok &= word == 0x01020304;
  memcpy(&word, b + 52, 4);
  fill_ok &= word == 0 && back[n - 1] == 0;
  Expect(fill_ok, "hipMemset / hipMemsetD32");

  // Two streams, each: async copy in from pinned memory, kernel, async copy
  // out, timed by events.
  hipStream_t streams[2];
  hipEvent_t start[2], stop[2];
  float *pinned_in, *pinned_out[2], *d_s_in[2], *d_s_out[2];
  CHECK(hipHostMalloc(&pinned_in, bytes));
  memcpy(pinned_in, in.data(), bytes);
  for (int s = 0; s < 2; ++s) {
    CHECK(hipStreamCreate(&streams[s]));
    CHECK(hipEventCreate(&start[s]));
    CHECK(hipEventCreate(&stop[s]));
    CHECK(hipHostMalloc(&pinned_out[s], bytes));
    CHECK(hipMalloc(&d_s_in[s], bytes));
    CHECK(hipMalloc(&d_s_out[s], bytes));
  }
  for (int s = 0; s < 2; ++s) {
    CHECK(hipEventRecord(start[s], streams[s]));
    CHECK(hipMemcpyAsync(d_s_in[s], pinned_in, bytes, hipMemcpyHostToDevice,
                         streams[s]));
    CHECK(hipMemsetAsync(d_s_out[s], 0, bytes, streams[s]));
    Launch(d_s_out[s], d_s_in[s], streams[s]);
    CHECK(hipMemcpyAsync(pinned_out[s], d_s_out[s], bytes,
                         hipMemcpyDeviceToHost, streams[s]));
    CHECK(hipEventRecord(stop[s], streams[s]));
  }
  for (int s = 0; s < 2; ++s) {
    CHECK(hipEventSynchronize(stop[s]));
    float ms = -1;
    CHECK(hipEventElapsedTime(&ms, start[s], stop[s]));
    Expect(ms >= 0 && ms < 10000, "event elapsed time");
    CHECK(hipStreamSynchronize(streams[s]));
    Expect(IsTransposed(in, std::vector<float>(pinned_out[s],
                                               pinned_out[s] + n)),
           "transpose on a stream");
  }
  CHECK(hipDeviceSynchronize());

  for (int s = 0; s < 2; ++s) {
    CHECK(hipEventDestroy(start[s]));
    CHECK(hipEventDestroy(stop[s]));
    CHECK(hipStreamDestroy(streams[s]));
    CHECK(hipHostFree(pinned_out[s]));
    CHECK(hipFree(d_s_in[s]));
    CHECK(hipFree(d_s_out[s]));
  }
  CHECK(hipHostFree(pinned_in));
  CHECK(hipFree(d_in));
  CHECK(hipFree(d_out));
  CHECK(hipFree(d_copy));
  if (failures != 0) return 1;
  printf("transpose: OK\n");
  return 0;
}
