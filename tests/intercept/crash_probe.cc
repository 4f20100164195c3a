// A traced program that dies of SIGSEGV (a write through NULL), with the
// calls leading up to it traced. Usage: crash_probe MODE [RECORDS_FILE]
//   first_ms  5 hipGetErrorString calls and 1 hipGetErrorName call, then the
//             crash, within the first millisecond of main;
//   load      4 threads call hipGetErrorString without a pause; after 100 ms
//             main calls hipGetErrorName once and crashes while they run.
// With RECORDS_FILE the program is a roctracer client: a pool of its own,
// whose buffer callback appends each record's API name to the file (one a
// line); without, it traces nothing itself (roctrace traces it).
#include <fcntl.h>
#include <hip/hip_runtime_api.h>
#include <roctracer.h>
#include <roctracer_hip.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#include "hip_api_id.h"

namespace {

int g_records_fd = -1;

void OnBuffer(const char* begin, const char* end, void*) {
  for (auto* r = reinterpret_cast<const activity_record_t*>(begin);
       r < reinterpret_cast<const activity_record_t*>(end); ++r) {
    std::string line =
        roctracer_op_string(r->domain, r->op, r->kind) + std::string("\n");
    if (write(g_records_fd, line.data(), line.size()) < 0) _exit(97);
  }
}

void OpenPool(const char* path) {
  g_records_fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_APPEND, 0644);
  if (g_records_fd < 0) _exit(96);
  roctracer_properties_t props{};
  props.buffer_size = 4096;
  props.buffer_callback_fun = OnBuffer;
  roctracer_pool_t* pool = nullptr;
  if (roctracer_open_pool_expl(&props, &pool) != ROCTRACER_STATUS_SUCCESS)
    _exit(95);
  for (uint32_t op : {HIP_API_ID_hipGetErrorString, HIP_API_ID_hipGetErrorName})
    if (roctracer_enable_op_activity_expl(ACTIVITY_DOMAIN_HIP_API, op, pool) !=
        ROCTRACER_STATUS_SUCCESS)
      _exit(94);
}

[[noreturn]] void Crash() {
  volatile int* p = nullptr;
  *p = 1;
  _exit(93);  // not reached
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) return 2;
  const std::string mode = argv[1];
  if (argc > 2) OpenPool(argv[2]);
  if (mode == "first_ms") {
    for (int i = 0; i < 5; ++i) hipGetErrorString(hipErrorInvalidValue);
    hipGetErrorName(hipErrorInvalidValue);
    Crash();
  }
  if (mode == "load") {
    std::atomic<bool> started[4] = {};
    std::vector<std::thread> threads;
    for (int t = 0; t < 4; ++t) {
      threads.emplace_back([&started, t] {
        started[t].store(true);
        for (;;) hipGetErrorString(hipErrorInvalidValue);
      });
    }
    for (auto& s : started)
      while (!s.load()) std::this_thread::yield();
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    hipGetErrorName(hipErrorInvalidValue);
    Crash();
  }
  return 2;
}
