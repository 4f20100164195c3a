#include "runtime/correlation.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <thread>
#include <vector>

namespace roctracer {
namespace {

// Must run first in this binary: nothing else draws IDs before it.
TEST(Correlation, CounterStartsAtOne) {
  CorrelationScope first;
  EXPECT_EQ(first.id(), 1u);
  EXPECT_EQ(first.parent(), 0u);
}

TEST(Correlation, NestedCallsGetTheirOwnIdAndKnowTheirParent) {
  EXPECT_EQ(CurrentCorrelationId(), 0u);
  {
    CorrelationScope outer;  // e.g. hipMalloc
    EXPECT_EQ(outer.parent(), 0u);
    EXPECT_EQ(CurrentCorrelationId(), outer.id());
    {
      CorrelationScope inner;  // hsa_amd_memory_pool_allocate inside it
      EXPECT_GT(inner.id(), outer.id());
      EXPECT_EQ(inner.parent(), outer.id());
      EXPECT_EQ(CurrentCorrelationId(), inner.id());
      {
        CorrelationScope innermost;
        EXPECT_EQ(innermost.parent(), inner.id());
      }
      EXPECT_EQ(CurrentCorrelationId(), inner.id());
    }
    EXPECT_EQ(CurrentCorrelationId(), outer.id());
    CorrelationScope sibling;
    EXPECT_EQ(sibling.parent(), outer.id());
  }
  EXPECT_EQ(CurrentCorrelationId(), 0u);
}

TEST(Correlation, StacksArePerThread) {
  CorrelationScope mine;
  uint64_t seen_parent = 99, seen_current = 99;
  std::thread([&] {
    seen_current = CurrentCorrelationId();
    CorrelationScope theirs;
    seen_parent = theirs.parent();
  }).join();
  EXPECT_EQ(seen_current, 0u);
  EXPECT_EQ(seen_parent, 0u);
  EXPECT_EQ(CurrentCorrelationId(), mine.id());
}

TEST(Correlation, IdsAreUniqueAcrossThreads) {
  constexpr int kThreads = 8;
  constexpr int kPerThread = 20000;
  std::vector<std::vector<uint64_t>> ids(kThreads);
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&ids, t] {
      ids[t].reserve(kPerThread);
      for (int i = 0; i < kPerThread; ++i) {
        CorrelationScope outer;
        CorrelationScope inner;
        ASSERT_EQ(inner.parent(), outer.id());
        ids[t].push_back(outer.id());
        ids[t].push_back(inner.id());
      }
    });
  }
  for (auto& t : threads) t.join();
  std::vector<uint64_t> all;
  for (auto& v : ids) {
    // Each thread sees increasing IDs.
    EXPECT_TRUE(std::is_sorted(v.begin(), v.end()));
    all.insert(all.end(), v.begin(), v.end());
  }
  std::sort(all.begin(), all.end());
  EXPECT_EQ(std::adjacent_find(all.begin(), all.end()), all.end());
  EXPECT_EQ(all.size(), size_t{kThreads} * kPerThread * 2);
  EXPECT_NE(all.front(), 0u);
}

}  // namespace
}  // namespace roctracer
