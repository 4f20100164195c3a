// An HSA program for roctrace's kernel and copy traces, run on softhsa
// (//softhsa) with no tracing code: `gpu_program KERNELS N M F` loads the
// code object KERNELS (tests/gpu/gpu_kernels.cc), dispatches `stamp` N
// times and `gputest::scale` N times on one queue, makes M host-to-device
// copies and F symbol look-ups that fail
// (HSA_STATUS_ERROR_INVALID_SYMBOL_NAME), then checks the work was done. Exit 0
// when everything ran.
//
// Every dispatch has sizes of its own, from its submission index k = 0, 1,
// ... (stamp, scale, stamp, ...): workgroup (k % 128 + 1, 2, 3), grid the
// workgroup for stamp (one workgroup: it writes one result) and twice it in
// x and y for scale, group segment 64 * (k % 128 + 1) bytes, private
// segment 16 * (k % 128 + 1) bytes, so a trace shows which dispatch is
// which (roctrace_test.py computes the same, and the scratch allocations
// softhsa makes for them).
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
  const uint64_t stamp =
      hsa_test::KernelObject(code.executable, gpus[0], "stamp");
  const uint64_t scale = hsa_test::KernelObject(
      code.executable, gpus[0],
      "_ZN7gputest5scaleEPKvPK28hsa_kernel_dispatch_packet_sjjj");
  if (stamp == 0 || scale == 0) return 4;
  for (long i = 0; i < f; ++i) {
    if (hsa_test::KernelObject(code.executable, gpus[0], "no_such_kernel")) {
      return 5;
    }
  }
  void* kernarg = nullptr;
  hsa_amd_memory_pool_allocate(hsa_test::KernargPool(), 64, 0, &kernarg);
  // stamp's output: its start and end times, and 0 ns to spin.
  auto* times = static_cast<uint64_t*>(std::calloc(3, sizeof(uint64_t)));
  *static_cast<uint64_t**>(kernarg) = times;
  hsa_queue_t* q = nullptr;
  if (hsa_queue_create(gpus[0], 256, HSA_QUEUE_TYPE_MULTI, nullptr, nullptr, 0,
                       0, &q) != HSA_STATUS_SUCCESS) {
    return 6;
  }
  hsa_signal_t done;
  hsa_signal_create(2 * n + m, 0, nullptr, &done);
  long k = 0;
  auto submit = [&](uint64_t kernel, uint32_t grid_factor) {
    const uint32_t x = static_cast<uint32_t>(k++ % 128 + 1);
    hsa_kernel_dispatch_packet_t p = hsa_test::DispatchPacket(
        kernel, kernarg, x * grid_factor, static_cast<uint16_t>(x), done);
    p.setup = 3 << HSA_KERNEL_DISPATCH_PACKET_SETUP_DIMENSIONS;
    p.workgroup_size_y = 2;
    p.workgroup_size_z = 3;
    p.grid_size_y = 2 * grid_factor;
    p.grid_size_z = 3;
    p.group_segment_size = 64 * x;
    p.private_segment_size = 16 * x;
    hsa_test::Submit(q, &p);
  };
  for (long i = 0; i < n; ++i) {
    submit(stamp, 1);
    submit(scale, 2);
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
  const bool ok = (n == 0 || times[1] != 0) && (m == 0 || dst[0] == 'x');
  // Whether the runtime can report its scratch allocations to a tool: only
  // with ROCm >= 6.1 headers (the test expects scratch rows then).
  std::printf("dispatches %ld, copies %ld, scratch events %s\n", 2 * n, m,
#if __has_include(<hsa/hsa_amd_tool.h>)
              "reported"
#else
              "none"
#endif
  );
  hsa_signal_destroy(done);
  hsa_queue_destroy(q);
  hsa_amd_memory_pool_free(kernarg);
  std::free(times);
  hsa_test::Unload(&code);
  hsa_shut_down();
  return ok ? 0 : 8;
}
