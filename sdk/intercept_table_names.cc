// rocprofiler_query_intercept_table_name: the names rocprofiler-sdk 1.0.0
// gives the intercept-table kinds (one bit each of
// rocprofiler_intercept_table_t).
#include <cstring>

#include "rocprofiler-sdk/intercept_table.h"
#include "sdk/kinds.h"

namespace {

struct TableName {
  int32_t kind;
  const char* name;
};

constexpr TableName kTableNames[] = {
    {ROCPROFILER_HSA_TABLE, "HSA"},
    {ROCPROFILER_HIP_RUNTIME_TABLE, "HIP (runtime)"},
    {ROCPROFILER_HIP_COMPILER_TABLE, "HIP (compiler)"},
    {ROCPROFILER_MARKER_CORE_TABLE, "MARKER (ROCTx)"},
    {ROCPROFILER_MARKER_CONTROL_TABLE, "MARKER (ROCTx Control)"},
    {ROCPROFILER_MARKER_NAME_TABLE, "MARKER (ROCTx Name)"},
    {ROCPROFILER_RCCL_TABLE, "RCCL"},
    {ROCPROFILER_ROCDECODE_TABLE, "rocDecode"},
    {ROCPROFILER_ROCJPEG_TABLE, "rocJPEG"},
};
static_assert(1 << (sizeof(kTableNames) / sizeof(kTableNames[0]) - 1) ==
                  ROCPROFILER_TABLE_LAST,
              "one name per table kind");

}  // namespace

extern "C" {

ROCPROFILER_API rocprofiler_status_t rocprofiler_query_intercept_table_name(
    rocprofiler_intercept_table_t kind, const char** name, uint64_t* name_len) {
  const int32_t value = rocprofiler_sdk::RawValue(kind);
  const char* found = nullptr;
  for (const TableName& t : kTableNames) {
    if (t.kind == value) found = t.name;
  }
  if (name != nullptr) *name = found;
  if (name_len != nullptr) *name_len = found ? std::strlen(found) : 0;
  return found ? ROCPROFILER_STATUS_SUCCESS
               : ROCPROFILER_STATUS_ERROR_KIND_NOT_FOUND;
}

}  // extern "C"
