// Last words: what the tracer recorded is written out when the program dies
// of a fatal signal (SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT), without
// changing how it dies.
//
// Install() (at libroctracer64's load) puts one handler on those signals. The
// program's own handlers keep working and run first: one installed before
// (found at Install) and any the program installs later through sigaction()
// or signal() (the GOT patcher sends those calls to SigactionHook /
// SignalHook, which record the program's handler instead of replacing ours
// and report the program's own view back) are called by our handler, with
// their flags and mask. When the program's handler returns having handled
// the signal, nothing else happens. When the process is about to die
// instead (the action is the default one, or the program's handler reset it
// to the default, or SIG_IGN for a fault the kernel raised), the callbacks
// registered with AddLastWords run, and the signal then takes its default
// action: a fault happens again at the same instruction, a signal that was
// sent is raised again, so the exit status and the core dump are the ones
// the program would have had.
//
// The callbacks run in the order registered on a thread of their own
// (started by the first AddLastWords), not in the signal handler: they may
// take locks, allocate and wait for other threads (the pools' consumers,
// roctrace's writers), which the crashing thread, stopped inside the handler,
// would not allow. The crashing thread waits for them at most
// kLastWordsTimeoutSeconds (a callback that cannot finish, because the
// crashed thread holds what it needs, then only delays the death). A signal
// on a thread while they run (a second crash, one inside a callback) waits
// for the same callbacks, or dies at once if it is their thread.
//
// A SIGABRT the process sent itself is taken for abort(), which never
// returns: once the program's handler returns, the last words are said
// (abort() then puts the default action back and raises again). A program
// that raise()s SIGABRT into a handler that returns carries on, its trace
// finished early.
//
// Not covered: a program handler that leaves with _exit() or longjmp (the
// process then does not die of the signal, or not through us); handlers set
// through sigset()/bsd_signal() or by the C library for itself; SIGKILL.
// A forked child has no callback thread: it dies without last words. A
// crash on a thread a callback waits for (a pool's consumer thread, inside
// the program's buffer callback) delays the death by the timeout.
#ifndef RUNTIME_PLATFORM_FATAL_SIGNAL_H_
#define RUNTIME_PLATFORM_FATAL_SIGNAL_H_

#include <signal.h>

namespace roctracer::fatal_signal {

constexpr int kLastWordsTimeoutSeconds = 10;

// Installs the handler (once; a no-op afterwards, and when
// ROCTRACER_CRASH_FLUSH=0 is in the environment).
void Install() noexcept;

// Gives the program back the handlers it asked for (before this code is
// unloaded).
void Uninstall() noexcept;

// Registers `fn(arg)` to run when the process dies of a fatal signal (at
// most 8; false when full, when Install() has not put the handler in, or
// when the callback thread cannot be started).
bool AddLastWords(void (*fn)(void* arg), void* arg) noexcept;

// Whether `sig` is one of the signals handled here.
bool IsFatal(int sig) noexcept;

}  // namespace roctracer::fatal_signal

extern "C" {
// sigaction() and signal() as the program sees them, for the GOT patcher:
// for the fatal signals they set and report the program's handler (which
// ours calls), for every other signal they are the C library's.
int roctracer_sigaction_hook(int sig, const struct sigaction* act,
                             struct sigaction* old)
    __attribute__((visibility("hidden")));
void (*roctracer_signal_hook(int sig, void (*handler)(int)))(int)
    __attribute__((visibility("hidden")));
}

#endif  // RUNTIME_PLATFORM_FATAL_SIGNAL_H_
