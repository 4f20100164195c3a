#include "roctrace/writers/writer_thread.h"

#include <pthread.h>

namespace roctrace {

WriterThread::WriterThread(std::unique_ptr<Writer> writer,
                           size_t max_queued_batches)
    : writer_(std::move(writer)),
      max_queued_(max_queued_batches == 0 ? 1 : max_queued_batches) {
  thread_ = std::thread([this] { Main(); });
}

WriterThread::~WriterThread() {
  if (thread_.joinable()) Finish(RunInfo());
}

void WriterThread::Push(EventBatch batch) {
  std::unique_lock<std::mutex> lock(mutex_);
  not_full_.wait(lock, [this] { return queue_.size() < max_queued_; });
  queue_.push_back({std::move(batch)});
  lock.unlock();
  not_empty_.notify_one();
}

void WriterThread::Checkpoint() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    // A checkpoint never waits for room: the flusher must not stall behind
    // a slow writer (the checkpoint is one more item, not a batch).
    queue_.push_back({nullptr});
  }
  not_empty_.notify_one();
}

void WriterThread::StartFinish(const RunInfo& info) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (finishing_) return;
    finishing_ = true;
    finish_info_ = info;
  }
  not_empty_.notify_one();
}

void WriterThread::Join() {
  if (thread_.joinable()) thread_.join();
}

void WriterThread::Main() {
  pthread_setname_np(pthread_self(), "roctrace-write");
  std::unique_lock<std::mutex> lock(mutex_);
  while (true) {
    not_empty_.wait(lock, [this] { return !queue_.empty() || finishing_; });
    if (queue_.empty()) break;  // finishing, nothing left
    Item item = std::move(queue_.front());
    queue_.pop_front();
    lock.unlock();
    not_full_.notify_one();
    if (item.batch == nullptr) {
      writer_->Checkpoint();
    } else {
      for (const ApiEvent& e : *item.batch) writer_->Write(e);
    }
    item.batch.reset();
    lock.lock();
  }
  RunInfo info = finish_info_;
  lock.unlock();
  writer_->Finish(info);
}

}  // namespace roctrace
