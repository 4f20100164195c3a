#include "runtime/gpu/gpu_clock.h"

#include <hsa/hsa.h>

#include <atomic>
#include <mutex>

#include "runtime/clock/clock.h"
#include "runtime/gpu/runtime_table.h"

namespace roctracer::gpu {
namespace {

constexpr uint64_t kReanchorNs = 1'000'000'000;

// Read without a lock on every operation's report: a sequence count, odd
// while the one writer (under `mutex`) changes the fields; each field is an
// atomic stored with release and loaded with acquire, so a reader that saw
// a field's new value sees the count changed when it reads it again.
struct Map {
  std::mutex mutex;  // re-anchoring and resetting
  std::atomic<uint32_t> seq{0};
  std::atomic<bool> valid{false};
  std::atomic<uint64_t> anchor_ticks{0};
  std::atomic<uint64_t> anchor_ns{0};
  std::atomic<uint64_t> frequency{0};
  std::atomic<uint64_t> measured_at_ns{0};
};
Map& TheMap() {
  static Map* map = new Map;  // used at exit, never destroyed
  return *map;
}

// A consistent anchor, unless a writer is at work or the map is not valid
// or due to be measured again at `now` (read before another thread measured
// it: fresh).
bool ReadAnchor(const Map& map, uint64_t now, ClockAnchor* anchor) {
  const uint32_t seq = map.seq.load(std::memory_order_acquire);
  if ((seq & 1) != 0) return false;
  const bool valid = map.valid.load(std::memory_order_acquire);
  anchor->ticks = map.anchor_ticks.load(std::memory_order_acquire);
  anchor->ns = map.anchor_ns.load(std::memory_order_acquire);
  anchor->frequency = map.frequency.load(std::memory_order_acquire);
  const uint64_t measured_at =
      map.measured_at_ns.load(std::memory_order_acquire);
  return map.seq.load(std::memory_order_acquire) == seq && valid &&
         (now < measured_at || now - measured_at <= kReanchorNs);
}

// With `mutex` held.
void WriteMap(Map& map, bool valid, const ClockAnchor& anchor,
              uint64_t measured_at) {
  const uint32_t seq = map.seq.load(std::memory_order_relaxed);
  map.seq.store(seq + 1, std::memory_order_relaxed);
  map.valid.store(valid, std::memory_order_release);
  map.anchor_ticks.store(anchor.ticks, std::memory_order_release);
  map.anchor_ns.store(anchor.ns, std::memory_order_release);
  map.frequency.store(anchor.frequency, std::memory_order_release);
  map.measured_at_ns.store(measured_at, std::memory_order_release);
  map.seq.store(seq + 2, std::memory_order_release);
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
  const uint64_t now = clock::TimestampNs();
  ClockAnchor anchor{};
  if (!ReadAnchor(map, now, &anchor)) {
    std::lock_guard<std::mutex> lock(map.mutex);
    if (!ReadAnchor(map, now, &anchor)) {
      uint64_t frequency = 0;
      if (Core().hsa_system_get_info_fn != nullptr) {
        Core().hsa_system_get_info_fn(HSA_SYSTEM_INFO_TIMESTAMP_FREQUENCY,
                                      &frequency);
      }
      if (frequency == 0) return false;
      anchor = MeasureAnchor(&RuntimeTicks, frequency);
      WriteMap(map, true, anchor, now);
    }
  }
  *begin_ns = TicksToNs(anchor, begin_ticks);
  *end_ns = TicksToNs(anchor, end_ticks);
  return true;
}

void ResetSystemClock() noexcept {
  Map& map = TheMap();
  std::lock_guard<std::mutex> lock(map.mutex);
  WriteMap(map, false, ClockAnchor{}, 0);
}

}  // namespace roctracer::gpu
