// RUNTIME_INITIALIZATION (callback and buffer tracing): one report per
// runtime and process as it initializes, as rocprofiler-sdk 1.0.0 reports
// one when a runtime hands it its API tables. Here a runtime counts as
// initialized when it hands the tracer its tables (rocprofiler-register's
// rocprofiler_set_api_table: the version and instance it passes; HSA's
// OnLoad: the runtime's version, below) or, for a runtime traced by its
// exported symbols, at its first call the tracer sees: HIP at its first
// call (before that call's ENTER; the version of the HIP headers built
// against, 10000 * major + 100 * minor + patch as rocprofiler-register
// computes it), rocTX at its first call (this library's
// rocprofiler-sdk-roctx version), HSA at the EXIT of its first successful
// hsa_init (the runtime's version). A report due before the tools are
// registered is made when they are, to the contexts they started.
#ifndef ROCPROFILER_SDK_IMPL_RUNTIME_INITIALIZATION_H_
#define ROCPROFILER_SDK_IMPL_RUNTIME_INITIALIZATION_H_

#include <cstdint>

#include "runtime/intercept/api_consumer.h"
#include "sdk/context.h"
#include "sdk/thread_state.h"

namespace rocprofiler_sdk {

// Runtime `op` (rocprofiler_runtime_initialization_operation_t) has
// initialized: reported once per process.
void RuntimeInitialized(int32_t op, uint64_t version,
                        uint64_t instance) noexcept;

// The initialized HSA runtime's version where it handed over none (OnLoad,
// the first hsa_init), encoded as a runtime that hands its tables to
// rocprofiler-register encodes its own (10000 * major + 100 * minor +
// patch): ROCR answers HSA_SYSTEM_INFO_VERSION_MAJOR/MINOR with the numbers
// it hands over and has no query for the patch (0 here). 0 when the
// runtime does not answer. Asked of the runtime's own function, untraced.
uint64_t HsaRuntimeVersion() noexcept;

// The reports due before the tools were registered: called once they are.
void ReportDeferredRuntimeInits() noexcept;

// Whether a runtime's first call is still watched for.
bool RuntimeInitWatched() noexcept;

// A traced call's ENTER and EXIT, while RuntimeInitWatched().
void RuntimeInitEnter(const roctracer::ApiCallInfo& info) noexcept;
void RuntimeInitExit(const roctracer::ApiCallInfo& info) noexcept;

// Whether `ctx` configured RUNTIME_INITIALIZATION.
bool TracesRuntimeInit(const Context& ctx) noexcept;

// Context `ctx` gains (delta +1) or loses (-1) its interest: the runtimes'
// calls are watched while a context tracing RUNTIME_INITIALIZATION is
// active and the runtime has not initialized. Under ConfigMutex().
void UpdateRuntimeInitWatch(const Context& ctx, int delta) noexcept;

}  // namespace rocprofiler_sdk

#endif  // ROCPROFILER_SDK_IMPL_RUNTIME_INITIALIZATION_H_
