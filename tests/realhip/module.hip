// Kernels from two code objects in one HIP program: its own (`iota`, from
// its fat binary) and `scale` from a code object file loaded at run time
// (hipModuleLoad, argv[1]). On softhsa each runs its host twin below. Also
// device variables of both: `offsets` through hipMemcpyToSymbol /
// FromSymbol, the module's `table` through hipModuleGetGlobal. Prints
// "module: OK" when the results are right.
#include <hip/hip_runtime.h>
#include <hsa/hsa.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>

__device__ int offsets[8];

__global__ void iota(float* data, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) data[i] = static_cast<float>(i);
}

namespace {

// One workgroup of a 1D kernel whose first two arguments are (float*, ...).
template <typename Body>
void Workgroup(const hsa_kernel_dispatch_packet_t* p, uint32_t wx, Body body) {
  for (uint32_t l = 0; l < p->workgroup_size_x; ++l) {
    body(static_cast<int>(wx * p->workgroup_size_x + l));
  }
}

}  // namespace

// iota(float* data 0, int n 8)
extern "C" void softhsa_twin__Z4iotaPfi(const void* k,
                                        const hsa_kernel_dispatch_packet_t* p,
                                        uint32_t wx, uint32_t, uint32_t) {
  float* data;
  int n;
  memcpy(&data, k, 8);
  memcpy(&n, static_cast<const char*>(k) + 8, 4);
  Workgroup(p, wx, [&](int i) {
    if (i < n) data[i] = static_cast<float>(i);
  });
}

// scale(float* data 0, float factor 8, int n 12)
extern "C" void softhsa_twin_scale(const void* k,
                                   const hsa_kernel_dispatch_packet_t* p,
                                   uint32_t wx, uint32_t, uint32_t) {
  float* data;
  float factor;
  int n;
  memcpy(&data, k, 8);
  memcpy(&factor, static_cast<const char*>(k) + 8, 4);
  memcpy(&n, static_cast<const char*>(k) + 12, 4);
  Workgroup(p, wx, [&](int i) {
    if (i < n) data[i] *= factor;
  });
}

#define CHECK(call)                                                      \
  do {                                                                   \
    hipError_t e_ = (call);                                              \
    if (e_ != hipSuccess) {                                              \
      printf("FAIL %s: %s\n", #call, hipGetErrorString(e_));             \
      exit(1);                                                           \
    }                                                                    \
  } while (0)

int main(int argc, char** argv) {
  if (argc != 2) {
    printf("usage: module CODE_OBJECT\n");
    return 2;
  }
  constexpr int kN = 1000;
  float* d;
  CHECK(hipMalloc(&d, kN * sizeof(float)));
  hipLaunchKernelGGL(iota, dim3((kN + 255) / 256), dim3(256), 0, 0, d, kN);
  CHECK(hipGetLastError());

  hipModule_t module;
  hipFunction_t scale;
  CHECK(hipModuleLoad(&module, argv[1]));
  CHECK(hipModuleGetFunction(&scale, module, "scale"));
  struct {
    float* data;
    float factor;
    int n;
  } args{d, 2.5f, kN};
  size_t size = sizeof(args);
  void* config[] = {HIP_LAUNCH_PARAM_BUFFER_POINTER, &args,
                    HIP_LAUNCH_PARAM_BUFFER_SIZE, &size, HIP_LAUNCH_PARAM_END};
  CHECK(hipModuleLaunchKernel(scale, (kN + 127) / 128, 1, 1, 128, 1, 1, 0,
                              nullptr, nullptr, config));
  float h[kN];
  CHECK(hipMemcpy(h, d, sizeof(h), hipMemcpyDeviceToHost));
  for (int i = 0; i < kN; ++i) {
    if (h[i] != 2.5f * i) {
      printf("WRONG element %d: %f\n", i, h[i]);
      return 1;
    }
  }
  // Device variables: the program's, by symbol; the module's, by name.
  int values[8] = {1, 2, 3, 4, 5, 6, 7, 8}, back[8] = {};
  CHECK(hipMemcpyToSymbol(HIP_SYMBOL(offsets), values, sizeof(values)));
  CHECK(hipMemcpyFromSymbol(back, HIP_SYMBOL(offsets), sizeof(back)));
  size_t offsets_size = 0;
  CHECK(hipGetSymbolSize(&offsets_size, HIP_SYMBOL(offsets)));
  hipDeviceptr_t table = nullptr;
  size_t table_size = 0;
  CHECK(hipModuleGetGlobal(&table, &table_size, module, "table"));
  CHECK(hipMemcpyHtoD(table, values, table_size));
  int table_back[4] = {};
  CHECK(hipMemcpyDtoH(table_back, table, sizeof(table_back)));
  if (back[7] != 8 || offsets_size != sizeof(values) || table_size != 16 ||
      table_back[3] != 4) {
    printf("WRONG device variables: %d %zu %zu %d\n", back[7], offsets_size,
           table_size, table_back[3]);
    return 1;
  }
  CHECK(hipModuleUnload(module));
  CHECK(hipFree(d));
  printf("module: OK\n");
  return 0;
}
