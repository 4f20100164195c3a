#include "runtime/linking/exec_hooks.h"

#include <unistd.h>

#include <cerrno>
#include <cstdarg>
#include <cstdio>
#include <vector>

#include "runtime/pool/process_exit.h"

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

}  // namespace

extern "C" {

int roctracer_execve_hook(const char* path, char* const argv[],
                          char* const envp[]) {
  BeforeExec();
  return AfterFailedExec(execve(path, argv, envp));
}

int roctracer_execv_hook(const char* path, char* const argv[]) {
  BeforeExec();
  return AfterFailedExec(execv(path, argv));
}

int roctracer_execvp_hook(const char* file, char* const argv[]) {
  BeforeExec();
  return AfterFailedExec(execvp(file, argv));
}

int roctracer_execvpe_hook(const char* file, char* const argv[],
                           char* const envp[]) {
  BeforeExec();
  return AfterFailedExec(execvpe(file, argv, envp));
}

int roctracer_fexecve_hook(int fd, char* const argv[], char* const envp[]) {
  BeforeExec();
  return AfterFailedExec(fexecve(fd, argv, envp));
}

int roctracer_execl_hook(const char* path, const char* arg, ...) {
  va_list ap;
  va_start(ap, arg);
  std::vector<char*> argv = CollectArgs(arg, ap);
  va_end(ap);
  BeforeExec();
  return AfterFailedExec(execv(path, argv.data()));
}

int roctracer_execlp_hook(const char* file, const char* arg, ...) {
  va_list ap;
  va_start(ap, arg);
  std::vector<char*> argv = CollectArgs(arg, ap);
  va_end(ap);
  BeforeExec();
  return AfterFailedExec(execvp(file, argv.data()));
}

int roctracer_execle_hook(const char* path, const char* arg, ...) {
  va_list ap;
  va_start(ap, arg);
  std::vector<char*> argv = CollectArgs(arg, ap);
  char* const* envp = va_arg(ap, char* const*);
  va_end(ap);
  BeforeExec();
  return AfterFailedExec(execve(path, argv.data(), envp));
}

}  // extern "C"
