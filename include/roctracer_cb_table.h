/* ROCm 5.2.3's roctracer::CbTable<N>: a thread-safe table of N callbacks
 * (an activity_rtapi_callback_t and its argument per ID), header-only, C++
 * only. roctracer_roctx.h names one for the rocTX operations
 * (roctx::cb_table_t). */

#ifndef ROCTRACER_CB_TABLE_H_
#define ROCTRACER_CB_TABLE_H_

#include <stdint.h>

#include <mutex>

#include "ext/prof_protocol.h"

namespace roctracer {

template <int N>
class CbTable {
 public:
  typedef std::mutex mutex_t;

  CbTable() {}

  /* Stores `callback` and `arg` for `id`; false (nothing stored) when `id`
   * is not below N. */
  bool set(uint32_t id, activity_rtapi_callback_t callback, void* arg) {
    if (id >= static_cast<uint32_t>(N)) return false;
    std::lock_guard<mutex_t> lock(mutex_);
    entries_[id].callback = callback;
    entries_[id].arg = arg;
    return true;
  }

  /* Reads `id`'s callback and argument (NULL, NULL when none was set); false
   * (outputs untouched) when `id` is not below N. */
  bool get(uint32_t id, activity_rtapi_callback_t* callback, void** arg) {
    if (id >= static_cast<uint32_t>(N)) return false;
    std::lock_guard<mutex_t> lock(mutex_);
    *callback = entries_[id].callback;
    *arg = entries_[id].arg;
    return true;
  }

 private:
  struct Entry {
    activity_rtapi_callback_t callback = nullptr;
    void* arg = nullptr;
  };
  Entry entries_[N];
  mutex_t mutex_;
};

}  // namespace roctracer

#endif /* ROCTRACER_CB_TABLE_H_ */
