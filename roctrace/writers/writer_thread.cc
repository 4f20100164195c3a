#include "roctrace/writers/writer_thread.h"

#include <pthread.h>

#include <algorithm>
#include <cstring>

namespace roctrace {
namespace {

// Batches kept for reuse, in bytes of events: room for every batch the
// writers' queues can hold at the default buffer size (64 queued per format
// of 1024 events each), so that in a steady state none is allocated anew.
// Writing events into memory fresh from the allocator cost ~30 ns an event.
constexpr size_t kKeptBytes = 32 << 20;
// Batches queued before a waiting writer is woken (at most the queue's
// bound).
constexpr size_t kWakeBatches = 8;
// Events prefetched ahead of the one being written.
constexpr ptrdiff_t kAhead = 8;

}  // namespace

void EventList::reserve(size_t events) {
  if (events <= capacity_) return;
  std::unique_ptr<ApiEvent[], Free> bigger(static_cast<ApiEvent*>(
      ::operator new[](events * sizeof(ApiEvent), kAlign)));
  if (size_ != 0) {
    std::memcpy(bigger.get(), events_.get(), size_ * sizeof(ApiEvent));
  }
  events_ = std::move(bigger);
  capacity_ = events;
}

const DeviceWork* EventList::KeepDevice(const DeviceWork& d) {
  const size_t chunk = devices_used_ / kDevicesPerChunk;
  if (chunk == devices_.size()) {
    devices_.emplace_back(new DeviceWork[kDevicesPerChunk]);
  }
  DeviceWork* slot = &devices_[chunk][devices_used_ % kDevicesPerChunk];
  *slot = d;
  ++devices_used_;
  return slot;
}

void EventList::Publish() const {
#if defined(__SSE2__)
  _mm_sfence();
#endif
}

std::shared_ptr<EventList> BatchPool::Take(size_t events) {
  std::unique_ptr<EventList> batch;
  {
    std::lock_guard<std::mutex> lock(free_->mutex);
    if (!free_->batches.empty()) {
      batch = std::move(free_->batches.back());
      free_->batches.pop_back();
      free_->kept_bytes -= batch->held_bytes();
    }
  }
  if (batch == nullptr) batch = std::make_unique<EventList>();
  batch->reserve(events);
  std::shared_ptr<Free> free = free_;
  return std::shared_ptr<EventList>(batch.release(), [free](EventList* done) {
    std::unique_ptr<EventList> owned(done);
    owned->clear();
    const size_t bytes = owned->held_bytes();
    std::lock_guard<std::mutex> lock(free->mutex);
    if (free->kept_bytes + bytes <= kKeptBytes) {
      free->kept_bytes += bytes;
      free->batches.push_back(std::move(owned));
    }
  });
}

WriterThread::WriterThread(std::unique_ptr<Writer> writer,
                           size_t max_queued_batches)
    : writer_(std::move(writer)),
      max_queued_(max_queued_batches == 0 ? 1 : max_queued_batches),
      wake_batches_(std::min<size_t>(kWakeBatches, max_queued_)),
      resume_at_(max_queued_ / 2) {
  thread_ = std::thread([this] { Main(); });
}

WriterThread::~WriterThread() {
  if (thread_.joinable()) Finish(RunInfo());
}

void WriterThread::Push(EventBatch batch) {
  std::unique_lock<std::mutex> lock(mutex_);
  while (queue_.size() >= max_queued_) {
    pusher_waiting_ = true;
    not_full_.wait(lock);
  }
  queue_.push_back({std::move(batch)});
  // A writer that waits is woken once a few batches wait for it, not for
  // each: a wake-up costs both threads a few microseconds, one per buffer
  // was ~5% of a run's CPU. Checkpoints (every 200 ms) and Finish wake it
  // whatever is queued.
  const bool wake = queue_.size() >= wake_batches_;
  lock.unlock();
  if (wake) not_empty_.notify_one();
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

void Writer::WriteAll(const ApiEvent* begin, const ApiEvent* end) {
  for (; begin < end; ++begin) Write(*begin);
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
    // A full queue's pusher is woken once it has drained to half, not at
    // each batch taken: it then pushes several without waiting (a wake-up
    // a batch was a context switch pair a batch for both threads).
    const bool wake_pusher = pusher_waiting_ && queue_.size() <= resume_at_;
    if (wake_pusher) pusher_waiting_ = false;
    lock.unlock();
    if (wake_pusher) not_full_.notify_all();
    if (item.batch == nullptr) {
      writer_->Checkpoint();
    } else {
      // The batch was written on the consumer's core: asking for a few
      // events ahead overlaps those cache misses.
      // Runs of kAhead events through one WriteAll call each, the next
      // run's lines asked for first (an event spans two lines).
      const ApiEvent* e = item.batch->data();
      const ApiEvent* const end = e + item.batch->size();
      while (e < end) {
        const ApiEvent* const run_end = end - e > kAhead ? e + kAhead : end;
        const char* next = reinterpret_cast<const char*>(run_end);
        const char* const next_end = reinterpret_cast<const char*>(
            end - run_end > kAhead ? run_end + kAhead : end);
        if (next_end - next ==
            kAhead * static_cast<ptrdiff_t>(sizeof(ApiEvent))) {
          // A whole run (nearly always): its lines asked for without a loop.
#pragma GCC unroll 16
          for (ptrdiff_t i = 0;
               i < kAhead * static_cast<ptrdiff_t>(sizeof(ApiEvent)); i += 64) {
            __builtin_prefetch(next + i);
          }
        } else {
          for (; next < next_end; next += 64) __builtin_prefetch(next);
        }
        writer_->WriteAll(e, run_end);
        e = run_end;
      }
    }
    item.batch.reset();
    lock.lock();
  }
  RunInfo info = finish_info_;
  lock.unlock();
  writer_->Finish(info);
}

}  // namespace roctrace
