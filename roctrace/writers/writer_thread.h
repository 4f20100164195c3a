// Runs one Writer on a thread of its own. The tool converts each delivered
// pool buffer once into a batch of events and hands the same (immutable)
// batch to every format's thread, so the formats are written in parallel and
// none of them on the pool's consumer thread. The queue is bounded: a writer
// that falls behind blocks Push, which holds the pool's consumer, which (the
// pool being lossless) makes the application wait; memory stays flat.
#ifndef ROCTRACE_WRITERS_WRITER_THREAD_H_
#define ROCTRACE_WRITERS_WRITER_THREAD_H_

#include <condition_variable>
#include <cstddef>
#include <deque>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include "roctrace/writers/event.h"

namespace roctrace {

using EventBatch = std::shared_ptr<const std::vector<ApiEvent>>;

// Batches whose memory is used again once every writer has released them,
// rather than a fresh 64 KiB allocation per pool buffer.
class BatchPool {
 public:
  // An empty batch with room for `events`; back in the pool when the last
  // reference to it goes (the pool may be gone by then).
  std::shared_ptr<std::vector<ApiEvent>> Take(size_t events);

 private:
  struct Free {
    std::mutex mutex;
    std::vector<std::unique_ptr<std::vector<ApiEvent>>> batches;
    size_t kept_bytes = 0;
  };
  std::shared_ptr<Free> free_ = std::make_shared<Free>();
};

class WriterThread {
 public:
  WriterThread(std::unique_ptr<Writer> writer, size_t max_queued_batches);
  // Finishes (with an empty RunInfo) if Finish was not called.
  ~WriterThread();
  WriterThread(const WriterThread&) = delete;
  WriterThread& operator=(const WriterThread&) = delete;

  // Queues a batch; blocks while `max_queued_batches` are waiting.
  void Push(EventBatch batch);
  // Queues a checkpoint after everything pushed so far (does not wait).
  void Checkpoint();
  // Writes everything queued, finishes the writer and joins the thread.
  void Finish(const RunInfo& info) {
    StartFinish(info);
    Join();
  }
  // Finish in two halves, so that several writers finish in parallel.
  void StartFinish(const RunInfo& info);
  void Join();

  // Only after Finish.
  const Writer& writer() const { return *writer_; }

 private:
  struct Item {
    EventBatch batch;  // null: a checkpoint
  };
  void Main();

  std::unique_ptr<Writer> writer_;
  const size_t max_queued_;
  std::mutex mutex_;
  std::condition_variable not_empty_, not_full_;
  std::deque<Item> queue_;
  bool finishing_ = false;
  RunInfo finish_info_;
  std::thread thread_;
};

}  // namespace roctrace

#endif  // ROCTRACE_WRITERS_WRITER_THREAD_H_
