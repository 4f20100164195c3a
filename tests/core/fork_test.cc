// A forked child traces on its own: its records carry its own PID and TID
// (not the parent's cached ones), and configuring the tracer in the child
// works even if another thread of the parent held the configuration lock at
// the moment of fork.
#include <gtest/gtest.h>
#include <roctracer.h>
#include <roctracer_ext.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <thread>

#include "runtime/activity/domain_registry.h"
#include "runtime/platform/thread_id.h"
#include "tests/core/collector.h"
#include "tests/core/reset.h"

extern "C" void roctracer_mark(const char* str);

namespace roctracer_test {
namespace {

// The child's verdict is its exit status: 0 when everything held.
int ChildChecks() {
  Collector collector;
  const roctracer_properties_t props = collector.Properties();
  roctracer_pool_t* pool = nullptr;
  if (roctracer_open_pool_expl(&props, &pool) != ROCTRACER_STATUS_SUCCESS) {
    return 2;
  }
  if (roctracer_enable_op_activity_expl(ACTIVITY_DOMAIN_EXT_API,
                                        ACTIVITY_EXT_OP_MARK,
                                        pool) != ROCTRACER_STATUS_SUCCESS) {
    return 3;
  }
  roctracer_mark("in the child");
  if (roctracer_close_pool_expl(pool) != ROCTRACER_STATUS_SUCCESS) return 4;
  const auto got = collector.records();
  if (got.size() != 1) return 5;
  if (got[0].record.process_id != static_cast<uint32_t>(getpid())) return 6;
  if (got[0].record.thread_id != static_cast<uint32_t>(syscall(SYS_gettid))) {
    return 7;
  }
  return 0;
}

TEST(Fork, ChildHasItsOwnIdsAndAWorkingConfigurationLock) {
  // Cache the parent's IDs first, as a traced parent would have.
  ASSERT_NE(roctracer::platform::ProcessId(), 0u);
  ASSERT_NE(roctracer::platform::ThreadId(), 0u);

  std::atomic<bool> holding{false};
  std::atomic<bool> release{false};
  std::thread holder([&] {
    std::lock_guard<std::mutex> lock(roctracer::activity::ConfigMutex());
    holding = true;
    while (!release) std::this_thread::yield();
  });
  while (!holding) std::this_thread::yield();

  const pid_t child = fork();
  if (child == 0) _exit(ChildChecks());
  release = true;
  holder.join();
  ASSERT_GT(child, 0);

  int status = 0;
  ASSERT_EQ(waitpid(child, &status, 0), child);
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 0);
}

}  // namespace
}  // namespace roctracer_test
