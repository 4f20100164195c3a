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

// rocprofv3's category names (rocpd_event.category_id -> rocpd_string).
const char* CategoryName(Category c) {
  switch (c) {
    case Category::kHip:
      return "HIP_RUNTIME_API";
    case Category::kHsa:
      return "HSA_CORE_API";
    case Category::kMarker:
      return "MARKER_CORE_API";
  }
  return "UNKNOWN";
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
  for (sqlite3_stmt* s :
       {insert_string_, insert_event_, insert_region_, insert_thread_}) {
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
  if (sqlite3_open(path_.c_str(), &db_) != SQLITE_OK) {
    Fail("cannot create the database");
    return false;
  }
  guid_ = NewGuid();
  // WAL: a commit is one append, and readers (and a killed writer) always see
  // the last committed state. synchronous=OFF survives the process dying,
  // not the machine: what a tracer needs.
  if (!Exec("PRAGMA journal_mode=WAL; PRAGMA synchronous=OFF; PRAGMA "
            "cache_size=-16384;") ||
      !Exec(RocpdSchemaSql(guid_).c_str())) {
    return false;
  }
  auto prepare = [this](const char* sql, sqlite3_stmt** stmt) {
    if (sqlite3_prepare_v2(db_, sql, -1, stmt, nullptr) != SQLITE_OK) {
      Fail("prepare");
      return false;
    }
    return true;
  };
  if (!prepare("INSERT INTO rocpd_string(string) VALUES (?)",
               &insert_string_) ||
      !prepare("INSERT INTO rocpd_event(id, category_id, stack_id, "
               "parent_stack_id, correlation_id) VALUES (?, ?, ?, 0, ?)",
               &insert_event_) ||
      !prepare("INSERT INTO rocpd_region(nid, pid, tid, start, \"end\", "
               "name_id, event_id) VALUES (1, 1, ?, ?, ?, ?, ?)",
               &insert_region_) ||
      !prepare("INSERT INTO rocpd_info_thread(nid, ppid, pid, tid, name, "
               "start, \"end\") VALUES (1, ?, 1, ?, ?, ?, ?)",
               &insert_thread_)) {
    return false;
  }

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

void RocpdWriter::Write(const ApiEvent& e) {
  if (!opened_ && !Open()) return;
  if (!ok_) return;
  int64_t name_id;
  auto it = name_ids_.find(e.op);
  if (it != name_ids_.end()) {
    name_id = it->second;
  } else {
    name_id = StringId(e.op->name);
    name_ids_.emplace(e.op, name_id);
  }
  int64_t thread = ThreadRow(e.tid, e.start_ns, e.end_ns);
  int64_t event_id = next_event_id_++;
  sqlite3_bind_int64(insert_event_, 1, event_id);
  sqlite3_bind_int64(insert_event_, 2,
                     category_ids_[static_cast<int>(e.op->category)]);
  sqlite3_bind_int64(insert_event_, 3, static_cast<int64_t>(e.correlation_id));
  sqlite3_bind_int64(insert_event_, 4, static_cast<int64_t>(e.correlation_id));
  if (sqlite3_step(insert_event_) != SQLITE_DONE) Fail("insert event");
  sqlite3_reset(insert_event_);
  sqlite3_bind_int64(insert_region_, 1, thread);
  sqlite3_bind_int64(insert_region_, 2, static_cast<int64_t>(e.start_ns));
  sqlite3_bind_int64(insert_region_, 3, static_cast<int64_t>(e.end_ns));
  sqlite3_bind_int64(insert_region_, 4, name_id);
  sqlite3_bind_int64(insert_region_, 5, event_id);
  if (sqlite3_step(insert_region_) != SQLITE_DONE) Fail("insert region");
  sqlite3_reset(insert_region_);
}

void RocpdWriter::Checkpoint() {
  if (!opened_ || !ok_) return;
  Exec("COMMIT");
  Exec("BEGIN");
}

void RocpdWriter::Finish(const RunInfo& info) {
  if (!opened_ || !ok_) return;
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
  // Fold the WAL back into the database so the result is one file.
  sqlite3_wal_checkpoint_v2(db_, nullptr, SQLITE_CHECKPOINT_TRUNCATE, nullptr,
                            nullptr);
  Exec("PRAGMA journal_mode=DELETE;");
}

}  // namespace roctrace
