// Asking the HSA runtime to load this library as its tool without the
// user's HSA_TOOLS_LIB. The GPU half exists only when the runtime hands its
// dispatch table over (OnLoad or rocprofiler-register): Debian's ROCR 5.2.3
// (and softhsa, which imitates it) finds tools only in HSA_TOOLS_LIB, read
// at the first hsa_init. A front end that needs GPU work (rocprofiler-sdk's
// GPU kinds, roctracer's HIP_OPS/HSA_OPS activity) calls RequestToolPath
// when it is configured: if the runtime has not initialised yet, this
// library's own file is put first in HSA_TOOLS_LIB, and the user's value is
// put back as soon as the table arrives. The variable is only ever
// replaced, never added or removed after the library's constructor (which
// adds it, empty, where it is absent): other threads may be reading the
// environment. A program this process starts through the exec family,
// posix_spawn(p) or system, called from an object the GOT patcher covers,
// gets the user's value (or no variable where the user had none) instead
// of the entry this library put in place (its name, or the empty entry of
// the constructor); a value the program set itself since is passed on. The
// library registers a filter of new programs' environments
// (runtime/platform/child_environment.h), which those hooks apply
// (runtime/linking/exec_hooks.h). popen, pointers taken with dlsym and raw
// system calls pass the process's entry as it is (docs/interception.md).
// ROCTRACER_AUTO_HSA_TOOL=0 turns it off.
#ifndef RUNTIME_GPU_TOOL_REQUEST_H_
#define RUNTIME_GPU_TOOL_REQUEST_H_

namespace roctracer::gpu {

enum class ToolPath {
  kHandedOver,  // the runtime has handed its table over already
  kRequested,   // the runtime will (HSA_TOOLS_LIB names this library)
  kTooLate,     // the runtime initialised without it: no GPU work will come
  kOff,         // not asked: ROCTRACER_AUTO_HSA_TOOL=0 or ROCTRACER_GPU=0,
                // or the tracer is not a shared library exporting OnLoad
};

// Idempotent and thread-safe. May call the runtime's hsa_system_get_info
// (never loading the runtime) to tell whether it has initialised.
ToolPath RequestToolPath() noexcept;

// The runtime handed a table over (gpu::Install's first step): restores
// HSA_TOOLS_LIB if RequestToolPath changed it.
void NoteTableHandedOver() noexcept;

// The runtime loaded the tracer but its table was refused (an unknown major
// version): HSA_TOOLS_LIB restored, and later requests answer kTooLate.
void NoteTableRefused() noexcept;

// The runtime took its table back (OnUnload, at the last hsa_shut_down):
// if something asked for the table, the tracer is named in HSA_TOOLS_LIB
// again for the next hsa_init, which loads tools afresh.
void NoteTableWithdrawn() noexcept;

}  // namespace roctracer::gpu

#endif  // RUNTIME_GPU_TOOL_REQUEST_H_
