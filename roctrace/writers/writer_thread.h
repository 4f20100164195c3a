// Runs one Writer on a thread of its own. The tool converts each delivered
// pool buffer once into a batch of events and hands the same (immutable)
// batch to every format's thread, so the formats are written in parallel and
// none of them on the pool's consumer thread. The queue is bounded: a writer
// that falls behind blocks Push, which holds the pool's consumer, which (the
// pool being lossless) makes the application wait; memory stays flat.
#ifndef ROCTRACE_WRITERS_WRITER_THREAD_H_
#define ROCTRACE_WRITERS_WRITER_THREAD_H_

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <deque>
#include <memory>
#include <mutex>
#include <new>
#include <thread>
#include <type_traits>
#include <vector>

#include "roctrace/writers/event.h"

namespace roctrace {

// The events of one batch, in one block whose slots are left unwritten
// until an event is put there: `Append` writes each event once, with
// streaming stores. The block was last read by the writers on other cores;
// ordinary stores would first fetch every line back from their caches
// (measured: more than half of the consumer's CPU, stalled on those
// stores). Streaming stores write whole lines without reading them.
class EventList {
 public:
  EventList() = default;
  EventList(const EventList&) = delete;
  EventList& operator=(const EventList&) = delete;

  const ApiEvent* data() const { return events_.get(); }
  size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  size_t capacity() const { return capacity_; }
  // Bytes the list holds while kept for reuse: its events and the chunks
  // of device work.
  size_t held_bytes() const {
    return capacity_ * sizeof(ApiEvent) +
           devices_.size() * kDevicesPerChunk * sizeof(DeviceWork);
  }
  const ApiEvent& operator[](size_t i) const { return events_[i]; }
  const ApiEvent* begin() const { return data(); }
  const ApiEvent* end() const { return data() + size_; }

  // Room for `events` in all (what was appended is kept).
  void reserve(size_t events);
  void clear() {
    size_ = 0;
    devices_used_ = 0;
  }
  // Appends `e`, its times moved by `shift_ns` (the clock's test hook);
  // device work's fields are copied into the batch (`e.device` need only
  // last the call).
  void Append(const ApiEvent& e, uint64_t shift_ns) {
    if (__builtin_expect(IsDevice(e.op->category), 0)) {
      ApiEvent kept = e;
      kept.device = KeepDevice(*e.device);
      Store(kept, shift_ns);
      return;
    }
    Store(e, shift_ns);
  }
  // Appends an API call's event, made in its slot (StoreApiCallWords), its
  // times moved by `shift_ns`: what Append of that event would store.
  void AppendCall(const OpName* op, uint64_t correlation_id, uint64_t start_ns,
                  uint64_t end_ns, uint32_t pid, uint32_t tid, bool failed,
                  bool stream_known, uint32_t stream_id, int64_t retval,
                  const ApiArgs* args, uint64_t shift_ns) {
#if defined(__SSE2__)
    if (__builtin_expect(size_ == capacity_, 0)) reserve(capacity_ * 2 + 64);
    auto* dst = reinterpret_cast<__m128i*>(&events_[size_++]);
    StoreApiCallWords([dst](int i, __m128i w) { _mm_stream_si128(dst + i, w); },
                      op, correlation_id, start_ns + shift_ns,
                      end_ns + shift_ns, pid, tid, failed, stream_known,
                      stream_id, retval, args);
#else
    ApiEvent e{};
    e.op = op;
    e.correlation_id = correlation_id;
    e.start_ns = start_ns;
    e.end_ns = end_ns;
    e.pid = pid;
    e.tid = tid;
    e.failed = failed;
    e.stream_known = stream_known;
    e.stream_id = stream_id;
    e.retval = retval;
    e.args = args;
    Store(e, shift_ns);
#endif
  }
  // Makes the streaming stores visible to other threads before the batch
  // is handed to them.
  void Publish() const;

 private:
  // Slots aligned to a cache line, asked for explicitly (a streaming store
  // to an address not 16-byte aligned faults), left unwritten until
  // appended: a trivial type.
  static constexpr std::align_val_t kAlign{64};
  struct Free {
    void operator()(ApiEvent* p) const { ::operator delete[](p, kAlign); }
  };
  std::unique_ptr<ApiEvent[], Free> events_;
  size_t size_ = 0;
  size_t capacity_ = 0;
  // Device work's fields, in chunks that stay where they are (events point
  // into them) and are used again when the batch is.
  static constexpr size_t kDevicesPerChunk = 256;
  std::vector<std::unique_ptr<DeviceWork[]>> devices_;
  size_t devices_used_ = 0;
  const DeviceWork* KeepDevice(const DeviceWork& d);

  void Store(const ApiEvent& e, uint64_t shift_ns) {
    if (__builtin_expect(size_ == capacity_, 0)) reserve(capacity_ * 2 + 64);
    ApiEvent* slot = &events_[size_++];
#if defined(__SSE2__)
    // Four 16-byte words; the second is {start_ns, end_ns}.
    static_assert(sizeof(ApiEvent) == 4 * 16 &&
                      offsetof(ApiEvent, start_ns) == 16 &&
                      offsetof(ApiEvent, end_ns) == 24,
                  "the event's words as Store moves them");
    const auto* src = reinterpret_cast<const __m128i*>(&e);
    auto* dst = reinterpret_cast<__m128i*>(slot);
    const __m128i shift = _mm_set1_epi64x(static_cast<int64_t>(shift_ns));
    _mm_stream_si128(dst, _mm_loadu_si128(src));
    _mm_stream_si128(dst + 1, _mm_add_epi64(_mm_loadu_si128(src + 1), shift));
    _mm_stream_si128(dst + 2, _mm_loadu_si128(src + 2));
    _mm_stream_si128(dst + 3, _mm_loadu_si128(src + 3));
#else
    std::memcpy(slot, &e, sizeof(ApiEvent));
    slot->start_ns += shift_ns;
    slot->end_ns += shift_ns;
#endif
  }
};

using EventBatch = std::shared_ptr<const EventList>;

// Batches whose memory is used again once every writer has released them,
// rather than a fresh 112 KiB allocation per pool buffer.
class BatchPool {
 public:
  // An empty batch with room for `events`; back in the pool when the last
  // reference to it goes (the pool may be gone by then).
  std::shared_ptr<EventList> Take(size_t events);

 private:
  struct Free {
    std::mutex mutex;
    std::vector<std::unique_ptr<EventList>> batches;
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

  // Queues a batch; when `max_queued_batches` are waiting, blocks until
  // half of them have been taken. A writer
  // that waits for work is woken once 8 batches (or the bound) are queued,
  // or by Checkpoint and Finish.
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
  // Whether a Push waits for room (for tests).
  bool pusher_waiting() {
    std::lock_guard<std::mutex> lock(mutex_);
    return pusher_waiting_;
  }

 private:
  struct Item {
    EventBatch batch;  // null: a checkpoint
  };
  void Main();

  std::unique_ptr<Writer> writer_;
  const size_t max_queued_;
  const size_t wake_batches_;
  // A pusher waiting for room is woken when the queue is down to this.
  const size_t resume_at_;
  bool pusher_waiting_ = false;  // under mutex_
  std::mutex mutex_;
  std::condition_variable not_empty_, not_full_;
  std::deque<Item> queue_;
  bool finishing_ = false;
  RunInfo finish_info_;
  std::thread thread_;
};

}  // namespace roctrace

#endif  // ROCTRACE_WRITERS_WRITER_THREAD_H_
