#include "softhsa/workers.h"

#include <pthread.h>

#include <atomic>
#include <condition_variable>
#include <cstdlib>
#include <mutex>
#include <thread>
#include <vector>

namespace softhsa {
namespace {

struct Job {
  uint64_t count;
  void (*body)(uint64_t, void*);
  void* ctx;
  std::atomic<uint64_t> next{0};
  std::atomic<uint64_t> done{0};
  int users = 0;  // workers holding the job; guarded by g_state_mutex
};

std::mutex g_mutex;        // serialises jobs (one dispatch at a time
std::mutex g_state_mutex;  // uses the workers) and guards the state
std::condition_variable& g_cv = *new std::condition_variable;
std::condition_variable& g_done_cv = *new std::condition_variable;
Job* g_job = nullptr;
uint64_t g_generation = 0;
bool g_stop = false;
std::vector<std::thread>& g_threads = *new std::vector<std::thread>;

size_t WorkerCount() {
  if (const char* e = getenv("SOFTHSA_WORKERS")) {
    char* end = nullptr;
    unsigned long n = strtoul(e, &end, 10);
    if (end != e && *end == '\0' && n <= 256) return n;
  }
  unsigned cores = std::thread::hardware_concurrency();
  return cores > 1 ? cores - 1 : 1;
}

void Drain(Job* job) {
  for (;;) {
    uint64_t i = job->next.fetch_add(1, std::memory_order_relaxed);
    if (i >= job->count) return;
    job->body(i, job->ctx);
    if (job->done.fetch_add(1, std::memory_order_acq_rel) + 1 == job->count) {
      std::lock_guard<std::mutex> lock(g_state_mutex);
      g_done_cv.notify_all();
    }
  }
}

void Work() {
  pthread_setname_np(pthread_self(), "softhsa-work");
  uint64_t seen = 0;
  for (;;) {
    Job* job;
    {
      std::unique_lock<std::mutex> lock(g_state_mutex);
      g_cv.wait(lock, [&] { return g_stop || g_generation != seen; });
      if (g_stop) return;
      seen = g_generation;
      job = g_job;
      if (job == nullptr) continue;
      ++job->users;
    }
    Drain(job);
    std::lock_guard<std::mutex> lock(g_state_mutex);
    if (--job->users == 0) g_done_cv.notify_all();
  }
}

}  // namespace

void ParallelFor(uint64_t count, void (*body)(uint64_t, void*), void* ctx) {
  if (count == 1) {
    body(0, ctx);
    return;
  }
  std::lock_guard<std::mutex> serial(g_mutex);
  Job job{count, body, ctx};
  {
    std::lock_guard<std::mutex> lock(g_state_mutex);
    if (g_threads.empty()) {
      g_stop = false;
      for (size_t i = 0, n = WorkerCount(); i < n; ++i) {
        g_threads.emplace_back(Work);
      }
    }
    g_job = &job;
    ++g_generation;
  }
  g_cv.notify_all();
  Drain(&job);
  std::unique_lock<std::mutex> lock(g_state_mutex);
  // The job lives on this stack: wait for the workers to let go of it too.
  g_done_cv.wait(lock, [&] {
    return job.done.load(std::memory_order_acquire) == job.count &&
           job.users == 0;
  });
  g_job = nullptr;
}

void StopWorkers() {
  std::vector<std::thread> threads;
  {
    std::lock_guard<std::mutex> lock(g_state_mutex);
    g_stop = true;
    threads.swap(g_threads);
  }
  g_cv.notify_all();
  for (auto& t : threads) t.join();
}

}  // namespace softhsa
