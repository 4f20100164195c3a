// A plain HIP/HSA/rocTX program with no tracing code, for roctrace's tests.
// Each mode makes a known number of calls, so the traces can be counted:
//   sample            hsa_init, hsa_system_get_info, hipGetDeviceCount,
//                     hipGetErrorString, rocTX mark + 2 nested ranges
//   threads T N       T threads x (N hipGetErrorString inside one pushed
//                     range); main joins them
//   exit_worker N     N calls, then a worker thread calls exit(3)
//   crash N           N calls, then SIGSEGV
//   wait_for_kill N   N calls, prints "ready" and sleeps until killed
//   loop N            N hipGetErrorString calls, prints ns per call
//   mark_loop N       a rocTX mark "start", then N hipGetErrorString calls
//   loop_alternating N  the same, the argument alternating between two
//                     values (no call repeats its last's arguments)
//   loop_threads T N  the same warm-up on the main thread, then T threads
//                     making N/T calls each at once; prints the wall ns per
//                     call of one thread (the loop's span over N/T)
//   pause N           N calls, roctxProfilerPause, N calls,
//                     roctxProfilerResume, N calls
//   cross_ranges N    N rocTX ranges, each started (roctxRangeStartA) on
//                     the main thread and stopped on another thread, which
//                     ends before the main thread's next call
//   unbalanced_pop    a pop with no open range, a pushed range "kept"
//                     around one call, then another pop with none open
//   bad_utf8          a mark and a pushed range whose messages are not
//                     UTF-8 ("bad\xff\xfe" and "\xc3(")
//   chdir DIR N       chdir(DIR), then N calls
//   for_ms MS         1000 calls per millisecond's sleep, for MS ms
//   close_fds FILE N  N calls, waits 0.5 s, closes every descriptor from 3
//                     up, opens FILE and writes "mine" to it, N calls,
//                     writes "mine" again
//   dup2_fds FILE N   as close_fds, but FILE is dup2'd over every open
//                     descriptor from 3 up instead of closing them
//   exec_self N M     N calls, then execv of itself (same pid) with
//                     "exec_self M 0 again": M calls in the new image
//   args              hipSetDevice(3), hipMalloc(&p, 4096), hipMemcpy(dst,
//                     src, 64, hipMemcpyHostToDevice), hipFree(NULL),
//                     hsa_system_get_info(VERSION_MAJOR, &major); prints
//                     the addresses passed ("&p dst src &major", hex)
//   statuses          hsa_init, hsa_system_get_info(VERSION_MAJOR),
//                     hipSetDevice(3), hipGetLastError, hipFree(NULL),
//                     hipGetErrorString, hipGetDeviceCount; prints "name
//                     value" per call (decimal), hipGetErrorString's value
//                     the address of the string it returned
//   compiler_calls    __hipPushCallConfiguration then
//                     __hipPopCallConfiguration (the calls a kernel launch's
//                     <<<>>> makes: HIP's compiler API), then
//                     hipGetErrorString; prints both statuses
#include <fcntl.h>
#include <hip/hip_runtime_api.h>
#include <hsa/hsa.h>
#include <roctx.h>
#include <signal.h>
#include <unistd.h>

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <thread>
#include <vector>

#include "rocprofiler-sdk-roctx/roctx.h"

namespace {

void Calls(long n) {
  for (long i = 0; i < n; ++i) {
    const char* s = hipGetErrorString(hipSuccess);
    if (s == nullptr) std::abort();
  }
}

int Sample() {
  roctxMark("start");
  roctxRangePush("outer");
  roctxRangePush("inner");
  hsa_status_t status = hsa_init();
  uint16_t major = 0;
  hsa_system_get_info(HSA_SYSTEM_INFO_VERSION_MAJOR, &major);
  roctxRangePop();
  int count = -1;
  hipError_t count_status = hipGetDeviceCount(&count);
  std::printf("hsa_init 0x%x, hipGetDeviceCount %d, devices %d, %s\n",
              static_cast<unsigned>(status), static_cast<int>(count_status),
              count, hipGetErrorString(hipSuccess));
  roctxRangePop();
  return 0;
}

// The launch configuration's push and pop, as `kernel<<<...>>>` compiles
// to, without a kernel: libamdhip64's own entry points.
int CompilerCalls() {
  const hipError_t pushed =
      __hipPushCallConfiguration(dim3(2), dim3(64), 0, nullptr);
  dim3 grid, block;
  size_t shared = 0;
  hipStream_t stream = nullptr;
  const hipError_t popped =
      __hipPopCallConfiguration(&grid, &block, &shared, &stream);
  (void)hipGetErrorString(hipSuccess);
  std::printf("%d %d\n", static_cast<int>(pushed), static_cast<int>(popped));
  return 0;
}

}  // namespace

// Calls with known arguments, whose addresses the test reads from stdout.
int Args() {
  (void)hipSetDevice(3);
  void* p = nullptr;
  (void)hipMalloc(&p, 4096);
  static char src[64], dst[64];
  (void)hipMemcpy(dst, src, sizeof(src), hipMemcpyHostToDevice);
  (void)hipFree(nullptr);
  uint16_t major = 0;
  hsa_system_get_info(HSA_SYSTEM_INFO_VERSION_MAJOR, &major);
  std::printf("%p %p %p %p\n", static_cast<void*>(&p), static_cast<void*>(dst),
              static_cast<void*>(src), static_cast<void*>(&major));
  return 0;
}

// Calls whose statuses the test compares with the trace's. The HSA calls
// come first, before HIP's initialisation makes HSA calls of its own.
int Statuses() {
  const hsa_status_t init = hsa_init();
  uint16_t major = 0;
  const hsa_status_t info =
      hsa_system_get_info(HSA_SYSTEM_INFO_VERSION_MAJOR, &major);
  const hipError_t set = hipSetDevice(3);
  const hipError_t last = hipGetLastError();
  const hipError_t freed = hipFree(nullptr);
  const char* text = hipGetErrorString(hipErrorInvalidValue);
  int count = 0;
  const hipError_t counted = hipGetDeviceCount(&count);
  std::printf(
      "hsa_init %d\nhsa_system_get_info %d\nhipSetDevice %d\n"
      "hipGetLastError %d\nhipFree %d\nhipGetDeviceCount %d\n"
      "hipGetErrorString %llu\n",
      static_cast<int>(init), static_cast<int>(info), static_cast<int>(set),
      static_cast<int>(last), static_cast<int>(freed),
      static_cast<int>(counted),
      static_cast<unsigned long long>(reinterpret_cast<uintptr_t>(text)));
  return 0;
}

int main(int argc, char** argv) {
  if (argc < 2) return 64;
  const char* mode = argv[1];
  long n = argc > 2 ? std::atol(argv[2]) : 0;
  if (std::strcmp(mode, "sample") == 0) return Sample();
  if (std::strcmp(mode, "args") == 0) return Args();
  if (std::strcmp(mode, "statuses") == 0) return Statuses();
  if (std::strcmp(mode, "compiler_calls") == 0) return CompilerCalls();
  if (std::strcmp(mode, "threads") == 0) {
    long per_thread = argc > 3 ? std::atol(argv[3]) : 0;
    std::vector<std::thread> threads;
    for (long t = 0; t < n; ++t) {
      threads.emplace_back([per_thread] {
        roctxRangePush("worker");
        Calls(per_thread);
        roctxRangePop();
      });
    }
    for (auto& t : threads) t.join();
    return 0;
  }
  if (std::strcmp(mode, "exit_worker") == 0) {
    Calls(n);
    std::thread([] { std::exit(3); }).join();
    return 0;  // not reached
  }
  if (std::strcmp(mode, "crash") == 0) {
    Calls(n);
    std::fflush(stdout);
    raise(SIGSEGV);
    return 0;
  }
  if (std::strcmp(mode, "wait_for_kill") == 0) {
    Calls(n);
    std::printf("ready\n");
    std::fflush(stdout);
    while (true) pause();
  }
  if (std::strcmp(mode, "pause") == 0) {
    Calls(n);
    if (roctxProfilerPause(0) != 0) return 65;
    Calls(n);
    if (roctxProfilerResume(0) != 0) return 65;
    Calls(n);
    return 0;
  }
  if (std::strcmp(mode, "cross_ranges") == 0) {
    for (long i = 0; i < n; ++i) {
      roctx_range_id_t id = roctxRangeStartA("cross");
      std::thread([id] {
        Calls(1);
        roctxRangeStop(id);
      }).join();
      Calls(1);
    }
    return 0;
  }
  if (std::strcmp(mode, "unbalanced_pop") == 0) {
    if (roctxRangePop() != -1) return 66;
    roctxRangePushA("kept");
    Calls(1);
    if (roctxRangePop() != 0) return 66;
    if (roctxRangePop() != -1) return 66;
    return 0;
  }
  if (std::strcmp(mode, "bad_utf8") == 0) {
    roctxMarkA("bad\xff\xfe");
    roctxRangePushA("\xc3(");
    Calls(1);
    roctxRangePop();
    return 0;
  }
  if (std::strcmp(mode, "close_fds") == 0) {
    if (argc < 4) return 64;
    const long calls = std::atol(argv[3]);
    Calls(calls);
    // Time for a checkpoint: every writer has opened its files.
    std::this_thread::sleep_for(std::chrono::milliseconds(500));
    for (int fd = 3; fd < 4096; ++fd) close(fd);
    int own = open(argv[2], O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (own < 0 || write(own, "mine", 4) != 4) return 66;
    Calls(calls);
    // Time for a checkpoint: the writers write while the file is open.
    std::this_thread::sleep_for(std::chrono::milliseconds(500));
    if (write(own, "mine", 4) != 4) return 66;
    close(own);
    return 0;
  }
  if (std::strcmp(mode, "dup2_fds") == 0) {
    if (argc < 4) return 64;
    const long calls = std::atol(argv[3]);
    Calls(calls);
    std::this_thread::sleep_for(std::chrono::milliseconds(500));
    int own = open(argv[2], O_WRONLY | O_CREAT | O_TRUNC | O_APPEND, 0644);
    if (own < 0) return 66;
    for (int fd = 3; fd < 4096; ++fd) {
      if (fd != own && fcntl(fd, F_GETFD) != -1) dup2(own, fd);
    }
    if (write(own, "mine", 4) != 4) return 66;
    Calls(calls);
    std::this_thread::sleep_for(std::chrono::milliseconds(500));
    if (write(own, "mine", 4) != 4) return 66;
    return 0;
  }
  if (std::strcmp(mode, "exec_self") == 0) {
    if (argc < 4) return 64;
    Calls(n);
    if (argc > 4) return 0;  // the image after the exec
    char* const again[] = {argv[0],
                           const_cast<char*>("exec_self"),
                           argv[3],
                           const_cast<char*>("0"),
                           const_cast<char*>("again"),
                           nullptr};
    execv("/proc/self/exe", again);
    return 65;
  }
  if (std::strcmp(mode, "chdir") == 0) {
    if (argc < 4 || chdir(argv[2]) != 0) return 66;
    Calls(std::atol(argv[3]));
    return 0;
  }
  if (std::strcmp(mode, "for_ms") == 0) {
    const auto end =
        std::chrono::steady_clock::now() + std::chrono::milliseconds(n);
    while (std::chrono::steady_clock::now() < end) {
      Calls(1000);
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
    return 0;
  }
  if (std::strcmp(mode, "loop_alternating") == 0) {
    for (long i = 0; i < n; ++i) {
      const char* s =
          hipGetErrorString(i % 2 == 0 ? hipSuccess : hipErrorInvalidValue);
      if (s == nullptr) std::abort();
    }
    return 0;
  }
  if (std::strcmp(mode, "mark_loop") == 0) {
    roctxMark("start");
    Calls(n);
    return 0;
  }
  if (std::strcmp(mode, "loop") == 0) {
    Calls(n / 10 + 1);  // warm up (the clock calibrates in the first ~2 ms)
    auto start = std::chrono::steady_clock::now();
    Calls(n);
    auto ns = std::chrono::duration<double, std::nano>(
                  std::chrono::steady_clock::now() - start)
                  .count();
    std::printf("%.1f ns per call\n", ns / static_cast<double>(n));
    return 0;
  }
  if (std::strcmp(mode, "loop_threads") == 0) {
    long total = argc > 3 ? std::atol(argv[3]) : 0;
    if (n < 1) return 64;
    Calls(total / 10 + 1);
    const long per_thread = total / n;
    auto start = std::chrono::steady_clock::now();
    std::vector<std::thread> threads;
    for (long t = 0; t < n; ++t) threads.emplace_back(Calls, per_thread);
    for (auto& t : threads) t.join();
    auto ns = std::chrono::duration<double, std::nano>(
                  std::chrono::steady_clock::now() - start)
                  .count();
    std::printf("%.1f ns per call\n", ns / static_cast<double>(per_thread));
    return 0;
  }
  return 64;
}
