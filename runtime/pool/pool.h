// PLACEHOLDER: replaced by the lock-free pool at merge. Same interface as the
// real one (see the pool worktree); this version takes a mutex per write and is
// only here so that the API layer and its tests build and run.
#ifndef RUNTIME_POOL_POOL_H_
#define RUNTIME_POOL_POOL_H_

#include <roctracer.h>

#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace roctracer {

enum class OverflowPolicy { kLossless, kDiscard };
enum PoolStatus { kOk, kInvalidArgument, kMemoryAllocation };

class Pool {
 public:
  static Pool* Create(const roctracer_properties_t& properties,
                      OverflowPolicy policy, PoolStatus* status);
  ~Pool();

  // Copies `text` into storage delivered with the record's buffer and points
  // record.mark_message at it. False if the pool is closed.
  bool Write(const activity_record_t& record, const char* text = nullptr,
             size_t text_len = 0) noexcept;
  void Flush() noexcept;
  void Close() noexcept;
  uint64_t dropped() const noexcept { return 0; }
  uint64_t delivered() const noexcept;

 private:
  struct Pending {
    activity_record_t record;
    std::string text;
    bool has_text;
  };
  explicit Pool(const roctracer_properties_t& properties);
  void ConsumerLoop();
  void Deliver(std::vector<Pending>& batch);

  roctracer_properties_t properties_;
  char* buffer_ = nullptr;
  size_t records_per_buffer_ = 0;
  mutable std::mutex mutex_;
  std::condition_variable wake_;
  std::condition_variable done_;
  std::vector<Pending> pending_;
  uint64_t written_ = 0;
  uint64_t delivered_ = 0;
  uint64_t flush_requested_ = 0;
  bool closed_ = false;
  bool stop_ = false;
  std::thread consumer_;
};

}  // namespace roctracer

#endif  // RUNTIME_POOL_POOL_H_
