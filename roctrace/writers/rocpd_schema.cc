#include "roctrace/writers/rocpd_schema.h"

namespace roctrace {
namespace {

// `@GUID@` is replaced by the process's GUID. Every row of one database has
// the same guid, so `guid` is a virtual generated column: it reads as the
// GUID (views join on it as on rocprofv3's stored column) and costs no bytes
// per row (a stored 36-character GUID was half of each event's size).
// rocpd_event and rocpd_region take an INTEGER PRIMARY KEY without
// AUTOINCREMENT: ids are the same for an append-only table, without a
// sqlite_sequence update per row.
const char kTables[] = R"SQL(
CREATE TABLE IF NOT EXISTS rocpd_metadata (
  id INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
  tag TEXT NOT NULL, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS rocpd_string (
  id INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
  guid TEXT NOT NULL GENERATED ALWAYS AS ('@GUID@') VIRTUAL,
  string TEXT NOT NULL UNIQUE ON CONFLICT ABORT);
CREATE TABLE IF NOT EXISTS rocpd_info_node (
  id INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
  guid TEXT NOT NULL GENERATED ALWAYS AS ('@GUID@') VIRTUAL,
  hash BIGINT NOT NULL UNIQUE, machine_id TEXT NOT NULL UNIQUE,
  system_name TEXT, hostname TEXT, release TEXT, version TEXT,
  hardware_name TEXT, domain_name TEXT);
CREATE TABLE IF NOT EXISTS rocpd_info_process (
  id INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
  guid TEXT NOT NULL GENERATED ALWAYS AS ('@GUID@') VIRTUAL,
  nid INTEGER NOT NULL, ppid INTEGER, pid INTEGER NOT NULL,
  init BIGINT, fini BIGINT, start BIGINT, "end" BIGINT, command TEXT,
  environment JSONB DEFAULT '{}' NOT NULL, extdata JSONB DEFAULT '{}' NOT NULL);
CREATE TABLE IF NOT EXISTS rocpd_info_thread (
  id INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
  guid TEXT NOT NULL GENERATED ALWAYS AS ('@GUID@') VIRTUAL,
  nid INTEGER NOT NULL, ppid INTEGER, pid INTEGER NOT NULL,
  tid INTEGER NOT NULL, name TEXT, start BIGINT, "end" BIGINT,
  extdata JSONB DEFAULT '{}' NOT NULL);
CREATE TABLE IF NOT EXISTS rocpd_info_agent (
  id INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
  guid TEXT NOT NULL GENERATED ALWAYS AS ('@GUID@') VIRTUAL,
  nid INTEGER NOT NULL, pid INTEGER NOT NULL,
  type TEXT CHECK (type IN ('CPU', 'GPU')),
  absolute_index INTEGER, logical_index INTEGER, type_index INTEGER,
  uuid INTEGER, name TEXT, model_name TEXT, vendor_name TEXT,
  product_name TEXT, user_name TEXT, extdata JSONB DEFAULT '{}' NOT NULL);
CREATE TABLE IF NOT EXISTS rocpd_info_queue (
  id INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
  guid TEXT NOT NULL GENERATED ALWAYS AS ('@GUID@') VIRTUAL,
  nid INTEGER NOT NULL, pid INTEGER NOT NULL, name TEXT,
  extdata JSONB DEFAULT '{}' NOT NULL);
CREATE TABLE IF NOT EXISTS rocpd_info_stream (
  id INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
  guid TEXT NOT NULL GENERATED ALWAYS AS ('@GUID@') VIRTUAL,
  nid INTEGER NOT NULL, pid INTEGER NOT NULL, name TEXT,
  extdata JSONB DEFAULT '{}' NOT NULL);
CREATE TABLE IF NOT EXISTS rocpd_info_pmc (
  id INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
  guid TEXT NOT NULL GENERATED ALWAYS AS ('@GUID@') VIRTUAL,
  nid INTEGER NOT NULL, pid INTEGER NOT NULL, agent_id INTEGER,
  target_arch TEXT CHECK (target_arch IN ('CPU', 'GPU')),
  event_code INT, instance_id INTEGER, name TEXT NOT NULL,
  symbol TEXT NOT NULL, description TEXT, long_description TEXT DEFAULT '',
  component TEXT, units TEXT DEFAULT '',
  value_type TEXT CHECK (value_type IN ('ABS', 'ACCUM', 'RELATIVE')),
  block TEXT, expression TEXT, is_constant INTEGER, is_derived INTEGER,
  extdata JSONB DEFAULT '{}' NOT NULL);
CREATE TABLE IF NOT EXISTS rocpd_info_code_object (
  id INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
  guid TEXT NOT NULL GENERATED ALWAYS AS ('@GUID@') VIRTUAL,
  nid INTEGER NOT NULL, pid INTEGER NOT NULL, agent_id INTEGER, uri TEXT,
  load_base BIGINT, load_size BIGINT, load_delta BIGINT,
  storage_type TEXT CHECK (storage_type IN ('FILE', 'MEMORY')),
  extdata JSONB DEFAULT '{}' NOT NULL);
CREATE TABLE IF NOT EXISTS rocpd_info_kernel_symbol (
  id INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
  guid TEXT NOT NULL GENERATED ALWAYS AS ('@GUID@') VIRTUAL,
  nid INTEGER NOT NULL, pid INTEGER NOT NULL, code_object_id INTEGER NOT NULL,
  kernel_name TEXT, display_name TEXT, kernel_object INTEGER,
  kernarg_segment_size INTEGER, kernarg_segment_alignment INTEGER,
  group_segment_size INTEGER, private_segment_size INTEGER,
  sgpr_count INTEGER, arch_vgpr_count INTEGER, accum_vgpr_count INTEGER,
  extdata JSONB DEFAULT '{}' NOT NULL);
CREATE TABLE IF NOT EXISTS rocpd_track (
  id INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
  guid TEXT NOT NULL GENERATED ALWAYS AS ('@GUID@') VIRTUAL,
  nid INTEGER NOT NULL, pid INTEGER, tid INTEGER, name_id INTEGER,
  extdata JSONB DEFAULT '{}' NOT NULL);
CREATE TABLE IF NOT EXISTS rocpd_event (
  id INTEGER NOT NULL PRIMARY KEY,
  guid TEXT NOT NULL GENERATED ALWAYS AS ('@GUID@') VIRTUAL,
  category_id INTEGER, stack_id INTEGER, parent_stack_id INTEGER,
  correlation_id INTEGER, call_stack JSONB DEFAULT '{}' NOT NULL,
  line_info JSONB DEFAULT '{}' NOT NULL, extdata JSONB DEFAULT '{}' NOT NULL);
CREATE TABLE IF NOT EXISTS rocpd_arg (
  id INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
  guid TEXT NOT NULL GENERATED ALWAYS AS ('@GUID@') VIRTUAL,
  event_id INTEGER NOT NULL, position INTEGER NOT NULL, type TEXT NOT NULL,
  name TEXT NOT NULL, value TEXT, extdata JSONB DEFAULT '{}' NOT NULL);
CREATE TABLE IF NOT EXISTS rocpd_pmc_event (
  id INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
  guid TEXT NOT NULL GENERATED ALWAYS AS ('@GUID@') VIRTUAL,
  event_id INTEGER, pmc_id INTEGER NOT NULL, value REAL DEFAULT 0.0,
  extdata JSONB DEFAULT '{}');
CREATE TABLE IF NOT EXISTS rocpd_region (
  id INTEGER NOT NULL PRIMARY KEY,
  guid TEXT NOT NULL GENERATED ALWAYS AS ('@GUID@') VIRTUAL,
  nid INTEGER NOT NULL, pid INTEGER NOT NULL, tid INTEGER NOT NULL,
  start BIGINT NOT NULL, "end" BIGINT NOT NULL, name_id INTEGER NOT NULL,
  event_id INTEGER, extdata JSONB DEFAULT '{}' NOT NULL);
CREATE TABLE IF NOT EXISTS rocpd_sample (
  id INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
  guid TEXT NOT NULL GENERATED ALWAYS AS ('@GUID@') VIRTUAL,
  track_id INTEGER NOT NULL, timestamp BIGINT NOT NULL, event_id INTEGER,
  extdata JSONB DEFAULT '{}' NOT NULL);
CREATE TABLE IF NOT EXISTS rocpd_kernel_dispatch (
  id INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
  guid TEXT NOT NULL GENERATED ALWAYS AS ('@GUID@') VIRTUAL,
  nid INTEGER NOT NULL, pid INTEGER NOT NULL, tid INTEGER,
  agent_id INTEGER NOT NULL, kernel_id INTEGER NOT NULL,
  dispatch_id INTEGER NOT NULL, queue_id INTEGER NOT NULL,
  stream_id INTEGER NOT NULL, start BIGINT NOT NULL, "end" BIGINT NOT NULL,
  private_segment_size INTEGER, group_segment_size INTEGER,
  workgroup_size_x INTEGER NOT NULL, workgroup_size_y INTEGER NOT NULL,
  workgroup_size_z INTEGER NOT NULL, grid_size_x INTEGER NOT NULL,
  grid_size_y INTEGER NOT NULL, grid_size_z INTEGER NOT NULL,
  region_name_id INTEGER, event_id INTEGER,
  extdata JSONB DEFAULT '{}' NOT NULL);
CREATE TABLE IF NOT EXISTS rocpd_memory_copy (
  id INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
  guid TEXT NOT NULL GENERATED ALWAYS AS ('@GUID@') VIRTUAL,
  nid INTEGER NOT NULL, pid INTEGER NOT NULL, tid INTEGER,
  start BIGINT NOT NULL, "end" BIGINT NOT NULL, name_id INTEGER NOT NULL,
  dst_agent_id INTEGER, dst_address INTEGER, src_agent_id INTEGER,
  src_address INTEGER, size INTEGER NOT NULL, queue_id INTEGER,
  stream_id INTEGER, region_name_id INTEGER, event_id INTEGER,
  extdata JSONB DEFAULT '{}' NOT NULL);
CREATE TABLE IF NOT EXISTS rocpd_memory_allocate (
  id INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
  guid TEXT NOT NULL GENERATED ALWAYS AS ('@GUID@') VIRTUAL,
  nid INTEGER NOT NULL, pid INTEGER NOT NULL, tid INTEGER, agent_id INTEGER,
  type TEXT CHECK (type IN ('ALLOC', 'FREE', 'REALLOC', 'RECLAIM')),
  level TEXT CHECK (level IN ('REAL', 'VIRTUAL', 'SCRATCH')),
  start BIGINT NOT NULL, "end" BIGINT NOT NULL, address INTEGER,
  size INTEGER NOT NULL, queue_id INTEGER, stream_id INTEGER,
  event_id INTEGER, extdata JSONB DEFAULT '{}' NOT NULL);
)SQL";

// The views rocpd's own queries start from (same names and columns as
// rocprofv3's data and summary views; top_regions is ours: top_kernels for
// API calls and rocTX ranges). `kernels` and `memory_copies` join the
// thread with a LEFT JOIN (device work whose submitting thread is not known
// names the "unknown thread" row, tid 0, so inner joins keep it as well).
const char kViews[] = R"SQL(
CREATE VIEW IF NOT EXISTS processes AS
SELECT N.id AS nid, N.machine_id, N.system_name, N.hostname,
       N.release AS system_release, N.version AS system_version,
       P.guid, P.ppid, P.pid, P.init, P.start, P."end", P.fini, P.command
FROM rocpd_info_process P
JOIN rocpd_info_node N ON N.id = P.nid AND N.guid = P.guid;

CREATE VIEW IF NOT EXISTS threads AS
SELECT N.id AS nid, N.machine_id, N.system_name, N.hostname,
       N.release AS system_release, N.version AS system_version,
       P.guid, P.ppid, P.pid, T.tid, T.start, T."end", T.name
FROM rocpd_info_thread T
JOIN rocpd_info_process P ON P.id = T.pid AND P.guid = T.guid
JOIN rocpd_info_node N ON N.id = T.nid AND N.guid = T.guid;

CREATE VIEW IF NOT EXISTS regions AS
SELECT R.id, R.guid,
       (SELECT string FROM rocpd_string C
        WHERE C.id = E.category_id AND C.guid = E.guid) AS category,
       S.string AS name, R.nid, P.pid, T.tid, R.start, R."end",
       (R."end" - R.start) AS duration, R.event_id, E.stack_id,
       E.parent_stack_id, E.correlation_id AS corr_id, E.extdata,
       E.call_stack, E.line_info
FROM rocpd_region R
JOIN rocpd_event E ON E.id = R.event_id AND E.guid = R.guid
JOIN rocpd_string S ON S.id = R.name_id AND S.guid = R.guid
JOIN rocpd_info_process P ON P.id = R.pid AND P.guid = R.guid
JOIN rocpd_info_thread T ON T.id = R.tid AND T.guid = R.guid;

CREATE VIEW IF NOT EXISTS region_args AS
SELECT R.id, R.guid, R.nid, P.pid, A.type, A.name, A.value
FROM rocpd_region R
JOIN rocpd_event E ON E.id = R.event_id AND E.guid = R.guid
JOIN rocpd_arg A ON A.event_id = E.id AND A.guid = R.guid
JOIN rocpd_info_process P ON P.id = R.pid AND P.guid = R.guid;

CREATE VIEW IF NOT EXISTS kernels AS
SELECT K.id, K.guid, T.tid,
       (SELECT string FROM rocpd_string C
        WHERE C.id = E.category_id AND C.guid = E.guid) AS category,
       R.string AS region, S.display_name AS name, K.nid, P.pid,
       A.absolute_index AS agent_abs_index, A.logical_index AS agent_log_index,
       A.type_index AS agent_type_index, A.type AS agent_type,
       S.code_object_id AS code_object_id, K.kernel_id, K.dispatch_id,
       K.stream_id, K.queue_id, Q.name AS queue, ST.name AS stream,
       K.start, K."end", (K."end" - K.start) AS duration,
       K.grid_size_x AS grid_x, K.grid_size_y AS grid_y,
       K.grid_size_z AS grid_z, K.workgroup_size_x AS workgroup_x,
       K.workgroup_size_y AS workgroup_y, K.workgroup_size_z AS workgroup_z,
       K.group_segment_size AS lds_size,
       K.private_segment_size AS scratch_size,
       S.group_segment_size AS static_lds_size,
       S.private_segment_size AS static_scratch_size,
       S.sgpr_count, S.arch_vgpr_count, S.accum_vgpr_count,
       E.stack_id, E.parent_stack_id, E.correlation_id AS corr_id
FROM rocpd_kernel_dispatch K
JOIN rocpd_info_agent A ON A.id = K.agent_id AND A.guid = K.guid
JOIN rocpd_event E ON E.id = K.event_id AND E.guid = K.guid
JOIN rocpd_string R ON R.id = K.region_name_id AND R.guid = K.guid
JOIN rocpd_info_kernel_symbol S ON S.id = K.kernel_id AND S.guid = K.guid
LEFT JOIN rocpd_info_stream ST ON ST.id = K.stream_id AND ST.guid = K.guid
LEFT JOIN rocpd_info_queue Q ON Q.id = K.queue_id AND Q.guid = K.guid
JOIN rocpd_info_process P ON P.id = K.pid AND P.guid = K.guid
LEFT JOIN rocpd_info_thread T ON T.id = K.tid AND T.guid = K.guid;

CREATE VIEW IF NOT EXISTS memory_copies AS
SELECT M.id, M.guid,
       (SELECT string FROM rocpd_string C
        WHERE C.id = E.category_id AND C.guid = E.guid) AS category,
       M.nid, P.pid, T.tid, M.start, M."end", (M."end" - M.start) AS duration,
       S.string AS name, R.string AS region_name, M.stream_id, M.queue_id,
       ST.name AS stream_name, Q.name AS queue_name, M.size,
       DA.name AS dst_device, DA.absolute_index AS dst_agent_abs_index,
       DA.logical_index AS dst_agent_log_index,
       DA.type_index AS dst_agent_type_index, DA.type AS dst_agent_type,
       M.dst_address,
       SA.name AS src_device, SA.absolute_index AS src_agent_abs_index,
       SA.logical_index AS src_agent_log_index,
       SA.type_index AS src_agent_type_index, SA.type AS src_agent_type,
       M.src_address, E.stack_id, E.parent_stack_id,
       E.correlation_id AS corr_id
FROM rocpd_memory_copy M
JOIN rocpd_string S ON S.id = M.name_id AND S.guid = M.guid
LEFT JOIN rocpd_string R ON R.id = M.region_name_id AND R.guid = M.guid
JOIN rocpd_info_agent DA ON DA.id = M.dst_agent_id AND DA.guid = M.guid
JOIN rocpd_info_agent SA ON SA.id = M.src_agent_id AND SA.guid = M.guid
LEFT JOIN rocpd_info_queue Q ON Q.id = M.queue_id AND Q.guid = M.guid
LEFT JOIN rocpd_info_stream ST ON ST.id = M.stream_id AND ST.guid = M.guid
JOIN rocpd_event E ON E.id = M.event_id AND E.guid = M.guid
JOIN rocpd_info_process P ON P.id = M.pid AND P.guid = M.guid
LEFT JOIN rocpd_info_thread T ON T.id = M.tid AND T.guid = M.guid;

CREATE VIEW IF NOT EXISTS top_kernels AS
SELECT S.display_name AS name, COUNT(K.kernel_id) AS total_calls,
       SUM(K."end" - K.start) / 1000.0 AS total_duration,
       (SUM(K."end" - K.start) / COUNT(K.kernel_id)) / 1000.0 AS average,
       SUM(K."end" - K.start) * 100.0 /
           (SELECT SUM(A."end" - A.start) FROM rocpd_kernel_dispatch A)
           AS percentage
FROM rocpd_kernel_dispatch K
JOIN rocpd_info_kernel_symbol S ON S.id = K.kernel_id AND S.guid = K.guid
GROUP BY name ORDER BY total_duration DESC;

CREATE VIEW IF NOT EXISTS top_regions AS
SELECT name, COUNT(*) AS total_calls, SUM(duration) / 1000.0 AS total_duration,
       AVG(duration) / 1000.0 AS average,
       SUM(duration) * 100.0 / (SELECT SUM(duration) FROM regions) AS percentage
FROM regions GROUP BY name ORDER BY total_duration DESC;
)SQL";

}  // namespace

std::string RocpdViewsSql() { return kViews; }

const std::vector<std::string>& RocpdTableNames() {
  static const std::vector<std::string> names = {"rocpd_metadata",
                                                 "rocpd_string",
                                                 "rocpd_info_node",
                                                 "rocpd_info_process",
                                                 "rocpd_info_thread",
                                                 "rocpd_info_agent",
                                                 "rocpd_info_queue",
                                                 "rocpd_info_stream",
                                                 "rocpd_info_pmc",
                                                 "rocpd_info_code_object",
                                                 "rocpd_info_kernel_symbol",
                                                 "rocpd_track",
                                                 "rocpd_event",
                                                 "rocpd_arg",
                                                 "rocpd_pmc_event",
                                                 "rocpd_region",
                                                 "rocpd_sample",
                                                 "rocpd_kernel_dispatch",
                                                 "rocpd_memory_copy",
                                                 "rocpd_memory_allocate"};
  return names;
}

std::string RocpdSchemaSql(const std::string& guid) {
  std::string sql = kTables;
  const std::string key = "@GUID@";
  for (size_t at = sql.find(key); at != std::string::npos;
       at = sql.find(key, at + guid.size())) {
    sql.replace(at, key.size(), guid);
  }
  return sql + kViews;
}

}  // namespace roctrace
