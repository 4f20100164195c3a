#include "runtime/activity/correlation.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <thread>
#include <vector>

namespace roctracer {

using activity::kFirstIdBlock;
using activity::NextCorrelationId;

namespace {

// Must run first in this binary: nothing else draws IDs before it.
TEST(Correlation, CounterStartsAtOne) { EXPECT_EQ(NextCorrelationId(), 1u); }

// Nested calls and their parents are the interception layer's
// (tests/intercept/hook_test.cc); IDs are this counter's.
TEST(Correlation, IdsAreUniqueAcrossThreadsAndIncreaseAlongEach) {
  constexpr int kThreads = 8;
  constexpr int kPerThread = 40000;
  std::vector<std::vector<uint64_t>> ids(kThreads);
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&ids, t] {
      ids[t].reserve(kPerThread);
      for (int i = 0; i < kPerThread; ++i) {
        ids[t].push_back(NextCorrelationId());
      }
    });
  }
  for (auto& t : threads) t.join();
  std::vector<uint64_t> all;
  for (auto& v : ids) {
    // Each thread sees strictly increasing IDs.
    EXPECT_EQ(std::adjacent_find(v.begin(), v.end(),
                                 [](uint64_t a, uint64_t b) { return a >= b; }),
              v.end());
    all.insert(all.end(), v.begin(), v.end());
  }
  std::sort(all.begin(), all.end());
  EXPECT_EQ(std::adjacent_find(all.begin(), all.end()), all.end());
  EXPECT_EQ(all.size(), size_t{kThreads} * kPerThread);
  EXPECT_NE(all.front(), 0u);
}

// A program that starts many short threads (a pool of workers that each
// make a call or two) must not run through IDs in big blocks: each new
// thread starts with a small one, and only a busy thread's blocks grow.
TEST(Correlation, ShortLivedThreadsTakeSmallBlocks) {
  constexpr int kThreads = 50;
  std::vector<uint64_t> ids;
  for (int t = 0; t < kThreads; ++t) {
    std::thread([&ids] { ids.push_back(NextCorrelationId()); }).join();
  }
  ASSERT_EQ(ids.size(), size_t{kThreads});
  EXPECT_LE(ids.back() - ids.front(), (kThreads - 1) * kFirstIdBlock);
}

}  // namespace
}  // namespace roctracer
