#include "roctrace/writers/rocpd_schema.h"

namespace roctrace {
namespace {

// `@GUID@` is replaced by the process's GUID. Every row of one database has
// the same guid, so `guid` is a virtual generated column: it reads as the
// GUID (views join on it as on rocprofv3's stored column) and costs no bytes
// per row (a stored 36-character GUID was half of each event's size).
// rocpd_event, rocpd_region and rocpd_arg take an INTEGER PRIMARY KEY
// without AUTOINCREMENT: ids are the same for an append-only table, without a
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
  id INTEGER NOT NULL PRIMARY KEY,
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

// The views rocpd's own queries start from: every view of rocprofv3's
// data and summary views, with the same names and columns in the same
// order (top_regions is ours: top_kernels for API calls and rocTX ranges).
// `kernels` and `memory_copies` join the thread with a LEFT JOIN (device work
// whose submitting thread is not known names the "unknown thread" row, tid 0,
// so inner joins keep it as well).
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
       S.arch_vgpr_count AS vgpr_count, S.accum_vgpr_count, S.sgpr_count,
       S.group_segment_size AS static_lds_size,
       S.private_segment_size AS static_scratch_size,
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

CREATE VIEW IF NOT EXISTS code_objects AS
SELECT O.id, O.guid, O.nid, P.pid, A.absolute_index AS agent_abs_index, O.uri,
       O.load_base, O.load_size, O.load_delta,
       O.storage_type AS storage_type_str,
       json_extract(O.extdata, '$.size') AS code_object_size,
       json_extract(O.extdata, '$.storage_type') AS storage_type,
       json_extract(O.extdata, '$.memory_base') AS memory_base,
       json_extract(O.extdata, '$.memory_size') AS memory_size
FROM rocpd_info_code_object O
JOIN rocpd_info_agent A ON A.id = O.agent_id AND A.guid = O.guid
JOIN rocpd_info_process P ON P.id = O.pid AND P.guid = O.guid;

CREATE VIEW IF NOT EXISTS kernel_symbols AS
SELECT S.id, S.guid, S.nid, P.pid, S.code_object_id, S.kernel_name,
       S.display_name, S.kernel_object, S.kernarg_segment_size,
       S.kernarg_segment_alignment, S.group_segment_size,
       S.private_segment_size, S.sgpr_count, S.arch_vgpr_count,
       S.accum_vgpr_count,
       json_extract(S.extdata, '$.size') AS kernel_symbol_size,
       json_extract(S.extdata, '$.kernel_id') AS kernel_id,
       json_extract(S.extdata, '$.kernel_code_entry_byte_offset')
           AS kernel_code_entry_byte_offset,
       json_extract(S.extdata, '$.formatted_kernel_name')
           AS formatted_kernel_name,
       json_extract(S.extdata, '$.demangled_kernel_name')
           AS demangled_kernel_name,
       json_extract(S.extdata, '$.truncated_kernel_name')
           AS truncated_kernel_name,
       json_extract(S.extdata, '$.kernel_address.handle') AS kernel_address
FROM rocpd_info_kernel_symbol S
JOIN rocpd_info_process P ON P.id = S.pid AND P.guid = S.guid;

CREATE VIEW IF NOT EXISTS samples AS
SELECT X.id, X.guid,
       (SELECT string FROM rocpd_string C
        WHERE C.id = E.category_id AND C.guid = E.guid) AS category,
       (SELECT string FROM rocpd_string C
        WHERE C.id = K.name_id AND C.guid = K.guid) AS name,
       K.nid, P.pid, T.tid, X.timestamp, X.event_id, E.stack_id,
       E.parent_stack_id, E.correlation_id AS corr_id, E.extdata,
       E.call_stack, E.line_info
FROM rocpd_sample X
JOIN rocpd_track K ON K.id = X.track_id AND K.guid = X.guid
JOIN rocpd_event E ON E.id = X.event_id AND E.guid = X.guid
JOIN rocpd_info_process P ON P.id = K.pid AND P.guid = K.guid
JOIN rocpd_info_thread T ON T.id = K.tid AND T.guid = K.guid;

CREATE VIEW IF NOT EXISTS sample_regions AS
SELECT id, guid, category, name, nid, pid, tid, timestamp AS start,
       timestamp AS "end", 0 AS duration, event_id, stack_id,
       parent_stack_id, corr_id, extdata, call_stack, line_info
FROM samples;

CREATE VIEW IF NOT EXISTS regions_and_samples AS
SELECT * FROM regions UNION ALL SELECT * FROM sample_regions;

CREATE VIEW IF NOT EXISTS pmc_info AS
SELECT I.id, I.guid, I.nid, P.pid, A.absolute_index AS agent_abs_index,
       I.is_constant, I.is_derived, I.name, I.description, I.block,
       I.expression
FROM rocpd_info_pmc I
JOIN rocpd_info_agent A ON A.id = I.agent_id AND A.guid = I.guid
JOIN rocpd_info_process P ON P.id = I.pid AND P.guid = I.guid;

CREATE VIEW IF NOT EXISTS pmc_events AS
SELECT V.id, V.guid, V.pmc_id, E.id AS event_id,
       (SELECT string FROM rocpd_string C
        WHERE C.id = E.category_id AND C.guid = E.guid) AS category,
       (SELECT display_name FROM rocpd_info_kernel_symbol S
        WHERE S.id = K.kernel_id AND S.guid = K.guid) AS name,
       K.nid, P.pid, K.dispatch_id, K.start, K."end",
       (K."end" - K.start) AS duration, I.name AS counter_name,
       V.value AS counter_value
FROM rocpd_pmc_event V
JOIN rocpd_info_pmc I ON I.id = V.pmc_id AND I.guid = V.guid
JOIN rocpd_event E ON E.id = V.event_id AND E.guid = V.guid
JOIN rocpd_kernel_dispatch K ON K.event_id = V.event_id AND K.guid = V.guid
JOIN rocpd_info_process P ON P.id = K.pid AND P.guid = K.guid;

CREATE VIEW IF NOT EXISTS events_args AS
SELECT E.id AS event_id,
       (SELECT string FROM rocpd_string C
        WHERE C.id = E.category_id AND C.guid = E.guid) AS category,
       E.stack_id, E.parent_stack_id, E.correlation_id,
       A.position AS arg_position, A.type AS arg_type, A.name AS arg_name,
       A.value AS arg_value, E.call_stack, E.line_info, A.extdata
FROM rocpd_event E
JOIN rocpd_arg A ON A.event_id = E.id AND A.guid = E.guid;

CREATE VIEW IF NOT EXISTS stream_args AS
SELECT A.id AS argument_id, A.event_id, A.position AS arg_position,
       A.type AS arg_type, A.value AS arg_value,
       json_extract(A.extdata, '$.stream_id') AS stream_id, S.nid, P.pid,
       S.name AS stream_name, S.extdata
FROM rocpd_arg A
JOIN rocpd_info_stream S
  ON S.id = json_extract(A.extdata, '$.stream_id') AND S.guid = A.guid
JOIN rocpd_info_process P ON P.id = S.pid AND P.guid = S.guid
WHERE A.name = 'stream';

CREATE VIEW IF NOT EXISTS memory_allocations AS
SELECT M.id, M.guid,
       (SELECT string FROM rocpd_string C
        WHERE C.id = E.category_id AND C.guid = E.guid) AS category,
       M.nid, P.pid, T.tid, M.start, M."end", (M."end" - M.start) AS duration,
       M.type, M.level, A.name AS agent_name,
       A.absolute_index AS agent_abs_index, A.logical_index AS agent_log_index,
       A.type_index AS agent_type_index, A.type AS agent_type, M.address,
       M.size, M.queue_id, Q.name AS queue_name, M.stream_id,
       ST.name AS stream_name, E.stack_id, E.parent_stack_id,
       E.correlation_id AS corr_id
FROM rocpd_memory_allocate M
LEFT JOIN rocpd_info_agent A ON A.id = M.agent_id AND A.guid = M.guid
LEFT JOIN rocpd_info_queue Q ON Q.id = M.queue_id AND Q.guid = M.guid
LEFT JOIN rocpd_info_stream ST ON ST.id = M.stream_id AND ST.guid = M.guid
JOIN rocpd_event E ON E.id = M.event_id AND E.guid = M.guid
JOIN rocpd_info_process P ON P.id = M.pid AND P.guid = M.guid
LEFT JOIN rocpd_info_thread T ON T.id = M.tid AND T.guid = M.guid;

CREATE VIEW IF NOT EXISTS scratch_memory AS
SELECT M.id, M.guid, M.nid, P.pid, M.type AS operation,
       A.name AS agent_name, A.absolute_index AS agent_abs_index,
       A.logical_index AS agent_log_index, A.type_index AS agent_type_index,
       A.type AS agent_type, M.queue_id, T.tid,
       json_extract(M.extdata, '$.flags') AS alloc_flags, M.start, M."end",
       (M."end" - M.start) AS duration, M.size, M.address, E.correlation_id,
       E.stack_id, E.parent_stack_id, E.correlation_id AS corr_id,
       (SELECT string FROM rocpd_string C
        WHERE C.id = E.category_id AND C.guid = E.guid) AS category,
       E.extdata AS event_extdata
FROM rocpd_memory_allocate M
LEFT JOIN rocpd_info_agent A ON A.id = M.agent_id AND A.guid = M.guid
JOIN rocpd_event E ON E.id = M.event_id AND E.guid = M.guid
JOIN rocpd_info_process P ON P.id = M.pid AND P.guid = M.guid
LEFT JOIN rocpd_info_thread T ON T.id = M.tid AND T.guid = M.guid
WHERE M.level = 'SCRATCH'
ORDER BY M.start;

CREATE VIEW IF NOT EXISTS counters_collection AS
SELECT MIN(V.id) AS id, V.guid, K.dispatch_id, K.kernel_id,
       E.id AS event_id, E.correlation_id, E.stack_id, E.parent_stack_id,
       P.pid, T.tid, K.agent_id, A.absolute_index AS agent_abs_index,
       A.logical_index AS agent_log_index, A.type_index AS agent_type_index,
       A.type AS agent_type, K.queue_id, K.grid_size_x, K.grid_size_y,
       K.grid_size_z, (K.grid_size_x * K.grid_size_y * K.grid_size_z)
           AS grid_size,
       S.display_name AS kernel_name,
       (SELECT string FROM rocpd_string C
        WHERE C.id = K.region_name_id AND C.guid = K.guid) AS kernel_region,
       K.workgroup_size_x, K.workgroup_size_y, K.workgroup_size_z,
       (K.workgroup_size_x * K.workgroup_size_y * K.workgroup_size_z)
           AS workgroup_size,
       K.group_segment_size AS lds_block_size,
       K.private_segment_size AS scratch_size,
       S.arch_vgpr_count AS vgpr_count, S.accum_vgpr_count, S.sgpr_count,
       I.name AS counter_name, I.symbol AS counter_symbol, I.component,
       I.description, I.block, I.expression, I.value_type,
       I.id AS counter_id, SUM(V.value) AS value, K.start, K."end",
       I.is_constant, I.is_derived, (K."end" - K.start) AS duration,
       (SELECT string FROM rocpd_string C
        WHERE C.id = E.category_id AND C.guid = E.guid) AS category,
       K.nid, E.extdata, S.code_object_id
FROM rocpd_pmc_event V
JOIN rocpd_info_pmc I ON I.id = V.pmc_id AND I.guid = V.guid
JOIN rocpd_event E ON E.id = V.event_id AND E.guid = V.guid
JOIN rocpd_kernel_dispatch K ON K.event_id = V.event_id AND K.guid = V.guid
JOIN rocpd_info_agent A ON A.id = K.agent_id AND A.guid = K.guid
JOIN rocpd_info_kernel_symbol S ON S.id = K.kernel_id AND S.guid = K.guid
JOIN rocpd_info_process P ON P.id = K.pid AND P.guid = K.guid
LEFT JOIN rocpd_info_thread T ON T.id = K.tid AND T.guid = K.guid
GROUP BY V.guid, K.dispatch_id, I.name, K.agent_id;

-- Device time per agent (kernels, and copies on their destination) over
-- the span from the first device operation's start to the last one's end.
CREATE VIEW IF NOT EXISTS busy AS
SELECT G.agent_id, A.type, G.GpuTime, W.WallTime,
       G.GpuTime * 1.0 / W.WallTime AS Busy
FROM (SELECT agent_id, guid, SUM("end" - start) AS GpuTime
      FROM (SELECT agent_id, guid, start, "end" FROM rocpd_kernel_dispatch
            UNION ALL
            SELECT dst_agent_id, guid, start, "end" FROM rocpd_memory_copy)
      GROUP BY agent_id, guid) G
CROSS JOIN (SELECT MAX("end") - MIN(start) AS WallTime
            FROM (SELECT start, "end" FROM rocpd_kernel_dispatch
                  UNION ALL
                  SELECT start, "end" FROM rocpd_memory_copy)) W
JOIN rocpd_info_agent A ON A.id = G.agent_id AND A.guid = G.guid;

-- Kernels, copies and host regions together, by name.
CREATE VIEW IF NOT EXISTS top AS
SELECT O.name, COUNT(*) AS total_calls,
       SUM(O.duration) / 1000.0 AS total_duration,
       (SUM(O.duration) / COUNT(*)) / 1000.0 AS average,
       SUM(O.duration) * 100.0 / T.total_time AS percentage
FROM (SELECT S.display_name AS name, (K."end" - K.start) AS duration
      FROM rocpd_kernel_dispatch K
      JOIN rocpd_info_kernel_symbol S ON S.id = K.kernel_id AND S.guid = K.guid
      UNION ALL
      SELECT N.string, (M."end" - M.start) FROM rocpd_memory_copy M
      JOIN rocpd_string N ON N.id = M.name_id AND N.guid = M.guid
      UNION ALL
      SELECT N.string, (R."end" - R.start) FROM rocpd_region R
      JOIN rocpd_string N ON N.id = R.name_id AND N.guid = R.guid) O
CROSS JOIN (SELECT SUM("end" - start) AS total_time
            FROM (SELECT start, "end" FROM rocpd_kernel_dispatch
                  UNION ALL SELECT start, "end" FROM rocpd_memory_copy
                  UNION ALL SELECT start, "end" FROM rocpd_region)) T
GROUP BY O.name ORDER BY total_duration DESC;

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
