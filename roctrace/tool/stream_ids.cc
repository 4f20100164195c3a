#include "roctrace/tool/stream_ids.h"

#include <new>

namespace roctrace {

uint64_t StreamIds::IdOf(uint64_t handle) noexcept {
  if (handle == 0) return 0;
  // Work goes to one stream many times in a row: the thread's last answer
  // saves the lock. A handle's ID never changes, so the cache cannot go
  // stale; `owner` keeps two StreamIds (tests) from sharing it.
  thread_local const StreamIds* owner = nullptr;
  thread_local uint64_t last_handle = 0, last_id = 0;
  if (owner == this && last_handle == handle) return last_id;
  uint64_t id;
  try {
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = ids_.emplace(handle, next_).first;
    if (it->second == next_) ++next_;
    id = it->second;
  } catch (const std::bad_alloc&) {
    return 0;
  }
  owner = this;
  last_handle = handle;
  last_id = id;
  return id;
}

bool StreamIds::Find(uint64_t handle, uint64_t* id) noexcept {
  if (handle == 0) {
    *id = 0;
    return true;
  }
  std::lock_guard<std::mutex> lock(mutex_);
  auto it = ids_.find(handle);
  if (it == ids_.end()) return false;
  *id = it->second;
  return true;
}

}  // namespace roctrace
