// Last words for a tool outside libroctracer64.so.4: roctrace's
// libroctrace_tool.so finishes its output files when the traced program
// dies of a fatal signal (runtime/platform/fatal_signal.h). Exported under
// the private version node ROCTRACER_PRIVATE (runtime/capi/roctracer.map).
#ifndef RUNTIME_PRIVATE_LAST_WORDS_EXPORT_H_
#define RUNTIME_PRIVATE_LAST_WORDS_EXPORT_H_

extern "C" {
// Runs `fn(arg)` on the tracer's last-words thread when the process dies of
// SIGSEGV, SIGBUS, SIGILL, SIGFPE or SIGABRT, after the program's own
// handlers and after the open pools were flushed to their consumers; the
// crashing thread waits for it a bounded time. False when the handler is
// not installed (ROCTRACER_CRASH_FLUSH=0) or no slot is left.
__attribute__((visibility("default"))) bool roctracer_internal_on_fatal_signal(
    void (*fn)(void* arg), void* arg);
}

#endif  // RUNTIME_PRIVATE_LAST_WORDS_EXPORT_H_
