// The exec family, posix_spawn(p) and system as the program sees them, for
// the GOT patcher (linked into libroctracer64.so only). An exec replaces the
// image and with it every pool's buffers, the tools' writer threads and their
// unwritten data, as abruptly as a SIGKILL would. Each hook first runs the
// process-exit steps (runtime/pool/process_exit.h: GPU work drained, pools
// flushed and closed, tools finalized, so a tool's files are complete and
// closed), then calls the C library's function.
//
// If the exec then fails (the call returns), the process goes on untraced:
// its pools are closed (later records are refused and counted as dropped)
// and its tools are finalized; a message on stderr says so.
//
// Only the process that loaded the library flushes: a child of vfork (which
// shares its parent's memory and threads' state) or of fork skips those
// steps. posix_spawn and system leave the image as it is: no flush.
//
// Every program started so (by the exec family, posix_spawn, posix_spawnp
// or system) gets its environment through the filter of
// runtime/platform/child_environment.h, in the loading process and in its
// forked or vforked children alike: what the tracer changed in its own
// environment for itself is not passed on. system() runs the shell as the
// C library does (its argv as the running glibc builds it, SIGINT and
// SIGQUIT ignored while it runs, the shell killed if the waiting thread is
// cancelled; a child forked meanwhile has the program's actions back),
// through posix_spawn, since the C library's own system() cannot be given
// an environment. It never calls the C library's system(), whose count of
// running shells is separate: a pointer to it taken with dlsym (not hooked)
// shares that count only with the C library's own callers.
#ifndef RUNTIME_LINKING_EXEC_HOOKS_H_
#define RUNTIME_LINKING_EXEC_HOOKS_H_

#include <spawn.h>

extern "C" {
int roctracer_execve_hook(const char* path, char* const argv[],
                          char* const envp[])
    __attribute__((visibility("hidden")));
int roctracer_execv_hook(const char* path, char* const argv[])
    __attribute__((visibility("hidden")));
int roctracer_execvp_hook(const char* file, char* const argv[])
    __attribute__((visibility("hidden")));
int roctracer_execvpe_hook(const char* file, char* const argv[],
                           char* const envp[])
    __attribute__((visibility("hidden")));
int roctracer_fexecve_hook(int fd, char* const argv[], char* const envp[])
    __attribute__((visibility("hidden")));
int roctracer_execl_hook(const char* path, const char* arg, ...)
    __attribute__((visibility("hidden")));
int roctracer_execlp_hook(const char* file, const char* arg, ...)
    __attribute__((visibility("hidden")));
int roctracer_execle_hook(const char* path, const char* arg, ...)
    __attribute__((visibility("hidden")));
int roctracer_posix_spawn_hook(pid_t* pid, const char* path,
                               const posix_spawn_file_actions_t* actions,
                               const posix_spawnattr_t* attr,
                               char* const argv[], char* const envp[])
    __attribute__((visibility("hidden")));
int roctracer_posix_spawnp_hook(pid_t* pid, const char* file,
                                const posix_spawn_file_actions_t* actions,
                                const posix_spawnattr_t* attr,
                                char* const argv[], char* const envp[])
    __attribute__((visibility("hidden")));
int roctracer_system_hook(const char* command)
    __attribute__((visibility("hidden")));
}

#endif  // RUNTIME_LINKING_EXEC_HOOKS_H_
