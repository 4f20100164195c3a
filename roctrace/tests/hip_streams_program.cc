// A HIP program on the stand-in HIP library (tests/gpu/standin_hip: HIP's
// entry points on the HSA API, for softhsa) with work on two created streams
// and the null stream. Each launch's grid width and each copy's size name
// the stream the work went to (1 stream a, 2 stream b, 3 the null stream), so
// a test can check every row's Stream_Id. The streams are created a then b
// and first used b then a: rocprofiler-sdk numbers streams as they are
// created. hipMemcpyAsync calls hipMemcpy inside the stand-in (through its
// PLT, so the tracer sees a nested HIP call that takes no stream).
//
// With "client" as a third argument the program is also a roctracer client
// (as one with a profiler linked in is): it enables its own callback on
// every HIP API through the tracer it runs under (found with dlsym, not
// linked) and prints "client saw N stream creations" at the end.
//
// Each round is inside a rocTX range "round", and stream a's launch inside
// another, "launch on a" (for --kernel-rename).
//
// Usage: hip_streams_program KERNELS.so ROUNDS [client]
#include <dlfcn.h>
#include <hip/hip_runtime_api.h>
#include <roctx.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

namespace {

// roctracer's types, by value (this program does not include its headers).
using Callback = void (*)(uint32_t, uint32_t, const void*, void*);
using EnableDomainCallback = int (*)(uint32_t, Callback, void*);
using OpString = const char* (*)(uint32_t, uint32_t, uint32_t);
constexpr uint32_t kHipApiDomain = 3;  // ACTIVITY_DOMAIN_HIP_API
OpString g_op_string = nullptr;
int g_creations = 0;

void OnHip(uint32_t domain, uint32_t op, const void*, void*) {
  const char* name = g_op_string(domain, op, 0);
  // ENTER and EXIT: two calls per creation.
  if (name != nullptr && std::strncmp(name, "hipStreamCreate", 15) == 0) {
    ++g_creations;
  }
}

bool BecomeClient() {
  auto enable = reinterpret_cast<EnableDomainCallback>(
      dlsym(RTLD_DEFAULT, "roctracer_enable_domain_callback"));
  g_op_string =
      reinterpret_cast<OpString>(dlsym(RTLD_DEFAULT, "roctracer_op_string"));
  return enable != nullptr && g_op_string != nullptr &&
         enable(kHipApiDomain, &OnHip, nullptr) == 0;
}

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
  const bool client = argc == 4 && std::strcmp(argv[3], "client") == 0;
  if (argc != 3 && !client) {
    std::fprintf(stderr, "usage: %s KERNELS.so ROUNDS [client]\n", argv[0]);
    return 2;
  }
  if (client && !BecomeClient()) {
    std::fprintf(stderr, "no roctracer to be a client of\n");
    return 1;
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
    roctxRangePushA("round");
    for (const auto& s : order) {
      if (s.tag == 1) roctxRangePushA("launch on a");
      const hipError_t launched = Launch(empty, s.tag, s.stream);
      if (s.tag == 1) roctxRangePop();
      if (!Check(launched, "hipModuleLaunchKernel") ||
          !Check(hipMemcpyAsync(device.data(), host.data(), 1000 * s.tag,
                                hipMemcpyHostToDevice, s.stream),
                 "hipMemcpyAsync")) {
        return 1;
      }
    }
    roctxRangePop();
    if (!Check(hipDeviceSynchronize(), "hipDeviceSynchronize")) return 1;
  }
  if (!Check(hipStreamDestroy(a), "hipStreamDestroy") ||
      !Check(hipStreamDestroy(b), "hipStreamDestroy") ||
      !Check(hipModuleUnload(module), "hipModuleUnload")) {
    return 1;
  }
  if (client) std::printf("client saw %d stream creations\n", g_creations / 2);
  return 0;
}
