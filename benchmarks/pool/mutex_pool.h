// Baseline for comparison only: the design of the reference roctracer pool
// as described in ANCHORS.md (our own minimal rendition, not its code): one
// mutex taken for every record, a double buffer, a consumer thread calling
// the buffer callback, and a writer that blocks while the consumer still
// holds the other half.
#ifndef BENCHMARKS_POOL_MUTEX_POOL_H_
#define BENCHMARKS_POOL_MUTEX_POOL_H_

#include <condition_variable>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <thread>
#include <utility>

#include "runtime/pool/pool_types.h"

namespace roctracer {
namespace bench {

class MutexPool {
 public:
  MutexPool(size_t buffer_size, roctracer_buffer_callback_t callback, void* arg)
      : size_(buffer_size),
        callback_(callback),
        arg_(arg),
        active_(static_cast<char*>(std::malloc(buffer_size))),
        standby_(static_cast<char*>(std::malloc(buffer_size))),
        write_(active_),
        consumer_([this] { Consume(); }) {}

  ~MutexPool() {
    {
      std::unique_lock<std::mutex> lock(mu_);
      cv_.wait(lock, [this] { return !pending_; });
      stop_ = true;
    }
    cv_.notify_all();
    consumer_.join();
    if (write_ != active_) callback_(active_, write_, arg_);
    std::free(active_);
    std::free(standby_);
  }

  void Write(const activity_record_t& record) {
    std::unique_lock<std::mutex> lock(mu_);
    if (write_ + sizeof(record) > active_ + size_) {
      cv_.wait(lock, [this] { return !pending_; });
      std::swap(active_, standby_);
      pending_end_ = write_;
      pending_ = true;
      write_ = active_;
      cv_.notify_all();
    }
    std::memcpy(write_, &record, sizeof(record));
    write_ += sizeof(record);
  }

 private:
  void Consume() {
    std::unique_lock<std::mutex> lock(mu_);
    for (;;) {
      cv_.wait(lock, [this] { return pending_ || stop_; });
      if (!pending_) return;
      const char* begin = standby_;
      const char* end = pending_end_;
      lock.unlock();
      callback_(begin, end, arg_);
      lock.lock();
      pending_ = false;
      cv_.notify_all();
    }
  }

  const size_t size_;
  const roctracer_buffer_callback_t callback_;
  void* const arg_;
  std::mutex mu_;
  std::condition_variable cv_;
  char* active_;
  char* standby_;
  char* write_;
  char* pending_end_ = nullptr;
  bool pending_ = false;
  bool stop_ = false;
  std::thread consumer_;
};

}  // namespace bench
}  // namespace roctracer

#endif  // BENCHMARKS_POOL_MUTEX_POOL_H_
