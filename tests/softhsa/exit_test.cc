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
#include <unistd.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>

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

}  // namespace
