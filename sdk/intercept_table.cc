// rocprofiler_at_intercept_table_registration: tools' callbacks for the
// dispatch tables runtimes hand the tracer (runtime/intercept/api_consumer.h,
// TableObserverFn), called after the tracer's wrappers are in the tables,
// so a slot a tool replaces wraps the traced call.
#include "rocprofiler-sdk/intercept_table.h"

#include <cstring>
#include <mutex>

#include "rocprofiler-sdk/rocprofiler.h"
#include "runtime/gpu/tool_request.h"
#include "runtime/intercept/api_consumer.h"
#include "sdk/registration.h"
#include "sdk/runtime_initialization.h"

namespace rocprofiler_sdk {
namespace {

constexpr int kAllTables = (ROCPROFILER_TABLE_LAST << 1) - 1;
constexpr int kMaxCallbacks = 32;
constexpr int kMaxTables = 16;
constexpr uint64_t kMaxPointers = 8;

struct Registration {
  rocprofiler_intercept_library_cb_t callback;
  int libs;
  void* data;
};

// A table set a runtime registered, kept for callbacks registered later.
struct Tables {
  rocprofiler_intercept_table_t type;
  uint64_t version, instance, count;
  void* pointers[kMaxPointers];
};

std::mutex g_mutex;
Registration g_callbacks[kMaxCallbacks];
int g_callback_count = 0;
Tables g_tables[kMaxTables];
int g_table_count = 0;

void Deliver(const Registration& r, Tables t) noexcept {
  // HSA's OnLoad hands over no version: asked of the runtime once a tool is
  // to see it.
  if (t.type == ROCPROFILER_HSA_TABLE && t.version == 0) {
    t.version = HsaRuntimeVersion();
  }
  r.callback(t.type, t.version, t.instance, t.pointers, t.count, r.data);
}

// Takes one table set of one kind: kept, and handed to every callback
// registered for the kind, in registration order (outside the lock: a
// callback may register another).
void Take(rocprofiler_intercept_table_t type, uint64_t version,
          uint64_t instance, void** tables, uint64_t count) noexcept {
  Tables t{
      type, version, instance, count < kMaxPointers ? count : kMaxPointers, {}};
  std::memcpy(t.pointers, tables, t.count * sizeof(void*));
  Registration interested[kMaxCallbacks];
  int n = 0;
  {
    std::lock_guard<std::mutex> lock(g_mutex);
    if (g_table_count < kMaxTables) g_tables[g_table_count++] = t;
    for (int i = 0; i < g_callback_count; ++i) {
      if (g_callbacks[i].libs & type) interested[n++] = g_callbacks[i];
    }
  }
  for (int i = 0; i < n; ++i) Deliver(interested[i], t);
}

// rocprofiler-register's library names -> the SDK's table kinds. rocTX
// registers its core, control and name tables in that order.
// A runtime handing over its tables has initialized (RUNTIME_INITIALIZATION,
// reported before the tools' table callbacks, as rocprofiler-sdk does).
void OnTables(const char* library, uint64_t version, uint64_t instance,
              void** tables, uint64_t count) noexcept {
  if (std::strcmp(library, "hsa") == 0) {
    RuntimeInitialized(ROCPROFILER_RUNTIME_INITIALIZATION_HSA, version,
                       instance);
    Take(ROCPROFILER_HSA_TABLE, version, instance, tables, count);
  } else if (std::strcmp(library, "hip") == 0) {
    RuntimeInitialized(ROCPROFILER_RUNTIME_INITIALIZATION_HIP, version,
                       instance);
    Take(ROCPROFILER_HIP_RUNTIME_TABLE, version, instance, tables, count);
  } else if (std::strcmp(library, "hip_compiler") == 0) {
    Take(ROCPROFILER_HIP_COMPILER_TABLE, version, instance, tables, count);
  } else if (std::strcmp(library, "roctx") == 0) {
    RuntimeInitialized(ROCPROFILER_RUNTIME_INITIALIZATION_MARKER, version,
                       instance);
    const rocprofiler_intercept_table_t kinds[] = {
        ROCPROFILER_MARKER_CORE_TABLE, ROCPROFILER_MARKER_CONTROL_TABLE,
        ROCPROFILER_MARKER_NAME_TABLE};
    for (uint64_t i = 0; i < count && i < 3; ++i) {
      Take(kinds[i], version, instance, &tables[i], 1);
    }
  }
}

__attribute__((constructor)) void ObserveTables() {
  roctracer::SetTableObserver(&OnTables);
}

}  // namespace
}  // namespace rocprofiler_sdk

extern "C" rocprofiler_status_t rocprofiler_at_intercept_table_registration(
    rocprofiler_intercept_library_cb_t callback, int libs, void* data) {
  using namespace rocprofiler_sdk;
  if (!InToolRegistration()) {
    return ROCPROFILER_STATUS_ERROR_CONFIGURATION_LOCKED;
  }
  if (callback == nullptr || libs <= 0 || (libs & ~kAllTables) != 0) {
    return ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT;
  }
  // HSA's table comes only from the runtime's tool hand-over: ask for it
  // while the runtime has not initialised (runtime/gpu/tool_request.h).
  if ((libs & ROCPROFILER_HSA_TABLE) != 0) roctracer::gpu::RequestToolPath();
  Tables earlier[kMaxTables];
  int n = 0;
  {
    std::lock_guard<std::mutex> lock(g_mutex);
    if (g_callback_count == kMaxCallbacks) {
      return ROCPROFILER_STATUS_ERROR_OUT_OF_RESOURCES;
    }
    g_callbacks[g_callback_count++] = Registration{callback, libs, data};
    for (int i = 0; i < g_table_count; ++i) {
      if (libs & g_tables[i].type) earlier[n++] = g_tables[i];
    }
  }
  for (int i = 0; i < n; ++i)
    Deliver(Registration{callback, libs, data}, earlier[i]);
  return ROCPROFILER_STATUS_SUCCESS;
}
