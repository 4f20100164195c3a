#include "runtime/gpu/gpu_clock.h"

#include <hsa/hsa.h>

#include <mutex>

#include "runtime/clock/clock.h"
#include "runtime/gpu/runtime_table.h"

namespace roctracer::gpu {
namespace {

constexpr uint64_t kReanchorNs = 1'000'000'000;

struct Map {
  std::mutex mutex;
  bool valid = false;
  ClockAnchor anchor{};
  uint64_t measured_at_ns = 0;
};
Map& TheMap() {
  static Map* map = new Map;  // used at exit, never destroyed
  return *map;
}

uint64_t RuntimeTicks() {
  uint64_t ticks = 0;
  if (Core().hsa_system_get_info_fn != nullptr) {
    Core().hsa_system_get_info_fn(HSA_SYSTEM_INFO_TIMESTAMP, &ticks);
  }
  return ticks;
}

}  // namespace

uint64_t TicksToNs(const ClockAnchor& a, uint64_t ticks) noexcept {
  const bool after = ticks >= a.ticks;
  const unsigned __int128 delta = after ? ticks - a.ticks : a.ticks - ticks;
  const auto ns = static_cast<uint64_t>(delta * 1'000'000'000u / a.frequency);
  return after ? a.ns + ns : a.ns - ns;
}

ClockAnchor MeasureAnchor(ReadTicksFn read_ticks, uint64_t frequency,
                          int tries) noexcept {
  ClockAnchor best{0, 0, frequency};
  uint64_t best_width = UINT64_MAX;
  for (int i = 0; i < tries; ++i) {
    const uint64_t before = clock::TimestampNs();
    const uint64_t ticks = read_ticks();
    const uint64_t after = clock::TimestampNs();
    if (after - before < best_width) {
      best_width = after - before;
      best = ClockAnchor{ticks, before + (after - before) / 2, frequency};
    }
  }
  return best;
}

bool SystemTicksToNs(uint64_t begin_ticks, uint64_t end_ticks,
                     uint64_t* begin_ns, uint64_t* end_ns) noexcept {
  Map& map = TheMap();
  std::lock_guard<std::mutex> lock(map.mutex);
  const uint64_t now = clock::TimestampNs();
  if (!map.valid || now - map.measured_at_ns > kReanchorNs) {
    uint64_t frequency = 0;
    if (Core().hsa_system_get_info_fn != nullptr) {
      Core().hsa_system_get_info_fn(HSA_SYSTEM_INFO_TIMESTAMP_FREQUENCY,
                                    &frequency);
    }
    if (frequency == 0) return false;
    map.anchor = MeasureAnchor(&RuntimeTicks, frequency);
    map.measured_at_ns = now;
    map.valid = true;
  }
  *begin_ns = TicksToNs(map.anchor, begin_ticks);
  *end_ns = TicksToNs(map.anchor, end_ticks);
  return true;
}

void ResetSystemClock() noexcept {
  Map& map = TheMap();
  std::lock_guard<std::mutex> lock(map.mutex);
  map.valid = false;
}

}  // namespace roctracer::gpu
