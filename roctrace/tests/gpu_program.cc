// An HSA program for roctrace's kernel and copy traces, run on softhsa
// (//softhsa) with no tracing code: `gpu_program KERNELS N M F` loads the
// code object KERNELS, dispatches `count` N times and `roctest::touch` N
// times on one queue, makes M host-to-device copies and F symbol look-ups
// that fail (HSA_STATUS_ERROR_INVALID_SYMBOL_NAME), then checks the work
// was done. Exit 0 when everything ran.
#include <hsa/hsa.h>
#include <hsa/hsa_ext_amd.h>

#include <cstdio>
#include <cstdlib>
#include <vector>

#include "tests/softhsa/hsa_test_util.h"

int main(int argc, char** argv) {
  if (argc < 5) return 64;
  const long n = std::atol(argv[2]), m = std::atol(argv[3]),
             f = std::atol(argv[4]);
  if (hsa_init() != HSA_STATUS_SUCCESS) return 1;
  auto gpus = hsa_test::Agents(HSA_DEVICE_TYPE_GPU);
  auto cpus = hsa_test::Agents(HSA_DEVICE_TYPE_CPU);
  if (gpus.empty() || cpus.empty()) return 2;
  hsa_test::Loaded code;
  if (hsa_test::LoadFile(argv[1], gpus[0], &code) != HSA_STATUS_SUCCESS) {
    return 3;
  }
  const uint64_t count =
      hsa_test::KernelObject(code.executable, gpus[0], "count");
  const uint64_t touch = hsa_test::KernelObject(
      code.executable, gpus[0],
      "_ZN7roctest5touchEPKvPK28hsa_kernel_dispatch_packet_sjjj");
  if (count == 0 || touch == 0) return 4;
  for (long i = 0; i < f; ++i) {
    if (hsa_test::KernelObject(code.executable, gpus[0], "no_such_kernel")) {
      return 5;
    }
  }
  void* kernarg = nullptr;
  hsa_amd_memory_pool_allocate(hsa_test::KernargPool(), 64, 0, &kernarg);
  auto* counter = static_cast<uint64_t*>(std::calloc(1, sizeof(uint64_t)));
  *static_cast<uint64_t**>(kernarg) = counter;
  hsa_queue_t* q = nullptr;
  if (hsa_queue_create(gpus[0], 256, HSA_QUEUE_TYPE_MULTI, nullptr, nullptr, 0,
                       0, &q) != HSA_STATUS_SUCCESS) {
    return 6;
  }
  hsa_signal_t done;
  hsa_signal_create(2 * n + m, 0, nullptr, &done);
  for (long i = 0; i < n; ++i) {
    hsa_kernel_dispatch_packet_t a =
        hsa_test::DispatchPacket(count, kernarg, 4, 4, done);
    hsa_test::Submit(q, &a);
    hsa_kernel_dispatch_packet_t b =
        hsa_test::DispatchPacket(touch, kernarg, 1, 1, done);
    hsa_test::Submit(q, &b);
  }
  std::vector<char> src(4096, 'x'), dst(4096, 0);
  for (long i = 0; i < m; ++i) {
    if (hsa_amd_memory_async_copy(dst.data(), gpus[0], src.data(), cpus[0],
                                  1024 * (i % 4 + 1), 0, nullptr,
                                  done) != HSA_STATUS_SUCCESS) {
      return 7;
    }
  }
  hsa_signal_wait_scacquire(done, HSA_SIGNAL_CONDITION_EQ, 0, UINT64_MAX,
                            HSA_WAIT_STATE_BLOCKED);
  // One workgroup per `count` dispatch.
  const bool ok =
      *counter == static_cast<uint64_t>(n) && (m == 0 || dst[0] == 'x');
  std::printf("dispatches %ld, copies %ld, counter %llu\n", 2 * n, m,
              static_cast<unsigned long long>(*counter));
  hsa_signal_destroy(done);
  hsa_queue_destroy(q);
  hsa_amd_memory_pool_free(kernarg);
  std::free(counter);
  hsa_test::Unload(&code);
  hsa_shut_down();
  return ok ? 0 : 8;
}
