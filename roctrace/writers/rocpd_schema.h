// rocpd's SQLite schema (schema_version 3, as rocprofv3 writes it) without the
// per-process table suffix: tables are named `rocpd_region`, ... directly, so
// the views rocpd's tools query (`regions`, `kernels`, ...) read them as is.
// Table and column names are compatibility facts; see roctrace/README.md.
#ifndef ROCTRACE_WRITERS_ROCPD_SCHEMA_H_
#define ROCTRACE_WRITERS_ROCPD_SCHEMA_H_

#include <string>

namespace roctrace {

// Statements creating every table, index and view; `guid` becomes the
// default of every table's guid column (one GUID per traced process).
std::string RocpdSchemaSql(const std::string& guid);

}  // namespace roctrace

#endif  // ROCTRACE_WRITERS_ROCPD_SCHEMA_H_
