// libroctracer64.so as the receiver of rocprofiler-register. ROCm >= 6.2
// runtimes built with rocprofiler-register call
// rocprofiler_register_library_api_table(name, import_func, version,
// tables, count, &id) while they initialise; rocprofiler-register then finds
// a tool library (the one ROCPROFILER_REGISTER_LIBRARY names, or, when a
// loaded object defines rocprofiler_configure, the global
// rocprofiler_set_api_table) and hands it the runtime's dispatch tables
// through rocprofiler_set_api_table, before the runtime's exported functions
// use them. For "hsa" the one table is the runtime's HsaApiTable: the
// generated wrappers go into it exactly as through OnLoad (hsa_tool.h).
// HIP's tables ("hip": its runtime and compiler dispatch tables) are left as
// they are: the generator emits no HIP table wrappers (HIP calls are traced
// by the symbol stubs and the GOT patcher), and other libraries ("roctx",
// ...) are not ours to trace this way.
#include <hsa/hsa_api_trace.h>

#include <cstdint>
#include <cstring>

#include "runtime/capi/hsa_tool.h"
#include "runtime/intercept/api_consumer.h"

extern "C" {

// Returns 0 when the tables were taken or deliberately left alone, -1 for
// malformed arguments (NULL name, NULL or empty table list, NULL table):
// rocprofiler-register reports any non-zero value to the runtime as an error.
__attribute__((visibility("default"))) int rocprofiler_set_api_table(
    const char* name, uint64_t lib_version, uint64_t lib_instance,
    void** tables, uint64_t num_tables) {
  if (name == nullptr || tables == nullptr || num_tables == 0 ||
      tables[0] == nullptr) {
    return -1;
  }
  if (std::strcmp(name, "hsa") != 0) {
    roctracer::NotifyTablesRegistered(name, lib_version, lib_instance, tables,
                                      num_tables);
    return 0;
  }
  // Handed over already (OnLoad first, or a second registration): nothing
  // new to report.
  if (tables[0] == roctracer::capi::AcceptedRuntimeTable()) return 0;
  // Refused (another layout, another table already traced): said on
  // stderr, and the runtime goes on untraced through this table.
  if (roctracer::capi::AcceptRuntimeTable(
          static_cast<HsaApiTable*>(tables[0]))) {
    roctracer::NotifyTablesRegistered(name, lib_version, lib_instance, tables,
                                      num_tables);
  }
  return 0;
}

}  // extern "C"
