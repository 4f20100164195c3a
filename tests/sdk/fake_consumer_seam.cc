#include "tests/sdk/fake_consumer_seam.h"

#include <atomic>
#include <mutex>
#include <set>
#include <utility>

namespace {

std::atomic<roctracer::ApiConsumerFn> g_consumer{nullptr};
std::mutex g_mutex;
std::set<std::pair<uint32_t, uint32_t>>& Interest() {
  static auto* s = new std::set<std::pair<uint32_t, uint32_t>>;
  return *s;
}

}  // namespace

namespace roctracer {

void SetApiConsumer(ApiConsumerFn fn) noexcept { g_consumer.store(fn); }

bool SetConsumerInterest(uint32_t domain, uint32_t op, bool wanted) noexcept {
  std::lock_guard<std::mutex> lock(g_mutex);
  if (wanted) {
    Interest().insert({domain, op});
  } else {
    Interest().erase({domain, op});
  }
  return true;
}

}  // namespace roctracer

namespace fake_seam {

roctracer::ApiConsumerFn Consumer() { return g_consumer.load(); }

bool Interested(uint32_t domain, uint32_t op) {
  std::lock_guard<std::mutex> lock(g_mutex);
  return Interest().count({domain, op}) != 0;
}

void Call(uint32_t domain, uint32_t op, uint32_t phase, uint64_t correlation_id,
          void* api_data) {
  roctracer::ApiConsumerFn fn = g_consumer.load();
  if (fn == nullptr || !Interested(domain, op)) return;
  roctracer::ApiCallInfo info{domain, op, phase, correlation_id, 0, api_data};
  fn(info);
}

void CallUnfiltered(uint32_t domain, uint32_t op, uint32_t phase,
                    uint64_t correlation_id, void* api_data) {
  roctracer::ApiConsumerFn fn = g_consumer.load();
  if (fn == nullptr) return;
  roctracer::ApiCallInfo info{domain, op, phase, correlation_id, 0, api_data};
  fn(info);
}

}  // namespace fake_seam
