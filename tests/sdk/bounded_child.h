// Runs a scenario in a forked child and reports how it ended, so a test
// that would deadlock fails instead of hanging. The bound is for hangs only
// (a correct child ends in milliseconds), not a timing assertion.
#ifndef TESTS_SDK_BOUNDED_CHILD_H_
#define TESTS_SDK_BOUNDED_CHILD_H_

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>

namespace bounded_child {

// Set in a forked child. The child of a multi-threaded test ends without the
// parent's threads, so LeakSanitizer (ASan builds) would report as leaked
// whatever only those threads still reached; it asks the hook below at exit.
inline bool g_in_child = false;

}  // namespace bounded_child

// LeakSanitizer's hook (looked up weakly; `used` keeps it emitted).
extern "C" __attribute__((used, visibility("default"))) inline int
__lsan_is_turned_off() {
  return bounded_child::g_in_child ? 1 : 0;
}

namespace bounded_child {

// Did not end within the bound; killed.
constexpr int kHung = -1000;
constexpr int kForkFailed = -1001;

// Waits for `pid` at most `bound_s` seconds: its exit status, -signal when a
// signal ended it, or kHung (then it is killed).
inline int Wait(pid_t pid, int bound_s = 30) {
  for (int i = 0; i < bound_s * 100; ++i) {
    int status = 0;
    const pid_t r = waitpid(pid, &status, WNOHANG);
    if (r == pid) {
      if (WIFEXITED(status)) return WEXITSTATUS(status);
      if (WIFSIGNALED(status)) return -WTERMSIG(status);
      return kHung;
    }
    usleep(10 * 1000);
  }
  kill(pid, SIGKILL);
  waitpid(pid, nullptr, 0);
  return kHung;
}

// Runs `fn` in a child that then calls exit() with its result (atexit
// handlers run, as when a program returns from main).
inline int Run(int (*fn)(), int bound_s = 30) {
  std::fflush(nullptr);
  const pid_t pid = fork();
  if (pid < 0) return kForkFailed;
  if (pid == 0) {
    g_in_child = true;
    std::exit(fn());
  }
  return Wait(pid, bound_s);
}

}  // namespace bounded_child

#endif  // TESTS_SDK_BOUNDED_CHILD_H_
