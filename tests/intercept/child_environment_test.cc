// The environment a new program gets (runtime/platform/child_environment.h):
// the registered filter keeps, replaces or leaves out each entry, in order;
// without a filter, or when it changes nothing, the environment passes as
// it is; entries appended after the count (another thread's setenv) are not
// written past the storage counted for.
#include "runtime/platform/child_environment.h"

#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

namespace {

namespace ce = roctracer::child_environment;

char kReplacement[] = "SWAP=new";

const char* Filter(const char* entry) {
  if (std::strncmp(entry, "DROP=", 5) == 0) return nullptr;
  if (std::strcmp(entry, "SWAP=old") == 0) return kReplacement;
  return entry;
}

std::vector<std::string> Strings(char* const* envp) {
  std::vector<std::string> out;
  for (; *envp != nullptr; ++envp) out.emplace_back(*envp);
  return out;
}

TEST(ChildEnvironment, WithoutAFilterNothingChanges) {
  ce::SetFilter(nullptr);
  char a[] = "A=1";
  char* envp[] = {a, nullptr};
  EXPECT_FALSE(ce::Changes(envp));
  EXPECT_EQ(ce::StorageFor(envp), 0u);
}

TEST(ChildEnvironment, TheFilterKeepsReplacesAndLeavesOutInOrder) {
  ce::SetFilter(&Filter);
  char a[] = "A=1", drop[] = "DROP=x", swap[] = "SWAP=old", b[] = "B=2";
  char* envp[] = {a, drop, swap, b, nullptr};
  EXPECT_TRUE(ce::Changes(envp));
  const size_t n = ce::StorageFor(envp);
  ASSERT_EQ(n, 5u);  // every entry and the null
  std::vector<char*> storage(n);
  char* const* out = ce::Apply(envp, storage.data(), n);
  EXPECT_EQ(Strings(out), (std::vector<std::string>{"A=1", "SWAP=new", "B=2"}));
  EXPECT_EQ(out[1], kReplacement);
  EXPECT_EQ(out[0], a);  // kept entries are the same strings
  ce::SetFilter(nullptr);
}

TEST(ChildEnvironment, AFilterThatChangesNothingPassesTheEnvironmentOn) {
  ce::SetFilter(&Filter);
  char a[] = "A=1", swap[] = "SWAP=new";
  char* envp[] = {a, swap, nullptr};
  EXPECT_FALSE(ce::Changes(envp));
  EXPECT_EQ(ce::StorageFor(envp), 0u);
  EXPECT_FALSE(ce::Changes(nullptr));
  EXPECT_EQ(ce::StorageFor(nullptr), 0u);
  ce::SetFilter(nullptr);
}

// Another thread's setenv appends to the array between the count and the
// copy: the copy stops at the storage counted for (the program gets the
// environment as it was counted, filtered) and nothing past it is written.
TEST(ChildEnvironment, AnEnvironmentThatGrowsAfterTheCountStaysInItsStorage) {
  ce::SetFilter(&Filter);
  char a[] = "A=1", swap[] = "SWAP=old", b[] = "B=2", c[] = "C=3", d[] = "D=4";
  char* envp[] = {a, swap, nullptr, nullptr, nullptr, nullptr};
  const size_t n = ce::StorageFor(envp);
  ASSERT_EQ(n, 3u);
  envp[2] = b;  // appended after the count
  envp[3] = c;
  envp[4] = d;
  char guard[] = "GUARD";
  std::vector<char*> storage(n + 4, guard);
  char* const* out = ce::Apply(envp, storage.data(), n);
  EXPECT_EQ(Strings(out), (std::vector<std::string>{"A=1", "SWAP=new"}));
  for (size_t i = n; i < storage.size(); ++i) {
    EXPECT_EQ(storage[i], guard) << "written past the storage at " << i;
  }
  EXPECT_EQ(ce::Apply(envp, storage.data(), 0), nullptr);
  ce::SetFilter(nullptr);
}

}  // namespace
