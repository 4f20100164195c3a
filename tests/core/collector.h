// A pool buffer callback that keeps a copy of every record it is given,
// including the text its pointer members refer to (which is only valid during
// the callback).
#ifndef TESTS_CORE_COLLECTOR_H_
#define TESTS_CORE_COLLECTOR_H_

#include <roctracer.h>

#include <mutex>
#include <string>
#include <vector>

namespace roctracer_test {

struct Collected {
  activity_record_t record;
  std::string message;  // copy of mark_message (ROCTX, EXT_API MARK)
  bool has_message;
};

class Collector {
 public:
  static void Callback(const char* begin, const char* end, void* arg) {
    auto* self = static_cast<Collector*>(arg);
    std::lock_guard<std::mutex> lock(self->mutex_);
    ++self->deliveries_;
    const auto* record = reinterpret_cast<const activity_record_t*>(begin);
    const auto* last = reinterpret_cast<const activity_record_t*>(end);
    while (record < last) {
      Collected c{*record, std::string(), false};
      const bool has_text =
          record->domain == ACTIVITY_DOMAIN_ROCTX ||
          (record->domain == ACTIVITY_DOMAIN_EXT_API && record->op == 0);
      if (has_text && record->mark_message != nullptr) {
        c.message = record->mark_message;
        c.has_message = true;
      }
      self->records_.push_back(c);
      if (roctracer_next_record(record, &record) != ROCTRACER_STATUS_SUCCESS) {
        break;
      }
    }
  }

  roctracer_properties_t Properties(size_t buffer_size = 4096) {
    roctracer_properties_t p{};
    p.buffer_size = buffer_size;
    p.buffer_callback_fun = &Collector::Callback;
    p.buffer_callback_arg = this;
    return p;
  }

  std::vector<Collected> records() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return records_;
  }
  size_t size() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return records_.size();
  }

 private:
  mutable std::mutex mutex_;
  std::vector<Collected> records_;
  size_t deliveries_ = 0;
};

}  // namespace roctracer_test

#endif  // TESTS_CORE_COLLECTOR_H_
