#include "runtime/gpu/valid_signals.h"

#include <atomic>
#include <cstddef>
#include <cstdint>

#include "runtime/gpu/runtime_table.h"

namespace roctracer::gpu {
namespace {

constexpr size_t kEntries = 256;  // a power of two
// Marks an entry whose handle's answer is being remembered (ValidSignal):
// it is in no look-up's way until confirmed.
constexpr uint64_t kTentative = uint64_t{1} << 63;
// The handles remembered (0: an empty entry; the runtime never hands out 0).
std::atomic<uint64_t> g_entries[kEntries];
// Counts the forgets: an answer asked for before a forget may be about a
// signal destroyed since, and is not kept.
std::atomic<uint64_t> g_forgets{0};

// 0 and handles with the top bit set are never remembered.
bool Rememberable(uint64_t handle) {
  return handle != 0 && (handle & kTentative) == 0;
}

std::atomic<uint64_t>& EntryOf(uint64_t handle) {
  // Handles are addresses (ROCR's and softhsa's signal objects): the low bits
  // are their alignment, the next ones tell neighbours apart.
  return g_entries[((handle >> 4) ^ (handle >> 12)) & (kEntries - 1)];
}

}  // namespace

bool ValidSignal(hsa_signal_t signal) noexcept {
  std::atomic<uint64_t>& entry = EntryOf(signal.handle);
  if (Rememberable(signal.handle) &&
      entry.load(std::memory_order_acquire) == signal.handle) {
    return true;
  }
  const uint64_t forgets = g_forgets.load(std::memory_order_seq_cst);
  volatile hsa_signal_value_t* value = nullptr;
  if (Amd().hsa_amd_signal_value_pointer_fn(signal, &value) !=
      HSA_STATUS_SUCCESS) {
    return false;
  }
  // Never remembered: 0, and a handle with the top bit set (not an address
  // in user space, where the runtimes' signal objects are; entries with it
  // are answers being remembered).
  if (!Rememberable(signal.handle)) return true;
  // Kept as tentative (no look-up takes it), then the forgets looked at
  // again (both seq_cst, as ForgetSignal's count and clears): a forget that
  // counted after the first look either clears the tentative entry, or the
  // confirmed one after it (it clears both, in that order), or is seen here
  // and the entry is never confirmed. A signal destroyed meanwhile is never
  // in the table as valid.
  const uint64_t tentative = signal.handle | kTentative;
  entry.store(tentative, std::memory_order_seq_cst);
  uint64_t expected = tentative;
  entry.compare_exchange_strong(
      expected,
      g_forgets.load(std::memory_order_seq_cst) == forgets ? signal.handle : 0,
      std::memory_order_seq_cst);
  return true;
}

void ForgetSignal(hsa_signal_t signal) noexcept {
  g_forgets.fetch_add(1, std::memory_order_seq_cst);
  std::atomic<uint64_t>& entry = EntryOf(signal.handle);
  uint64_t expected = signal.handle | kTentative;
  entry.compare_exchange_strong(expected, 0, std::memory_order_seq_cst);
  expected = signal.handle;
  entry.compare_exchange_strong(expected, 0, std::memory_order_seq_cst);
}

void ForgetAllSignals() noexcept {
  g_forgets.fetch_add(1, std::memory_order_seq_cst);
  for (std::atomic<uint64_t>& entry : g_entries) {
    entry.store(0, std::memory_order_seq_cst);
  }
}

}  // namespace roctracer::gpu
