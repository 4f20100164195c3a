#include "runtime/platform/fatal_signal.h"

#include <linux/futex.h>
#include <pthread.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <mutex>

namespace roctracer::fatal_signal {
namespace {

constexpr int kSignals[] = {SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT};
constexpr int kCount = sizeof(kSignals) / sizeof(kSignals[0]);
constexpr int kMaxLastWords = 8;

int IndexOf(int sig) noexcept {
  for (int i = 0; i < kCount; ++i)
    if (kSignals[i] == sig) return i;
  return -1;
}

// The handler the program believes installed, per signal; ours calls it.
// Written under g_program_lock (the hooks, Install), read by the handler
// without it: a program changing its handler while it crashes gets one of
// the two.
struct sigaction g_program[kCount];
std::atomic<bool> g_ours[kCount];  // our handler went in on that signal
std::atomic_flag g_program_lock = ATOMIC_FLAG_INIT;
std::atomic<bool> g_installed{false};

class ProgramLock {
 public:
  ProgramLock() {
    while (g_program_lock.test_and_set(std::memory_order_acquire)) {
    }
  }
  ~ProgramLock() { g_program_lock.clear(std::memory_order_release); }
};

struct LastWords {
  void (*fn)(void*);
  void* arg;
};
LastWords g_last_words[kMaxLastWords];
std::atomic<int> g_last_words_count{0};
// Constant-initialised: other objects' static initialisers register.
std::mutex g_register_mu;

// 0: nothing asked; 1: the callbacks are asked for (or running); 2: done.
std::atomic<uint32_t> g_stage{0};
std::atomic<pid_t> g_worker_pid{0};  // the process the worker thread is in
std::atomic<pid_t> g_worker_tid{0};

pid_t ThreadId() noexcept { return static_cast<pid_t>(syscall(SYS_gettid)); }

void FutexWait(std::atomic<uint32_t>* word, uint32_t expected,
               const struct timespec* timeout) noexcept {
  syscall(SYS_futex, reinterpret_cast<uint32_t*>(word), FUTEX_WAIT_PRIVATE,
          expected, timeout, nullptr, 0);
}

void FutexWakeAll(std::atomic<uint32_t>* word) noexcept {
  syscall(SYS_futex, reinterpret_cast<uint32_t*>(word), FUTEX_WAKE_PRIVATE,
          INT32_MAX, nullptr, nullptr, 0);
}

void* Worker(void*) {
  // Signals sent to the process go to the program's threads, never here: this
  // thread must stay free to run the callbacks.
  sigset_t all;
  sigfillset(&all);
  pthread_sigmask(SIG_BLOCK, &all, nullptr);
  g_worker_tid.store(ThreadId(), std::memory_order_release);
  uint32_t stage;
  while ((stage = g_stage.load(std::memory_order_acquire)) == 0)
    FutexWait(&g_stage, 0, nullptr);
  const int n = g_last_words_count.load(std::memory_order_acquire);
  for (int i = 0; i < n; ++i) g_last_words[i].fn(g_last_words[i].arg);
  g_stage.store(2, std::memory_order_release);
  FutexWakeAll(&g_stage);
  return nullptr;
}

// Asks the worker for the callbacks and waits for them, at most the timeout.
// Async-signal-safe (atomics and system calls only).
void SayLastWords() noexcept {
  if (g_worker_pid.load(std::memory_order_acquire) != getpid()) return;
  if (ThreadId() == g_worker_tid.load(std::memory_order_acquire)) return;
  uint32_t idle = 0;
  if (g_stage.compare_exchange_strong(idle, 1, std::memory_order_acq_rel))
    FutexWakeAll(&g_stage);
  struct timespec deadline;
  clock_gettime(CLOCK_MONOTONIC, &deadline);
  deadline.tv_sec += kLastWordsTimeoutSeconds;
  while (g_stage.load(std::memory_order_acquire) != 2) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    int64_t left = (deadline.tv_sec - now.tv_sec) * 1000000000LL +
                   (deadline.tv_nsec - now.tv_nsec);
    if (left <= 0) return;
    struct timespec wait = {static_cast<time_t>(left / 1000000000LL),
                            static_cast<long>(left % 1000000000LL)};
    FutexWait(&g_stage, 1, &wait);
  }
}

bool IsHandler(const struct sigaction& a) noexcept {
  if ((a.sa_flags & SA_SIGINFO) != 0) return a.sa_sigaction != nullptr;
  return a.sa_handler != SIG_DFL && a.sa_handler != SIG_IGN;
}

bool IsDefault(const struct sigaction& a) noexcept {
  return !IsHandler(a) && a.sa_handler == SIG_DFL;
}

// The default action from here: a fault happens again when the handler
// returns; a signal that was sent is sent again (blocked until then).
void Die(int sig, bool resend) noexcept {
  struct sigaction dfl {};
  dfl.sa_handler = SIG_DFL;
  sigemptyset(&dfl.sa_mask);
  sigaction(sig, &dfl, nullptr);
  if (resend) raise(sig);
}

// Calls the program's handler as the kernel would have: its mask blocked
// (and the signal, unless SA_NODEFER) for the call, SA_RESETHAND applied.
void CallProgram(int i, const struct sigaction& program, int sig,
                 siginfo_t* info, void* context) noexcept {
  if ((program.sa_flags & SA_RESETHAND) != 0) {
    // Not under the lock: the interrupted thread may hold it.
    std::memset(&g_program[i], 0, sizeof(g_program[i]));
    g_program[i].sa_handler = SIG_DFL;
  }
  sigset_t mask = program.sa_mask, saved;
  pthread_sigmask(SIG_BLOCK, &mask, &saved);
  if ((program.sa_flags & SA_NODEFER) != 0) {
    sigset_t self;
    sigemptyset(&self);
    sigaddset(&self, sig);
    pthread_sigmask(SIG_UNBLOCK, &self, nullptr);
  }
  if ((program.sa_flags & SA_SIGINFO) != 0) {
    program.sa_sigaction(sig, info, context);
  } else {
    program.sa_handler(sig);
  }
  pthread_sigmask(SIG_SETMASK, &saved, nullptr);
}

// The program put the default action back past the hooks (a handler
// found at Install calling the C library directly).
bool KernelDefault(int sig) noexcept {
  struct sigaction current {};
  return sigaction(sig, nullptr, &current) == 0 && IsDefault(current);
}

bool Pending(int sig) noexcept {
  sigset_t pending;
  sigemptyset(&pending);
  return sigpending(&pending) == 0 && sigismember(&pending, sig) == 1;
}

void OnFatal(int sig, siginfo_t* info, void* context) {
  const int i = IndexOf(sig);
  if (i < 0) return;
  const bool sent = info == nullptr || info->si_code <= 0;
  const struct sigaction program = g_program[i];
  if (IsHandler(program)) {
    CallProgram(i, program, sig, info, context);
    // The program handled it, unless it put the default action back (as it
    // sees it, or in the kernel) and the signal will come again: raised
    // again (pending now) or a fault that happens again.
    // abort() (SIGABRT the process sent itself) never returns: after the
    // handler it puts the default action back and raises again.
    const bool aborting = sig == SIGABRT && info != nullptr &&
                          info->si_code == SI_TKILL && info->si_pid == getpid();
    if (aborting) {
      SayLastWords();
      return;
    }
    if (!(IsDefault(g_program[i]) || KernelDefault(sig)) ||
        (sent && !Pending(sig)))
      return;
    SayLastWords();
    Die(sig, false);
    return;
  }
  // Ignored: a sent signal is dropped; a fault the kernel raised kills
  // whatever the action.
  if (program.sa_handler == SIG_IGN && sent) return;
  SayLastWords();
  Die(sig, sent);
}

bool Disabled() {
  const char* env = std::getenv("ROCTRACER_CRASH_FLUSH");
  return env != nullptr && std::strcmp(env, "0") == 0;
}

}  // namespace

bool IsFatal(int sig) noexcept { return IndexOf(sig) >= 0; }

void Install() noexcept {
  bool expected = false;
  if (!g_installed.compare_exchange_strong(expected, true) || Disabled())
    return;
  for (int i = 0; i < kCount; ++i) {
    ProgramLock lock;
    if (sigaction(kSignals[i], nullptr, &g_program[i]) != 0) continue;
    struct sigaction ours {};
    ours.sa_sigaction = &OnFatal;
    // On the alternate stack where the program set one (a stack overflow
    // must still reach the program's handler); the program's own mask is
    // applied around its handler.
    ours.sa_flags = SA_SIGINFO | SA_ONSTACK | SA_RESTART;
    sigemptyset(&ours.sa_mask);
    if (sigaction(kSignals[i], &ours, nullptr) == 0)
      g_ours[i].store(true, std::memory_order_release);
  }
}

void Uninstall() noexcept {
  for (int i = 0; i < kCount; ++i) {
    if (!g_ours[i].exchange(false)) continue;
    ProgramLock lock;
    struct sigaction current {};
    if (sigaction(kSignals[i], nullptr, &current) == 0 &&
        (current.sa_flags & SA_SIGINFO) != 0 &&
        current.sa_sigaction == &OnFatal)
      sigaction(kSignals[i], &g_program[i], nullptr);
  }
}

bool AddLastWords(void (*fn)(void* arg), void* arg) noexcept {
  if (fn == nullptr) return false;
  bool handled = false;  // nothing to say them for without our handler
  for (int i = 0; i < kCount; ++i) handled |= g_ours[i].load();
  if (!handled) return false;
  std::lock_guard<std::mutex> lock(g_register_mu);
  const int n = g_last_words_count.load(std::memory_order_relaxed);
  if (n == kMaxLastWords) return false;
  if (g_worker_pid.load(std::memory_order_relaxed) != getpid()) {
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
    pthread_t thread;
    const int rc = pthread_create(&thread, &attr, &Worker, nullptr);
    pthread_attr_destroy(&attr);
    if (rc != 0) return false;
    pthread_setname_np(thread, "roctracer-crash");
    g_worker_pid.store(getpid(), std::memory_order_release);
  }
  g_last_words[n] = LastWords{fn, arg};
  g_last_words_count.store(n + 1, std::memory_order_release);
  return true;
}

extern "C" int roctracer_sigaction_hook(int sig, const struct sigaction* act,
                                        struct sigaction* old) {
  const int i = IndexOf(sig);
  if (i < 0 || !g_ours[i].load(std::memory_order_acquire))
    return sigaction(sig, act, old);
  ProgramLock lock;
  if (old != nullptr) *old = g_program[i];
  if (act != nullptr) g_program[i] = *act;
  return 0;
}

extern "C" void (*roctracer_signal_hook(int sig, void (*handler)(int)))(int) {
  const int i = IndexOf(sig);
  if (i < 0 || !g_ours[i].load(std::memory_order_acquire))
    return signal(sig, handler);
  // signal()'s BSD semantics, as the C library gives them: restarted system
  // calls, the signal blocked in its handler.
  struct sigaction act {};
  act.sa_handler = handler;
  sigemptyset(&act.sa_mask);
  sigaddset(&act.sa_mask, sig);
  act.sa_flags = SA_RESTART;
  struct sigaction old {};
  roctracer_sigaction_hook(sig, &act, &old);
  if ((old.sa_flags & SA_SIGINFO) != 0)
    return reinterpret_cast<void (*)(int)>(old.sa_sigaction);
  return old.sa_handler;
}

}  // namespace roctracer::fatal_signal
