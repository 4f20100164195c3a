// A HIP program on the stand-in HIP library (tests/gpu/standin_hip: HIP's
// entry points on the HSA API, for softhsa) with work on two created streams
// and the null stream. Each launch's grid width and each copy's size name
// the stream the work went to (1 stream a, 2 stream b, 3 the null stream), so
// a test can check every row's Stream_Id. The streams are created a then b
// and first used b then a: rocprofiler-sdk numbers streams as they are
// created. hipMemcpyAsync calls hipMemcpy inside the stand-in (through its
// PLT, so the tracer sees a nested HIP call that takes no stream).
//
// Usage: hip_streams_program KERNELS.so ROUNDS
#include <hip/hip_runtime_api.h>

#include <cstdio>
#include <cstdlib>
#include <vector>

namespace {

bool Check(hipError_t e, const char* what) {
  if (e != hipSuccess) std::fprintf(stderr, "%s: error %d\n", what, e);
  return e == hipSuccess;
}

hipError_t Launch(hipFunction_t f, unsigned int width, hipStream_t stream) {
  void* arg = nullptr;
  size_t size = sizeof(arg);
  void* extra[] = {HIP_LAUNCH_PARAM_BUFFER_POINTER, &arg,
                   HIP_LAUNCH_PARAM_BUFFER_SIZE, &size, HIP_LAUNCH_PARAM_END};
  return hipModuleLaunchKernel(f, width, 1, 1, 1, 1, 1, 0, stream, nullptr,
                               extra);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: %s KERNELS.so ROUNDS\n", argv[0]);
    return 2;
  }
  const int rounds = std::atoi(argv[2]);
  hipModule_t module = nullptr;
  hipFunction_t empty = nullptr;
  hipStream_t a = nullptr, b = nullptr;
  if (!Check(hipModuleLoad(&module, argv[1]), "hipModuleLoad") ||
      !Check(hipModuleGetFunction(&empty, module, "empty"),
             "hipModuleGetFunction") ||
      !Check(hipStreamCreate(&a), "hipStreamCreate") ||
      !Check(hipStreamCreateWithFlags(&b, hipStreamNonBlocking),
             "hipStreamCreateWithFlags")) {
    return 1;
  }
  const struct {
    hipStream_t stream;
    unsigned int tag;
  } order[] = {{b, 2}, {a, 1}, {nullptr, 3}};
  std::vector<char> host(4096, 'h'), device(4096, 'd');
  for (int r = 0; r < rounds; ++r) {
    for (const auto& s : order) {
      if (!Check(Launch(empty, s.tag, s.stream), "hipModuleLaunchKernel") ||
          !Check(hipMemcpyAsync(device.data(), host.data(), 1000 * s.tag,
                                hipMemcpyHostToDevice, s.stream),
                 "hipMemcpyAsync")) {
        return 1;
      }
    }
    if (!Check(hipDeviceSynchronize(), "hipDeviceSynchronize")) return 1;
  }
  if (!Check(hipStreamDestroy(a), "hipStreamDestroy") ||
      !Check(hipStreamDestroy(b), "hipStreamDestroy") ||
      !Check(hipModuleUnload(module), "hipModuleUnload")) {
    return 1;
  }
  return 0;
}
