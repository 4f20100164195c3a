// A traced program that ends without tidying up: the pool is never closed
// and tracing is never disabled. Modes (how it ends):
//   joined       main returns after its workers finished;
//   exit_worker  a worker thread calls exit() after the others finished;
//   atexit       main returns, and an exit handler registered after the pool
//                was opened (so it runs before the tracer's) traces more;
//   running      main returns while its workers are inside traced calls;
//   _exit        main calls _exit() after its workers finished: no exit
//                handler runs, so records not yet delivered are lost.
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

void OnBuffer(const char* begin, const char* end, void*) {
  g_records.fetch_add(static_cast<uint64_t>(end - begin) /
                      sizeof(activity_record_t));
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
  std::atexit(&Report);

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
