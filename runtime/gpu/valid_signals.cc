#include "runtime/gpu/valid_signals.h"

#include <atomic>
#include <cstddef>
#include <cstdint>

#include "runtime/gpu/runtime_table.h"

namespace roctracer::gpu {
namespace {

constexpr size_t kEntries = 256;  // a power of two
// The handles remembered (0: an empty entry; the runtime never hands out 0).
std::atomic<uint64_t> g_entries[kEntries];
// Counts the forgets: an answer asked for before a forget may be about a
// signal destroyed since, and is not kept.
std::atomic<uint64_t> g_forgets{0};

std::atomic<uint64_t>& EntryOf(uint64_t handle) {
  // Handles are addresses (ROCR's and softhsa's signal objects): the low bits
  // are their alignment, the next ones tell neighbours apart.
  return g_entries[((handle >> 4) ^ (handle >> 12)) & (kEntries - 1)];
}

}  // namespace

bool ValidSignal(hsa_signal_t signal) noexcept {
  std::atomic<uint64_t>& entry = EntryOf(signal.handle);
  if (signal.handle != 0 &&
      entry.load(std::memory_order_acquire) == signal.handle) {
    return true;
  }
  const uint64_t forgets = g_forgets.load(std::memory_order_seq_cst);
  volatile hsa_signal_value_t* value = nullptr;
  if (Amd().hsa_amd_signal_value_pointer_fn(signal, &value) !=
      HSA_STATUS_SUCCESS) {
    return false;
  }
  if (signal.handle == 0) return true;  // never remembered
  // Kept, then the forgets looked at again (both seq_cst, as ForgetSignal's
  // count and clear): a forget that counted after the first look either
  // sees this entry and clears it, or is seen here and the entry is cleared
  // here.
  entry.store(signal.handle, std::memory_order_seq_cst);
  if (g_forgets.load(std::memory_order_seq_cst) != forgets) {
    uint64_t expected = signal.handle;
    entry.compare_exchange_strong(expected, 0, std::memory_order_seq_cst);
  }
  return true;
}

void ForgetSignal(hsa_signal_t signal) noexcept {
  g_forgets.fetch_add(1, std::memory_order_seq_cst);
  uint64_t expected = signal.handle;
  EntryOf(signal.handle)
      .compare_exchange_strong(expected, 0, std::memory_order_seq_cst);
}

void ForgetAllSignals() noexcept {
  g_forgets.fetch_add(1, std::memory_order_seq_cst);
  for (std::atomic<uint64_t>& entry : g_entries) {
    entry.store(0, std::memory_order_seq_cst);
  }
}

}  // namespace roctracer::gpu
