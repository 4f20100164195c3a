// Helpers shared by the pool tests: records that carry (thread, sequence),
// a buffer callback that checks them, and an allocator that accounts for
// every byte the pool asks for.
#ifndef TESTS_POOL_POOL_TEST_UTIL_H_
#define TESTS_POOL_POOL_TEST_UTIL_H_

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <map>
#include <mutex>
#include <thread>
#include <vector>

#include "runtime/pool/pool.h"

namespace roctracer {
namespace pool_test {

// Records per producer thread for the big runs: the brief's 1M in a plain
// build, fewer under the sanitizers (their overhead is 5-20x), and
// POOL_TEST_RECORDS overrides both.
inline uint64_t RecordsPerThread(uint64_t plain) {
  if (const char* env = std::getenv("POOL_TEST_RECORDS")) {
    return std::strtoull(env, nullptr, 10);
  }
#if defined(__SANITIZE_THREAD__)
  return plain / 5;
#elif defined(__SANITIZE_ADDRESS__)
  return plain / 5;
#else
  return plain;
#endif
}

inline activity_record_t MakeRecord(uint32_t thread, uint64_t seq) {
  activity_record_t r{};
  r.domain = 3;
  r.kind = 0;
  r.op = thread;
  r.correlation_id = seq;
  r.begin_ns = seq * 2;
  r.end_ns = seq * 2 + 1;
  r.external_id = ~seq;
  return r;
}

// Buffer callback state. Only the pool's delivery thread writes it while the
// pool runs; the test thread reads it after Flush/Close, which order it.
struct Checker {
  explicit Checker(uint32_t threads)
      : next_seq(threads, 0), delivered_per_thread(threads) {
    for (auto& d : delivered_per_thread) d.store(0);
  }

  static void Callback(const char* begin, const char* end, void* arg) {
    static_cast<Checker*>(arg)->Check(begin, end);
  }

  void Check(const char* begin, const char* end) {
    ++calls;
    if (begin >= end || (end - begin) % sizeof(activity_record_t) != 0) {
      ++errors;
      return;
    }
    if (std::this_thread::get_id() == forbidden_thread.load()) ++errors;
    for (auto* r = reinterpret_cast<const activity_record_t*>(begin);
         r < reinterpret_cast<const activity_record_t*>(end); r = r + 1) {
      const uint64_t seq = r->correlation_id;
      if (r->op >= next_seq.size() || r->domain != 3 ||
          r->begin_ns != seq * 2 || r->end_ns != seq * 2 + 1 ||
          r->external_id != ~seq) {
        ++errors;
        continue;
      }
      if (check_order) {
        if (seq != next_seq[r->op]) ++order_errors;
      } else if (seq < next_seq[r->op]) {
        ++order_errors;  // discard mode: gaps allowed, never backwards
      }
      next_seq[r->op] = seq + 1;
      delivered_per_thread[r->op].store(
          delivered_per_thread[r->op].load(std::memory_order_relaxed) + 1,
          std::memory_order_relaxed);
      ++records;
    }
  }

  bool check_order = true;
  std::atomic<std::thread::id> forbidden_thread{};
  std::vector<uint64_t> next_seq;
  std::vector<std::atomic<uint64_t>> delivered_per_thread;
  uint64_t records = 0;
  uint64_t calls = 0;
  uint64_t errors = 0;
  uint64_t order_errors = 0;
};

// roctracer_allocator_t that records every live block.
struct CountingAllocator {
  static void Fun(char** ptr, size_t size, void* arg) {
    auto* self = static_cast<CountingAllocator*>(arg);
    std::lock_guard<std::mutex> lock(self->mu);
    if (*ptr == nullptr) {
      *ptr = static_cast<char*>(std::malloc(size));
      if (*ptr != nullptr) {
        self->live[*ptr] = size;
        ++self->allocs;
        self->peak = std::max<uint64_t>(self->peak, self->live.size());
      }
    } else if (size != 0) {
      self->live.erase(*ptr);
      *ptr = static_cast<char*>(std::realloc(*ptr, size));
      self->live[*ptr] = size;
      ++self->reallocs;
    } else {
      if (self->live.erase(*ptr) == 0) ++self->bad_frees;
      std::free(*ptr);
      *ptr = nullptr;
      ++self->frees;
    }
  }

  // True when [begin, end) lies inside one block handed out by Fun.
  bool Owns(const char* begin, const char* end) {
    std::lock_guard<std::mutex> lock(mu);
    auto it = live.upper_bound(const_cast<char*>(begin));
    if (it == live.begin()) return false;
    --it;
    return begin >= it->first && end <= it->first + it->second;
  }

  size_t LiveBlocks() {
    std::lock_guard<std::mutex> lock(mu);
    return live.size();
  }

  std::mutex mu;
  std::map<char*, size_t> live;
  uint64_t allocs = 0;
  uint64_t peak = 0;  // most blocks live at once
  uint64_t reallocs = 0;
  uint64_t frees = 0;
  uint64_t bad_frees = 0;
};

inline roctracer_properties_t Properties(size_t buffer_size,
                                         roctracer_buffer_callback_t callback,
                                         void* arg) {
  roctracer_properties_t p{};
  p.buffer_size = buffer_size;
  p.buffer_callback_fun = callback;
  p.buffer_callback_arg = arg;
  return p;
}

}  // namespace pool_test
}  // namespace roctracer

#endif  // TESTS_POOL_POOL_TEST_UTIL_H_
