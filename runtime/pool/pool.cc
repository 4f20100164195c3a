// PLACEHOLDER: replaced by the lock-free pool at merge.
#include "runtime/pool/pool.h"

#include <cstdlib>
#include <cstring>
#include <new>

namespace roctracer {
namespace {

void DefaultAllocator(char** ptr, size_t size, void*) {
  if (size == 0) {
    std::free(*ptr);
    *ptr = nullptr;
  } else {
    *ptr = static_cast<char*>(std::realloc(*ptr, size));
  }
}

}  // namespace

Pool* Pool::Create(const roctracer_properties_t& properties, OverflowPolicy,
                   PoolStatus* status) {
  PoolStatus ignored;
  if (status == nullptr) status = &ignored;
  if (properties.buffer_callback_fun == nullptr ||
      properties.buffer_size < sizeof(activity_record_t)) {
    *status = kInvalidArgument;
    return nullptr;
  }
  Pool* pool = new (std::nothrow) Pool(properties);
  if (pool == nullptr || pool->buffer_ == nullptr) {
    delete pool;
    *status = kMemoryAllocation;
    return nullptr;
  }
  pool->consumer_ = std::thread(&Pool::ConsumerLoop, pool);
  *status = kOk;
  return pool;
}

Pool::Pool(const roctracer_properties_t& properties) : properties_(properties) {
  if (properties_.alloc_fun == nullptr)
    properties_.alloc_fun = DefaultAllocator;
  records_per_buffer_ = properties_.buffer_size / sizeof(activity_record_t);
  properties_.alloc_fun(&buffer_,
                        records_per_buffer_ * sizeof(activity_record_t),
                        properties_.alloc_arg);
}

Pool::~Pool() { Close(); }

bool Pool::Write(const activity_record_t& record, const char* text,
                 size_t text_len) noexcept {
  std::unique_lock<std::mutex> lock(mutex_);
  if (closed_) return false;
  Pending p{record, std::string(), text != nullptr};
  if (text != nullptr) p.text.assign(text, text_len);
  pending_.push_back(std::move(p));
  ++written_;
  if (pending_.size() >= records_per_buffer_) wake_.notify_one();
  return true;
}

void Pool::Flush() noexcept {
  std::unique_lock<std::mutex> lock(mutex_);
  if (consumer_.get_id() == std::this_thread::get_id()) return;
  const uint64_t target = written_;
  flush_requested_ = target;
  wake_.notify_one();
  done_.wait(lock, [&] { return delivered_ >= target || stop_; });
}

void Pool::Close() noexcept {
  {
    std::unique_lock<std::mutex> lock(mutex_);
    if (closed_) return;
    closed_ = true;
  }
  Flush();
  {
    std::unique_lock<std::mutex> lock(mutex_);
    stop_ = true;
    wake_.notify_one();
  }
  if (consumer_.joinable()) consumer_.join();
  if (buffer_ != nullptr) {
    properties_.alloc_fun(&buffer_, 0, properties_.alloc_arg);
    buffer_ = nullptr;
  }
}

uint64_t Pool::delivered() const noexcept {
  std::unique_lock<std::mutex> lock(mutex_);
  return delivered_;
}

void Pool::ConsumerLoop() {
  std::unique_lock<std::mutex> lock(mutex_);
  for (;;) {
    wake_.wait(lock, [&] {
      return stop_ || pending_.size() >= records_per_buffer_ ||
             (flush_requested_ > delivered_ && !pending_.empty());
    });
    if (pending_.empty() && stop_) break;
    std::vector<Pending> batch;
    batch.swap(pending_);
    lock.unlock();
    Deliver(batch);
    lock.lock();
    delivered_ += batch.size();
    done_.notify_all();
  }
  done_.notify_all();
}

void Pool::Deliver(std::vector<Pending>& batch) {
  auto* records = reinterpret_cast<activity_record_t*>(buffer_);
  size_t i = 0;
  while (i < batch.size()) {
    size_t n = 0;
    for (; n < records_per_buffer_ && i + n < batch.size(); ++n) {
      Pending& p = batch[i + n];
      records[n] = p.record;
      if (p.has_text) records[n].mark_message = p.text.c_str();
    }
    properties_.buffer_callback_fun(buffer_,
                                    buffer_ + n * sizeof(activity_record_t),
                                    properties_.buffer_callback_arg);
    i += n;
  }
}

}  // namespace roctracer
