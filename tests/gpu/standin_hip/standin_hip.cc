// A stand-in for libamdhip64, for tests: a few HIP entry points with HIP's
// signatures (the installed hip_runtime_api.h), implemented on the HSA API,
// so that HIP-level tracing (HIP_API calls and the HIP_OPS records of the
// device work they submit) runs on softhsa, where the real libamdhip64 finds
// no GPU. Built as libamdhip64.so.5 and loaded as HIP is: the tracer's HIP
// stubs forward to it.
//
// One device (the first kernel agent), one in-order queue for every stream
// (dispatches carry the barrier bit, as HIP's do): a created stream is a
// distinct handle (what a tracer sees of it), not a queue of its own.
// hipMemcpy and hipMemcpyAsync are runtime copies waited for; unlike HIP's
// they do not wait for earlier work on the stream (call hipDeviceSynchronize
// first). hipModuleLaunchKernel takes its
// arguments through `extra` (HIP_LAUNCH_PARAM_BUFFER_POINTER/SIZE) only.
#include <dlfcn.h>
#include <hip/hip_runtime_api.h>
#include <hsa/hsa.h>
#include <hsa/hsa_ext_amd.h>

#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "tests/softhsa/hsa_test_util.h"

struct ihipStream_t {
  unsigned int flags;
};

struct ihipModuleSymbol_t {
  uint64_t kernel_object;
};

// A module owns the functions found in it, as HIP's does.
struct ihipModule_t {
  hsa_test::Loaded loaded;
  std::mutex mutex;
  std::vector<std::unique_ptr<ihipModuleSymbol_t>> functions;
};

namespace {

constexpr uint32_t kQueueSize = 1024;
constexpr size_t kKernargBytes = 256;

struct Device {
  bool ok = false;
  hsa_agent_t gpu{0};
  hsa_agent_t cpu{0};
  hsa_queue_t* queue = nullptr;
  // Kernarg slots in submission order, as many as the queue has packets: a
  // slot is reused only once the queue has wrapped around.
  char* kernargs = nullptr;
  std::atomic<uint64_t> next_kernarg{0};
  ihipModule_t builtins;
  uint64_t fill_kernel = 0;
  std::mutex sync_mutex;
  hsa_signal_t sync_signal{0};
};

hipError_t LoadModule(const char* path, ihipModule_t* m, hsa_agent_t gpu) {
  const hsa_status_t s = hsa_test::LoadFile(path, gpu, &m->loaded);
  if (s == HSA_STATUS_ERROR_INVALID_FILE) return hipErrorFileNotFound;
  return s == HSA_STATUS_SUCCESS ? hipSuccess : hipErrorInvalidImage;
}

// The runtime's kernels live beside this library.
std::string BuiltinKernelsPath() {
  Dl_info info{};
  if (dladdr(reinterpret_cast<void*>(&LoadModule), &info) == 0 ||
      info.dli_fname == nullptr) {
    return "";
  }
  // Through links (Bazel's solib directory) to where the build put it.
  char* real = realpath(info.dli_fname, nullptr);
  std::string path = real != nullptr ? real : info.dli_fname;
  free(real);
  const size_t slash = path.rfind('/');
  path = slash == std::string::npos ? "" : path.substr(0, slash + 1);
  return path + "libstandin_hip_kernels.so";
}

// Initialised on the first HIP call, as HIP is.
Device* Dev() {
  static Device* device = [] {
    auto* d = new Device;
    if (hsa_init() != HSA_STATUS_SUCCESS) return d;
    auto gpus = hsa_test::Agents(HSA_DEVICE_TYPE_GPU);
    auto cpus = hsa_test::Agents(HSA_DEVICE_TYPE_CPU);
    if (gpus.empty() || cpus.empty()) return d;
    d->gpu = gpus[0];
    d->cpu = cpus[0];
    if (hsa_queue_create(d->gpu, kQueueSize, HSA_QUEUE_TYPE_MULTI, nullptr,
                         nullptr, UINT32_MAX, UINT32_MAX,
                         &d->queue) != HSA_STATUS_SUCCESS ||
        hsa_signal_create(0, 0, nullptr, &d->sync_signal) !=
            HSA_STATUS_SUCCESS) {
      return d;
    }
    d->kernargs = new char[kQueueSize * kKernargBytes];
    if (LoadModule(BuiltinKernelsPath().c_str(), &d->builtins, d->gpu) ==
        hipSuccess) {
      d->fill_kernel =
          hsa_test::KernelObject(d->builtins.loaded.executable, d->gpu,
                                 "__amd_rocclr_fillBufferAligned");
    }
    d->ok = d->fill_kernel != 0;
    return d;
  }();
  return device;
}

// Every packet carries the barrier bit: the queue is in order, as a HIP
// stream is.
uint16_t Header(hsa_packet_type_t type) {
  return hsa_test::Header(type, /*barrier=*/true);
}

void Dispatch(Device* d, uint64_t kernel, const uint32_t grid[3],
              const uint16_t block[3], const void* args, size_t bytes) {
  hsa_kernel_dispatch_packet_t p{};
  p.header = Header(HSA_PACKET_TYPE_KERNEL_DISPATCH);
  p.setup = 3 << HSA_KERNEL_DISPATCH_PACKET_SETUP_DIMENSIONS;
  p.workgroup_size_x = block[0];
  p.workgroup_size_y = block[1];
  p.workgroup_size_z = block[2];
  p.grid_size_x = grid[0];
  p.grid_size_y = grid[1];
  p.grid_size_z = grid[2];
  p.kernel_object = kernel;
  const uint64_t slot = d->next_kernarg.fetch_add(1) % kQueueSize;
  p.kernarg_address = d->kernargs + slot * kKernargBytes;
  if (bytes != 0) std::memcpy(p.kernarg_address, args, bytes);
  hsa_test::Submit(d->queue, &p);
}

}  // namespace

extern "C" {

hipError_t hipDeviceSynchronize(void) {
  Device* d = Dev();
  if (!d->ok) return hipErrorNoDevice;
  std::lock_guard<std::mutex> lock(d->sync_mutex);
  hsa_signal_store_screlease(d->sync_signal, 1);
  hsa_barrier_and_packet_t b{};
  b.header = Header(HSA_PACKET_TYPE_BARRIER_AND);
  b.completion_signal = d->sync_signal;
  hsa_test::Submit(d->queue, &b);
  hsa_signal_wait_scacquire(d->sync_signal, HSA_SIGNAL_CONDITION_EQ, 0,
                            UINT64_MAX, HSA_WAIT_STATE_BLOCKED);
  return hipSuccess;
}

hipError_t hipMemcpy(void* dst, const void* src, size_t sizeBytes,
                     hipMemcpyKind kind) {
  Device* d = Dev();
  if (!d->ok) return hipErrorNoDevice;
  if (sizeBytes == 0) return hipSuccess;
  if (dst == nullptr || src == nullptr) return hipErrorInvalidValue;
  const bool src_host =
      kind == hipMemcpyHostToDevice || kind == hipMemcpyHostToHost;
  const bool dst_host =
      kind == hipMemcpyDeviceToHost || kind == hipMemcpyHostToHost;
  hsa_signal_t done;
  if (hsa_signal_create(1, 0, nullptr, &done) != HSA_STATUS_SUCCESS) {
    return hipErrorOutOfMemory;
  }
  hipError_t result = hipSuccess;
  if (hsa_amd_memory_async_copy(dst, dst_host ? d->cpu : d->gpu, src,
                                src_host ? d->cpu : d->gpu, sizeBytes, 0,
                                nullptr, done) != HSA_STATUS_SUCCESS) {
    result = hipErrorInvalidValue;
  } else if (hsa_signal_wait_scacquire(done, HSA_SIGNAL_CONDITION_LT, 1,
                                       UINT64_MAX,
                                       HSA_WAIT_STATE_BLOCKED) != 0) {
    result = hipErrorLaunchFailure;
  }
  hsa_signal_destroy(done);
  return result;
}

hipError_t hipMemcpyAsync(void* dst, const void* src, size_t sizeBytes,
                          hipMemcpyKind kind, hipStream_t /*stream*/) {
  return hipMemcpy(dst, src, sizeBytes, kind);
}

hipError_t hipStreamCreateWithFlags(hipStream_t* stream, unsigned int flags) {
  if (!Dev()->ok) return hipErrorNoDevice;
  if (stream == nullptr) return hipErrorInvalidValue;
  *stream = new ihipStream_t{flags};
  return hipSuccess;
}

hipError_t hipStreamCreate(hipStream_t* stream) {
  return hipStreamCreateWithFlags(stream, hipStreamDefault);
}

hipError_t hipStreamDestroy(hipStream_t stream) {
  if (stream == nullptr) return hipErrorInvalidHandle;
  delete stream;
  return hipSuccess;
}

hipError_t hipMemsetAsync(void* dst, int value, size_t sizeBytes,
                          hipStream_t /*stream*/) {
  Device* d = Dev();
  if (!d->ok) return hipErrorNoDevice;
  if (dst == nullptr) return hipErrorInvalidValue;
  struct {
    void* dst;
    uint64_t bytes;
    int value;
  } args{dst, sizeBytes, value};
  const uint32_t grid[3] = {1, 1, 1};
  const uint16_t block[3] = {1, 1, 1};
  Dispatch(d, d->fill_kernel, grid, block, &args, sizeof(args));
  return hipSuccess;
}

hipError_t hipModuleLoad(hipModule_t* module, const char* fname) {
  Device* d = Dev();
  if (!d->ok) return hipErrorNoDevice;
  if (module == nullptr || fname == nullptr) return hipErrorInvalidValue;
  auto* m = new ihipModule_t;
  const hipError_t result = LoadModule(fname, m, d->gpu);
  if (result != hipSuccess) {
    (void)hipModuleUnload(m);
    return result;
  }
  *module = m;
  return hipSuccess;
}

hipError_t hipModuleUnload(hipModule_t module) {
  if (module == nullptr) return hipErrorInvalidValue;
  hsa_test::Unload(&module->loaded);
  delete module;
  return hipSuccess;
}

hipError_t hipModuleGetFunction(hipFunction_t* function, hipModule_t module,
                                const char* kname) {
  Device* d = Dev();
  if (!d->ok) return hipErrorNoDevice;
  if (function == nullptr || module == nullptr || kname == nullptr) {
    return hipErrorInvalidValue;
  }
  const uint64_t object =
      hsa_test::KernelObject(module->loaded.executable, d->gpu, kname);
  if (object == 0) return hipErrorNotFound;
  std::lock_guard<std::mutex> lock(module->mutex);
  module->functions.push_back(
      std::unique_ptr<ihipModuleSymbol_t>(new ihipModuleSymbol_t{object}));
  *function = module->functions.back().get();
  return hipSuccess;
}

hipError_t hipModuleLaunchKernel(hipFunction_t f, unsigned int gridDimX,
                                 unsigned int gridDimY, unsigned int gridDimZ,
                                 unsigned int blockDimX, unsigned int blockDimY,
                                 unsigned int blockDimZ,
                                 unsigned int /*sharedMemBytes*/,
                                 hipStream_t /*stream*/, void** kernelParams,
                                 void** extra) {
  Device* d = Dev();
  if (!d->ok) return hipErrorNoDevice;
  if (f == nullptr || kernelParams != nullptr) return hipErrorInvalidValue;
  const void* args = nullptr;
  size_t bytes = 0;
  for (void** e = extra; e != nullptr && *e != HIP_LAUNCH_PARAM_END; e += 2) {
    if (e[0] == HIP_LAUNCH_PARAM_BUFFER_POINTER) args = e[1];
    if (e[0] == HIP_LAUNCH_PARAM_BUFFER_SIZE) {
      bytes = *static_cast<const size_t*>(e[1]);
    }
  }
  if (bytes > kKernargBytes || (bytes != 0 && args == nullptr)) {
    return hipErrorInvalidValue;
  }
  const uint32_t grid[3] = {gridDimX * blockDimX, gridDimY * blockDimY,
                            gridDimZ * blockDimZ};
  const uint16_t block[3] = {static_cast<uint16_t>(blockDimX),
                             static_cast<uint16_t>(blockDimY),
                             static_cast<uint16_t>(blockDimZ)};
  Dispatch(d, f->kernel_object, grid, block, args, bytes);
  return hipSuccess;
}

}  // extern "C"
