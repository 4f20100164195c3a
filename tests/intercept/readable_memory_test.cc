// The fast paths of the fault-safe reader (runtime/platform/readable_memory.h)
// and what invalidates them: a library's segments after dlclose (the address
// unmapped, then mapped again by something else), a heap block malloc gave
// back to the kernel, glibc arena heaps of worker threads and the reserved,
// inaccessible rest of them. Every read must give the bytes there now, or
// "unreadable", and never fault.
#include "runtime/platform/readable_memory.h"

#include <dlfcn.h>
#include <gnu/libc-version.h>
#include <gtest/gtest.h>
#include <sys/mman.h>
#include <unistd.h>

#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#include "codegen/support/arg_format.h"
#include "runtime/intercept/string_arena.h"
#include "runtime/platform/loaded_segments.h"
#include "runtime/platform/malloc_arenas.h"
#include "runtime/platform/startup_objects.h"

namespace {

using roctracer::codegen::kUnreadableString;

constexpr uintptr_t kPage = 4096;

std::string ProbeLibrary(const char* name = "libreadable_probe.so") {
  const char* dir = std::getenv("TEST_SRCDIR");
  const char* ws = std::getenv("TEST_WORKSPACE");
  if (dir == nullptr || ws == nullptr) return name;
  return std::string(dir) + "/" + ws + "/tests/intercept/" + name;
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
  EXPECT_GE(roctracer::StartupObjectCount(), 3u);
  EXPECT_GT(roctracer::StartupObjectSpan("a literal of the program"), 0u);
  const char* in_libc = gnu_get_libc_version();
  EXPECT_GT(roctracer::StartupObjectSpan(in_libc), 0u);
  EXPECT_EQ(Copied(in_libc), in_libc);
  int on_stack = 0;
  EXPECT_EQ(roctracer::StartupObjectSpan(&on_stack), 0u);
}

TEST_F(ReadableMemoryTest, LibraryStringAfterDlcloseAndReuseOfTheAddress) {
  const std::string path = ProbeLibrary();
  void* lib = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  ASSERT_NE(lib, nullptr) << dlerror();
  auto text_of = reinterpret_cast<const char* (*)()>(dlsym(lib, "ProbeText"));
  ASSERT_NE(text_of, nullptr);
  const char* text = text_of();
  const std::string expected = text;
  // Loaded later: not a startup object, read under the loader's lock.
  EXPECT_EQ(roctracer::StartupObjectSpan(text), 0u);
  EXPECT_EQ(Copied(text), expected);
  // The cache is built once for these objects, not per lookup.
  const size_t builds = roctracer::LoadedSegmentCacheBuilds();
  for (int i = 0; i < 100; ++i) ASSERT_EQ(Copied(text), expected);
  EXPECT_EQ(roctracer::LoadedSegmentCacheBuilds(), builds);

  ASSERT_EQ(dlclose(lib), 0);
  // Unloaded: the address is no longer mapped. The cache must not vouch
  // for it (a direct read would fault).
  EXPECT_EQ(Copied(text), "<unreadable>");
  EXPECT_GT(roctracer::LoadedSegmentCacheBuilds(), builds);

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
  EXPECT_TRUE(roctracer::CopyIfReadable(value, block, sizeof(value)));
  std::free(block);
#if !defined(__SANITIZE_ADDRESS__)
  // (ASan keeps freed blocks mapped, in quarantine.)
  EXPECT_EQ(Copied(block), "<unreadable>");
  EXPECT_FALSE(roctracer::CopyIfReadable(value, block, sizeof(value)));
  EXPECT_EQ(value[0], 0);  // zeroed
  EXPECT_FALSE(roctracer::IsReadableString(block));
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
  // heap was learnt, so later copies need no system call.
  EXPECT_GT(roctracer::ArenaHeapSpan(from_worker), 0u);
  // The reserved rest of the heap (64 MiB, mapped inaccessible past what
  // the arena uses) is not vouched for.
  const uintptr_t base =
      reinterpret_cast<uintptr_t>(from_worker) & ~((uintptr_t{64} << 20) - 1);
  const char* reserved = reinterpret_cast<const char*>(base + (64u << 20) - 64);
  EXPECT_EQ(roctracer::ArenaHeapSpan(reserved), 0u);
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
      }
    });
  }
  // Another library: its loading and unloading change the loader's
  // counters, so the readers keep rebuilding the cache.
  const std::string other_path = ProbeLibrary("libreadable_probe_other.so");
  const size_t builds = roctracer::LoadedSegmentCacheBuilds();
  for (int i = 0; i < 200; ++i) {
    void* other = dlopen(other_path.c_str(), RTLD_NOW | RTLD_LOCAL);
    ASSERT_NE(other, nullptr) << dlerror();
    dlclose(other);
  }
  stop = true;
  for (auto& t : readers) t.join();
  EXPECT_EQ(wrong.load(), 0);
  EXPECT_GT(roctracer::LoadedSegmentCacheBuilds(), builds);
  dlclose(keep);
}

}  // namespace
