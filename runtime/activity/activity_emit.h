// The one way activity records are made and written: every record (an API
// call's, a marker's, a GPU operation's) starts from MakeRecord and goes to
// the program's pool, then the tool's (domain_registry.h's ActivityPools).
// An API call's or marker's copy is preceded by an EXT_API record when the
// calling thread has an external correlation ID pushed; a GPU operation's,
// which completes on another thread, is not.
#ifndef RUNTIME_ACTIVITY_ACTIVITY_EMIT_H_
#define RUNTIME_ACTIVITY_ACTIVITY_EMIT_H_

#include <roctracer.h>

#include <cstddef>
#include <cstdint>
#include <cstring>

#include "runtime/activity/domain_registry.h"
#include "runtime/activity/external_correlation.h"
#include "runtime/platform/thread_id.h"
#include "runtime/pool/pool.h"
#include "runtime/pool/write_in_place.h"

namespace roctracer::activity {

// A record of (domain, op) with its correlation ID and span; every other
// field zero, for the caller to fill.
inline activity_record_t MakeRecord(uint32_t domain, uint32_t op,
                                    uint64_t correlation_id, uint64_t begin_ns,
                                    uint64_t end_ns) noexcept {
  activity_record_t record{};
  record.domain = domain;
  record.op = op;
  record.correlation_id = correlation_id;
  record.begin_ns = begin_ns;
  record.end_ns = end_ns;
  return record;
}

// MakeRecord, with the calling process's and thread's IDs: the record of
// something this thread did (an API call, a marker).
inline activity_record_t MakeThreadRecord(uint32_t domain, uint32_t op,
                                          uint64_t correlation_id,
                                          uint64_t begin_ns,
                                          uint64_t end_ns) noexcept {
  activity_record_t record =
      MakeRecord(domain, op, correlation_id, begin_ns, end_ns);
  record.process_id = roctracer::platform::ProcessId();
  record.thread_id = roctracer::platform::ThreadId();
  return record;
}

// Writes `record` (and `text`, copied) into the program's pool, then the
// tool's, with no EXT_API record (a GPU operation's). True when any took it.
bool WriteRecordTo(const ActivityPools& pools, const activity_record_t& record,
                   const char* text = nullptr, size_t text_len = 0) noexcept;

// Writes `record` (domain/op/correlation_id/timestamps/ids filled by the
// caller) to the pools of (record.domain, record.op), each after the EXT_API
// record {domain EXT_API, op ACTIVITY_EXT_OP_EXTERN_ID, correlation_id of
// `record`, external_id = top of this thread's stack} when that stack is not
// empty; the pair is written as one unit (delivered or dropped together).
// `text` (optional) is copied by the pool and becomes record.mark_message /
// kernel_name. Returns false when no pool took the record (none enabled,
// tracing stopped, or dropped).
bool EmitApiActivity(const activity_record_t& record,
                     const char* text = nullptr, size_t text_len = 0) noexcept;

// Same, into one pool the caller already looked up.
bool EmitApiActivityTo(pool::Pool* pool, const activity_record_t& record,
                       const char* text = nullptr,
                       size_t text_len = 0) noexcept;

// EmitApiActivityTo for every pool of `pools`, with `external_id` as the
// tag's (the out-of-line half of the next function).
bool EmitTaggedActivityTo(const ActivityPools& pools,
                          const activity_record_t& record, uint64_t external_id,
                          const char* text, size_t text_len) noexcept;

// MakeThreadRecord(domain, op, correlation_id, begin_ns, end_ns) with
// `api_status`, stored at `dst` (8-byte aligned) as the record's eight 8-byte
// words, padding zero: the whole record in eight stores, with no copy of it
// on the stack (Pool::WriteInPlace's `fill` for an API call's record).
inline void StoreThreadRecord(void* dst, uint32_t domain, uint32_t op,
                              uint64_t correlation_id, uint64_t begin_ns,
                              uint64_t end_ns, int64_t api_status) noexcept {
  static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__,
                "the words below are little-endian");
  static_assert(sizeof(activity_record_t) == 64 &&
                    offsetof(activity_record_t, kind) == 4 &&
                    offsetof(activity_record_t, op) == 8 &&
                    offsetof(activity_record_t, correlation_id) == 16 &&
                    offsetof(activity_record_t, begin_ns) == 24 &&
                    offsetof(activity_record_t, end_ns) == 32 &&
                    offsetof(activity_record_t, process_id) == 40 &&
                    offsetof(activity_record_t, thread_id) == 44 &&
                    offsetof(activity_record_t, api_status) == 56,
                "activity_record_t's layout");
  const uint64_t ids = uint64_t{roctracer::platform::ProcessId()} |
                       uint64_t{roctracer::platform::ThreadId()} << 32;
  // One store per word (a single 64-byte copy of an array is built on the
  // stack and copied, which is what this avoids).
  char* const out = static_cast<char*>(dst);
  const auto store = [out](size_t offset, uint64_t word) {
    std::memcpy(out + offset, &word, sizeof(word));
  };
  store(0, domain);  // kind 0
  store(8, op);      // and 4 bytes of padding
  store(16, correlation_id);
  store(24, begin_ns);
  store(32, end_ns);
  store(40, ids);
  store(48, 0);  // the rest of the process/queue union
  store(56, static_cast<uint64_t>(api_status));
}

// EmitApiActivityTo (below) of the text-less record `fill(void* dst)` writes
// whole (Pool::WriteInPlace), made in the pool's buffer rather than on the
// stack and copied: an API call's record at EXIT. `fill` must not write into
// a pool. Inline: every traced call with activity ends here, and most
// threads have no external ID pushed, so the common case is one TLS load
// and one inline pool write.
template <class Fill>
inline bool EmitFilledActivityTo(const ActivityPools& pools,
                                 const Fill& fill) noexcept {
  uint64_t external_id;
  if (__builtin_expect(TopExternalId(&external_id), 0)) {
    activity_record_t record;
    fill(&record);
    return EmitTaggedActivityTo(pools, record, external_id, nullptr, 0);
  }
  // The program's pool first, then the tool's: the order every writer keeps.
  // One inline write, into the first; a second pool (rare: the program's and
  // a tool's both enabled) takes the out-of-line one.
  pool::Pool* const first =
      pools.program != nullptr ? pools.program : pools.tool;
  if (first == nullptr) return false;
  const bool written = first->WriteInPlace(fill);
  if (__builtin_expect(pools.program != nullptr && pools.tool != nullptr, 0)) {
    activity_record_t record;
    fill(&record);
    return pools.tool->Write(record) || written;
  }
  return written;
}

// Same, into the pools the caller already looked up with ActivityPoolsFor().
inline bool EmitApiActivityTo(const ActivityPools& pools,
                              const activity_record_t& record,
                              const char* text = nullptr,
                              size_t text_len = 0) noexcept {
  // No text (`text` a constant NULL once inlined): the record-only write.
  if (text == nullptr) {
    return EmitFilledActivityTo(pools, [&record](void* dst) noexcept {
      std::memcpy(dst, &record, sizeof(record));
    });
  }
  uint64_t external_id;
  if (__builtin_expect(TopExternalId(&external_id), 0)) {
    return EmitTaggedActivityTo(pools, record, external_id, text, text_len);
  }
  const bool program =
      pools.program != nullptr && pools.program->Write(record, text, text_len);
  const bool tool =
      pools.tool != nullptr && pools.tool->Write(record, text, text_len);
  return program || tool;
}

// An instantaneous record (a marker: begin_ns == end_ns == now) of
// (domain, op) with `correlation_id`, this thread's IDs and a copy of
// `message` (NULL: none), written like EmitApiActivityTo.
bool EmitInstantActivityTo(const ActivityPools& pools, uint32_t domain,
                           uint32_t op, uint64_t correlation_id,
                           const char* message) noexcept;

// Same, with the message's length (without its NUL) known to the caller: the
// message is read once, by the copy.
bool EmitInstantActivityTo(const ActivityPools& pools, uint32_t domain,
                           uint32_t op, uint64_t correlation_id,
                           const char* message, size_t message_len) noexcept;

}  // namespace roctracer::activity

#endif  // RUNTIME_ACTIVITY_ACTIVITY_EMIT_H_
