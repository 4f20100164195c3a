// Where a generated C-symbol stub forwards to: the next definition of its
// function in the process, or else the runtime library loaded by the SONAME
// the generator recorded. Shared by the HSA and HIP stubs (one RealRuntime
// each, defined in the generated *_symbol_wrappers.cc).
#ifndef RUNTIME_LINKING_REAL_RUNTIME_H_
#define RUNTIME_LINKING_REAL_RUNTIME_H_

#include <atomic>

namespace roctracer::linking {

struct RealRuntime {
  const char* soname;  // e.g. "libamdhip64.so.5", recorded at generation time
  const char* what;    // "HIP" / "HSA", for the message
  const char* status;  // what the stubs return when it is missing
  std::atomic<void*> handle{nullptr};  // dlopen handle once loaded
  std::atomic<bool> missing{false};    // dlopen failed (reported once)
};

// The real definition of `name` (of `version` where the runtime versions it;
// may be null): dlsym(RTLD_NEXT) first, so chained interposers and test
// doubles linked after us keep working; else the runtime opened by SONAME.
// Never returns one of libroctracer64's own stubs. Null when the runtime
// cannot be loaded (one line on stderr, once per runtime) or lacks `name`.
void* ResolveReal(RealRuntime* runtime, const char* name, const char* version);

// What the `const char*` functions (hipGetErrorString, ...) return when their
// runtime is missing: a non-NULL text, safe to print.
extern const char kRuntimeMissingText[];

}  // namespace roctracer::linking

#endif  // RUNTIME_LINKING_REAL_RUNTIME_H_
