// Thread-local variables read on the traced-call path.
//
// In a shared library a plain thread_local uses the general-dynamic model: a
// __tls_get_addr call per access (~7 ns here). Initial-exec makes it one
// %fs-relative load; it draws on the static TLS surplus glibc keeps for
// libraries loaded with dlopen (the HSA tool path), so only small variables
// may use it (the tracer's total is about a hundred bytes).
//
// The variable must have external linkage and hidden visibility: gold,
// Bazel's linker here, mis-relocates initial-exec accesses to TLS variables
// with internal linkage in a shared library (each got the offset of its
// neighbour in libroctracer64.so, which silently disabled tracing).
#ifndef RUNTIME_PLATFORM_HOT_TLS_H_
#define RUNTIME_PLATFORM_HOT_TLS_H_

// For definitions.
#define ROCTRACER_HOT_TLS \
  __thread __attribute__((tls_model("initial-exec"), visibility("hidden")))
// For `extern` declarations in headers: no visibility there, or a library
// Bazel links on its own (tests) could not refer to the definition.
#define ROCTRACER_HOT_TLS_EXTERN \
  extern __thread __attribute__((tls_model("initial-exec")))

#endif  // RUNTIME_PLATFORM_HOT_TLS_H_
