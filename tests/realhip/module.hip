// Kernels from two code objects in one HIP program: its own (`iota`, from
// its fat binary) and `scale` from a code object file loaded at run time
// (hipModuleLoad, argv[1]). On softhsa each runs its host twin below. Also
// device variables of both: `offsets` through hipMemcpyToSymbol /
// FromSymbol, the module's `table` through hipModuleGetGlobal; and the
// module's kernels that use group (LDS) and private (scratch) memory.
// Prints "module: OK" when the results are right.
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

// reverse_blocks(int* data 0): each 256-item block reversed.
extern "C" void softhsa_twin_reverse_blocks(
    const void* k, const hsa_kernel_dispatch_packet_t* p, uint32_t wx,
    uint32_t, uint32_t) {
  int* data;
  memcpy(&data, k, 8);
  int* block = data + wx * p->workgroup_size_x;
  for (uint32_t i = 0; i < p->workgroup_size_x / 2; ++i) {
    int t = block[i];
    block[i] = block[p->workgroup_size_x - 1 - i];
    block[p->workgroup_size_x - 1 - i] = t;
  }
}

// pick(int* data 0, int which 8): data[i] = (which & 63) * (i + 1).
extern "C" void softhsa_twin_pick(const void* k,
                                  const hsa_kernel_dispatch_packet_t* p,
                                  uint32_t, uint32_t, uint32_t) {
  int* data;
  int which;
  memcpy(&data, k, 8);
  memcpy(&which, static_cast<const char*>(k) + 8, 4);
  for (uint32_t i = 0; i < p->workgroup_size_x; ++i) {
    data[i] = (which & 63) * static_cast<int>(i + 1);
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
  // The module's kernels with group (LDS) and private (scratch) memory.
  hipFunction_t reverse_blocks, pick;
  CHECK(hipModuleGetFunction(&reverse_blocks, module, "reverse_blocks"));
  CHECK(hipModuleGetFunction(&pick, module, "pick"));
  int* ints;
  int h_ints[512];
  for (int i = 0; i < 512; ++i) h_ints[i] = i;
  CHECK(hipMalloc(&ints, sizeof(h_ints)));
  CHECK(hipMemcpy(ints, h_ints, sizeof(h_ints), hipMemcpyHostToDevice));
  void* reverse_args[] = {&ints};
  CHECK(hipModuleLaunchKernel(reverse_blocks, 2, 1, 1, 256, 1, 1, 0, nullptr,
                              reverse_args, nullptr));
  CHECK(hipMemcpy(h_ints, ints, sizeof(h_ints), hipMemcpyDeviceToHost));
  if (h_ints[0] != 255 || h_ints[256] != 511) {
    printf("WRONG reverse_blocks: %d %d\n", h_ints[0], h_ints[256]);
    return 1;
  }
  int which = 5;
  void* pick_args[] = {&ints, &which};
  CHECK(hipModuleLaunchKernel(pick, 1, 1, 1, 64, 1, 1, 0, nullptr, pick_args,
                              nullptr));
  CHECK(hipMemcpy(h_ints, ints, 64 * sizeof(int), hipMemcpyDeviceToHost));
  if (h_ints[0] != 5 || h_ints[63] != 5 * 64) {
    printf("WRONG pick: %d %d\n", h_ints[0], h_ints[63]);
    return 1;
  }
  CHECK(hipFree(ints));
  CHECK(hipModuleUnload(module));
  CHECK(hipFree(d));
  printf("module: OK\n");
  return 0;
}
