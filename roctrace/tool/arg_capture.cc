#include "roctrace/tool/arg_capture.h"

#include <cxxabi.h>
#include <pthread.h>
#include <roctracer.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <mutex>
#include <new>
#include <type_traits>
#include <typeinfo>
#include <utility>

#include "codegen/support/arg_format.h"
#include "hip_api_tables.h"
#include "hsa_api_tables.h"
#include "kfd_api_tables.h"
#include "runtime/platform/hot_tls.h"

namespace roctrace {
namespace {

using Entry = ArgEntry;
using Chunk = ArgChunk;

size_t EntryBytes(uint32_t size) { return ArgEntryBytes(size); }

// Entries searched for a record's before giving up on it.
constexpr int kWindow = 8;

std::atomic<uint64_t> g_lost{0};
std::atomic<bool> g_stopped{false};

}  // namespace

ArgSizeTable g_arg_sizes[ACTIVITY_DOMAIN_NUMBER];

namespace {
ArgSizeTable* const g_sizes = g_arg_sizes;
}  // namespace

// The calling thread's queue, read on every traced call: initial-exec, one
// %fs-relative load instead of a __tls_get_addr call (the header says why
// it has external linkage).
ROCTRACER_HOT_TLS ArgCapture::Queue* t_arg_queue = nullptr;

namespace {

struct Registry {
  std::mutex mutex;
  std::vector<ArgCapture::Queue*> queues;
  pthread_key_t exit_key;
  bool key_made = false;
};

Registry& TheRegistry() {
  static Registry* r = new Registry;  // never destroyed: threads outlive exit
  return *r;
}

// A thread that has exited, or is exiting, records nothing more.
ArgCapture::Queue* const kExited = reinterpret_cast<ArgCapture::Queue*>(1);

void OnThreadExit(void* q) {
  static_cast<ArgCapture::Queue*>(q)->exited.store(true,
                                                   std::memory_order_release);
  t_arg_queue = kExited;
}

// Chunks freed with their batch, kept for the queues' next ones (at most
// kKeptChunks, 4 MiB: about what the writers' queues hold in flight). A
// chunk fresh from the allocator had its pages faulted in by the calling
// thread (a third of a run's page faults), and the allocator gave them
// back once the chunks before were freed.
// None under AddressSanitizer, so that a chunk read after its batch let it
// go is reported there rather than hidden by its reuse.
#if defined(__SANITIZE_ADDRESS__)
constexpr size_t kKeptChunks = 0;
#else
constexpr size_t kKeptChunks = 128;
#endif

struct ChunkCache {
  std::mutex mutex;
  Chunk* head = nullptr;  // linked through adopted_before
  size_t count = 0;
};

ChunkCache& TheChunkCache() {
  static ChunkCache* cache = new ChunkCache;  // never destroyed, as Registry
  return *cache;
}

// A chunk for a queue, empty: a kept one, else a new one (null when out of
// memory). Its producer publishes it (`next` of the chunk before, or the
// registry's mutex) after these stores.
Chunk* NewChunk() {
  ChunkCache& cache = TheChunkCache();
  Chunk* c = nullptr;
  {
    std::lock_guard<std::mutex> lock(cache.mutex);
    c = cache.head;
    if (c != nullptr) {
      cache.head = c->adopted_before;
      --cache.count;
    }
  }
  if (c == nullptr) return new (std::nothrow) Chunk;
  c->written.store(0, std::memory_order_relaxed);
  c->next.store(nullptr, std::memory_order_relaxed);
  c->adopted_before = nullptr;
  return c;
}

void ReleaseChunk(Chunk* c) {
  ChunkCache& cache = TheChunkCache();
  {
    std::lock_guard<std::mutex> lock(cache.mutex);
    if (cache.count < kKeptChunks) {
      c->adopted_before = cache.head;
      cache.head = c;
      ++cache.count;
      return;
    }
  }
  delete c;
}

ArgCapture::Queue* MakeQueue() {
  Registry& r = TheRegistry();
  auto* q = new (std::nothrow) ArgCapture::Queue;
  Chunk* c = NewChunk();
  if (q == nullptr || c == nullptr) {
    delete q;
    if (c != nullptr) ReleaseChunk(c);
    return nullptr;
  }
  q->tid = static_cast<uint32_t>(syscall(SYS_gettid));
  q->tail = q->head = c;
  {
    std::lock_guard<std::mutex> lock(r.mutex);
    if (!r.key_made) {
      r.key_made = pthread_key_create(&r.exit_key, &OnThreadExit) == 0;
    }
    r.queues.push_back(q);
    ArgCapture::generation_now_.fetch_add(1, std::memory_order_release);
  }
  if (r.key_made) pthread_setspecific(r.exit_key, q);
  return q;
}

// Argument types as rocprofiler-sdk names them (the parameter's typeid,
// and that demangled) and names' lengths, by the printers' type and name
// strings (literals, so their addresses name them; one header spelling is
// one C++ type): demangled and measured once, not per argument.
struct Spelling {
  const char* type_key = nullptr;
  const char* name_key = nullptr;
  const char* mangled = "";
  uint32_t type_size = 0;
  uint32_t name_size = 0;
  char type[128];  // a longer one is cut (none is near)
};
struct SpellingCache {
  Spelling slots[512];
};

}  // namespace

// The writing thread's spellings (one per thread that writes arguments:
// the rocpd and JSON writers'), read once per call. Initial-exec (a plain
// pointer, no destructor to register): one %fs-relative load, not a TLS
// wrapper and __tls_get_addr. A thread's cache is freed by the key below
// when it exits.
// (void*: the cache's type is this file's own.)
ROCTRACER_HOT_TLS void* t_spellings = nullptr;

namespace {

SpellingCache& ThreadSpellings() {
  if (__builtin_expect(t_spellings == nullptr, 0)) {
    static pthread_key_t key;
    static const bool keyed = pthread_key_create(&key, [](void* cache) {
                                delete static_cast<SpellingCache*>(cache);
                              }) == 0;
    t_spellings = new SpellingCache;
    if (keyed) pthread_setspecific(key, t_spellings);
  }
  return *static_cast<SpellingCache*>(t_spellings);
}

using ArgTypeFn = const std::type_info* (*)(uint32_t op, uint32_t index);

// A slot filled for (type, name): out of line, so that a look-up that finds
// its slot (nearly all) saves no registers.
[[gnu::noinline, gnu::cold]] void Fill(Spelling& slot, ArgTypeFn arg_type,
                                       uint32_t op, uint32_t index,
                                       const char* type, const char* name) {
  const std::type_info* info = arg_type(op, index);
  char* demangled = nullptr;
  if (info != nullptr) {
    int status = 0;
    demangled = abi::__cxa_demangle(info->name(), nullptr, nullptr, &status);
    slot.mangled = info->name();
  } else {
    slot.mangled = "";
  }
  if (demangled != nullptr) {
    std::snprintf(slot.type, sizeof(slot.type), "%s", demangled);
    std::free(demangled);
  } else if (info != nullptr) {
    // What rocprofv3 writes of a name that does not demangle.
    std::snprintf(slot.type, sizeof(slot.type), "%s", info->name());
  } else {
    // Not expected: the header's spelling rather than none.
    roctracer::codegen::NormalizeTypeSpelling(type, slot.type,
                                              sizeof(slot.type));
  }
  slot.type_size = static_cast<uint32_t>(std::strlen(slot.type));
  slot.name_size = static_cast<uint32_t>(std::strlen(name));
  slot.type_key = type;
  slot.name_key = name;
}

inline const Spelling& Spelled(SpellingCache& cache, ArgTypeFn arg_type,
                               uint32_t op, uint32_t index, const char* type,
                               const char* name) {
  Spelling& slot = cache.slots[((reinterpret_cast<uintptr_t>(name) >> 2) ^
                                (reinterpret_cast<uintptr_t>(type) >> 3)) &
                               511];
  if (__builtin_expect(slot.type_key != type || slot.name_key != name, 0)) {
    Fill(slot, arg_type, op, index, type, name);
  }
  return slot;
}

struct VisitAdapter {
  ApiArgs::Visit visit;
  void* user;
  SpellingCache* spellings;  // the writing thread's, found once per call
  ArgTypeFn arg_type;
  uint32_t op;
};

void Adapt(uint32_t index, const char* type, const char* name,
           const char* value, size_t size, void* user) {
  auto* a = static_cast<VisitAdapter*>(user);
  const Spelling& s =
      Spelled(*a->spellings, a->arg_type, a->op, index, type, name);
  const ApiArg arg{index, s.type,      s.type_size, s.mangled,
                   name,  s.name_size, value,       size};
  a->visit(a->user, arg);
}

// The domain's printers on a copy laid out as its data struct (only the
// op's member of `args` is read). At EXIT: out-parameters are the call's
// results; no pointer is followed.
// A domain the installed ROCm lacks (no libhsakmt headers: no KFD APIs) has
// a data struct without `args`, and no call with arguments.
template <class Data, class = void>
struct HasArgs : std::false_type {};
template <class Data>
struct HasArgs<Data, std::void_t<decltype(std::declval<Data&>().args)>>
    : std::true_type {};

template <class Data, auto kIterate, auto kArgType>
void Each(const ApiArgs& args, ApiArgs::Visit visit, void* user) {
  if constexpr (HasArgs<Data>::value) {
    union Storage {
      Storage() {}
      Data data;
    } copy;
    // A call's result may follow its arguments (RetvalOf): not copied.
    std::memcpy(static_cast<void*>(&copy.data.args), args.bytes,
                std::min<size_t>(args.size, sizeof(copy.data.args)));
    VisitAdapter adapter{visit, user, &ThreadSpellings(), kArgType, args.op};
    kIterate(args.op, &copy.data, &Adapt, &adapter);
  }
}

// An argument struct is a few words: copied in 16- and 8-byte moves,
// without the call (and its fortified check) a memcpy of a run-time size
// is. `n` is a multiple of 8: both makers of ApiArgs (queue entries,
// ArgArena::Add) pad the bytes to 8.
inline void CopyArgWords(void* to, const unsigned char* from, size_t n) {
  auto* out = static_cast<unsigned char*>(to);
  size_t i = 0;
  for (; i + 16 <= n; i += 16) {
    unsigned char block[16];
    std::memcpy(block, from + i, 16);
    std::memcpy(out + i, block, 16);
  }
  if (i < n) std::memcpy(out + i, from + i, 8);
}

template <class Data, auto kIterate>
void Values(const ApiArgs& args, ApiArgs::ValueVisit visit, void* user) {
  if constexpr (HasArgs<Data>::value) {
    union Storage {
      Storage() {}
      Data data;
    } copy;
    // The size is the op's member's, never more than the union's (a
    // multiple of its 8-byte alignment): the bound only keeps the copy
    // inside `copy` whatever it reads.
    static_assert(sizeof(copy.data.args) % 8 == 0, "copied in words");
    CopyArgWords(&copy.data.args, args.bytes,
                 std::min<size_t>((args.size + size_t{7}) & ~size_t{7},
                                  sizeof(copy.data.args)));
    kIterate(args.op, &copy.data, visit, user);
  }
}

template <auto kArgType>
ApiArg Spell(const ApiArgs& args, uint32_t position, const char* header_type,
             const char* name, const char* value, size_t size) {
  const Spelling& s = Spelled(ThreadSpellings(), kArgType, args.op, position,
                              header_type, name);
  return ApiArg{position, s.type,      s.type_size, s.mangled,
                name,     s.name_size, value,       size};
}

template <class Data, auto kIterate, auto kArgType>
constexpr ApiArgs::Printers kPrintersOf{
    &Each<Data, kIterate, kArgType>, &Values<Data, kIterate>, &Spell<kArgType>};

template <class Data>
constexpr size_t ArgsOffsetOf() {
  if constexpr (HasArgs<Data>::value) {
    return offsetof(Data, args);
  } else {
    return 0;
  }
}

constexpr const ApiArgs::Printers* PrintersOf(uint32_t domain) {
  switch (domain) {
    case ACTIVITY_DOMAIN_HIP_API:
      return &kPrintersOf<hip_api_data_t, &roctracer::hip_api::IterateValues,
                          &roctracer::hip_api::ArgType>;
    case ACTIVITY_DOMAIN_HSA_API:
      return &kPrintersOf<hsa_api_data_t, &roctracer::hsa_api::IterateValues,
                          &roctracer::hsa_api::ArgType>;
    case ACTIVITY_DOMAIN_KFD_API:
      return &kPrintersOf<kfd_api_data_t, &roctracer::kfd_api::IterateValues,
                          &roctracer::kfd_api::ArgType>;
    default:
      return nullptr;
  }
}

static_assert(ACTIVITY_DOMAIN_NUMBER == 8, "a printer slot per domain");

}  // namespace

const ApiArgs::Printers* const g_arg_printers[ACTIVITY_DOMAIN_NUMBER] = {
    PrintersOf(0), PrintersOf(1), PrintersOf(2), PrintersOf(3),
    PrintersOf(4), PrintersOf(5), PrintersOf(6), PrintersOf(7)};

namespace {

// Where the data struct's `args` union starts.
constexpr size_t ArgsOffset(uint32_t domain) {
  switch (domain) {
    case ACTIVITY_DOMAIN_HIP_API:
      return ArgsOffsetOf<hip_api_data_t>();
    case ACTIVITY_DOMAIN_HSA_API:
      return ArgsOffsetOf<hsa_api_data_t>();
    case ACTIVITY_DOMAIN_KFD_API:
      return ArgsOffsetOf<kfd_api_data_t>();
    default:
      return 0;
  }
}

}  // namespace

bool HasStreamArg(uint32_t domain, uint32_t op) {
  return domain == ACTIVITY_DOMAIN_HIP_API &&
         roctracer::hip_api::StreamArg(op, nullptr, nullptr) ==
             roctracer::hip_api::kStreamArg;
}

bool StreamHandleOf(const ApiArgs& args, uint64_t* handle) {
  // The op alone says whether it has a stream parameter: most calls have
  // none, and need no copy of their arguments to say so.
  if (!HasStreamArg(args.domain, args.op)) return false;
  union Storage {
    Storage() {}
    hip_api_data_t data;
  } copy;
  std::memcpy(static_cast<void*>(&copy.data.args), args.bytes,
              std::min<size_t>(args.size, sizeof(copy.data.args)));
  const void* address = nullptr;
  if (roctracer::hip_api::StreamArg(args.op, &copy.data, &address) !=
          roctracer::hip_api::kStreamArg ||
      address == nullptr) {
    return false;
  }
  hipStream_t stream;
  std::memcpy(&stream, address, sizeof(stream));
  *handle = reinterpret_cast<uintptr_t>(stream);
  return true;
}

uint32_t ArgsSizeOf(uint32_t domain, uint32_t op) {
  switch (domain) {
    case ACTIVITY_DOMAIN_HIP_API:
      return roctracer::hip_api::ArgsSize(op);
    case ACTIVITY_DOMAIN_HSA_API:
      return roctracer::hsa_api::ArgsSize(op);
    case ACTIVITY_DOMAIN_KFD_API:
      return roctracer::kfd_api::ArgsSize(op);
    default:
      return 0;
  }
}

namespace {
std::atomic<bool> g_retvals{true};
}  // namespace

void ArgCapture::SetRetvals(bool on) {
  g_retvals.store(on, std::memory_order_relaxed);
}

uint32_t EntrySizeOf(uint32_t domain, uint32_t op) {
  const uint32_t size = ArgsSizeOf(domain, op);
  if (domain != ACTIVITY_DOMAIN_HIP_API ||
      !g_retvals.load(std::memory_order_relaxed) ||
      roctracer::hip_api::ReturnsStatus(op) ||
      roctracer::hip_api::RetvalSize(op) == 0) {
    return size;
  }
  return kRetvalFollows | (((size + 7) & ~uint32_t{7}) + 8);
}

uint32_t RecordedEntrySizeOf(uint32_t domain, uint32_t op) {
  if (domain < ACTIVITY_DOMAIN_NUMBER) {
    const ArgSizeTable& table = g_arg_sizes[domain];
    if (op < table.count.load(std::memory_order_acquire)) {
      return table.sizes[op];
    }
  }
  return EntrySizeOf(domain, op);
}

uint32_t OpCountOf(uint32_t domain) {
  switch (domain) {
    case ACTIVITY_DOMAIN_HIP_API:
      return roctracer::hip_api::kCount;
    case ACTIVITY_DOMAIN_HSA_API:
      return roctracer::hsa_api::kCount;
    case ACTIVITY_DOMAIN_KFD_API:
      return roctracer::kfd_api::kCount;
    default:
      return 0;
  }
}

unsigned char* ArgArena::Room(size_t padded) {
  const size_t need = sizeof(ApiArgs) + padded;
  if (need > kChunkBytes) return nullptr;
  if (chunks_.empty() || used_ + need > kChunkBytes) {
    if (!chunks_.empty() && chunk_ + 1 < chunks_.size()) {
      ++chunk_;  // kept from an earlier batch
    } else {
      chunks_.emplace_back(new unsigned char[kChunkBytes]);
      chunk_ = chunks_.size() - 1;
    }
    used_ = 0;
  }
  unsigned char* p = chunks_[chunk_].get() + used_;
  used_ += need;
  return p;
}

const ApiArgs* ArgArena::Add(uint32_t domain, uint32_t op, const void* bytes,
                             uint32_t size) {
  unsigned char* p = Room((size + 7) & ~size_t{7});
  if (p == nullptr) return nullptr;
  unsigned char* copy = p + sizeof(ApiArgs);
  std::memcpy(copy, bytes, size);
  return new (p) ApiArgs{PrintersOf(domain), domain, op, size, copy};
}

void ArgArena::Adopt(ArgChunk* chunk) noexcept {
  chunk->adopted_before = adopted_;
  adopted_ = chunk;
}

void ArgArena::FreeAdopted() {
  while (adopted_ != nullptr) {
    ArgChunk* c = adopted_;
    adopted_ = c->adopted_before;
    ReleaseChunk(c);
  }
}

void ArgArena::Clear() {
  chunk_ = 0;
  used_ = 0;
  FreeAdopted();
}

ArgArena::~ArgArena() { FreeAdopted(); }

ArgArena* BatchArenas::Next() {
  if (arena_ == nullptr) arena_ = std::make_shared<ArgArena>();
  return arena_.get();
}

EventBatch BatchArenas::Seal(std::shared_ptr<EventList> batch) {
  const bool has_events = batch != nullptr && !batch->empty();
  if (arena_ == nullptr) return has_events ? batch : nullptr;
  if (!has_events && !arena_->holds_chunks()) return nullptr;
  if (batch == nullptr) batch = std::make_shared<EventList>();
  EventBatch sealed(batch.get(), [batch, arena = arena_](auto*) {});
  arena_ = nullptr;
  return sealed;
}

void ArgCapture::OnExit(uint32_t domain, uint32_t op, const void* data, void*) {
  Record(domain, op, data);
}

void ArgCapture::SetRecording(bool on) {
  static std::once_flag tables;
  std::call_once(tables, [] {
    for (uint32_t domain : {ACTIVITY_DOMAIN_HIP_API, ACTIVITY_DOMAIN_HSA_API,
                            ACTIVITY_DOMAIN_KFD_API}) {
      const uint32_t count = OpCountOf(domain);
      // Never freed: calls may be recorded until the process ends.
      auto* sizes = new (std::nothrow) uint32_t[count];
      if (sizes == nullptr) continue;
      for (uint32_t op = 0; op < count; ++op) {
        sizes[op] = EntrySizeOf(domain, op);
      }
      g_sizes[domain].sizes = sizes;
      g_sizes[domain].count.store(count, std::memory_order_release);
    }
  });
  g_stopped.store(!on, std::memory_order_relaxed);
}

namespace {

// Writes one entry where the queue's chunk has room for it (inline: with
// a constant domain, the args' offset is one). With `retval`, the entry's
// bytes are the padded arguments and then those 8 (a null constant where
// the common path inlines it: no cost there).
inline void Append(ArgCapture::Queue* q, uint32_t domain, uint32_t op,
                   const void* data, uint32_t size,
                   const uint64_t* retval = nullptr) {
  Chunk* const chunk = q->tail;
  const uint32_t used = q->tail_used;
  unsigned char* p = chunk->data + used;
  const size_t padded = (size + 7) & ~size_t{7};
  const uint32_t bytes =
      retval == nullptr ? size : static_cast<uint32_t>(padded + 8);
  // Every traced call has a correlation ID; the data structs all start
  // with it. The args' printers and bytes are the consumer's to write.
  auto* entry = reinterpret_cast<Entry*>(p);
  entry->correlation_id = *static_cast<const uint64_t*>(data);
  entry->args.domain = domain;
  entry->args.op = op;
  entry->args.size = bytes;
  // In words, inline: most argument structs are a few words. The padding
  // read past `size` stays inside the data struct's `args` union (its size
  // is a multiple of its 8-byte alignment).
  const unsigned char* from =
      static_cast<const unsigned char*>(data) + ArgsOffset(domain);
  for (size_t i = 0; i < padded; i += 8) {
    std::memcpy(p + sizeof(Entry) + i, from + i, 8);
  }
  if (retval != nullptr) {
    std::memcpy(p + sizeof(Entry) + padded, retval, sizeof(*retval));
  }
  // From the locals read before the copy (its stores may alias the queue).
  const uint32_t now = used + static_cast<uint32_t>(EntryBytes(bytes));
  q->tail_used = now;
  chunk->written.store(now, std::memory_order_release);
}

// The calling thread's queue with room for an entry of `bytes` (a new
// chunk when the last is full); nullptr when none can be had (counted as
// lost) or the thread has exited.
[[gnu::noinline]] ArgCapture::Queue* QueueWithRoom(size_t bytes) {
  ArgCapture::Queue* q = t_arg_queue;
  if (q == nullptr) {
    q = t_arg_queue = MakeQueue();
    if (q == nullptr) {
      g_lost.fetch_add(1, std::memory_order_relaxed);
      return nullptr;
    }
  }
  if (q == kExited) return nullptr;
  if (q->tail_used + bytes > Chunk::kBytes) {
    Chunk* c = NewChunk();
    if (c == nullptr) {
      g_lost.fetch_add(1, std::memory_order_relaxed);
      return nullptr;
    }
    Chunk* full = q->tail;
    q->tail = c;
    q->tail_used = 0;
    full->next.store(c, std::memory_order_release);
  }
  return q;
}

// A thread's first call, a thread exiting, a full chunk: out of Record, so
// that its common path makes no call and saves no registers.
[[gnu::noinline]] void RecordSlow(uint32_t domain, uint32_t op,
                                  const void* data, uint32_t size) {
  ArgCapture::Queue* q = QueueWithRoom(EntryBytes(size));
  if (q != nullptr) Append(q, domain, op, data, size);
}

// A HIP call returning neither void nor hipError_t (EntrySizeOf's
// kRetvalFollows; out of line: status calls, the common ones, never come
// here): the arguments, then the result's first 8 bytes, zero-extended
// when it has fewer (the stub writes only its own member of the data's
// retval union; the rest is stale), as rocprofiler-sdk's uint64_t_retval
// holds them. `bytes`: the padded arguments and the 8.
[[gnu::noinline]] void RecordWithRetval(uint32_t op, const void* data,
                                        uint32_t bytes) {
  if (data == nullptr || g_stopped.load(std::memory_order_relaxed)) return;
  const auto* d = static_cast<const hip_api_data_t*>(data);
  uint64_t retval;
  // The union is the struct's last member but for padding to its 8-byte
  // alignment, whatever members a release's HIP gives it.
  static_assert(offsetof(hip_api_data_t, hipError_t_retval) + sizeof(retval) <=
                    sizeof(hip_api_data_t),
                "the retval union has 8 bytes to read");
  std::memcpy(&retval, &d->hipError_t_retval, sizeof(retval));
  const uint32_t width = roctracer::hip_api::RetvalSize(op);
  if (width < 8) retval &= (uint64_t{1} << (8 * width)) - 1;
  // As RecordIn: the queue's own chunk when it has room, inline.
  ArgCapture::Queue* q = t_arg_queue;
  if (__builtin_expect(q == nullptr || q == kExited ||
                           q->tail_used + EntryBytes(bytes) > Chunk::kBytes,
                       0)) {
    q = QueueWithRoom(EntryBytes(bytes));
    if (q == nullptr) return;
  }
  Append(q, ACTIVITY_DOMAIN_HIP_API, op, data, bytes - 8, &retval);
}

// An op the size tables do not hold (or none made yet).
[[gnu::noinline]] void RecordUntabled(uint32_t domain, uint32_t op,
                                      const void* data) {
  const uint32_t size = EntrySizeOf(domain, op);
  if (size & kRetvalFollows) {
    RecordWithRetval(op, data, size & ~kRetvalFollows);
    return;
  }
  if (size == 0 || data == nullptr ||
      g_stopped.load(std::memory_order_relaxed)) {
    return;
  }
  RecordSlow(domain, op, data, size);
}

}  // namespace

namespace {

// A traced call of domain kDomain: its op's size from the table, the entry
// written inline (a thread's first call and a full chunk out of line).
template <uint32_t kDomain>
inline void RecordIn(uint32_t op, const void* data) {
  const ArgSizeTable& table = g_arg_sizes[kDomain];
  if (__builtin_expect(op >= table.count.load(std::memory_order_acquire), 0)) {
    RecordUntabled(kDomain, op, data);
    return;
  }
  const uint32_t size = table.sizes[op];
  // One test for both an op without parameters (0) and one whose result
  // follows them (kRetvalFollows, the sign bit): a status call pays nothing
  // for the latter.
  if (static_cast<int32_t>(size) <= 0 || data == nullptr ||
      g_stopped.load(std::memory_order_relaxed)) {
    if (__builtin_expect(size != 0, 0) && kDomain == ACTIVITY_DOMAIN_HIP_API) {
      RecordWithRetval(op, data, size & ~kRetvalFollows);
    }
    return;
  }
  ArgCapture::Queue* q = t_arg_queue;
  if (q == nullptr || q == kExited ||
      q->tail_used + EntryBytes(size) > Chunk::kBytes) {
    RecordSlow(kDomain, op, data, size);
    return;
  }
  Append(q, kDomain, op, data, size);
}

template <uint32_t kDomain>
void OnExitIn(uint32_t, uint32_t op, const void* data, void*) {
  RecordIn<kDomain>(op, data);
}

}  // namespace

void ArgCapture::Record(uint32_t domain, uint32_t op, const void* data) {
  switch (domain) {
    case ACTIVITY_DOMAIN_HIP_API:
      RecordIn<ACTIVITY_DOMAIN_HIP_API>(op, data);
      return;
    case ACTIVITY_DOMAIN_HSA_API:
      RecordIn<ACTIVITY_DOMAIN_HSA_API>(op, data);
      return;
    case ACTIVITY_DOMAIN_KFD_API:
      RecordIn<ACTIVITY_DOMAIN_KFD_API>(op, data);
      return;
    default:
      RecordUntabled(domain, op, data);
  }
}

ArgCapture::ExitCallback ArgCapture::OnExitOf(uint32_t domain) {
  switch (domain) {
    case ACTIVITY_DOMAIN_HIP_API:
      return &OnExitIn<ACTIVITY_DOMAIN_HIP_API>;
    case ACTIVITY_DOMAIN_HSA_API:
      return &OnExitIn<ACTIVITY_DOMAIN_HSA_API>;
    case ACTIVITY_DOMAIN_KFD_API:
      return &OnExitIn<ACTIVITY_DOMAIN_KFD_API>;
    default:
      return &OnExit;
  }
}

std::atomic<uint64_t> ArgCapture::generation_now_{0};

const std::vector<ArgCapture::Queue*>* ArgCapture::QueuesOfSlow(
    uint32_t tid, ArgArena* arena) {
  Registry& r = TheRegistry();
  if (Generation() != generation_) {
    // Threads came: the map again, and the queues of exited threads that
    // hold nothing more go.
    std::lock_guard<std::mutex> lock(r.mutex);
    by_tid_.clear();
    std::vector<Queue*> kept;
    for (Queue* q : r.queues) {
      if (q->exited.load(std::memory_order_acquire) &&
          q->head->next.load(std::memory_order_acquire) == nullptr &&
          q->head_read == q->head->written.load(std::memory_order_acquire)) {
        // Events of batches not yet written may point into it.
        arena->Adopt(q->head);
        delete q;
        continue;
      }
      kept.push_back(q);
      by_tid_[q->tid].push_back(q);
    }
    r.queues.swap(kept);
    generation_ = Generation();
    last_queues_ = nullptr;
    last_queue_ = nullptr;
  }
  if (last_queues_ != nullptr && last_tid_ == tid) return last_queues_;
  auto it = by_tid_.find(tid);
  if (it == by_tid_.end()) return nullptr;
  last_tid_ = tid;
  last_queues_ = &it->second;
  last_queue_ = it->second.size() == 1 ? it->second.front() : nullptr;
  return last_queues_;
}

const ApiArgs* ArgCapture::Take(uint32_t tid, uint64_t correlation_id,
                                ArgArena* arena) {
  const std::vector<Queue*>* queues = QueuesOf(tid, arena);
  if (queues == nullptr) return nullptr;
  // A reused thread ID may name an exited thread's queue and a new one's.
  for (Queue* q : *queues) {
    Chunk* c = q->head;
    uint32_t at = q->head_read;
    int skipped = 0;
    for (int k = 0; k < kWindow; ++k) {
      // `next` first: once set, `written` is final.
      Chunk* next = c->next.load(std::memory_order_acquire);
      if (at == c->written.load(std::memory_order_acquire)) {
        if (next == nullptr) break;
        c = next;
        at = 0;
        if (c->written.load(std::memory_order_acquire) == 0) break;
      }
      auto* entry = reinterpret_cast<Entry*>(c->data + at);
      at += static_cast<uint32_t>(EntryBytes(entry->args.size));
      if (entry->correlation_id != correlation_id) {
        ++skipped;
        continue;
      }
      entry->args.printers = PrintersOf(entry->args.domain);
      entry->args.bytes = reinterpret_cast<const unsigned char*>(entry + 1);
      const ApiArgs* args = &entry->args;
      // The chunks read to their end go with this batch's arena (the
      // entries before it had no record: passed).
      while (q->head != c) {
        Chunk* done = q->head;
        q->head = done->next.load(std::memory_order_acquire);
        arena->Adopt(done);
      }
      q->head_read = at;
      q->head_written = 0;  // `written` of the chunk now at the head
      if (skipped != 0) {
        g_lost.fetch_add(static_cast<uint64_t>(skipped),
                         std::memory_order_relaxed);
      }
      return args;
    }
  }
  return nullptr;
}

const ApiArgs* ArgCapture::TakeUntabled(uint32_t domain, uint32_t op,
                                        uint32_t tid, uint64_t correlation_id,
                                        ArgArena* arena) {
  if (EntrySizeOf(domain, op) == 0) return NoArguments();
  return Take(tid, correlation_id, arena);
}

const ApiArgs* ArgCapture::NoArguments() {
  static const ApiArgs::Printers kNoPrinters{
      [](const ApiArgs&, ApiArgs::Visit, void*) {},
      [](const ApiArgs&, ApiArgs::ValueVisit, void*) {},
      [](const ApiArgs&, uint32_t, const char*, const char*, const char*,
         size_t) { return ApiArg{}; }};
  static const ApiArgs kNone{&kNoPrinters, 0, 0, 0, nullptr};
  return &kNone;
}

uint64_t ArgCapture::lost() const {
  return g_lost.load(std::memory_order_relaxed);
}

}  // namespace roctrace
