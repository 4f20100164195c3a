// A traced program that ends without tidying up: the pool is never closed
// and tracing is never disabled. Modes (how it ends):
//   joined       main returns after its workers finished;
//   exit_worker  a worker thread calls exit() after the others finished;
//   atexit       main returns, and an exit handler registered after the pool
//                was opened (so it runs before the tracer's) traces more;
//   running      main returns while its workers are inside traced calls;
//   _exit        main calls _exit() after its workers finished: no exit
//                handler runs, so records not yet delivered are lost;
//   execl, execve  main execs itself (same pid) after its workers finished,
//                through execl (variadic) or execve: the new image prints
//                "AFTER EXEC" and returns;
//   exec_fail    main's execv of a missing file fails; main traces more.
// In the exec modes the buffer callback prints the line below each time it
// runs (no exit handler runs in the old image): its last line before the
// new image's must count every call.
// In every mode but the last two, every traced call must reach the buffer
// callback (the tracer flushes open pools at exit). "running" must neither
// crash nor hang, nor deliver more records than calls were made.
//
// Prints, from an exit handler that runs after the tracer's own (for _exit,
// just before it):
//   CALLS <traced calls completed> RECORDS <records delivered>
#include <hsa/hsa.h>
#include <roctracer.h>
#include <roctracer_hsa.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <thread>
#include <vector>

#include "tests/intercept/exit_report.h"

namespace {

std::atomic<uint64_t> g_calls{0};
std::atomic<uint64_t> g_records{0};
std::atomic<bool> g_stop{false};

void OnCallback(uint32_t, uint32_t, const void* data, void*) {
  const auto* d = static_cast<const hsa_api_data_t*>(data);
  if (d->phase == ACTIVITY_API_PHASE_EXIT) g_calls.fetch_add(1);
}

bool g_report_each_buffer = false;

void OnBuffer(const char* begin, const char* end, void*) {
  g_records.fetch_add(static_cast<uint64_t>(end - begin) /
                      sizeof(activity_record_t));
  if (g_report_each_buffer) {
    WriteCallsAndRecords(g_calls.load(), g_records.load());
  }
}

// Registered before the pool is opened, so it runs after the tracer's own
// exit handler has flushed the pool.
void Report() { WriteCallsAndRecords(g_calls.load(), g_records.load()); }

void Work() {
  const char* text = nullptr;
  while (!g_stop.load(std::memory_order_relaxed)) {
    hsa_status_string(HSA_STATUS_ERROR, &text);
  }
}

// A fixed number of calls: several buffers' worth, the last one partly full.
void WorkCounted() {
  const char* text = nullptr;
  for (int i = 0; i < 1000; ++i) hsa_status_string(HSA_STATUS_ERROR, &text);
}

void RunCountedWorkers() {
  std::vector<std::thread> workers;
  for (int i = 0; i < 4; ++i) workers.emplace_back(&WorkCounted);
  for (std::thread& t : workers) t.join();
}

}  // namespace

int main(int argc, char** argv) {
  const char* mode = argc > 1 ? argv[1] : "";
  if (std::strcmp(mode, "after_exec") == 0) {
    (void)!write(STDOUT_FILENO, "AFTER EXEC\n", 11);
    return 0;
  }
  const bool exec = std::strcmp(mode, "execl") == 0 ||
                    std::strcmp(mode, "execve") == 0 ||
                    std::strcmp(mode, "exec_fail") == 0;
  g_report_each_buffer = exec;
  if (!exec) std::atexit(&Report);

  roctracer_properties_t properties{};
  properties.buffer_size = 0x1000;
  properties.buffer_callback_fun = &OnBuffer;
  if (roctracer_open_pool(&properties) != ROCTRACER_STATUS_SUCCESS ||
      roctracer_enable_op_callback(ACTIVITY_DOMAIN_HSA_API,
                                   HSA_API_ID_hsa_status_string, &OnCallback,
                                   nullptr) != ROCTRACER_STATUS_SUCCESS ||
      roctracer_enable_op_activity(ACTIVITY_DOMAIN_HSA_API,
                                   HSA_API_ID_hsa_status_string) !=
          ROCTRACER_STATUS_SUCCESS) {
    std::fprintf(stderr, "setup failed: %s\n", roctracer_error_string());
    return 2;
  }

  if (std::strcmp(mode, "joined") == 0) {
    RunCountedWorkers();
    return 0;
  }
  if (std::strcmp(mode, "exit_worker") == 0) {
    RunCountedWorkers();
    std::thread([] {
      WorkCounted();
      std::exit(0);
    }).join();
    return 3;  // not reached
  }
  if (std::strcmp(mode, "atexit") == 0) {
    std::atexit(&WorkCounted);
    RunCountedWorkers();
    return 0;
  }
  if (exec) {
    RunCountedWorkers();
    WorkCounted();  // main's part-filled buffer: delivered by no thread exit
    if (std::strcmp(mode, "execl") == 0) {
      execl("/proc/self/exe", argv[0], "after_exec",
            static_cast<char*>(nullptr));
    } else if (std::strcmp(mode, "execve") == 0) {
      char* const again[] = {argv[0], const_cast<char*>("after_exec"), nullptr};
      execve("/proc/self/exe", again, environ);
    } else {
      char* const none[] = {const_cast<char*>("/nonexistent/program"), nullptr};
      execv(none[0], none);
      // The process goes on; the pool was closed before the exec.
      WorkCounted();
      Report();
      return 0;
    }
    return 3;  // the exec failed
  }
  if (std::strcmp(mode, "_exit") == 0) {
    RunCountedWorkers();
    WorkCounted();  // main's own part-filled buffer is never delivered
    Report();
    _exit(0);
  }
  // running
  std::vector<std::thread> workers;
  for (int i = 0; i < 4; ++i) workers.emplace_back(&Work);
  // Return only once the workers are well inside their loops: on a loaded
  // machine a fixed sleep could end before any call was made.
  const auto deadline =
      std::chrono::steady_clock::now() + std::chrono::seconds(20);
  while (g_calls.load() < 4000 && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  for (std::thread& t : workers) t.detach();
  return 0;  // no close, no disable: the tracer cleans up at exit
}
