// The environment of a program this process starts. Part of the tracer may
// change a variable of its own process for its own purposes (the GPU half
// names the tracer in HSA_TOOLS_LIB until the HSA runtime has read it,
// runtime/gpu/tool_request.h); a program the process starts must get the
// environment the user gave the process, not that change. The part that
// changes the environment registers a filter; whoever starts programs
// (the exec and spawn hooks, runtime/linking/exec_hooks.h) passes each new
// program its environment through it.
#ifndef RUNTIME_PLATFORM_CHILD_ENVIRONMENT_H_
#define RUNTIME_PLATFORM_CHILD_ENVIRONMENT_H_

#include <cstddef>

namespace roctracer::child_environment {

// For one "NAME=value" entry of a new program's environment: the entry to
// pass instead (`entry` itself to keep it, another string to replace it),
// or nullptr to leave it out. Called in the child of a vfork too (which
// shares the parent's memory): it may not allocate or take a lock.
using Filter = const char* (*)(const char* entry);

// One filter per process; the last registered wins.
void SetFilter(Filter filter) noexcept;

// Whether the filter changes any entry of `envp` (false without a filter
// or for a null `envp`).
bool Changes(char* const* envp) noexcept;

// How many pointers Apply needs in its storage: the entries of `envp` and
// the null that ends them; 0 when nothing changes (then `envp` is passed
// on as it is).
size_t StorageFor(char* const* envp) noexcept;

// `envp` filtered into `storage` (`capacity` pointers, as StorageFor
// answered), which is returned. At most `capacity` - 1 entries of `envp`
// are read: entries another thread appended after StorageFor counted
// (setenv racing with the start of a program) are left out, as if the
// program had started before they were set; the tracer's own entries are
// never passed on unfiltered. A `capacity` of 0 gives nullptr.
char* const* Apply(char* const* envp, char** storage, size_t capacity) noexcept;

}  // namespace roctracer::child_environment

#endif  // RUNTIME_PLATFORM_CHILD_ENVIRONMENT_H_
