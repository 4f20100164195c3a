// rocpd's SQLite schema (schema_version 3, as rocprofv3 writes it) without the
// per-process table suffix: tables are named `rocpd_region`, ... directly, so
// the views rocpd's tools query (`regions`, `kernels`, ...) read them as is.
// Table and column names are compatibility facts; see roctrace/README.md.
#ifndef ROCTRACE_WRITERS_ROCPD_SCHEMA_H_
#define ROCTRACE_WRITERS_ROCPD_SCHEMA_H_

#include <string>
#include <vector>

namespace roctrace {

// Statements creating every table, index and view; `guid` becomes the
// default of every table's guid column (one GUID per traced process).
std::string RocpdSchemaSql(const std::string& guid);

// The views alone (they read the rocpd_* names, tables or views).
std::string RocpdViewsSql();

// Every rocpd_* table, in creation order.
const std::vector<std::string>& RocpdTableNames();

}  // namespace roctrace

#endif  // ROCTRACE_WRITERS_ROCPD_SCHEMA_H_
