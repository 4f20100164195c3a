// Buffers of the buffer-tracing service. Each buffer is one of the
// roctracer activity pools (runtime/pool/pool.h): writers never take a lock,
// each writer thread fills buffers of its own, and the pool's consumer thread
// hands the records to the tool's callback. Records of 64 bytes (the API
// records) are written as pool records themselves; larger ones (GPU records)
// travel as the pool record's text, behind a 64-byte envelope whose first
// 8 bytes (where a record has its size) are 0.
#ifndef ROCPROFILER_SDK_IMPL_BUFFERS_H_
#define ROCPROFILER_SDK_IMPL_BUFFERS_H_

#include <atomic>
#include <cstddef>
#include <cstdint>

#include "rocprofiler-sdk/buffer.h"
#include "runtime/pool/pool.h"
#include "runtime/pool/write_in_place.h"

namespace rocprofiler_sdk {

constexpr int kMaxBuffers = 64;

// Handles are index + 1; -1 for an unknown or destroyed buffer.
int BufferIndex(rocprofiler_buffer_id_t id) noexcept;

// The context (index into g_contexts) a live buffer belongs to; -1 if none.
int BufferContext(int buffer) noexcept;

// The largest record WriteRecord takes: one of another size than a roctracer
// record travels as an envelope's text, copied on the stack first. Sized for
// the HIP EXT records of the newest HIP headers (their argument union: 1584
// bytes with HIP 6.4's).
constexpr size_t kMaxRecordSize = 8184;

// Appends one record (its first field is its size, a multiple of 8, at most
// kMaxRecordSize bytes). False when the buffer dropped it (DISCARD with no
// room) or is destroyed.
bool WriteRecord(int buffer, const void* record, size_t size) noexcept;

// Each buffer's pool, NULL while there is no such buffer (never made, or
// destroyed): what writers load. Written under ConfigMutex by buffers.cc.
extern std::atomic<roctracer::pool::Pool*> g_buffer_pools[kMaxBuffers];

// WriteRecord of a 64-byte record that `fill(void* dst)` writes whole (all
// 64 bytes, 8-byte aligned dst), made in the pool's buffer rather than on
// the caller's stack and copied (Pool::WriteInPlace): an API call's record
// at EXIT, inline in the caller. `fill` must not write into a buffer.
template <class Fill>
inline bool WriteRecordInPlace(int buffer, const Fill& fill) noexcept {
  roctracer::pool::Pool* const pool =
      g_buffer_pools[buffer].load(std::memory_order_acquire);
  return pool != nullptr && pool->WriteInPlace(fill);
}

// False on threads where waiting for a delivery could wait for itself: a
// pool's delivery thread and the callback threads (a tool's buffer callback
// runs there).
bool MayWaitForDelivery() noexcept;

// Delivers what buffer `buffer` holds and waits for the callbacks (only
// where MayWaitForDelivery()).
void FlushBufferAndWait(int buffer) noexcept;

// Delivers what every buffer of the client's contexts holds (before the
// tool's finalize, so its callbacks see every record first).
void FlushClientBuffers(uint32_t client) noexcept;

}  // namespace rocprofiler_sdk

#endif  // ROCPROFILER_SDK_IMPL_BUFFERS_H_
