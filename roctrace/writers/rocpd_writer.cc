#include "roctrace/writers/rocpd_writer.h"

#include <sys/utsname.h>

#include <cinttypes>
#include <cstdio>
#include <fstream>
#include <functional>
#include <random>

#include "roctrace/writers/rocpd_schema.h"

namespace roctrace {
namespace {

// Rows per multi-row INSERT: one statement step per 64 events instead of
// one per row (the statement overhead was a third of an insert's cost).
constexpr int kRowsPerStatement = 64;

// "INSERT INTO t(cols) VALUES (row 0), (row 1), ..." where a row's
// parameters are numbered ?1.. per row: `row` uses $0, $1, ... for its own
// parameters, `params` per row.
std::string MultiRowInsert(const char* head, const char* row, int params,
                           int rows) {
  std::string sql = head;
  for (int r = 0; r < rows; ++r) {
    sql += r == 0 ? " (" : ", (";
    for (const char* c = row; *c != '\0'; ++c) {
      if (*c == '$') {
        sql += "?" + std::to_string(r * params + (c[1] - '0') + 1);
        ++c;
      } else {
        sql += *c;
      }
    }
    sql += ")";
  }
  return sql;
}

std::string NewGuid() {
  std::random_device rd;
  std::mt19937_64 gen((static_cast<uint64_t>(rd()) << 32) ^ rd());
  uint64_t a = gen(), b = gen();
  char buf[40];
  std::snprintf(buf, sizeof(buf), "%08x-%04x-%04x-%04x-%012" PRIx64,
                static_cast<unsigned>(a >> 32),
                static_cast<unsigned>((a >> 16) & 0xffff),
                static_cast<unsigned>(0x4000 | (a & 0x0fff)),
                static_cast<unsigned>(0x8000 | ((b >> 48) & 0x3fff)),
                static_cast<uint64_t>(b & 0xffffffffffffull));
  return buf;
}

std::string MachineId() {
  std::ifstream in("/etc/machine-id");
  std::string id;
  std::getline(in, id);
  return id.empty() ? "unknown" : id;
}

}  // namespace

RocpdWriter::RocpdWriter(std::string path, RunInfo start_info)
    : path_(std::move(path)), start_info_(std::move(start_info)) {}

RocpdWriter::~RocpdWriter() {
  for (sqlite3_stmt* s : {insert_string_, insert_thread_, insert_events_[0],
                          insert_events_[1], insert_regions_[0],
                          insert_regions_[1], insert_dispatch_, insert_copy_}) {
    if (s != nullptr) sqlite3_finalize(s);
  }
  if (db_ != nullptr) sqlite3_close(db_);
}

std::vector<std::string> RocpdWriter::Files() const {
  if (!opened_) return {};
  return {path_};
}

void RocpdWriter::Fail(const char* what) {
  if (ok_) {
    std::fprintf(stderr, "roctrace: %s: %s: %s\n", path_.c_str(), what,
                 db_ != nullptr ? sqlite3_errmsg(db_) : "cannot open");
  }
  ok_ = false;
}

bool RocpdWriter::Exec(const char* sql) {
  char* err = nullptr;
  if (sqlite3_exec(db_, sql, nullptr, nullptr, &err) != SQLITE_OK) {
    if (ok_) std::fprintf(stderr, "roctrace: %s: %s\n", path_.c_str(), err);
    sqlite3_free(err);
    ok_ = false;
    return false;
  }
  return true;
}

bool RocpdWriter::Open() {
  opened_ = true;
  std::remove(path_.c_str());
  // One thread uses the connection: no per-call connection mutex.
  if (sqlite3_open_v2(
          path_.c_str(), &db_,
          SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX,
          nullptr) != SQLITE_OK) {
    Fail("cannot create the database");
    return false;
  }
  guid_ = NewGuid();
  // A rollback journal: appended pages are written once (a WAL would be
  // copied into the database again at the end), and a transaction cut short
  // by SIGKILL is undone by the next reader. synchronous=OFF survives the
  // process dying, not the machine: what a tracer needs. Readers may open
  // the database while it is written; the busy timeout lets a commit wait
  // for them.
  sqlite3_busy_timeout(db_, 10000);
  if (!Exec("PRAGMA journal_mode=DELETE; PRAGMA synchronous=OFF; PRAGMA "
            "cache_size=-65536;") ||
      !Exec(RocpdSchemaSql(guid_).c_str())) {
    return false;
  }
  // Ids are left to SQLite (the next rowid, at the table's end): an explicit
  // id costs a uniqueness seek per row. This writer is the tables' only
  // writer and starts them empty, so row n of each is id n, the event id
  // the region names.
  const char kEventHead[] =
      "INSERT INTO rocpd_event(category_id, stack_id, parent_stack_id, "
      "correlation_id) VALUES";
  const char kEventRow[] = "$0, $1, 0, $1";
  const char kRegionHead[] =
      "INSERT INTO rocpd_region(nid, pid, tid, start, \"end\", name_id, "
      "event_id) VALUES";
  const char kRegionRow[] = "1, 1, $0, $1, $2, $3, $4";
  if (!Prepare("INSERT INTO rocpd_string(string) VALUES (?)",
               &insert_string_) ||
      !Prepare("INSERT INTO rocpd_info_thread(nid, ppid, pid, tid, name, "
               "start, \"end\") VALUES (1, ?, 1, ?, ?, ?, ?)",
               &insert_thread_) ||
      // Sizes as rocprofv3's dispatch_info: the packet's.
      !Prepare("INSERT INTO rocpd_kernel_dispatch(nid, pid, tid, agent_id, "
               "kernel_id, dispatch_id, queue_id, stream_id, start, \"end\", "
               "private_segment_size, group_segment_size, "
               "workgroup_size_x, workgroup_size_y, workgroup_size_z, "
               "grid_size_x, grid_size_y, grid_size_z, region_name_id, "
               "event_id) VALUES (1, 1, ?1, ?2, ?3, ?4, ?5, 0, ?6, ?7, ?10, "
               "?11, ?12, ?13, ?14, ?15, ?16, ?17, ?8, ?9)",
               &insert_dispatch_) ||
      !Prepare("INSERT INTO rocpd_memory_copy(nid, pid, tid, start, \"end\", "
               "name_id, dst_agent_id, src_agent_id, size, region_name_id, "
               "event_id) VALUES (1, 1, ?1, ?2, ?3, ?4, ?5, ?6, ?7, ?4, ?8)",
               &insert_copy_)) {
    return false;
  }
  for (int many = 0; many < 2; ++many) {
    int rows = many ? kRowsPerStatement : 1;
    if (!Prepare(MultiRowInsert(kEventHead, kEventRow, 2, rows),
                 &insert_events_[many]) ||
        !Prepare(MultiRowInsert(kRegionHead, kRegionRow, 5, rows),
                 &insert_regions_[many])) {
      return false;
    }
  }
  pending_.reserve(kRowsPerStatement);

  Exec("BEGIN");
  std::string machine = MachineId();
  struct utsname u {};
  uname(&u);
  char* sql = sqlite3_mprintf(
      "INSERT INTO rocpd_metadata(tag, value) VALUES ('schema_version', '3'), "
      "('uuid', ''), ('guid', %Q), ('roctrace.finished', '0');"
      "INSERT INTO rocpd_info_node(id, hash, machine_id, system_name, "
      "hostname, release, version, hardware_name) VALUES (1, %lld, %Q, %Q, "
      "%Q, %Q, %Q, %Q);"
      "INSERT INTO rocpd_info_process(id, nid, ppid, pid, init, start, "
      "command) VALUES (1, 1, %u, %u, %llu, %llu, %Q);",
      guid_.c_str(),
      static_cast<long long>(std::hash<std::string>()(machine) >> 1),
      machine.c_str(), u.sysname, start_info_.hostname.c_str(), u.release,
      u.version, u.machine, start_info_.ppid, start_info_.pid,
      static_cast<unsigned long long>(start_info_.start_ns),
      static_cast<unsigned long long>(start_info_.start_ns),
      start_info_.command.c_str());
  Exec(sql);
  sqlite3_free(sql);
  for (int c = 0; c < kCategoryCount; ++c) {
    category_ids_[c] = StringId(CategoryName(static_cast<Category>(c)));
  }
  // The schema and the process are durable before the first event.
  Checkpoint();
  return ok_;
}

bool RocpdWriter::Prepare(const std::string& sql, sqlite3_stmt** stmt) {
  if (sqlite3_prepare_v3(db_, sql.c_str(), -1, SQLITE_PREPARE_PERSISTENT, stmt,
                         nullptr) != SQLITE_OK) {
    Fail("prepare");
    return false;
  }
  return true;
}

int64_t RocpdWriter::NameId(const OpName* op) {
  if (op->index >= name_ids_.size()) name_ids_.resize(op->index + 1, 0);
  int64_t& id = name_ids_[op->index];
  if (id == 0) id = StringId(op->name);
  return id;
}

int64_t RocpdWriter::StringId(const std::string& text) {
  auto it = strings_.find(text);
  if (it != strings_.end()) return it->second;
  sqlite3_bind_text(insert_string_, 1, text.data(),
                    static_cast<int>(text.size()), SQLITE_STATIC);
  if (sqlite3_step(insert_string_) != SQLITE_DONE) Fail("insert string");
  sqlite3_reset(insert_string_);
  int64_t id = sqlite3_last_insert_rowid(db_);
  strings_.emplace(text, id);
  return id;
}

int64_t RocpdWriter::ThreadRow(uint32_t tid, uint64_t start, uint64_t end) {
  // Events come in runs of one thread: remember the last one's entry (an
  // unordered_map's entries do not move).
  if (last_thread_ == nullptr || tid != last_tid_) {
    ThreadRowSlow(tid, start, end);
    last_tid_ = tid;
    last_thread_ = &threads_.find(tid)->second;
  }
  if (start < last_thread_->start) last_thread_->start = start;
  if (end > last_thread_->end) last_thread_->end = end;
  return last_thread_->row;
}

int64_t RocpdWriter::ThreadRowSlow(uint32_t tid, uint64_t start, uint64_t end) {
  auto it = threads_.find(tid);
  if (it != threads_.end()) {
    if (start < it->second.start) it->second.start = start;
    if (end > it->second.end) it->second.end = end;
    return it->second.row;
  }
  char name[32];
  std::snprintf(name, sizeof(name), "thread %u", tid);
  sqlite3_bind_int64(insert_thread_, 1, start_info_.ppid);
  sqlite3_bind_int64(insert_thread_, 2, tid);
  sqlite3_bind_text(insert_thread_, 3, name, -1, SQLITE_TRANSIENT);
  sqlite3_bind_int64(insert_thread_, 4, static_cast<int64_t>(start));
  sqlite3_bind_int64(insert_thread_, 5, static_cast<int64_t>(end));
  if (sqlite3_step(insert_thread_) != SQLITE_DONE) Fail("insert thread");
  sqlite3_reset(insert_thread_);
  int64_t row = sqlite3_last_insert_rowid(db_);
  threads_.emplace(tid, ThreadInfo{row, start, end});
  return row;
}

int64_t RocpdWriter::AgentRow(AgentRef agent) {
  const int64_t key = agent.gpu ? int64_t{agent.index} + 1 : 0;
  auto it = agents_.find(key);
  if (it != agents_.end()) return it->second;
  char* sql = sqlite3_mprintf(
      "INSERT INTO rocpd_info_agent(nid, pid, type, logical_index, "
      "type_index, name) VALUES (1, 1, %Q, %d, %d, %Q);",
      agent.gpu ? "GPU" : "CPU", agent.index, agent.index,
      AgentName(agent).c_str());
  Exec(sql);
  sqlite3_free(sql);
  int64_t row = sqlite3_last_insert_rowid(db_);
  agents_.emplace(key, row);
  return row;
}

int64_t RocpdWriter::QueueRow(uint64_t queue_id) {
  auto it = queues_.find(queue_id);
  if (it != queues_.end()) return it->second;
  char* sql = sqlite3_mprintf(
      "INSERT INTO rocpd_info_queue(nid, pid, name) VALUES (1, 1, "
      "'Queue %llu');",
      static_cast<unsigned long long>(queue_id));
  Exec(sql);
  sqlite3_free(sql);
  int64_t row = sqlite3_last_insert_rowid(db_);
  queues_.emplace(queue_id, row);
  return row;
}

// The kernel's symbol row has its Kernel_Id as id (the CSV's and JSON's).
int64_t RocpdWriter::KernelRow(const OpName* op) {
  if (op->kernel_id >= kernels_.size()) kernels_.resize(op->kernel_id + 1);
  if (!kernels_[op->kernel_id]) {
    kernels_[op->kernel_id] = true;
    char* sql = sqlite3_mprintf(
        "INSERT INTO rocpd_info_kernel_symbol(id, nid, pid, code_object_id, "
        "kernel_name, display_name) VALUES (%u, 1, 1, 0, %Q, %Q);",
        op->kernel_id, op->name.c_str(), op->name.c_str());
    Exec(sql);
    sqlite3_free(sql);
  }
  return op->kernel_id;
}

// A device event: its rocpd_event row (after the API rows waiting, so that
// ids stay in insertion order), then its dispatch or copy row.
void RocpdWriter::WriteDevice(const ApiEvent& e) {
  InsertPending(true);
  const int64_t event_id = next_event_id_++;
  sqlite3_stmt* events = insert_events_[0];
  sqlite3_bind_int64(events, 1,
                     category_ids_[static_cast<int>(e.op->category)]);
  sqlite3_bind_int64(events, 2, static_cast<int64_t>(e.correlation_id));
  if (sqlite3_step(events) != SQLITE_DONE) Fail("insert event");
  sqlite3_reset(events);
  sqlite3_stmt* st;
  if (e.op->category == Category::kKernel) {
    st = insert_dispatch_;
    sqlite3_bind_int64(st, 2, AgentRow({true, e.device_id}));
    sqlite3_bind_int64(st, 3, KernelRow(e.op));
    sqlite3_bind_int64(st, 4, static_cast<int64_t>(e.dispatch_id));
    sqlite3_bind_int64(st, 5, QueueRow(e.queue_id));
    sqlite3_bind_int64(st, 6, static_cast<int64_t>(e.start_ns));
    sqlite3_bind_int64(st, 7, static_cast<int64_t>(e.end_ns));
    sqlite3_bind_int64(st, 8, NameId(e.op));
    sqlite3_bind_int64(st, 9, event_id);
    const KernelLaunch& l = e.launch;
    const uint32_t sizes[] = {l.private_segment_size,
                              l.group_segment_size,
                              l.workgroup[0],
                              l.workgroup[1],
                              l.workgroup[2],
                              l.grid[0],
                              l.grid[1],
                              l.grid[2]};
    for (int i = 0; i < 8; ++i) sqlite3_bind_int64(st, 10 + i, sizes[i]);
  } else {
    AgentRef src, dst;
    CopyAgents(e, &src, &dst);
    st = insert_copy_;
    sqlite3_bind_int64(st, 2, static_cast<int64_t>(e.start_ns));
    sqlite3_bind_int64(st, 3, static_cast<int64_t>(e.end_ns));
    sqlite3_bind_int64(st, 4, NameId(e.op));
    sqlite3_bind_int64(st, 5, AgentRow(dst));
    sqlite3_bind_int64(st, 6, AgentRow(src));
    sqlite3_bind_int64(st, 7, static_cast<int64_t>(e.bytes));
    sqlite3_bind_int64(st, 8, event_id);
  }
  // The submitting thread, NULL when it is not known.
  if (e.tid != 0) {
    sqlite3_bind_int64(st, 1, ThreadRow(e.tid, e.start_ns, e.start_ns));
  } else {
    sqlite3_bind_null(st, 1);
  }
  if (sqlite3_step(st) != SQLITE_DONE) Fail("insert device work");
  sqlite3_reset(st);
}

void RocpdWriter::Write(const ApiEvent& e) {
  if (!opened_ && !Open()) return;
  if (!ok_) return;
  if (IsDevice(e.op->category)) {
    WriteDevice(e);
    return;
  }
  pending_.push_back({category_ids_[static_cast<int>(e.op->category)],
                      static_cast<int64_t>(e.correlation_id),
                      ThreadRow(e.tid, e.start_ns, e.end_ns),
                      static_cast<int64_t>(e.start_ns),
                      static_cast<int64_t>(e.end_ns), NameId(e.op)});
  if (pending_.size() == kRowsPerStatement) InsertPending(false);
}

void RocpdWriter::InsertPending(bool all) {
  size_t at = 0;
  while (ok_ && at < pending_.size()) {
    int many = pending_.size() - at >= kRowsPerStatement ? 1 : 0;
    if (!many && !all) break;
    size_t rows = many ? kRowsPerStatement : 1;
    sqlite3_stmt* events = insert_events_[many];
    sqlite3_stmt* regions = insert_regions_[many];
    for (size_t r = 0; r < rows; ++r) {
      const PendingRow& p = pending_[at + r];
      int64_t id = next_event_id_++;
      int ev = static_cast<int>(r) * 2;
      sqlite3_bind_int64(events, ev + 1, p.category_id);
      sqlite3_bind_int64(events, ev + 2, p.correlation_id);
      int rg = static_cast<int>(r) * 5;
      sqlite3_bind_int64(regions, rg + 1, p.thread_row);
      sqlite3_bind_int64(regions, rg + 2, p.start);
      sqlite3_bind_int64(regions, rg + 3, p.end);
      sqlite3_bind_int64(regions, rg + 4, p.name_id);
      sqlite3_bind_int64(regions, rg + 5, id);
    }
    if (sqlite3_step(events) != SQLITE_DONE) Fail("insert events");
    sqlite3_reset(events);
    if (sqlite3_step(regions) != SQLITE_DONE) Fail("insert regions");
    sqlite3_reset(regions);
    at += rows;
  }
  pending_.erase(pending_.begin(), pending_.begin() + at);
}

void RocpdWriter::Checkpoint() {
  if (!opened_ || !ok_) return;
  InsertPending(true);
  Exec("COMMIT");
  Exec("BEGIN");
}

void RocpdWriter::Finish(const RunInfo& info) {
  if (!opened_ || !ok_) return;
  InsertPending(true);
  for (const auto& kv : threads_) {
    char* sql = sqlite3_mprintf(
        "UPDATE rocpd_info_thread SET start = %llu, \"end\" = %llu "
        "WHERE id = %lld;",
        static_cast<unsigned long long>(kv.second.start),
        static_cast<unsigned long long>(kv.second.end),
        static_cast<long long>(kv.second.row));
    Exec(sql);
    sqlite3_free(sql);
  }
  char* sql = sqlite3_mprintf(
      "UPDATE rocpd_info_process SET \"end\" = %llu, fini = %llu WHERE id = 1;"
      "UPDATE rocpd_metadata SET value = '1' WHERE tag = 'roctrace.finished';",
      static_cast<unsigned long long>(info.end_ns),
      static_cast<unsigned long long>(info.end_ns));
  Exec(sql);
  sqlite3_free(sql);
  for (const auto& loss : info.losses) {
    sql = sqlite3_mprintf(
        "INSERT INTO rocpd_metadata(tag, value) VALUES ('roctrace.lost.%q', "
        "'%llu');",
        loss.first.c_str(), static_cast<unsigned long long>(loss.second));
    Exec(sql);
    sqlite3_free(sql);
  }
  Exec("COMMIT");
}

}  // namespace roctrace
