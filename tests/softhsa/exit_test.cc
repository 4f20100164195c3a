// A process that exits without hsa_shut_down, as a HIP program does: an
// async handler whose condition already held when exit() was called has run
// by the time the libraries' static objects are destroyed. HIP 7.2 tears its
// devices down from a static destructor while such a handler may still be
// due (hipMemcpyPeer's completion handler, which no thread waits for); a
// handler that starts after that uses freed memory. ROCR's event thread runs
// a due handler within microseconds, so HIP never meets that on a GPU.
#include <gtest/gtest.h>
#include <hsa/hsa.h>
#include <hsa/hsa_ext_amd.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <thread>
#include <vector>

namespace {

std::atomic<bool> g_exiting{false};
std::atomic<int> g_slow_done{0};
std::atomic<int> g_due_ran{0};

// A library's state, destroyed among the static objects at exit (as HIP's
// runtime is): constructed before main, so destroyed after anything the
// runtime registers once it is initialised.
struct LibraryState {
  ~LibraryState() {
    if (!g_exiting.load()) return;
    if (g_due_ran.load() != 1 || g_slow_done.load() != 1) {
      fprintf(stderr, "static objects destroyed before the due handlers ran\n");
      _exit(1);
    }
    fprintf(stderr,
            "due handlers ran before the static objects' destructors\n");
  }
} g_library_state;

bool Slow(hsa_signal_value_t, void*) {
  usleep(200 * 1000);  // the async thread is busy, as on a loaded machine
  g_slow_done.fetch_add(1);
  return false;
}

bool Due(hsa_signal_value_t, void*) {
  g_due_ran.fetch_add(1);
  return false;
}

void ExitWithHandlersDue() {
  if (hsa_init() != HSA_STATUS_SUCCESS) _exit(2);
  hsa_signal_t slow, due;
  if (hsa_signal_create(1, 0, nullptr, &slow) != HSA_STATUS_SUCCESS ||
      hsa_signal_create(1, 0, nullptr, &due) != HSA_STATUS_SUCCESS) {
    _exit(2);
  }
  if (hsa_amd_signal_async_handler(slow, HSA_SIGNAL_CONDITION_LT, 1, Slow,
                                   nullptr) != HSA_STATUS_SUCCESS ||
      hsa_amd_signal_async_handler(due, HSA_SIGNAL_CONDITION_LT, 1, Due,
                                   nullptr) != HSA_STATUS_SUCCESS) {
    _exit(2);
  }
  hsa_signal_store_screlease(slow, 0);
  hsa_signal_store_screlease(due, 0);
  g_exiting.store(true);
  exit(0);  // no hsa_shut_down
}

TEST(SoftHsaExit, DueAsyncHandlersRunBeforeStaticDestructors) {
  // A fresh process (re-executed), whose only runtime is this one.
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_EXIT(ExitWithHandlersDue(), testing::ExitedWithCode(0),
              "due handlers ran before the static objects' destructors");
}

bool Rearm(hsa_signal_value_t, void*) { return true; }

// A forked child has none of the parent's threads; the async thread may have
// held the runtime's lock at the fork, so the child's exit must not wait for
// it (nor take that lock).
TEST(SoftHsaExit, AForkedChildExitsWhileTheParentsAsyncThreadIsBusy) {
  ASSERT_EQ(hsa_init(), HSA_STATUS_SUCCESS);
  // Many armed handlers keep the async thread's passes (under the lock) long.
  std::vector<hsa_signal_t> signals(2000);
  for (hsa_signal_t& s : signals) {
    ASSERT_EQ(hsa_signal_create(1, 0, nullptr, &s), HSA_STATUS_SUCCESS);
    ASSERT_EQ(hsa_amd_signal_async_handler(s, HSA_SIGNAL_CONDITION_LT, 0, Rearm,
                                           nullptr),
              HSA_STATUS_SUCCESS);
  }
  std::atomic<bool> stop{false};
  std::thread storer([&] {
    while (!stop.load()) hsa_signal_store_screlease(signals[0], 1);
  });
  int hung = 0;
  int failed = 0;
#if defined(__SANITIZE_THREAD__)
  constexpr int kChildren = 10;  // a fork under TSan takes ~1 s
#elif defined(__SANITIZE_ADDRESS__)
  constexpr int kChildren = 20;  // LeakSanitizer scans at each child's exit
#else
  constexpr int kChildren = 200;
#endif
  for (int i = 0; i < kChildren; ++i) {
    pid_t child = fork();
    if (child == 0) {
      alarm(2);
      exit(0);
    }
    int status = 0;
    waitpid(child, &status, 0);
    if (WIFSIGNALED(status) && WTERMSIG(status) == SIGALRM) {
      ++hung;
    } else if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
      ++failed;
    }
  }
  stop.store(true);
  storer.join();
  EXPECT_EQ(hung, 0) << "children hung in exit, of " << kChildren;
#if !defined(__SANITIZE_ADDRESS__)
  // (LeakSanitizer fails a child's exit for the parent's objects it keeps.)
  EXPECT_EQ(failed, 0);
#endif
  for (hsa_signal_t s : signals) hsa_signal_destroy(s);
  EXPECT_EQ(hsa_shut_down(), HSA_STATUS_SUCCESS);
}

}  // namespace
