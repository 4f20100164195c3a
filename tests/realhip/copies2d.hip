// 2D copies and fills between pitched device buffers, which HIP runs as its
// blit kernels (__amd_rocclr_copyBufferRect, its aligned variant,
// __amd_rocclr_fillBufferAligned2D): on softhsa their host twins. Prints
// "copies2d: OK" when every byte is right.
#include <hip/hip_runtime.h>

#include <cstdio>
#include <cstdlib>
#include <vector>

#define CHECK(call)                                                      \
  do {                                                                   \
    hipError_t e_ = (call);                                              \
    if (e_ != hipSuccess) {                                              \
      printf("FAIL %s: %s\n", #call, hipGetErrorString(e_));             \
      exit(1);                                                           \
    }                                                                    \
  } while (0)

int main() {
  // Pitches chosen by hand: hipMallocPitch needs image support.
  constexpr size_t kHostPitch = 64, kRows = 5;
  std::vector<unsigned char> host(kHostPitch * kRows), back(host.size());
  for (size_t i = 0; i < host.size(); ++i) host[i] = static_cast<unsigned char>(i * 7 + 1);
  int failures = 0;
  // (width, source pitch, destination pitch): unaligned rows, then rows
  // and pitches in 16-byte units (the aligned kernel).
  const size_t cases[][3] = {{37, 48, 40}, {32, 48, 32}};
  for (const auto& c : cases) {
    const size_t width = c[0], pitch_a = c[1], pitch_b = c[2];
    unsigned char *a, *b;
    CHECK(hipMalloc(&a, pitch_a * kRows));
    CHECK(hipMalloc(&b, pitch_b * kRows));
    CHECK(hipMemcpy2D(a, pitch_a, host.data(), kHostPitch, width, kRows,
                      hipMemcpyHostToDevice));
    CHECK(hipMemcpy2D(b, pitch_b, a, pitch_a, width, kRows,
                      hipMemcpyDeviceToDevice));
    CHECK(hipMemset2D(a, pitch_a, 0x5a, 11, 3));
    std::fill(back.begin(), back.end(), 0);
    CHECK(hipMemcpy2D(back.data(), kHostPitch, b, pitch_b, width, kRows,
                      hipMemcpyDeviceToHost));
    for (size_t y = 0; y < kRows; ++y) {
      for (size_t x = 0; x < width; ++x) {
        failures += back[y * kHostPitch + x] != host[y * kHostPitch + x];
      }
    }
    CHECK(hipMemcpy2D(back.data(), kHostPitch, a, pitch_a, width, kRows,
                      hipMemcpyDeviceToHost));
    for (size_t y = 0; y < kRows; ++y) {
      for (size_t x = 0; x < width; ++x) {
        unsigned char want =
            y < 3 && x < 11 ? 0x5a : host[y * kHostPitch + x];
        failures += back[y * kHostPitch + x] != want;
      }
    }
    CHECK(hipFree(a));
    CHECK(hipFree(b));
  }
  if (failures != 0) {
    printf("WRONG %d bytes\n", failures);
    return 1;
  }
  printf("copies2d: OK\n");
  return 0;
}
