// The fast paths of the fault-safe reader (runtime/platform/readable_memory.h)
// and what invalidates them: a library's segments after dlclose (the address
// unmapped, then mapped again by something else), a heap block malloc gave
// back to the kernel, glibc arena heaps of worker threads and the reserved,
// inaccessible rest of them, memory unmapped while other threads read it.
// Every read must give the bytes there now, or "unreadable", and never
// fault.
#include "runtime/platform/readable_memory.h"

#include <dlfcn.h>
#include <gnu/libc-version.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/mman.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#include "codegen/support/arg_format.h"
#include "runtime/intercept/string_arena.h"
#include "runtime/platform/guarded_read.h"
#include "runtime/platform/loaded_segments.h"
#include "runtime/platform/malloc_arenas.h"
#include "runtime/platform/mapped_ranges.h"
#include "runtime/platform/startup_objects.h"
#include "tests/intercept/flickering_page.h"

namespace {

using roctracer::codegen::kUnreadableString;

constexpr uintptr_t kPage = 4096;

std::string ProbeLibrary(const char* name = "libreadable_probe.so") {
  const char* dir = std::getenv("TEST_SRCDIR");
  const char* ws = std::getenv("TEST_WORKSPACE");
  if (dir == nullptr || ws == nullptr) return name;
  return std::string(dir) + "/" + ws + "/tests/intercept/" + name;
}

// Past the interval at which a miss may refresh the mapping snapshot, so
// that the next miss does.
void LetTheSnapshotRefresh() {
  usleep(static_cast<useconds_t>(
      roctracer::platform::kRefreshIntervalNs / 1000 + 1000));
}

// The loader-locked lookup (used where guarded reads are off) as a copy.
std::string CopiedUnderTheLoaderLock(const char* s) {
  std::string out = "<not found>";
  roctracer::platform::VisitLoadedSegment(
      s,
      [](const char* p, size_t span, void* ctx) {
        *static_cast<std::string*>(ctx) = std::string(p, strnlen(p, span));
      },
      &out);
  return out;
}

class ReadableMemoryTest : public ::testing::Test {
 protected:
  void SetUp() override {
    arena_ = roctracer::StringArena::ForThisThread();
    ASSERT_NE(arena_, nullptr);
    mark_ = arena_->Mark();
  }
  void TearDown() override { arena_->Release(mark_); }

  std::string Copied(const char* s) {
    const char* copy = arena_->Copy(s);
    if (copy == kUnreadableString) return "<unreadable>";
    EXPECT_NE(copy, s);
    return copy;
  }

  roctracer::StringArena* arena_ = nullptr;
  uint64_t mark_ = 0;
};

TEST_F(ReadableMemoryTest, StartupObjectsAreTheProgramAndItsLibraries) {
  // The program, libc (this test needs it), the dynamic linker, the vDSO.
  EXPECT_GE(roctracer::platform::StartupObjectCount(), 3u);
  EXPECT_GT(roctracer::platform::StartupObjectSpan("a literal of the program"),
            0u);
  const char* in_libc = gnu_get_libc_version();
  EXPECT_GT(roctracer::platform::StartupObjectSpan(in_libc), 0u);
  EXPECT_EQ(Copied(in_libc), in_libc);
  int on_stack = 0;
  EXPECT_EQ(roctracer::platform::StartupObjectSpan(&on_stack), 0u);
}

TEST_F(ReadableMemoryTest, LibraryStringAfterDlcloseAndReuseOfTheAddress) {
  const std::string path = ProbeLibrary();
  void* lib = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  ASSERT_NE(lib, nullptr) << dlerror();
  auto text_of = reinterpret_cast<const char* (*)()>(dlsym(lib, "ProbeText"));
  ASSERT_NE(text_of, nullptr);
  const char* text = text_of();
  const std::string expected = text;
  // Loaded later: not a startup object. Read through the mapping snapshot
  // (guarded reads), or under the loader's lock where those are off.
  EXPECT_EQ(roctracer::platform::StartupObjectSpan(text), 0u);
  LetTheSnapshotRefresh();
  EXPECT_EQ(Copied(text), expected);
  if (roctracer::platform::GuardedReadsOn()) {
    EXPECT_GT(roctracer::platform::MappedSpan(text), 0u);
  }
  EXPECT_EQ(CopiedUnderTheLoaderLock(text), expected);
  // Neither the snapshot nor the loader's cache is rebuilt per lookup.
  const size_t builds = roctracer::platform::LoadedSegmentCacheBuilds();
  const size_t refreshes = roctracer::platform::MappedRangeRefreshes();
  for (int i = 0; i < 100; ++i) {
    ASSERT_EQ(Copied(text), expected);
    ASSERT_EQ(CopiedUnderTheLoaderLock(text), expected);
  }
  EXPECT_EQ(roctracer::platform::LoadedSegmentCacheBuilds(), builds);
  EXPECT_EQ(roctracer::platform::MappedRangeRefreshes(), refreshes);

  const size_t faults = roctracer::platform::GuardedReadFaults();
  ASSERT_EQ(dlclose(lib), 0);
  // Unloaded: the address is no longer mapped. The snapshot still lists it
  // (a direct read would fault): the guard catches the fault, which
  // refreshes the snapshot.
  EXPECT_EQ(Copied(text), "<unreadable>");
  if (roctracer::platform::GuardedReadsOn()) {
    EXPECT_EQ(roctracer::platform::GuardedReadFaults(), faults + 1);
    EXPECT_GT(roctracer::platform::MappedRangeRefreshes(), refreshes);
    EXPECT_EQ(Copied(text), "<unreadable>");
    EXPECT_EQ(roctracer::platform::GuardedReadFaults(),
              faults + 1);  // now known
  }
  EXPECT_EQ(CopiedUnderTheLoaderLock(text), "<not found>");
  EXPECT_GT(roctracer::platform::LoadedSegmentCacheBuilds(), builds);

  // Something else mapped at the same address: its bytes, not the old ones.
  void* page_at =
      reinterpret_cast<void*>(reinterpret_cast<uintptr_t>(text) & ~(kPage - 1));
  void* again = mmap(page_at, kPage, PROT_READ | PROT_WRITE,
                     MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
  ASSERT_EQ(again, page_at);
  char* reused =
      static_cast<char*>(again) + (text - static_cast<char*>(page_at));
  std::strcpy(reused, "new");
  EXPECT_EQ(Copied(reused), "new");
  // Made inaccessible: unreadable again.
  ASSERT_EQ(mprotect(again, kPage, PROT_NONE), 0);
  EXPECT_EQ(Copied(reused), "<unreadable>");
  ASSERT_EQ(munmap(again, kPage), 0);

  // Loaded again: copied again.
  lib = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  ASSERT_NE(lib, nullptr) << dlerror();
  text_of = reinterpret_cast<const char* (*)()>(dlsym(lib, "ProbeText"));
  EXPECT_EQ(Copied(text_of()), expected);
  dlclose(lib);
}

TEST_F(ReadableMemoryTest, LargeBlockGivenBackToTheKernel) {
  // Above the mmap threshold: malloc maps the block on its own and free
  // unmaps it.
  constexpr size_t kSize = 8u << 20;
  char* block = static_cast<char*>(std::malloc(kSize));
  ASSERT_NE(block, nullptr);
  std::memset(block, 'b', 100);
  block[100] = '\0';
  EXPECT_EQ(Copied(block), std::string(100, 'b'));
  char value[16];
  EXPECT_TRUE(roctracer::platform::CopyIfReadable(value, block, sizeof(value)));
  std::free(block);
#if !defined(__SANITIZE_ADDRESS__)
  // (ASan keeps freed blocks mapped, in quarantine.)
  EXPECT_EQ(Copied(block), "<unreadable>");
  EXPECT_FALSE(
      roctracer::platform::CopyIfReadable(value, block, sizeof(value)));
  EXPECT_EQ(value[0], 0);  // zeroed
  EXPECT_FALSE(roctracer::platform::IsReadableString(block));
#endif
}

TEST_F(ReadableMemoryTest, WorkerThreadArenaHeap) {
  char* from_worker = nullptr;
  std::thread([&] {
    from_worker = static_cast<char*>(std::malloc(64));
    std::strcpy(from_worker, "allocated by a worker thread");
  }).join();
  ASSERT_NE(from_worker, nullptr);
  EXPECT_EQ(Copied(from_worker), "allocated by a worker thread");
#if !defined(__SANITIZE_ADDRESS__) && !defined(__SANITIZE_THREAD__)
  // glibc's allocator (the sanitizers bring their own): the block's arena
  // heap is learnt (where guarded reads are off, the first copy learns it;
  // where they are on, the snapshot serves it and this learns it now), so
  // later copies need no system call.
  EXPECT_TRUE(roctracer::platform::LearnArenaHeap(from_worker));
  EXPECT_GT(roctracer::platform::ArenaHeapSpan(from_worker), 0u);
  // The reserved rest of the heap (64 MiB, mapped inaccessible past what
  // the arena uses) is not vouched for.
  const uintptr_t base =
      reinterpret_cast<uintptr_t>(from_worker) & ~((uintptr_t{64} << 20) - 1);
  const char* reserved = reinterpret_cast<const char*>(base + (64u << 20) - 64);
  EXPECT_EQ(roctracer::platform::ArenaHeapSpan(reserved), 0u);
  EXPECT_EQ(Copied(reserved), "<unreadable>");
#endif
  std::free(from_worker);
}

// Library strings copied on several threads while another one loads and
// unloads a library: every copy is right, nothing faults (run under TSan).
TEST_F(ReadableMemoryTest, LookupsDuringDlopenDlclose) {
  const std::string path = ProbeLibrary();
  void* keep = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  ASSERT_NE(keep, nullptr) << dlerror();
  const char* text =
      reinterpret_cast<const char* (*)()>(dlsym(keep, "ProbeText"))();
  const std::string expected = text;
  std::atomic<bool> stop{false};
  std::atomic<int> wrong{0};
  std::vector<std::thread> readers;
  for (int t = 0; t < 3; ++t) {
    readers.emplace_back([&] {
      roctracer::StringArena* arena = roctracer::StringArena::ForThisThread();
      while (!stop.load()) {
        const uint64_t mark = arena->Mark();
        if (expected != arena->Copy(text)) wrong.fetch_add(1);
        arena->Release(mark);
        // The locked lookup may give up while objects keep being loaded
        // and unloaded ("<not found>"); it must never give other bytes.
        const std::string locked = CopiedUnderTheLoaderLock(text);
        if (locked != expected && locked != "<not found>") wrong.fetch_add(1);
      }
    });
  }
  // Another library: its loading and unloading change the loader's
  // counters, so the readers keep rebuilding the cache.
  const std::string other_path = ProbeLibrary("libreadable_probe_other.so");
  const size_t builds = roctracer::platform::LoadedSegmentCacheBuilds();
  // At least 200 rounds, and on until a reader has rebuilt the cache (on a
  // loaded machine the readers may not run at all during the first ones).
  for (int i = 0;
       i < 200 || (roctracer::platform::LoadedSegmentCacheBuilds() == builds &&
                   i < 100000);
       ++i) {
    void* other = dlopen(other_path.c_str(), RTLD_NOW | RTLD_LOCAL);
    ASSERT_NE(other, nullptr) << dlerror();
    dlclose(other);
  }
  stop = true;
  for (auto& t : readers) t.join();
  EXPECT_EQ(wrong.load(), 0);
  EXPECT_GT(roctracer::platform::LoadedSegmentCacheBuilds(), builds);
  dlclose(keep);
}

// The guarded loads read whole aligned words: at every alignment and
// length, right up to an unmapped page, they copy and measure exactly and
// fault only on the unmapped page.
TEST(GuardedReadTest, EveryAlignmentUpToAnUnmappedPage) {
  if (!roctracer::platform::GuardedReadsOn())
    GTEST_SKIP() << "no fault guard here";
  void* p = mmap(nullptr, 2 * kPage, PROT_READ | PROT_WRITE,
                 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  ASSERT_NE(p, MAP_FAILED);
  char* page = static_cast<char*>(p);
  ASSERT_EQ(munmap(page + kPage, kPage), 0);
  for (size_t i = 0; i < kPage; ++i) page[i] = static_cast<char>('a' + i % 26);
  char* const end = page + kPage;
  for (size_t length = 0; length <= 40; ++length) {
    for (size_t offset = 0; offset < 16; ++offset) {
      // `length` bytes ending `offset` bytes before the unmapped page.
      const char* src = end - offset - length;
      char out[48];
      std::memset(out, '#', sizeof(out));
      ASSERT_TRUE(roctracer::platform::GuardedCopy(out, src, length));
      ASSERT_EQ(std::memcmp(out, src, length), 0);
      ASSERT_EQ(out[length], '#');  // nothing written past n
      if (offset == 0 && length > 0) {
        ASSERT_FALSE(roctracer::platform::GuardedCopy(out, src, length + 1));
      }
      // A NUL at `length`: found. No NUL before the span's end: the span.
      char* nul = end - offset - 1;
      const char saved = *nul;
      *nul = '\0';
      const char* s = nul - length;
      ASSERT_EQ(
          roctracer::platform::GuardedStringLength(s, length + 1 + offset),
          length);
      ASSERT_EQ(roctracer::platform::GuardedStringLength(s, length), length);
      *nul = saved;
      if (offset == 0) {  // runs into the unmapped page
        ASSERT_EQ(roctracer::platform::GuardedStringLength(s, length + 64),
                  roctracer::platform::kReadFaulted);
      }
    }
  }
  munmap(page, kPage);
}

// Memory no rule keeps mapped (an anonymous mapping: a large malloc block,
// a buffer the program maps) is read through the snapshot, without a system
// call once the snapshot knows it.
TEST_F(ReadableMemoryTest, AnonymousMappingIsReadThroughTheSnapshot) {
  void* p = mmap(nullptr, 2 * kPage, PROT_READ | PROT_WRITE,
                 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  ASSERT_NE(p, MAP_FAILED);
  char* text = static_cast<char*>(p) + kPage - 10;  // across two pages
  std::strcpy(text, "in an anonymous mapping");
  LetTheSnapshotRefresh();
  EXPECT_EQ(Copied(text), "in an anonymous mapping");
  if (roctracer::platform::GuardedReadsOn()) {
    EXPECT_GE(roctracer::platform::MappedSpan(text), kPage + 10);
    const size_t refreshes = roctracer::platform::MappedRangeRefreshes();
    for (int i = 0; i < 100; ++i) ASSERT_EQ(Copied(text), text);
    EXPECT_EQ(roctracer::platform::MappedRangeRefreshes(), refreshes);
  }
  char value[8];
  EXPECT_TRUE(roctracer::platform::CopyIfReadable(value, text, sizeof(value)));
  EXPECT_EQ(std::memcmp(value, "in an an", 8), 0);
  EXPECT_TRUE(roctracer::platform::IsReadableString(text));
  EXPECT_EQ(roctracer::platform::ReadableStringLength(text),
            std::strlen("in an anonymous mapping"));
  ASSERT_EQ(munmap(p, 2 * kPage), 0);
  EXPECT_EQ(Copied(text), "<unreadable>");
  EXPECT_FALSE(roctracer::platform::CopyIfReadable(value, text, sizeof(value)));
  EXPECT_FALSE(roctracer::platform::IsReadableString(text));
  EXPECT_EQ(roctracer::platform::ReadableStringLength(text),
            roctracer::platform::kUnreadableLength);
}

// The length a rocTX record's copy uses, from every home a string has: the
// program's literals (the fast path, twice: the second call answers from the
// thread's lasting range), the stack, the heap, a string running into an
// unmapped page (no NUL: unreadable), NULL and unmapped addresses.
TEST_F(ReadableMemoryTest, ReadableStringLengthFromEveryHome) {
  using roctracer::platform::kUnreadableLength;
  using roctracer::platform::ReadableStringLength;
  static const char kLiteral[] = "a literal of the program";
  EXPECT_EQ(ReadableStringLength(kLiteral), sizeof(kLiteral) - 1);
  EXPECT_EQ(ReadableStringLength(kLiteral), sizeof(kLiteral) - 1);
  EXPECT_EQ(ReadableStringLength(kLiteral + 2), sizeof(kLiteral) - 3);
  EXPECT_EQ(ReadableStringLength(""), 0u);
  char on_stack[40];
  std::strcpy(on_stack, "on the stack");
  EXPECT_EQ(ReadableStringLength(on_stack), std::strlen("on the stack"));
  std::string on_heap(300, 'h');
  EXPECT_EQ(ReadableStringLength(on_heap.c_str()), 300u);
  // The last bytes of a page before an unmapped one, without a NUL.
  void* p = mmap(nullptr, 2 * kPage, PROT_READ | PROT_WRITE,
                 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  ASSERT_NE(p, MAP_FAILED);
  ASSERT_EQ(munmap(static_cast<char*>(p) + kPage, kPage), 0);
  char* tail = static_cast<char*>(p) + kPage - 16;
  std::memset(tail, 't', 16);
  EXPECT_EQ(ReadableStringLength(tail), kUnreadableLength);
  tail[15] = '\0';
  LetTheSnapshotRefresh();
  EXPECT_EQ(ReadableStringLength(tail), 15u);
  ASSERT_EQ(munmap(p, kPage), 0);
  EXPECT_EQ(ReadableStringLength(nullptr), kUnreadableLength);
  EXPECT_EQ(ReadableStringLength(reinterpret_cast<const char*>(16)),
            kUnreadableLength);
}

// A thread unmaps and maps again a file's page holding a string while others
// copy it (as the string argument of a traced call, as a `__val` pointee,
// and as a rocTX message): each copy is the string or "unreadable", never a
// fault (run under ASan and TSan too).
TEST_F(ReadableMemoryTest, UnmappingWhileOtherThreadsCopy) {
  roctracer_test::FlickeringPage page("in a page another thread unmaps");
  const char* text = page.text();
  const std::string& expected = page.expected();
  std::atomic<bool> stop{false};
  std::atomic<int> wrong{0};
  std::atomic<int> copied{0};
  std::atomic<int> unreadable{0};
  std::vector<std::thread> readers;
  for (int t = 0; t < 3; ++t) {
    readers.emplace_back([&, t] {
      roctracer::StringArena* arena = roctracer::StringArena::ForThisThread();
      char value[16];
      for (int i = 0; !stop.load(); ++i) {
        bool readable = false;
        bool right = true;
        switch ((i + t) % 3) {
          case 0: {
            const uint64_t mark = arena->Mark();
            const char* copy = arena->Copy(text);
            readable = copy != kUnreadableString;
            right = !readable || expected == copy;
            arena->Release(mark);
            break;
          }
          case 1:
            readable =
                roctracer::platform::CopyIfReadable(value, text, sizeof(value));
            right = readable ? std::memcmp(value, expected.data(),
                                           sizeof(value)) == 0
                             : value[0] == 0;
            break;
          default:
            readable = roctracer::platform::IsReadableString(text);
            break;
        }
        if (!right) wrong.fetch_add(1);
        (readable ? copied : unreadable).fetch_add(1);
      }
    });
  }
  const size_t faults = roctracer::platform::GuardedReadFaults();
  const int cycles = page.Flicker([&](int cycles) {
    return cycles >= 200 &&
           (!roctracer::platform::GuardedReadsOn() ||
            roctracer::platform::GuardedReadFaults() >= faults + 20);
  });
  stop = true;
  for (auto& t : readers) t.join();
  EXPECT_GE(cycles, 10);
  EXPECT_EQ(wrong.load(), 0);
  EXPECT_GT(copied.load(), 0);
  if (roctracer::platform::GuardedReadsOn()) {
    // The race was run: reads of the unmapped page faulted and were caught.
    EXPECT_GT(roctracer::platform::GuardedReadFaults(), faults);
  }
  std::printf("%d cycles: %d copied, %d unreadable, %zu faults caught\n",
              cycles, copied.load(), unreadable.load(),
              roctracer::platform::GuardedReadFaults() - faults);
}

#if defined(__x86_64__)
// Faults that are not the tracer's reach the handler the program had
// installed before the tracer's (in a fresh process: the tracer installs its
// handler once).
TEST(FaultHandlerDeathTest, OtherFaultsReachTheProgramsHandler) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_EXIT(
      {
        struct sigaction program {};
        program.sa_handler = [](int) { _exit(42); };
        sigaction(SIGSEGV, &program, nullptr);
        if (!roctracer::platform::GuardedReadsOn()) _exit(1);
        void* p =
            mmap(nullptr, kPage, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        char byte = 0;
        // The tracer's own read faults quietly...
        if (roctracer::platform::GuardedCopy(&byte, p, 1)) _exit(2);
        // ...the program's goes to the program's handler.
        byte = *static_cast<volatile char*>(p);
        _exit(3);
      },
      ::testing::ExitedWithCode(42), "");
}

// A program that installs its own handler after the tracer's turns guarded
// reads off; strings are then read through the kernel, still right.
TEST(FaultHandlerDeathTest, ReplacedHandlerTurnsGuardedReadsOff) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_EXIT(
      {
        if (!roctracer::platform::GuardedReadsOn()) _exit(1);
        struct sigaction program {};
        program.sa_handler = [](int) { _exit(42); };
        sigaction(SIGSEGV, &program, nullptr);
        if (roctracer::platform::GuardedReadsStillOn()) _exit(2);
        if (roctracer::platform::GuardedReadsOn()) _exit(3);
        void* p = mmap(nullptr, kPage, PROT_READ | PROT_WRITE,
                       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        std::strcpy(static_cast<char*>(p), "mapped");
        roctracer::StringArena* arena = roctracer::StringArena::ForThisThread();
        if (std::strcmp(arena->Copy(static_cast<char*>(p)), "mapped") != 0) {
          _exit(4);
        }
        munmap(p, kPage);
        if (arena->Copy(static_cast<char*>(p)) != kUnreadableString) _exit(5);
        _exit(0);
      },
      ::testing::ExitedWithCode(0), "");
}
#endif

}  // namespace
