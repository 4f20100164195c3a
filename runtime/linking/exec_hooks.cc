#include "runtime/linking/exec_hooks.h"

#include <alloca.h>
#include <gnu/libc-version.h>
#include <pthread.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <vector>

#include "runtime/platform/child_environment.h"
#include "runtime/pool/process_exit.h"

// The environment a new program gets: `envp` as the tracer's filter leaves
// it (runtime/platform/child_environment.h), on this frame's stack (a
// vforked child must not allocate).
#define ROCTRACER_CHILD_ENVIRONMENT(var, envp)                         \
  char* const* var = (envp);                                           \
  do {                                                                 \
    const size_t n = roctracer::child_environment::StorageFor(var);    \
    if (n != 0) {                                                      \
      char** storage = static_cast<char**>(alloca(n * sizeof(char*))); \
      var = roctracer::child_environment::Apply(var, storage, n);      \
    }                                                                  \
  } while (false)

namespace {

// The process whose image loaded us: a forked or vforked child has another
// pid (glibc does not cache it).
const pid_t g_loader_pid = getpid();

// What is recorded so far goes out before the image is replaced.
void BeforeExec() {
  if (getpid() != g_loader_pid) return;
  roctracer::process_exit::Run();
}

// After a failed exec the process goes on with closed pools.
int AfterFailedExec(int rc) {
  if (getpid() == g_loader_pid) {
    const int err = errno;
    std::fprintf(stderr,
                 "roctracer: exec failed (errno %d); outputs were finished "
                 "before it, tracing stays off\n",
                 err);
    errno = err;
  }
  return rc;
}

// execl's variadic arguments, up to and including the NULL that ends them.
std::vector<char*> CollectArgs(const char* arg, va_list ap) {
  std::vector<char*> argv;
  argv.push_back(const_cast<char*>(arg));
  while (argv.back() != nullptr) argv.push_back(va_arg(ap, char*));
  return argv;
}

// As the C library's system() (POSIX's description, glibc's choices):
// while the shell runs, the caller ignores SIGINT and SIGQUIT (the first
// of concurrent calls sets that, the last puts the actions back) and blocks
// SIGCHLD; the shell gets the caller's signal mask and the default action
// for those two signals unless the caller ignored them; a thread cancelled
// while it waits kills the shell. Only the environment differs: `envp`
// instead of the process's own. The count of running shells is this
// file's own, not the C library's: once the hook is in place, the hook
// never calls the C library's system() (a call of it overlapping one of
// these would save the ignored actions as the caller's and put them back
// last).
std::mutex g_system_mutex;
int g_system_calls = 0;
struct sigaction g_saved_int {};
struct sigaction g_saved_quit {};

// A fork while another thread runs a shell: the child has no shell of its
// own running and no thread waiting for one, so it starts with no calls
// counted and the caller's actions back. The mutex is held across the fork
// so that the count and the saved actions are whole in the child.
void LockForFork() { g_system_mutex.lock(); }
void UnlockInParent() { g_system_mutex.unlock(); }
void ResetInChild() {
  if (g_system_calls > 0) {
    sigaction(SIGINT, &g_saved_int, nullptr);
    sigaction(SIGQUIT, &g_saved_quit, nullptr);
  }
  g_system_calls = 0;
  g_system_mutex.unlock();  // the forking thread locked it; it goes on here
}

// glibc runs "sh -c COMMAND" up to 2.37 and "sh -c -- COMMAND" from 2.38
// (a command starting with '-' is then not taken for an option): the
// running C library's choice is followed.
bool ShellArgvHasDoubleDash() {
  static const bool yes = [] {
    int major = 0;
    int minor = 0;
    return std::sscanf(gnu_get_libc_version(), "%d.%d", &major, &minor) == 2 &&
           (major > 2 || (major == 2 && minor >= 38));
  }();
  return yes;
}

// The caller's signal state while one shell runs, put back when it ends
// (also by the unwinding of a cancelled thread).
class ShellSignals {
 public:
  ShellSignals() {
    static const bool registered =
        pthread_atfork(&LockForFork, &UnlockInParent, &ResetInChild) == 0;
    (void)registered;
    {
      std::lock_guard<std::mutex> lock(g_system_mutex);
      if (g_system_calls++ == 0) {
        struct sigaction ignore {};
        ignore.sa_handler = SIG_IGN;
        sigemptyset(&ignore.sa_mask);
        sigaction(SIGINT, &ignore, &g_saved_int);
        sigaction(SIGQUIT, &ignore, &g_saved_quit);
      }
      sigemptyset(&defaults_);
      if (g_saved_int.sa_handler != SIG_IGN) sigaddset(&defaults_, SIGINT);
      if (g_saved_quit.sa_handler != SIG_IGN) sigaddset(&defaults_, SIGQUIT);
    }
    sigset_t chld;
    sigemptyset(&chld);
    sigaddset(&chld, SIGCHLD);
    pthread_sigmask(SIG_BLOCK, &chld, &caller_mask_);
  }
  ~ShellSignals() {
    if (running_ > 0) {  // cancelled in waitpid
      // The shell is reaped whatever interrupts the wait: no second
      // cancellation, and a signal's handler returning is waited through.
      int cancel_state = 0;
      pthread_setcancelstate(PTHREAD_CANCEL_DISABLE, &cancel_state);
      kill(running_, SIGKILL);
      while (waitpid(running_, nullptr, 0) < 0 && errno == EINTR) {
      }
      pthread_setcancelstate(cancel_state, nullptr);
    }
    {
      std::lock_guard<std::mutex> lock(g_system_mutex);
      if (--g_system_calls == 0) {
        sigaction(SIGINT, &g_saved_int, nullptr);
        sigaction(SIGQUIT, &g_saved_quit, nullptr);
      }
    }
    pthread_sigmask(SIG_SETMASK, &caller_mask_, nullptr);
  }
  ShellSignals(const ShellSignals&) = delete;
  ShellSignals& operator=(const ShellSignals&) = delete;

  const sigset_t& caller_mask() const { return caller_mask_; }
  const sigset_t& defaults() const { return defaults_; }
  void Running(pid_t pid) { running_ = pid; }

 private:
  sigset_t caller_mask_{};
  sigset_t defaults_{};
  pid_t running_ = 0;
};

int SystemWith(const char* command, char* const* envp) {
  int status = -1;
  int err = 0;
  {
    ShellSignals signals;
    posix_spawnattr_t attr;
    posix_spawnattr_init(&attr);
    posix_spawnattr_setsigdefault(&attr, &signals.defaults());
    posix_spawnattr_setsigmask(&attr, &signals.caller_mask());
    posix_spawnattr_setflags(&attr,
                             POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK);
    const char* argv_dash[] = {"sh", "-c", "--", command, nullptr};
    const char* argv_plain[] = {"sh", "-c", command, nullptr};
    const char* const* argv = ShellArgvHasDoubleDash() ? argv_dash : argv_plain;
    pid_t pid = 0;
    err = posix_spawn(&pid, "/bin/sh", nullptr, &attr,
                      const_cast<char* const*>(argv), envp);
    posix_spawnattr_destroy(&attr);
    if (err == 0) {
      signals.Running(pid);
      while (waitpid(pid, &status, 0) < 0) {
        if (errno != EINTR) {
          err = errno;
          status = -1;
          break;
        }
      }
      signals.Running(0);
    } else {
      status = W_EXITCODE(127, 0);  // the shell could not run
    }
  }
  if (err != 0) errno = err;
  return status;
}

}  // namespace

extern "C" {

int roctracer_execve_hook(const char* path, char* const argv[],
                          char* const envp[]) {
  BeforeExec();
  ROCTRACER_CHILD_ENVIRONMENT(env, envp);
  return AfterFailedExec(execve(path, argv, env));
}

int roctracer_execv_hook(const char* path, char* const argv[]) {
  BeforeExec();
  ROCTRACER_CHILD_ENVIRONMENT(env, environ);
  return AfterFailedExec(execve(path, argv, env));
}

int roctracer_execvp_hook(const char* file, char* const argv[]) {
  BeforeExec();
  ROCTRACER_CHILD_ENVIRONMENT(env, environ);
  return AfterFailedExec(execvpe(file, argv, env));
}

int roctracer_execvpe_hook(const char* file, char* const argv[],
                           char* const envp[]) {
  BeforeExec();
  ROCTRACER_CHILD_ENVIRONMENT(env, envp);
  return AfterFailedExec(execvpe(file, argv, env));
}

int roctracer_fexecve_hook(int fd, char* const argv[], char* const envp[]) {
  BeforeExec();
  ROCTRACER_CHILD_ENVIRONMENT(env, envp);
  return AfterFailedExec(fexecve(fd, argv, env));
}

int roctracer_execl_hook(const char* path, const char* arg, ...) {
  va_list ap;
  va_start(ap, arg);
  std::vector<char*> argv = CollectArgs(arg, ap);
  va_end(ap);
  BeforeExec();
  ROCTRACER_CHILD_ENVIRONMENT(env, environ);
  return AfterFailedExec(execve(path, argv.data(), env));
}

int roctracer_execlp_hook(const char* file, const char* arg, ...) {
  va_list ap;
  va_start(ap, arg);
  std::vector<char*> argv = CollectArgs(arg, ap);
  va_end(ap);
  BeforeExec();
  ROCTRACER_CHILD_ENVIRONMENT(env, environ);
  return AfterFailedExec(execvpe(file, argv.data(), env));
}

int roctracer_execle_hook(const char* path, const char* arg, ...) {
  va_list ap;
  va_start(ap, arg);
  std::vector<char*> argv = CollectArgs(arg, ap);
  char* const* envp = va_arg(ap, char* const*);
  va_end(ap);
  BeforeExec();
  ROCTRACER_CHILD_ENVIRONMENT(env, envp);
  return AfterFailedExec(execve(path, argv.data(), env));
}

int roctracer_posix_spawn_hook(pid_t* pid, const char* path,
                               const posix_spawn_file_actions_t* actions,
                               const posix_spawnattr_t* attr,
                               char* const argv[], char* const envp[]) {
  ROCTRACER_CHILD_ENVIRONMENT(env, envp);
  return posix_spawn(pid, path, actions, attr, argv, env);
}

int roctracer_posix_spawnp_hook(pid_t* pid, const char* file,
                                const posix_spawn_file_actions_t* actions,
                                const posix_spawnattr_t* attr,
                                char* const argv[], char* const envp[]) {
  ROCTRACER_CHILD_ENVIRONMENT(env, envp);
  return posix_spawnp(pid, file, actions, attr, argv, env);
}

int roctracer_system_hook(const char* command) {
  // Never the C library's system(), even where the filter changes nothing
  // (see g_system_calls). A null command asks whether a shell runs, as
  // glibc asks it.
  if (command == nullptr) return SystemWith("exit 0", environ) == 0;
  ROCTRACER_CHILD_ENVIRONMENT(env, environ);
  return SystemWith(command, env);
}

}  // extern "C"
