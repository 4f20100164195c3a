// The arguments of traced API calls, for rocpd's rocpd_arg. The tool's EXIT
// callback of each traced op (Record) copies the bytes of the call's
// argument struct, nothing more, into a queue of the calling thread; the
// pool's consumer, converting the call's activity record, takes them by the
// record's thread and correlation ID (Take) into the batch's ArgArena, and
// the writer that writes them formats them (ApiArgs::Printers: the generated
// argument printers, pointers not followed).
//
// A thread's queue holds its calls in the order they returned, which is the
// order of their records: the entry a record looks for is the first, or
// after a few whose records never came (a pool closed during the call).
// Queues are chunks of 32 KiB linked one after the other (single producer,
// single consumer). An entry taken is not copied: its header is the ApiArgs
// the event points to, completed in place by the consumer, and a chunk the
// consumer has read to its end belongs to the arena of the batch it was
// reading for, which frees it with that batch. Events of earlier batches
// may point into such a chunk, so the arena must go after them: writers
// release batches in the order they were handed over, and
// BatchArenas::Seal hands over a batch whose events were all filtered out too
// when its arena holds chunks (dropping that arena would free them under the
// earlier batches). Their length is bounded by the records not yet delivered,
// which the lossless pool bounds.
#ifndef ROCTRACE_TOOL_ARG_CAPTURE_H_
#define ROCTRACE_TOOL_ARG_CAPTURE_H_

#include <roctracer.h>

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <unordered_map>
#include <vector>

#include "roctrace/writers/event.h"
#include "roctrace/writers/writer_thread.h"

namespace roctrace {

// One call's arguments in a thread's queue: this header, then `args.size`
// bytes, padded to 8. The calling thread writes the correlation ID and the
// args' domain, op and size; the consumer that takes the entry completes
// the args (printers, bytes) in place and hands out their address.
struct ArgEntry {
  uint64_t correlation_id;
  ApiArgs args;
};
static_assert(sizeof(ArgEntry) % 8 == 0, "entries stay 8-byte aligned");

inline size_t ArgEntryBytes(uint32_t size) {
  return sizeof(ArgEntry) + ((size + 7) & ~size_t{7});
}

// A chunk of a thread's queue.
struct ArgChunk {
  static constexpr uint32_t kBytes = 32 << 10;
  std::atomic<uint32_t> written{0};      // bytes of whole entries
  std::atomic<ArgChunk*> next{nullptr};  // set once the producer moved on
  ArgChunk* adopted_before = nullptr;    // the arena's list, once adopted
  alignas(8) unsigned char data[kBytes];
};

// Each domain's argument struct sizes by op, made once before recording
// starts (ArgCapture::SetRecording): a traced call reads its size from the
// table rather than through a call to its domain's generated switch, and
// the consumer answers an op without parameters from it. Until then (or
// for an op past the table) both ask the switch. `count` is published once
// `sizes` is filled.
struct ArgSizeTable {
  const uint32_t* sizes = nullptr;
  std::atomic<uint32_t> count{0};
};
extern ArgSizeTable g_arg_sizes[ACTIVITY_DOMAIN_NUMBER];
// Each domain's printers (null for a domain without them).
extern const ApiArgs::Printers* const g_arg_printers[ACTIVITY_DOMAIN_NUMBER];

// ApiArgs and their bytes for one batch of events: addresses stay valid
// until Clear (or the arena goes). The queue chunks ArgCapture::Take read
// to their end while filling it are freed with it.
class ArgArena {
 public:
  ArgArena() = default;
  ArgArena(const ArgArena&) = delete;
  ArgArena& operator=(const ArgArena&) = delete;
  ~ArgArena();
  const ApiArgs* Add(uint32_t domain, uint32_t op, const void* bytes,
                     uint32_t size);
  void Clear();
  // Frees `chunk` with the arena (at Clear, or when it goes). Does not
  // throw (the chunks are linked through themselves): the pool's delivery
  // callback calls it.
  void Adopt(ArgChunk* chunk) noexcept;
  // Whether queue chunks were adopted since it was made or cleared.
  bool holds_chunks() const { return adopted_ != nullptr; }

 private:
  static constexpr size_t kChunkBytes = 64 << 10;
  // Room for an ApiArgs and `padded` bytes; nullptr when too large.
  unsigned char* Room(size_t padded);
  std::vector<std::unique_ptr<unsigned char[]>> chunks_;
  size_t chunk_ = 0;  // the chunk being filled
  size_t used_ = 0;
  ArgChunk* adopted_ = nullptr;  // the last adopted; each links the one before
  void FreeAdopted();
};

// The arenas of the tool's batches, one pool buffer's events each, as the
// batches are filled (Next, current) and handed to the writers (Seal).
class BatchArenas {
 public:
  // The arena of the batch about to be filled: the last one again when it
  // was not handed over (it holds no queue chunk then), else a fresh one.
  ArgArena* Next();
  // The arena Next gave; null before it, and once Seal handed it over.
  ArgArena* current() const { return arena_.get(); }
  // What to hand the writers for `batch`, whose events' arguments are in
  // current(): the batch, holding the arena until its last reference goes.
  // A batch without events is handed over too when the arena holds queue
  // chunks, which events of batches already handed over may point into
  // (writers release batches in order: the chunks go after those). Null
  // when there is nothing to hand over; the arena stays for Next.
  EventBatch Seal(std::shared_ptr<EventList> batch);

 private:
  std::shared_ptr<ArgArena> arena_;
};

class ArgCapture {
 public:
  // The tool slot's callback (roctracer_internal_tool_enable_op_callback)
  // of an HIP, HSA or KFD op: the calling thread's copy of the arguments.
  // `arg` is unused.
  static void OnExit(uint32_t domain, uint32_t op, const void* data, void* arg);
  // OnExit for the ops of one domain (HIP, HSA, KFD; OnExit itself for
  // another): the domain's size table and argument offset known when
  // compiled.
  using ExitCallback = void (*)(uint32_t domain, uint32_t op, const void* data,
                                void* arg);
  static ExitCallback OnExitOf(uint32_t domain);
  // The same, for a callback that does more.
  static void Record(uint32_t domain, uint32_t op, const void* data);
  // Off: nothing is recorded from now on (a forked child, whose tool writes
  // nothing, or a stopped tool: no consumer would take them). On at first.
  static void SetRecording(bool on);
  // Whether a HIP call's result that is not a status follows its arguments
  // (EntrySizeOf's kRetvalFollows; on at first). Only the JSON writes it:
  // without one, those calls copy their arguments alone, and a call without
  // parameters nothing. Before the first SetRecording(true), which makes the
  // size tables once.
  static void SetRetvals(bool on);

  // The arguments of call `correlation_id` made on thread `tid`, in its
  // queue's entry, valid as long as `arena` (which takes the chunks read to
  // their end); nullptr when there are none (the op has no parameters, or
  // no entry of the call was found: its copy failed for want of memory, or
  // recording was off). Consumer side: one thread at a time.
  const ApiArgs* Take(uint32_t tid, uint64_t correlation_id, ArgArena* arena);
  // The same for a record of op `op` of `domain`: NoArguments() for an op
  // without parameters (nothing was recorded), without a look for it.
  // Inline for the common record: its op's size from the table, its entry
  // the first unread one of the last thread's only queue.
  const ApiArgs* Take(uint32_t domain, uint32_t op, uint32_t tid,
                      uint64_t correlation_id, ArgArena* arena) {
    if (__builtin_expect(
            domain >= ACTIVITY_DOMAIN_NUMBER ||
                op >= g_arg_sizes[domain].count.load(std::memory_order_acquire),
            0)) {
      return TakeUntabled(domain, op, tid, correlation_id, arena);
    }
    if (g_arg_sizes[domain].sizes[op] == 0) return NoArguments();
    if (__builtin_expect(last_queue_ != nullptr && last_tid_ == tid &&
                             generation_ == Generation(),
                         1)) {
      Queue* q = last_queue_;
      ArgChunk* c = q->head;
      const uint32_t at = q->head_read;
      // An entry below `written` is whole (the producer's release store).
      // `written` is read again only once the entries it last said were
      // whole are taken: the consumer trails the producer by a pool buffer,
      // so one read covers a buffer's entries instead of each one pulling
      // the line the producer stores to on every call.
      if (at < q->head_written ||
          at < (q->head_written = c->written.load(std::memory_order_acquire))) {
        auto* entry = reinterpret_cast<ArgEntry*>(c->data + at);
        if (__builtin_expect(entry->correlation_id == correlation_id, 1)) {
          entry->args.printers = g_arg_printers[entry->args.domain];
          entry->args.bytes = reinterpret_cast<const unsigned char*>(entry + 1);
          q->head_read =
              at + static_cast<uint32_t>(ArgEntryBytes(entry->args.size));
          return &entry->args;
        }
      }
    }
    return Take(tid, correlation_id, arena);
  }

  // The arguments of a call without parameters: none (each visits nothing).
  static const ApiArgs* NoArguments();

  // Calls whose arguments were not copied (out of memory) or never taken.
  uint64_t lost() const;

  // A thread's queue of calls (single producer, single consumer). The
  // producer's fields and the consumer's on lines of their own: the calling
  // thread stores to its half on every call and the consumer to its half on
  // every record, and on one line each store took the line from the other
  // core.
  struct Queue {
    // The producer's: the chunk it fills and how far.
    alignas(64) ArgChunk* tail = nullptr;
    uint32_t tail_used = 0;
    // The consumer's: the chunk it reads, how far, and how far its entries
    // were whole when it last read the chunk's `written` (0: read it).
    alignas(64) ArgChunk* head = nullptr;
    uint32_t head_read = 0;
    uint32_t head_written = 0;
    // Written once each, by the thread's first call and at its exit.
    uint32_t tid = 0;
    std::atomic<bool> exited{false};
  };
  // The registry of queues' generation: bumped by each thread's first call.
  static std::atomic<uint64_t> generation_now_;

 private:
  // The queues of thread `tid` (usually one); nullptr when none. Inline
  // when no thread came since the last look-up and the thread is the last
  // one's (a buffer's records come in runs of one thread's calls).
  // Exited threads' queues read to their end go, their last chunk to
  // `arena`.
  const std::vector<Queue*>* QueuesOf(uint32_t tid, ArgArena* arena) {
    if (__builtin_expect(last_queues_ != nullptr && last_tid_ == tid &&
                             generation_ == Generation(),
                         1)) {
      return last_queues_;
    }
    return QueuesOfSlow(tid, arena);
  }
  const std::vector<Queue*>* QueuesOfSlow(uint32_t tid, ArgArena* arena);
  // Take by op for an op the size tables do not hold (or none made yet).
  [[gnu::noinline]] const ApiArgs* TakeUntabled(uint32_t domain, uint32_t op,
                                                uint32_t tid,
                                                uint64_t correlation_id,
                                                ArgArena* arena);
  static uint64_t Generation() {
    return generation_now_.load(std::memory_order_acquire);
  }
  std::unordered_map<uint32_t, std::vector<Queue*>> by_tid_;
  uint64_t generation_ = 0;  // of the registry, when by_tid_ was made
  // The last thread looked up and its entry of by_tid_ (null: none), and
  // its queue when it has only one (null otherwise).
  uint32_t last_tid_ = 0;
  const std::vector<Queue*>* last_queues_ = nullptr;
  Queue* last_queue_ = nullptr;
};

// The stream a HIP call's arguments name (its hipStream_t parameter's
// value, as an integer): false for a call without one, or one whose
// stream parameter is where the call put a stream it created.
bool StreamHandleOf(const ApiArgs& args, uint64_t* handle);
// Whether an op has a stream parameter StreamHandleOf reads (the op alone
// says so).
bool HasStreamArg(uint32_t domain, uint32_t op);

// Bytes of an op's argument struct (the generated ArgsSize of its domain);
// 0 for a domain without printers.
uint32_t ArgsSizeOf(uint32_t domain, uint32_t op);
// An EntrySizeOf with this bit: the op's entries carry its result after
// its arguments (the size table's and recording's mark; the entries'
// ApiArgs::size is the rest of the value).
constexpr uint32_t kRetvalFollows = uint32_t{1} << 31;
// Bytes of an op's queue entries (the size tables hold these): its
// ArgsSizeOf, but for a HIP op that returns neither void nor hipError_t,
// which rocprofv3's JSON writes the result of (its api_status is 0):
// kRetvalFollows | its arguments padded to 8, then 8 (OpName::
// retval_in_args, RetvalOf); its ArgsSizeOf too when results are not
// recorded (ArgCapture::SetRetvals).
uint32_t EntrySizeOf(uint32_t domain, uint32_t op);
// The size an op's entries are recorded with: its size table's entry once
// the tables are made (the first ArgCapture::SetRecording: SetRetvals after
// that changes EntrySizeOf but no longer what is recorded), EntrySizeOf
// before that and for an op the table does not hold. What readers of the
// entries (OpName::retval_in_args) must go by.
uint32_t RecordedEntrySizeOf(uint32_t domain, uint32_t op);

// How many ops a domain has (its generated kCount); 0 for others.
uint32_t OpCountOf(uint32_t domain);

}  // namespace roctrace

#endif  // ROCTRACE_TOOL_ARG_CAPTURE_H_
