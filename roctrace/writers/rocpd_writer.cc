#include "roctrace/writers/rocpd_writer.h"

#include <cxxabi.h>
#include <sys/utsname.h>

#include <algorithm>
#include <cinttypes>
#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <functional>
#include <random>

#include "roctrace/writers/fd_safe_vfs.h"
#include "roctrace/writers/rocpd_schema.h"
#include "roctrace/writers/sqlite_leaf_cells.h"
#include "roctrace/writers/sqlite_table_appender.h"
#include "roctrace/writers/utf8.h"

namespace roctrace {
namespace {

// Rows waiting in memory for a checkpoint before one is made early: 1 to
// 2 MiB keeps the appender's pages in the cache and its memory from growing
// with the event rate (at 64 MiB, writing them was mostly page faults).
// Between the two, the checkpoint is made when its new pages end the file
// on a 1 MiB boundary: each one's gathered write then starts and ends on
// one (the kernel's cost per byte of a 1 MiB-aligned write is about a
// quarter lower than of one starting anywhere).
constexpr size_t kMinBufferedBytes = 1 << 20;
constexpr size_t kMaxBufferedBytes = 2 << 20;
constexpr size_t kFileAlignment = 1 << 20;
// Marker event ids kept for their messages (8 MiB); past that, one pass
// over every event at the end instead.
constexpr size_t kMaxMarkerEvents = 1 << 20;

// The appender's tables, in the order given to it.
enum AppendedTable : size_t { kEventTable, kRegionTable, kArgTable };
// The columns of an API call's rows that are the same in every row (no
// bytes in the record, so the appender neither checks nor stores them):
// the event's parent stack id (0), the region's nid and pid (1, 1).
constexpr uint32_t kEventFixed = 1u << 2;
constexpr uint32_t kRegionFixed = 1u << 0 | 1u << 1;
// An argument's value is cut to this many bytes (then "..."), so that a row
// never needs an overflow page (structs passed by value print every field).
constexpr size_t kMaxArgValue = 1024;

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
  for (sqlite3_stmt* s : {insert_string_, insert_thread_, insert_dispatch_,
                          insert_copy_, insert_scratch_, insert_allocation_}) {
    if (s != nullptr) sqlite3_finalize(s);
  }
  if (db_ != nullptr) sqlite3_close(db_);
}

std::vector<std::string> RocpdWriter::Files() const {
  if (!created_) return {};
  return {path_};
}

void RocpdWriter::Fail(const char* what) {
  Fail(what, db_ != nullptr ? sqlite3_errmsg(db_) : "cannot open");
}

void RocpdWriter::Fail(const char* what, const std::string& why) {
  if (ok_) {
    ReportFailure(path_, std::string(what) + ": " + why);
    // What the last commit did not make durable is lost with this one.
    CountUnwritten(uncommitted_events_);
    uncommitted_events_ = 0;
  }
  ok_ = false;
  writing_ = false;
}

bool RocpdWriter::Exec(const char* sql) {
  char* err = nullptr;
  if (sqlite3_exec(db_, sql, nullptr, nullptr, &err) != SQLITE_OK) {
    Fail("cannot write", err != nullptr ? err : sqlite3_errmsg(db_));
    sqlite3_free(err);
    return false;
  }
  return true;
}

bool RocpdWriter::Open() {
  opened_ = true;
  std::remove(path_.c_str());
  // One thread uses the connection: no per-call connection mutex. Its
  // files survive a program that closes our descriptors (fd_safe_vfs.h).
  if (sqlite3_open_v2(
          path_.c_str(), &db_,
          SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX,
          FdSafeVfsName()) != SQLITE_OK) {
    Fail("cannot create the database");
    return false;
  }
  created_ = true;
  guid_ = NewGuid();
  // A rollback journal: appended pages are written once (a WAL would be
  // copied into the database again at the end), and a transaction cut short
  // by SIGKILL is undone by the next reader. synchronous=OFF survives the
  // process dying, not the machine: what a tracer needs. Readers may open
  // the database while it is written; the busy timeout lets a commit wait
  // for them.
  sqlite3_busy_timeout(db_, 10000);
  // No auto-vacuum: the appender's pages stay where it put them. The schema
  // and the first rows are one transaction: one journal instead of one a
  // statement (the fixed cost of a database was ~4.6 ms, mostly journals).
  // temp_store=MEMORY: no temporary files (they would be the default VFS's).
  if (!Exec("PRAGMA auto_vacuum=NONE; PRAGMA journal_mode=DELETE; PRAGMA "
            "synchronous=OFF; PRAGMA cache_size=-65536; PRAGMA "
            "temp_store=MEMORY;") ||
      !Exec("BEGIN") || !Exec(RocpdSchemaSql(guid_).c_str()) ||
      !Prepare("INSERT INTO rocpd_string(string) VALUES (?)",
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
               "event_id) VALUES (1, 1, ?1, ?2, ?3, ?4, ?5, ?18, ?6, ?7, ?10, "
               "?11, ?12, ?13, ?14, ?15, ?16, ?17, ?8, ?9)",
               &insert_dispatch_) ||
      !Prepare("INSERT INTO rocpd_memory_copy(nid, pid, tid, start, \"end\", "
               "name_id, dst_agent_id, src_agent_id, size, stream_id, "
               "region_name_id, event_id) VALUES (1, 1, ?1, ?2, ?3, ?4, ?5, "
               "?6, ?7, ?9, ?4, ?8)",
               &insert_copy_) ||
      // As rocprofv3 files the runtime's scratch events: level SCRATCH,
      // type ALLOC, FREE or RECLAIM, the allocation flags in extdata.
      !Prepare("INSERT INTO rocpd_memory_allocate(nid, pid, tid, agent_id, "
               "type, level, start, \"end\", size, queue_id, event_id, "
               "extdata) VALUES (1, 1, ?1, ?2, CASE ?3 WHEN 0 THEN 'ALLOC' "
               "WHEN 1 THEN 'FREE' ELSE 'RECLAIM' END, 'SCRATCH', ?4, ?5, ?6, "
               "?7, ?8, printf('{\"flags\":%d}', ?9))",
               &insert_scratch_) ||
      // A memory pool's allocation or free, as rocprofv3's
      // --memory-allocation-trace files them: level REAL (VIRTUAL for a
      // virtual memory handle's), the agent of allocations only. ?3: 1 a
      // free, + 2 a handle's.
      !Prepare("INSERT INTO rocpd_memory_allocate(nid, pid, tid, agent_id, "
               "type, level, start, \"end\", address, size, event_id) VALUES "
               "(1, 1, ?1, ?2, CASE ?3 & 1 WHEN 0 THEN 'ALLOC' ELSE 'FREE' "
               "END, CASE ?3 & 2 WHEN 0 THEN 'REAL' ELSE 'VIRTUAL' END, "
               "?4, ?5, ?6, ?7, ?8)",
               &insert_allocation_)) {
    return false;
  }
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
  for (const auto& note : start_info_.notes) {
    sql = sqlite3_mprintf(
        "INSERT INTO rocpd_metadata(tag, value) VALUES ('roctrace.%q', %Q);",
        note.first.c_str(), note.second.c_str());
    Exec(sql);
    sqlite3_free(sql);
  }
  for (int c = 0; c < kCategoryCount; ++c) {
    category_ids_[c] = StringId(CategoryName(static_cast<Category>(c)));
  }
  // The schema and the process are durable before the first event; the
  // appender reads the committed file's header.
  if (!Exec("COMMIT")) return false;
  // rocpd_event and rocpd_region rows are b-tree cells written by the
  // appender (ids ours, from 1: the event id the region names); SQLite
  // writes the rest.
  std::string error;
  appender_ = SqliteTableAppender::Open(
      db_, {{"rocpd_event", 4}, {"rocpd_region", 7}, {"rocpd_arg", 5}}, &error);
  if (appender_ == nullptr) {
    Fail("cannot append rows", error);
    return false;
  }
  // The fd-safe VFS writes all it is given: runs of leaves in one call
  // (within an int, xWrite's size).
  sqlite3_vfs* vfs = nullptr;
  if (FdSafeVfsName() != nullptr &&
      sqlite3_file_control(db_, "main", SQLITE_FCNTL_VFS_POINTER, &vfs) ==
          SQLITE_OK &&
      vfs != nullptr && std::strcmp(vfs->zName, FdSafeVfsName()) == 0) {
    appender_->SetMaxWrite(size_t{8} << 20);
  }
  Exec("BEGIN");
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

void RocpdWriter::SwitchThread(uint32_t tid, uint64_t start, uint64_t end) {
  // Remember this thread's entry (an unordered_map's entries do not move).
  ThreadRowSlow(tid, start, end);
  last_tid_ = tid;
  last_thread_ = &threads_.find(tid)->second;
}

const RocpdWriter::NameIds& RocpdWriter::NameIdsSlow(const OpName* op) {
  if (op->index >= name_ids_of_.size()) name_ids_of_.resize(op->index + 1);
  NameIds& ids = name_ids_of_[op->index];
  ids.category = CategoryId(op);
  ids.name = NameId(op);
  return ids;
}

int64_t RocpdWriter::ThreadRowSlow(uint32_t tid, uint64_t start, uint64_t end) {
  auto it = threads_.find(tid);
  if (it != threads_.end()) {
    if (start < it->second.start) it->second.start = start;
    if (end > it->second.end) it->second.end = end;
    return it->second.row;
  }
  char name[32];
  std::snprintf(name, sizeof(name), tid == 0 ? "unknown thread" : "thread %u",
                tid);
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
  // As rocprofv3 fills the row from the agent's description: its name
  // (gfx target, CPU model), model, vendor and product names (user_name is
  // the product name), `uuid` the KFD device_id, extdata the KFD
  // properties. An agent the topology does not describe is named by `-A`
  // and has the rest NULL.
  const AgentInfo* info = AgentInfoOf(agent);
  std::string extdata = "{";
  if (info != nullptr) {
    for (const auto& [key, value] : info->properties) {
      if (extdata.size() > 1) extdata.push_back(',');
      extdata += "\"" + key + "\":" + std::to_string(value);
    }
  }
  extdata.push_back('}');
  const std::string name =
      info != nullptr && !info->name.empty() ? info->name : AgentName(agent);
  auto text = [info](const std::string AgentInfo::*field) {
    return info != nullptr ? (info->*field).c_str() : nullptr;
  };
  char* sql = sqlite3_mprintf(
      "INSERT INTO rocpd_info_agent(nid, pid, type, absolute_index, "
      "logical_index, type_index, uuid, name, model_name, vendor_name, "
      "product_name, user_name, extdata) VALUES (1, 1, %Q, %lld, %lld, %d, "
      "%s, %Q, %Q, %Q, %Q, %Q, %Q);",
      agent.gpu ? "GPU" : "CPU",
      static_cast<long long>(AgentAbsoluteIndex(agent)),
      static_cast<long long>(AgentLogicalIndex(agent)), agent.index,
      info != nullptr ? std::to_string(info->Property("device_id")).c_str()
                      : "NULL",
      name.c_str(), text(&AgentInfo::model_name), text(&AgentInfo::vendor_name),
      text(&AgentInfo::product_name), text(&AgentInfo::product_name),
      extdata.c_str());
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

// A stream's row has its Stream_Id as id and rocprofv3's name: "Default
// Stream" for the null stream, written before any other, the others
// "Stream 0", "Stream 1", ... in the order their rows are written.
int64_t RocpdWriter::StreamRow(uint64_t stream_id) {
  if (streams_.count(stream_id) != 0) return static_cast<int64_t>(stream_id);
  if (streams_.empty() && stream_id != 0) StreamRow(0);
  char* sql =
      stream_id == 0
          ? sqlite3_mprintf(
                "INSERT INTO rocpd_info_stream(id, nid, pid, name) VALUES "
                "(0, 1, 1, 'Default Stream');")
          : sqlite3_mprintf(
                "INSERT INTO rocpd_info_stream(id, nid, pid, name) VALUES "
                "(%llu, 1, 1, 'Stream %llu');",
                static_cast<unsigned long long>(stream_id),
                static_cast<unsigned long long>(streams_.size() - 1));
  Exec(sql);
  sqlite3_free(sql);
  streams_.insert(stream_id);
  return static_cast<int64_t>(stream_id);
}

namespace {

// A kernel symbol's name demangled (its ".kd" descriptor suffix dropped);
// as it is when it does not demangle (extern "C").
std::string Demangled(std::string name) {
  const size_t n = name.size();
  if (n > 3 && name.compare(n - 3, 3, ".kd") == 0) name.resize(n - 3);
  int status = 0;
  char* d = abi::__cxa_demangle(name.c_str(), nullptr, nullptr, &status);
  if (status == 0 && d != nullptr) name = d;
  std::free(d);
  return name;
}

}  // namespace

// A code object's row, as rocprofv3 writes it: its id, its agent, what the
// loader says of it, the storage as text ('FILE', 'MEMORY'; NULL for none)
// and extdata with the SDK's load record's fields (size is that record's
// sizeof in rocprofiler-sdk 1.0.0; storage_type its enum value).
int64_t RocpdWriter::CodeObjectRow(const CodeObjectInfo& c) {
  if (!code_objects_.insert(c.id).second) return static_cast<int64_t>(c.id);
  const std::string agent = c.device_id >= 0
                                ? std::to_string(AgentRow({true, c.device_id}))
                                : std::string("NULL");
  const char* storage = c.storage_type == 1   ? "'FILE'"
                        : c.storage_type == 2 ? "'MEMORY'"
                                              : "NULL";
  constexpr unsigned kLoadRecordSize = 88;
  char* sql = sqlite3_mprintf(
      "INSERT INTO rocpd_info_code_object(id, nid, pid, agent_id, uri, "
      "load_base, load_size, load_delta, storage_type, extdata) VALUES "
      "(%llu, 1, 1, %s, %Q, %llu, %llu, %lld, %s, json_object('size', %u, "
      "'code_object_id', %llu, 'uri', %Q, 'load_base', %llu, 'load_size', "
      "%llu, 'load_delta', %lld, 'storage_type', %u, 'memory_base', %llu, "
      "'memory_size', %llu));",
      static_cast<unsigned long long>(c.id), agent.c_str(), c.uri.c_str(),
      static_cast<unsigned long long>(c.load_base),
      static_cast<unsigned long long>(c.load_size),
      static_cast<long long>(c.load_delta), storage, kLoadRecordSize,
      static_cast<unsigned long long>(c.id), c.uri.c_str(),
      static_cast<unsigned long long>(c.load_base),
      static_cast<unsigned long long>(c.load_size),
      static_cast<long long>(c.load_delta), c.storage_type,
      static_cast<unsigned long long>(c.memory_base),
      static_cast<unsigned long long>(c.memory_size));
  Exec(sql);
  sqlite3_free(sql);
  return static_cast<int64_t>(c.id);
}

// The kernel's symbol row has its Kernel_Id as id (the CSV's and JSON's),
// and the name's register counts (NULL when not known). As rocprofv3's:
// kernel_name is the symbol as the code object has it, display_name the
// name the other outputs show; the symbol's code object (written first),
// kernel object and segment sizes come from the name's first dispatch's
// kernel symbol (NULL, and code object 0, when it was not known).
int64_t RocpdWriter::KernelRow(const OpName* op) {
  if (op->kernel_id >= kernels_.size()) kernels_.resize(op->kernel_id + 1);
  if (!kernels_[op->kernel_id]) {
    kernels_[op->kernel_id] = true;
    const KernelRegisterCounts& r = op->registers;
    std::string registers[3];
    const uint32_t counts[3] = {r.sgpr, r.arch_vgpr, r.accum_vgpr};
    for (int i = 0; i < 3; ++i) {
      registers[i] = r.known ? std::to_string(counts[i]) : "NULL";
    }
    const KernelSymbolInfo* s = op->symbol.get();
    const int64_t code_object = s != nullptr && s->code_object != nullptr
                                    ? CodeObjectRow(*s->code_object)
                                    : 0;
    std::string symbol[5] = {"NULL", "NULL", "NULL", "NULL", "NULL"};
    if (s != nullptr) {
      symbol[0] = std::to_string(s->kernel_object);
      symbol[1] = std::to_string(s->kernarg_segment_size);
      symbol[2] = std::to_string(s->kernarg_segment_alignment);
      symbol[3] = std::to_string(s->group_segment_size);
      symbol[4] = std::to_string(s->private_segment_size);
    }
    const std::string& kernel_name =
        s != nullptr && !s->symbol_name.empty() ? s->symbol_name : op->name;
    // The symbol demangled, whatever -T and -M made of the display name.
    const std::string demangled = s != nullptr && !s->symbol_name.empty()
                                      ? Demangled(s->symbol_name)
                                      : op->name;
    // extdata as rocprofv3's (the kernel_symbols view reads kernel_id and
    // the names from it); the one name roctrace has stands for each.
    char* sql = sqlite3_mprintf(
        "INSERT INTO rocpd_info_kernel_symbol(id, nid, pid, code_object_id, "
        "kernel_name, display_name, kernel_object, kernarg_segment_size, "
        "kernarg_segment_alignment, group_segment_size, private_segment_size, "
        "sgpr_count, arch_vgpr_count, accum_vgpr_count, extdata) VALUES (%u, "
        "1, 1, %lld, %Q, %Q, %s, %s, %s, %s, %s, %s, %s, %s, "
        "json_object('kernel_id', %u, 'code_object_id', %lld, "
        "'formatted_kernel_name', %Q, 'demangled_kernel_name', %Q, "
        "'truncated_kernel_name', %Q));",
        op->kernel_id, static_cast<long long>(code_object), kernel_name.c_str(),
        op->name.c_str(), symbol[0].c_str(), symbol[1].c_str(),
        symbol[2].c_str(), symbol[3].c_str(), symbol[4].c_str(),
        registers[0].c_str(), registers[1].c_str(), registers[2].c_str(),
        op->kernel_id, static_cast<long long>(code_object), op->name.c_str(),
        demangled.c_str(), op->name.c_str());
    Exec(sql);
    sqlite3_free(sql);
  }
  return op->kernel_id;
}

// A device event: its rocpd_event row, and its dispatch or copy row, which
// waits for the checkpoint that publishes the event (rows never name an
// event a killed process left out).
void RocpdWriter::WriteDevice(const ApiEvent& e) {
  const int64_t event_id = AppendEvent(e);
  DeviceRow row{};
  row.category = e.op->category;
  int64_t* v = row.values;
  if (row.category == Category::kMemoryAllocation) {
    const MemoryAllocation& m = e.device->allocation;
    v[1] = m.has_agent ? AgentRow(m.agent) : -1;
    const bool vmem = e.op->name.compare(0, 23, "MEMORY_ALLOCATION_VMEM_") == 0;
    const bool is_free = e.op->name == (vmem ? "MEMORY_ALLOCATION_VMEM_FREE"
                                             : "MEMORY_ALLOCATION_FREE");
    v[2] = (is_free ? 1 : 0) + (vmem ? 2 : 0);
    v[3] = static_cast<int64_t>(e.start_ns);
    v[4] = static_cast<int64_t>(e.end_ns);
    v[5] = static_cast<int64_t>(m.address);
    v[6] = static_cast<int64_t>(m.size);
    v[7] = event_id;
  } else if (row.category == Category::kScratchMemory) {
    v[1] =
        e.device->device_id >= 0 ? AgentRow({true, e.device->device_id}) : -1;
    v[2] = static_cast<int64_t>(e.op->name == "SCRATCH_MEMORY_ALLOC"  ? 0
                                : e.op->name == "SCRATCH_MEMORY_FREE" ? 1
                                                                      : 2);
    v[3] = static_cast<int64_t>(e.start_ns);
    v[4] = static_cast<int64_t>(e.end_ns);
    v[5] = static_cast<int64_t>(e.device->scratch.size);
    v[6] = QueueRow(e.queue_id);
    v[7] = event_id;
    v[8] = e.device->scratch.flags;
  } else if (row.category == Category::kKernel) {
    v[1] = AgentRow({true, e.device->device_id});
    v[2] = KernelRow(e.op);
    v[3] = static_cast<int64_t>(e.device->dispatch_id);
    v[4] = QueueRow(e.queue_id);
    v[5] = static_cast<int64_t>(e.start_ns);
    v[6] = static_cast<int64_t>(e.end_ns);
    v[7] = NameId(e.op);
    v[8] = event_id;
    // ?10..?17: the launch, as rocprofv3's dispatch_info.
    const KernelLaunch& l = e.device->launch;
    const uint32_t sizes[] = {l.private_segment_size,
                              l.group_segment_size,
                              l.workgroup[0],
                              l.workgroup[1],
                              l.workgroup[2],
                              l.grid[0],
                              l.grid[1],
                              l.grid[2]};
    for (int i = 0; i < 8; ++i) v[9 + i] = sizes[i];
    v[17] = StreamRow(e.stream_id);
  } else {
    AgentRef src{}, dst{};
    CopyAgents(e, &src, &dst);
    v[1] = static_cast<int64_t>(e.start_ns);
    v[2] = static_cast<int64_t>(e.end_ns);
    v[3] = NameId(e.op);
    v[4] = AgentRow(dst);
    v[5] = AgentRow(src);
    v[6] = static_cast<int64_t>(e.bytes);
    v[7] = event_id;
    v[8] = StreamRow(e.stream_id);
  }
  // The submitting thread; when it is not known, the process's "unknown
  // thread" row (tid 0, as the CSV's Thread_Id 0), so that rocprofv3's
  // views, which join the thread, still show the row.
  v[0] = ThreadRow(e.tid, e.start_ns, e.start_ns);
  device_rows_.push_back(row);
}

// rocprofv3's event category: an API call's or rocTX event's own kind
// (HSA_AMD_EXT_API, HIP_COMPILER_API_EXT, MARKER_CORE_RANGE_API, ...: its
// Domain), device work's category.
int64_t RocpdWriter::CategoryId(const OpName* op) {
  if (IsDevice(op->category)) {
    return category_ids_[static_cast<int>(op->category)];
  }
  if (op->index >= op_category_ids_.size()) {
    op_category_ids_.resize(op->index + 1, 0);
  }
  int64_t& id = op_category_ids_[op->index];
  if (id == 0) id = StringId(op->domain);
  return id;
}

// The event's rocpd_event row (category, stack id = correlation ID, parent
// stack 0, correlation ID); its id.
int64_t RocpdWriter::AppendEvent(const ApiEvent& e) {
  const int64_t id = next_event_id_++;
  const int64_t corr = static_cast<int64_t>(e.correlation_id);
  const int64_t event[4] = {CategoryId(e.op), corr, 0, corr};
  appender_->Append(kEventTable, id, event);
  return id;
}

namespace {

// Argument structs are a few words: compared and copied without a call;
// up to 16 bytes (most calls' structs) in two overlapping loads a side.
inline bool SameBytes(const unsigned char* a, const unsigned char* b,
                      size_t n) {
  if (__builtin_expect(n >= 8 && n <= 16, 1)) {
    uint64_t x0, y0, x1, y1;
    std::memcpy(&x0, a, 8);
    std::memcpy(&y0, b, 8);
    std::memcpy(&x1, a + n - 8, 8);
    std::memcpy(&y1, b + n - 8, 8);
    return ((x0 ^ y0) | (x1 ^ y1)) == 0;
  }
  size_t i = 0;
  for (; i + 8 <= n; i += 8) {
    uint64_t x, y;
    std::memcpy(&x, a + i, 8);
    std::memcpy(&y, b + i, 8);
    if (x != y) return false;
  }
  if (i + 4 <= n) {
    uint32_t x, y;
    std::memcpy(&x, a + i, 4);
    std::memcpy(&y, b + i, 4);
    if (x != y) return false;
    i += 4;
  }
  for (; i < n; ++i) {
    if (a[i] != b[i]) return false;
  }
  return true;
}

// Whether `n` bytes of text are all ASCII, in word loads (the last word
// overlapping the one before it).
inline bool IsAscii(const char* p, size_t n) {
  constexpr uint64_t kHigh = 0x8080808080808080ull;
  if (n >= 8) {
    uint64_t any, word;
    std::memcpy(&any, p, 8);
    std::memcpy(&word, p + n - 8, 8);
    if (n <= 16) return ((any | word) & kHigh) == 0;  // most values
    if (n <= 32) {  // enumerator names: two more words, overlapping
      uint64_t a, b;
      std::memcpy(&a, p + 8, 8);
      std::memcpy(&b, p + n - 16, 8);
      return ((any | word | a | b) & kHigh) == 0;
    }
    for (size_t i = 8; i + 8 < n; i += 8) {
      std::memcpy(&word, p + i, 8);
      any |= word;
    }
    std::memcpy(&word, p + n - 8, 8);
    return ((any | word) & kHigh) == 0;
  }
  uint32_t any = 0;
  if (n >= 4) {
    uint32_t a, b;
    std::memcpy(&a, p, 4);
    std::memcpy(&b, p + n - 4, 4);
    any = a | b;
  } else {
    for (size_t i = 0; i < n; ++i) any |= static_cast<unsigned char>(p[i]);
  }
  return (any & 0x80808080u) == 0;
}

// A value longer than kMaxArgValue cut (then "..."), and made valid UTF-8.
__attribute__((noinline, cold)) void CutValue(const char* value, size_t size,
                                              std::string* out) {
  out->assign(value, std::min(size, kMaxArgValue));
  if (size > kMaxArgValue) *out += "...";
  if (!IsValidUtf8(*out)) *out = MakeValidUtf8(*out);
}

inline void CopyBytes(unsigned char* to, const unsigned char* from, size_t n) {
  size_t i = 0;
  for (; i + 16 <= n; i += 16) {
    unsigned char block[16];
    std::memcpy(block, from + i, 16);
    std::memcpy(to + i, block, 16);
  }
  if (i + 8 <= n) {
    std::memcpy(to + i, from + i, 8);
    i += 8;
  }
  if (i + 4 <= n) {
    std::memcpy(to + i, from + i, 4);
    i += 4;
  }
  for (; i < n; ++i) to[i] = from[i];
}

}  // namespace

struct RocpdWriter::ArgSink {
  RocpdWriter* writer;
  const ApiArgs* args;
  int64_t event_id;
  OpArgCells* cells;
  LastArgs* keep;  // the rows' tails go here; null: not kept
  // What the common row checks: the encoded cells by position (none while
  // rows are kept), and whether a `stream` parameter takes the other path
  // (its extdata).
  const ArgCells* positions;
  size_t position_count;
  bool stream_known;
  size_t stream_size;
  const char* stream;  // the stream argument's extdata (stream_size bytes)

  void SetPositions() {
    positions = cells->by_position.data();
    position_count = keep == nullptr ? cells->by_position.size() : 0;
  }
};

__attribute__((noinline)) void RocpdWriter::SpellArgRow(
    ArgSink& s, uint32_t position, const char* header_type, const char* name,
    const char* value, size_t size) {
  WriteArgRow(s, s.args->printers->spell(*s.args, position, header_type, name,
                                         value, size));
  s.SetPositions();
}

__attribute__((noinline)) void RocpdWriter::WriteArgRow(ArgSink& s,
                                                        const ApiArg& arg) {
  const char* value = arg.value;
  size_t size = arg.value_size;
  if (size > kMaxArgValue || !IsAscii(value, size)) {
    CutValue(value, size, &arg_cut_);
    value = arg_cut_.data();
    size = arg_cut_.size();
  }
  using V = SqliteTableAppender;
  const bool stream_arg = s.stream_size != 0 && arg.name_size == 6 &&
                          std::memcmp(arg.name, "stream", 6) == 0;
  if (s.keep == nullptr && !stream_arg) {
    // The parameter's cells, encoded once.
    std::vector<ArgCells>& by_position = s.cells->by_position;
    if (arg.position >= by_position.size()) {
      by_position.resize(arg.position + 1);
    }
    ArgCells& c = by_position[arg.position];
    if (c.name != arg.name) {
      const V::Value middle[3] = {V::Integer(arg.position),
                                  V::Text(arg.type, arg.type_size),
                                  V::Text(arg.name, arg.name_size)};
      appender_->EncodeTail(middle, 3, &c.cells);
      c.name = arg.name;
      c.stream = arg.name_size == 6 && std::memcmp(arg.name, "stream", 6) == 0;
    }
    appender_->AppendAroundMiddle(kArgTable, next_arg_id_++, s.event_id,
                                  c.cells, value, size);
    return;
  }
  const V::Value row[5] = {V::Integer(s.event_id), V::Integer(arg.position),
                           V::Text(arg.type, arg.type_size),
                           V::Text(arg.name, arg.name_size),
                           V::Text(value, size)};
  V::RowTail* keep = nullptr;
  if (LastArgs* last = s.keep) {
    if (last->row_count == last->rows.size()) last->rows.emplace_back();
    keep = &last->rows[last->row_count++];
  }
  if (stream_arg) {
    const V::Value with_stream[6] = {row[0], row[1],
                                     row[2], row[3],
                                     row[4], V::Text(s.stream, s.stream_size)};
    appender_->AppendRow<0b111100>(kArgTable, next_arg_id_++, with_stream);
    if (keep != nullptr) appender_->EncodeTail(with_stream + 1, 5, keep);
    return;
  }
  appender_->AppendRow<0b11100>(kArgTable, next_arg_id_++, row);
  if (keep != nullptr) appender_->EncodeTail(row + 1, 4, keep);
}

// An operation seen for the first time (indexes are dense).
__attribute__((noinline, cold)) RocpdWriter::OpArgs& RocpdWriter::GrowOpArgs(
    uint32_t index) {
  op_args_.resize(static_cast<size_t>(index) + 1);
  op_args_count_ = op_args_.size();
  return op_args_[index];
}

// A repeated call's rows: the last call's cells copied whole (the image),
// else appended row by row from their tails (and the image kept).
inline __attribute__((always_inline)) void RocpdWriter::AppendLastRows(
    LastArgs& last, int64_t event_id) {
  const int64_t id = next_arg_id_;
  next_arg_id_ += static_cast<int64_t>(last.row_count);
  if (!appender_->AppendCallInline(kArgTable, id, event_id, last.image)) {
    appender_->AppendCall(kArgTable, id, event_id, last.rows.data(),
                          last.row_count, &last.image);
  }
}

// An API call's arguments: a rocpd_arg row each (event_id, position, type,
// name, value), as rocprofv3 writes them. The `stream` argument of a call
// whose stream is known also has its Stream_Id in extdata
// ({"stream_id":N}, its rocpd_info_stream row's id), which upstream's
// stream_args view reads.
//
// The printed rows are a function of the argument bytes alone (no pointer
// is followed), so each operation keeps its last call's bytes; a call that
// repeats them (a status query, a synchronisation on the same stream, a
// loop's repeated call) keeps its rows encoded but for the event id, and
// the calls after it that repeat them again append those rows without
// printing their arguments.
void RocpdWriter::WriteArgs(const ApiEvent& e, int64_t event_id,
                            const ApiArgs& args) {
  if (e.stream_known) StreamRow(e.stream_id);
  const uint32_t index = e.op->index;
  OpArgs& op_args = __builtin_expect(index < op_args_count_, 1)
                        ? op_args_[index]
                        : GrowOpArgs(index);
  LastArgs& last = op_args.last;
  const bool repeated = last.valid && last.size == args.size &&
                        last.stream_known == e.stream_known &&
                        (!e.stream_known || last.stream_id == e.stream_id) &&
                        last.domain == args.domain && last.op == args.op &&
                        SameBytes(last.bytes, args.bytes, args.size);
  if (repeated && last.has_rows) {
    AppendLastRows(last, event_id);
    return;
  }
  OpArgCells& cells = op_args.cells;
  if (cells.domain != args.domain || cells.op != args.op) {
    cells.domain = args.domain;
    cells.op = args.op;
    cells.by_position.clear();
  }
  ArgSink sink{
      this,    &args, event_id,       &cells, repeated ? &last : nullptr,
      nullptr, 0,     e.stream_known, 0,      arg_stream_};
  sink.SetPositions();
  if (e.stream_known) {
    sink.stream_size = static_cast<size_t>(
        std::snprintf(arg_stream_, sizeof(arg_stream_), "{\"stream_id\":%llu}",
                      static_cast<unsigned long long>(e.stream_id)));
  }
  last.row_count = 0;
  last.image.rows = 0;
  // The printers hand each value straight to this visitor (no adapter, no
  // type spelled): the common row is appended at once, the others spelled.
  args.printers->values(
      args,
      [](uint32_t position, const char* header_type, const char* name,
         const char* value, size_t size, void* user) {
        auto* s = static_cast<ArgSink*>(user);
        // The common row: its cells encoded, no rows kept (position_count
        // 0), no extdata, its value ASCII (printed values are, but for
        // bytes of char arrays in structs) and short (under 57 bytes, as the
        // appender's common row is: longer values, to be cut past
        // kMaxArgValue, take the other path).
        if (__builtin_expect(position < s->position_count, 1)) {
          const ArgCells& c = s->positions[position];
          if (__builtin_expect(c.name == name &&
                                   !(c.stream & s->stream_known) && size < 57 &&
                                   IsAscii(value, size),
                               1)) {
            RocpdWriter* w = s->writer;
            w->appender_->AppendAroundMiddleInline(kArgTable, w->next_arg_id_++,
                                                   s->event_id, c.cells, value,
                                                   size);
            return;
          }
        }
        s->writer->SpellArgRow(*s, position, header_type, name, value, size);
      },
      &sink);
  last.has_rows = repeated;
  if (!repeated) {
    last.valid = args.size <= sizeof(last.bytes);
    if (last.valid) {
      CopyBytes(last.bytes, args.bytes, args.size);
      last.size = args.size;
      last.domain = args.domain;
      last.op = args.op;
      last.stream_known = e.stream_known;
      last.stream_id = e.stream_id;
    }
  }
  last.repeatable = last.valid && last.has_rows && !last.stream_known;
}

namespace {

// The operation, domain and size of the last call's bytes and of this
// call's, compared in two loads a side (both keep them side by side, from
// read through the objects' bytes, not past a member).
inline bool SameCall(const unsigned char* l, const unsigned char* a) {
  uint64_t x, y;
  uint32_t x2, y2;
  std::memcpy(&x, l, 8);
  std::memcpy(&y, a, 8);
  std::memcpy(&x2, l + 8, 4);
  std::memcpy(&y2, a + 8, 4);
  return ((x ^ y) | (x2 ^ y2)) == 0;
}

}  // namespace

inline __attribute__((always_inline)) bool RocpdWriter::AppendRepeatedArgs(
    const ApiEvent& e, int64_t event_id, const ApiArgs& args) {
  const uint32_t index = e.op->index;
  if (e.stream_known || index >= op_args_count_) return false;
  LastArgs& last = op_args_[index].last;
  static_assert(offsetof(LastArgs, op) == offsetof(LastArgs, domain) + 4 &&
                    offsetof(LastArgs, size) == offsetof(LastArgs, domain) + 8,
                "domain, op, size side by side");
  static_assert(offsetof(ApiArgs, op) == offsetof(ApiArgs, domain) + 4 &&
                    offsetof(ApiArgs, size) == offsetof(ApiArgs, domain) + 8,
                "domain, op, size side by side");
  if (!last.repeatable ||
      !SameCall(reinterpret_cast<const unsigned char*>(&last) +
                    offsetof(LastArgs, domain),
                reinterpret_cast<const unsigned char*>(&args) +
                    offsetof(ApiArgs, domain)) ||
      !SameBytes(last.bytes, args.bytes, args.size)) {
    return false;
  }
  AppendLastRows(last, event_id);
  return true;
}

void RocpdWriter::InsertDeviceRows() {
  for (const DeviceRow& row : device_rows_) {
    sqlite3_stmt* st = insert_copy_;
    int params = 9;
    if (row.category == Category::kKernel) {
      st = insert_dispatch_;
      params = 18;
    } else if (row.category == Category::kScratchMemory) {
      st = insert_scratch_;
      params = 9;
    } else if (row.category == Category::kMemoryAllocation) {
      st = insert_allocation_;
      params = 8;
    }
    for (int i = 0; i < params; ++i) {
      sqlite3_bind_int64(st, i + 1, row.values[i]);
    }
    // A scratch event of a queue the tracer did not know, a free: no agent.
    if ((row.category == Category::kScratchMemory ||
         row.category == Category::kMemoryAllocation) &&
        row.values[1] < 0) {
      sqlite3_bind_null(st, 2);
    }
    if (sqlite3_step(st) != SQLITE_DONE) Fail("insert device work");
    sqlite3_reset(st);
  }
  device_rows_.clear();
}

// Write's body, inlined into Write and WriteAll (one call and one frame for
// a run of events; the rows' encoding inline in it).
inline __attribute__((always_inline)) void RocpdWriter::WriteOne(
    const ApiEvent& e) {
  if (__builtin_expect(!writing_, 0) && !Ready()) {
    CountUnwritten(1);
    return;
  }
  ++uncommitted_events_;
  if (IsDevice(e.op->category)) {
    WriteDevice(e);
  } else {
    // As AppendEvent, with the name's ids found once for both rows.
    const NameIds& ids = NameIdsOf(e.op);
    const int64_t id = next_event_id_++;
    const int64_t corr = static_cast<int64_t>(e.correlation_id);
    const int64_t event[4] = {ids.category, corr, 0, corr};
    // Both rows' rowid: its varint encoded once.
    const SqliteTableAppender::RowidCode code =
        SqliteTableAppender::RowidCodeOf(id);
    appender_->AppendInline<4, kEventFixed>(kEventTable, code, event);
    const int64_t region[7] = {1,
                               1,
                               ThreadRow(e.tid, e.start_ns, e.end_ns),
                               static_cast<int64_t>(e.start_ns),
                               static_cast<int64_t>(e.end_ns),
                               ids.name,
                               id};
    appender_->AppendInline<7, kRegionFixed>(kRegionTable, code, region);
    if (e.args != nullptr && !AppendRepeatedArgs(e, id, *e.args)) {
      WriteArgs(e, id, *e.args);
    }
    if (e.op->category == Category::kMarker) {
      if (marker_events_.size() < kMaxMarkerEvents) {
        marker_events_.push_back(id);
      } else {
        marker_events_overflow_ = true;
      }
    }
  }
  if (appender_->buffered_bytes() >= kMinBufferedBytes &&
      appender_->TakeSealed()) {
    CheckpointIfAligned();
  }
}

void RocpdWriter::CheckpointIfAligned() {
  if (appender_->buffered_bytes() >= kMaxBufferedBytes ||
      appender_->FlushEndsOnMultipleOf(kFileAlignment)) {
    Checkpoint();
  }
}

bool RocpdWriter::Ready() {
  if (!opened_) Open();
  writing_ = opened_ && ok_;
  return writing_;
}

void RocpdWriter::Write(const ApiEvent& e) { WriteOne(e); }

void RocpdWriter::WriteAll(const ApiEvent* begin, const ApiEvent* end) {
  for (; begin < end; ++begin) WriteOne(*begin);
}

// rocprofv3's marker events carry their message in extdata
// ({"message": "..."}), which the rocpd package's marker summaries read.
// The appender writes integer columns only, so the messages are set at the
// end, once the appender is done with the table (a killed process's
// markers keep '{}'); the region of an event has the event's id.
void RocpdWriter::WriteMarkerMessages() {
  static const char kMessage[] =
      "json_object('message', (SELECT S.string FROM rocpd_region R JOIN "
      "rocpd_string S ON S.id = R.name_id WHERE R.id = rocpd_event.id))";
  if (marker_events_overflow_) {
    // Too many to have kept their ids: one pass over the events.
    const std::string sql =
        std::string("UPDATE rocpd_event SET extdata = ") + kMessage +
        " WHERE category_id IN (SELECT id FROM rocpd_string WHERE string IN "
        "('MARKER_CORE_API', 'MARKER_CORE_RANGE_API'))";
    Exec(sql.c_str());
    return;
  }
  if (marker_events_.empty()) return;
  sqlite3_stmt* st = nullptr;
  const std::string sql = std::string("UPDATE rocpd_event SET extdata = ") +
                          kMessage + " WHERE id = ?1";
  if (!Prepare(sql, &st)) return;
  for (int64_t id : marker_events_) {
    sqlite3_bind_int64(st, 1, id);
    if (sqlite3_step(st) != SQLITE_DONE) {
      Fail("marker messages");
      break;
    }
    sqlite3_reset(st);
  }
  sqlite3_finalize(st);
}

// SQLite's rows first (the strings, threads, agents events name), then the
// appended events, then the device rows that name those events.
bool RocpdWriter::Commit() {
  if (!Exec("COMMIT")) return false;
  std::string error;
  if (!appender_->Flush(&error)) {
    Fail("cannot append rows", error);
    return false;
  }
  if (!device_rows_.empty()) {
    Exec("BEGIN");
    InsertDeviceRows();
    Exec("COMMIT");
  }
  if (ok_) uncommitted_events_ = 0;
  return ok_;
}

void RocpdWriter::Checkpoint() {
  if (!opened_ || !ok_) return;
  if (Commit()) Exec("BEGIN");
}

void RocpdWriter::Finish(const RunInfo& info) {
  // No events, but something to say (start_info_.notes): a database with it.
  if (!opened_ && !start_info_.notes.empty()) Open();
  if (!opened_ || !ok_ || !Commit()) return;
  Exec("BEGIN");
  WriteMarkerMessages();
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
  // Code objects no dispatched kernel's symbol named yet.
  for (const auto& code_object : info.code_objects) {
    if (code_object != nullptr) CodeObjectRow(*code_object);
  }
  for (const auto& loss : info.losses) {
    sql = sqlite3_mprintf(
        "INSERT INTO rocpd_metadata(tag, value) VALUES ('roctrace.lost.%q', "
        "'%llu');",
        loss.first.c_str(), static_cast<unsigned long long>(loss.second));
    Exec(sql);
    sqlite3_free(sql);
  }
  for (const auto& note : info.end_notes) {
    sql = sqlite3_mprintf(
        "INSERT INTO rocpd_metadata(tag, value) VALUES ('roctrace.%q', %Q);",
        note.first.c_str(), note.second.c_str());
    Exec(sql);
    sqlite3_free(sql);
  }
  // The other outputs' failures (this one's could not be recorded here).
  std::string failures;
  for (const std::string& f : info.write_failures) {
    if (!failures.empty()) failures += "\n";
    failures += f;
  }
  sql = sqlite3_mprintf(
      "INSERT INTO rocpd_metadata(tag, value) VALUES "
      "('roctrace.write_failures', %Q);",
      failures.c_str());
  Exec(sql);
  sqlite3_free(sql);
  Exec("COMMIT");
  // The process may exit without closing the database.
  FdSafeVfsTrim(db_);
}

}  // namespace roctrace
