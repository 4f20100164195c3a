// Application signals the runtime accepted as a completion signal
// (hsa_amd_signal_value_pointer answered SUCCESS), remembered so that a
// traced copy asks the runtime once per signal rather than once per copy:
// HIP reuses its copies' signals, and the question is not free (softhsa takes
// a mutex and a hash look-up for it, ROCR converts and checks the handle).
//
// A remembered signal is forgotten before the runtime destroys it
// (hsa_signal_destroy is replaced while the tracer is installed), and every
// one at the runtime's shut-down, so a destroyed signal is never taken for a
// valid one (an answer is kept as tentative, and confirmed only when no
// forget came since it was asked for, even one on another thread while this
// one remembers it): the copy then goes to the runtime with the application's
// signal, to be refused as without the tracer. A handle the runtime hands out
// again for a new signal is valid again, as the runtime would answer.
//
// A direct-mapped table of handles, read without locks: a look-up is one
// load; a signal that shares its entry with another one in use costs the
// runtime's answer again now and then.
#ifndef RUNTIME_GPU_VALID_SIGNALS_H_
#define RUNTIME_GPU_VALID_SIGNALS_H_

#include <hsa/hsa.h>

namespace roctracer::gpu {

// Whether the runtime accepts `signal` (nonzero) as a completion signal: from
// the table, else asked (hsa_amd_signal_value_pointer, through the runtime's
// own table) and remembered when it answered SUCCESS.
bool ValidSignal(hsa_signal_t signal) noexcept;

// `signal` is about to be destroyed: forgotten, and so is any answer being
// remembered at the same time for it.
void ForgetSignal(hsa_signal_t signal) noexcept;

// The runtime shut down (all of its signals are gone).
void ForgetAllSignals() noexcept;

}  // namespace roctracer::gpu

#endif  // RUNTIME_GPU_VALID_SIGNALS_H_
