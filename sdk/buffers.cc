#include "sdk/buffers.h"

#include <pthread.h>

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <cstring>
#include <deque>
#include <mutex>
#include <thread>

#include "rocprofiler-sdk/internal_threading.h"
#include "runtime/gpu/completion.h"
#include "runtime/intercept/trace_guard.h"
#include "runtime/pool/pool.h"
#include "sdk/config_lock.h"
#include "sdk/context.h"
#include "sdk/internal_threading.h"
#include "sdk/registration.h"
#include "sdk/retirement.h"

namespace rocprofiler_sdk {

std::atomic<roctracer::pool::Pool*> g_buffer_pools[kMaxBuffers] = {};

namespace {

// Constant-initialized (tools create buffers from the library's load-time
// scan, which may run before other objects of the library are constructed).
struct Buffer {
  // Written under ConfigMutex, with the buffer's g_buffer_pools entry (what
  // writers load).
  int context_plus1 = 0;  // 0: the slot is free
  rocprofiler_buffer_tracing_cb_t callback = nullptr;
  void* callback_data = nullptr;
  // 0: delivered on the pool's own thread; else a callback thread's handle.
  std::atomic<uint64_t> callback_thread{0};
  // Consumer thread only (and the destroying thread once the pool closed).
  uint64_t reported_drops = 0;
  size_t capacity = 0;
  rocprofiler_record_header_t* headers = nullptr;
  rocprofiler_record_header_t** header_ptrs = nullptr;
};

Buffer g_buffers[kMaxBuffers];

std::atomic<roctracer::pool::Pool*>& PoolOf(const Buffer& b) noexcept {
  return g_buffer_pools[&b - g_buffers];
}

// A callback thread: the batches of the buffers assigned to it are handed
// from their pools' consumer threads to this one, which calls the tool; the
// consumer waits until the call returned (the batch lives in the pool's
// buffer). Never destroyed: pools deliver until the process exits.
struct CallbackThread {
  struct Batch {
    Buffer* buffer;
    const char* begin;
    const char* end;
    bool done;
  };
  std::mutex mutex;
  std::condition_variable cv;
  std::deque<Batch*> queue;
};

constexpr uint32_t kMaxCallbackThreads = 16;
CallbackThread* g_callback_threads[kMaxCallbackThreads] = {};
uint32_t g_callback_thread_count = 0;  // under ConfigMutex
// False in a fork child, where the threads do not exist: batches are then
// delivered on the pools' own threads.
std::atomic<bool> g_callback_threads_alive{true};
// Set on a callback thread: its handle.
thread_local uint32_t t_callback_thread = 0;
// Set on a pool's delivery thread (at its first delivery).
thread_local bool t_delivery_thread = false;

void DeliverNow(Buffer* b, const char* begin, const char* end);

void CallbackThreadMain(CallbackThread* t, uint32_t handle) {
  t_callback_thread = handle;
  std::unique_lock<std::mutex> lock(t->mutex);
  for (;;) {
    t->cv.wait(lock, [t] { return !t->queue.empty(); });
    CallbackThread::Batch* batch = t->queue.front();
    t->queue.pop_front();
    lock.unlock();
    DeliverNow(batch->buffer, batch->begin, batch->end);
    lock.lock();
    batch->done = true;
    t->cv.notify_all();
  }
}

void ForgetCallbackThreadsInChild() {
  g_callback_threads_alive.store(false, std::memory_order_relaxed);
}

// A pool's Flush or Close waits for its consumer, which may wait for a
// callback thread: on a callback thread they would wait for themselves.
bool OnCallbackThread() noexcept { return t_callback_thread != 0; }

// The pool's buffer callback, on the pool's consumer thread: delivered here,
// or on the buffer's callback thread.
void DeliverBatch(const char* begin, const char* end, void* arg) {
  t_delivery_thread = true;
  auto* b = static_cast<Buffer*>(arg);
  const uint64_t assigned = b->callback_thread.load(std::memory_order_acquire);
  if (assigned == 0 ||
      !g_callback_threads_alive.load(std::memory_order_relaxed)) {
    DeliverNow(b, begin, end);
    return;
  }
  CallbackThread* t = g_callback_threads[assigned - 1];
  CallbackThread::Batch batch{b, begin, end, false};
  std::unique_lock<std::mutex> lock(t->mutex);
  t->queue.push_back(&batch);
  t->cv.notify_all();
  t->cv.wait(lock, [&batch] { return batch.done; });
}

// One batch of 64-byte pool records, each an SDK record or an envelope of
// one (see buffers.h), to the tool.
void DeliverNow(Buffer* b, const char* begin, const char* end) {
  const size_t n = static_cast<size_t>(end - begin) / sizeof(activity_record_t);
  if (n > b->capacity) {
    delete[] b->headers;
    delete[] b->header_ptrs;
    b->headers = new rocprofiler_record_header_t[n];
    b->header_ptrs = new rocprofiler_record_header_t*[n];
    b->capacity = n;
  }
  for (size_t i = 0; i < n; ++i) {
    const char* rec = begin + i * sizeof(activity_record_t);
    uint64_t size = 0;
    std::memcpy(&size, rec, sizeof(size));
    const char* payload = rec;
    if (size == 0) {
      payload = reinterpret_cast<const activity_record_t*>(rec)->mark_message;
    }
    uint32_t kind = 0;
    std::memcpy(&kind, payload + sizeof(uint64_t), sizeof(kind));
    rocprofiler_record_header_t& h = b->headers[i];
    h.hash = 0;
    h.category = ROCPROFILER_BUFFER_CATEGORY_TRACING;
    h.kind = kind;
    h.payload = const_cast<char*>(payload);
    b->header_ptrs[i] = &h;
  }
  roctracer::pool::Pool* pool = PoolOf(*b).load(std::memory_order_acquire);
  const uint64_t dropped = pool != nullptr ? pool->dropped() : 0;
  const uint64_t drops = dropped - b->reported_drops;
  b->reported_drops = dropped;
  rocprofiler_context_id_t ctx{static_cast<uint64_t>(b->context_plus1)};
  rocprofiler_buffer_id_t id{static_cast<uint64_t>(b - g_buffers) + 1};
  roctracer::hook::UntracedScope untraced;
  b->callback(ctx, id, b->header_ptrs, n, b->callback_data, drops);
}

}  // namespace

int BufferIndex(rocprofiler_buffer_id_t id) noexcept {
  if (id.handle == 0 || id.handle > static_cast<uint64_t>(kMaxBuffers)) {
    return -1;
  }
  const int i = static_cast<int>(id.handle - 1);
  return g_buffer_pools[i].load(std::memory_order_acquire) != nullptr ? i : -1;
}

int BufferContext(int buffer) noexcept {
  if (buffer < 0 || buffer >= kMaxBuffers) return -1;
  return g_buffer_pools[buffer].load(std::memory_order_acquire) != nullptr
             ? g_buffers[buffer].context_plus1 - 1
             : -1;
}

namespace {

// A record of another size as the envelope's text. Out of line: its copy on
// the stack would give every 64-byte write a stack guard.
__attribute__((noinline)) bool WriteEnvelope(roctracer::pool::Pool* pool,
                                             const void* record,
                                             size_t size) noexcept {
  // The pool adds a NUL after the text: passing size + 7 bytes keeps every
  // text copy a multiple of 8 bytes long, so records stay 8-byte aligned
  // below the buffer's (aligned) end.
  alignas(8) char text[kMaxRecordSize + 8];
  if (size + 8 > sizeof(text)) return false;
  std::memcpy(text, record, size);
  std::memset(text + size, 0, 7);
  activity_record_t envelope;
  std::memset(&envelope, 0, sizeof(envelope));
  return pool->Write(envelope, text, size + 7);
}

}  // namespace

bool WriteRecord(int buffer, const void* record, size_t size) noexcept {
  roctracer::pool::Pool* pool =
      g_buffer_pools[buffer].load(std::memory_order_acquire);
  if (pool == nullptr) return false;
  if (size == sizeof(activity_record_t)) {
    // The pool only copies the record's bytes (memcpy): the caller's record
    // goes as it is, with no copy here first.
    return pool->Write(*static_cast<const activity_record_t*>(record));
  }
  return WriteEnvelope(pool, record, size);
}

namespace {

// Flush, or on a callback thread (where waiting would wait for itself) a
// flush on a thread of its own, not waited for.
void FlushPool(roctracer::pool::Pool* pool) noexcept {
  if (!OnCallbackThread()) {
    pool->Flush();
    return;
  }
  NotifyInternalThread(ThreadCreation::kBefore);
  try {
    std::thread([pool] { pool->Flush(); }).detach();
  } catch (...) {
  }
  NotifyInternalThread(ThreadCreation::kAfter);
}

}  // namespace

bool MayWaitForDelivery() noexcept {
  return t_callback_thread == 0 && !t_delivery_thread;
}

void FlushBufferAndWait(int buffer) noexcept {
  roctracer::pool::Pool* pool =
      g_buffer_pools[buffer].load(std::memory_order_acquire);
  if (pool != nullptr) pool->Flush();
}

void FlushClientBuffers(uint32_t client) noexcept {
  // The retirements deferred before the flush, then the buffers with them;
  // once more for those deferred meanwhile (the last GPU work of calls that
  // ended during the first round).
  const bool may_wait = MayWaitForDelivery();
  // Completed GPU work not yet reported goes first (rocprofiler_flush_buffer).
  if (may_wait) {
    roctracer::gpu::HarvestAll(roctracer::gpu::HarvestReason::kFlush);
  }
  for (int round = 0; round < 2; ++round) {
    const bool wrote = may_wait && WriteDeferredRetirements();
    for (Buffer& b : g_buffers) {
      roctracer::pool::Pool* pool = PoolOf(b).load(std::memory_order_acquire);
      if (pool != nullptr && b.context_plus1 > 0 &&
          g_contexts[b.context_plus1 - 1].client == client) {
        FlushPool(pool);
      }
    }
    if (!wrote) break;
  }
}

}  // namespace rocprofiler_sdk

extern "C" {

ROCPROFILER_API rocprofiler_status_t rocprofiler_create_buffer(
    rocprofiler_context_id_t context, size_t size, size_t watermark,
    rocprofiler_buffer_policy_t policy,
    rocprofiler_buffer_tracing_cb_t callback, void* callback_data,
    rocprofiler_buffer_id_t* buffer_id) {
  using namespace rocprofiler_sdk;
  uint32_t client = 0;
  if (!InToolInitialize(&client)) {
    return ROCPROFILER_STATUS_ERROR_CONFIGURATION_LOCKED;
  }
  const int32_t policy_value = RawValue(policy);
  if (buffer_id == nullptr || callback == nullptr || size == 0 ||
      watermark > size ||
      (policy_value != ROCPROFILER_BUFFER_POLICY_DISCARD &&
       policy_value != ROCPROFILER_BUFFER_POLICY_LOSSLESS)) {
    return ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT;
  }
  std::lock_guard<std::mutex> lock(ConfigMutex());
  Context* ctx = FindContext(context);
  if (ctx == nullptr) return ROCPROFILER_STATUS_ERROR_CONTEXT_NOT_FOUND;
  int index = -1;
  for (int i = 0; i < kMaxBuffers; ++i) {
    if (g_buffers[i].context_plus1 == 0) {
      index = i;
      break;
    }
  }
  if (index < 0) return ROCPROFILER_STATUS_ERROR_OUT_OF_RESOURCES;
  Buffer& b = g_buffers[index];
  // One pool buffer is sealed and delivered when `watermark` bytes are in
  // it: the pool's buffer size, at least what one envelope and the largest
  // record need, rounded to 64 bytes (so record text stays aligned).
  size_t pool_buffer = watermark < 512 ? 512 : watermark;
  pool_buffer = (pool_buffer + 63) & ~size_t{63};
  // The buffer's room is `size` bytes per writer thread: that many pool
  // buffers (at least 2, at most the pool's cap), so DISCARD starts dropping
  // and memory stops growing where the tool's size says.
  const size_t thread_buffers =
      std::min<size_t>(roctracer::pool::Pool::kMaxBuffersPerSlot,
                       std::max<size_t>(2, size / pool_buffer));
  roctracer_properties_t props{};
  props.buffer_size = pool_buffer;
  props.buffer_callback_fun = &DeliverBatch;
  props.buffer_callback_arg = &b;
  b.context_plus1 = static_cast<int>(ctx - g_contexts) + 1;
  b.callback = callback;
  b.callback_data = callback_data;
  b.callback_thread.store(0, std::memory_order_relaxed);
  b.reported_drops = 0;
  roctracer::pool::PoolStatus status = roctracer::pool::PoolStatus::kOk;
  // The pool starts its delivery thread.
  NotifyInternalThread(ThreadCreation::kBefore);
  roctracer::pool::Pool* pool = roctracer::pool::Pool::Create(
      props,
      policy_value == ROCPROFILER_BUFFER_POLICY_DISCARD
          ? roctracer::pool::OverflowPolicy::kDiscard
          : roctracer::pool::OverflowPolicy::kLossless,
      &status, static_cast<unsigned>(thread_buffers));
  NotifyInternalThread(ThreadCreation::kAfter);
  if (pool == nullptr) {
    b.context_plus1 = 0;
    return ROCPROFILER_STATUS_ERROR_OUT_OF_RESOURCES;
  }
  PoolOf(b).store(pool, std::memory_order_release);
  buffer_id->handle = static_cast<uint64_t>(index) + 1;
  return ROCPROFILER_STATUS_SUCCESS;
}

ROCPROFILER_API rocprofiler_status_t
rocprofiler_flush_buffer(rocprofiler_buffer_id_t buffer_id) {
  using namespace rocprofiler_sdk;
  const int i = BufferIndex(buffer_id);
  if (i < 0) return ROCPROFILER_STATUS_ERROR_BUFFER_NOT_FOUND;
  roctracer::pool::Pool* pool =
      g_buffer_pools[i].load(std::memory_order_acquire);
  if (pool == nullptr) return ROCPROFILER_STATUS_ERROR_BUFFER_NOT_FOUND;
  if (MayWaitForDelivery()) {
    // GPU work that has completed but that the tracer's completion thread
    // has not reported yet is written now: as in rocprofiler-sdk, where a
    // dispatch's or copy's record is written before the application sees
    // it complete, a flush after the application waited for its work
    // delivers that work's records. (Not on a delivery or callback thread:
    // writing there could wait for that thread itself.)
    roctracer::gpu::HarvestAll(roctracer::gpu::HarvestReason::kFlush);
    // Retirements deferred before this call go to their buffers first (after
    // a flush of those buffers), so this flush delivers them too.
    WriteDeferredRetirements();
  }
  FlushPool(pool);
  return ROCPROFILER_STATUS_SUCCESS;
}

ROCPROFILER_API rocprofiler_status_t
rocprofiler_destroy_buffer(rocprofiler_buffer_id_t buffer_id) {
  using namespace rocprofiler_sdk;
  const int i = BufferIndex(buffer_id);
  if (i < 0) return ROCPROFILER_STATUS_ERROR_BUFFER_NOT_FOUND;
  Buffer& b = g_buffers[i];
  roctracer::pool::Pool* pool = PoolOf(b).load(std::memory_order_acquire);
  if (pool == nullptr) return ROCPROFILER_STATUS_ERROR_BUFFER_NOT_FOUND;
  // Destroying waits for the deliveries, which a callback thread makes.
  if (OnCallbackThread()) return ROCPROFILER_STATUS_ERROR_BUFFER_BUSY;
  // Delivers everything first (Close); then writers find no pool.
  pool->Close();
  {
    std::lock_guard<std::mutex> lock(ConfigMutex());
    if (PoolOf(b).load(std::memory_order_acquire) != pool) {
      return ROCPROFILER_STATUS_ERROR_BUFFER_NOT_FOUND;  // destroyed meanwhile
    }
    PoolOf(b).store(nullptr, std::memory_order_release);
    b.context_plus1 = 0;
  }
  roctracer::pool::Pool::Retire(pool);
  return ROCPROFILER_STATUS_SUCCESS;
}

ROCPROFILER_API uint64_t
rocprofiler_record_header_compute_hash(uint32_t category, uint32_t kind) {
  rocprofiler_record_header_t h;
  h.hash = 0;
  h.category = category;
  h.kind = kind;
  return h.hash;
}

ROCPROFILER_API rocprofiler_status_t rocprofiler_create_callback_thread(
    rocprofiler_callback_thread_t* cb_thread_id) {
  using namespace rocprofiler_sdk;
  uint32_t client = 0;
  if (!InToolInitialize(&client)) {
    return ROCPROFILER_STATUS_ERROR_CONFIGURATION_LOCKED;
  }
  if (cb_thread_id == nullptr) return ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT;
  std::lock_guard<std::mutex> lock(ConfigMutex());
  if (g_callback_thread_count == kMaxCallbackThreads) {
    return ROCPROFILER_STATUS_ERROR_OUT_OF_RESOURCES;
  }
  static const bool fork_handler =
      pthread_atfork(nullptr, nullptr, &ForgetCallbackThreadsInChild) == 0;
  (void)fork_handler;
  auto* t = new CallbackThread;
  const uint32_t handle = g_callback_thread_count + 1;
  NotifyInternalThread(ThreadCreation::kBefore);
  try {
    std::thread(&CallbackThreadMain, t, handle).detach();
  } catch (...) {
    delete t;
    NotifyInternalThread(ThreadCreation::kAfter);
    return ROCPROFILER_STATUS_ERROR_OUT_OF_RESOURCES;
  }
  NotifyInternalThread(ThreadCreation::kAfter);
  g_callback_threads[g_callback_thread_count++] = t;
  cb_thread_id->handle = handle;
  return ROCPROFILER_STATUS_SUCCESS;
}

ROCPROFILER_API rocprofiler_status_t
rocprofiler_assign_callback_thread(rocprofiler_buffer_id_t buffer_id,
                                   rocprofiler_callback_thread_t cb_thread_id) {
  using namespace rocprofiler_sdk;
  std::lock_guard<std::mutex> lock(ConfigMutex());
  const int i = BufferIndex(buffer_id);
  if (i < 0) return ROCPROFILER_STATUS_ERROR_BUFFER_NOT_FOUND;
  if (cb_thread_id.handle == 0 ||
      cb_thread_id.handle > g_callback_thread_count) {
    return ROCPROFILER_STATUS_ERROR_THREAD_NOT_FOUND;
  }
  g_buffers[i].callback_thread.store(cb_thread_id.handle,
                                     std::memory_order_release);
  return ROCPROFILER_STATUS_SUCCESS;
}

}  // extern "C"
