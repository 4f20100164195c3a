// The rocpd SQLite database (<prefix>_results.db). Created at the first
// event. rocpd_event and rocpd_region rows (one each an API call, same id)
// and rocpd_arg rows (one each argument of a call whose arguments the event
// carries) are b-tree cells laid out in memory by SqliteTableAppender and
// published at every checkpoint; SQLite writes every other table (strings,
// threads, agents, queues, kernel symbols, dispatch and copy rows, metadata) in
// one transaction a checkpoint, committed before the events are published, and
// dispatch and copy rows after them. A process killed at any moment leaves a
// database that opens, with every event up to the last checkpoint (SQLite's
// rollback journal undoes its transaction cut short; the appender's writes
// are ordered so that each leaves a valid file).
#ifndef ROCTRACE_WRITERS_ROCPD_WRITER_H_
#define ROCTRACE_WRITERS_ROCPD_WRITER_H_

#include <sqlite3.h>

#include <cstdint>
#include <memory>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "roctrace/writers/event.h"
#include "roctrace/writers/sqlite_table_appender.h"

namespace roctrace {

class RocpdWriter : public Writer {
 public:
  RocpdWriter(std::string path, RunInfo start_info);
  ~RocpdWriter() override;
  void Write(const ApiEvent& event) override;
  void WriteAll(const ApiEvent* begin, const ApiEvent* end) override;
  void Checkpoint() override;
  void Finish(const RunInfo& info) override;
  std::vector<std::string> Files() const override;

  // False once a statement failed (disk full, ...); the error is on stderr
  // once and the writer stops writing.
  bool ok() const { return ok_; }

 private:
  bool Open();
  void WriteOne(const ApiEvent& event);
  // Out of line: asked once a leaf is filled past the first 1 MiB of rows.
  __attribute__((noinline)) void CheckpointIfAligned();
  bool Exec(const char* sql);
  int64_t StringId(const std::string& text);
  int64_t NameId(const OpName* op);
  // The thread's row, its time span widened to [start, end]. Inline: events
  // come in runs of one thread, so this is nearly always the last one's.
  int64_t ThreadRow(uint32_t tid, uint64_t start, uint64_t end) {
    if (__builtin_expect(tid != last_tid_, 0)) {
      SwitchThread(tid, start, end);
    }
    if (start < last_thread_->start) last_thread_->start = start;
    if (end > last_thread_->end) last_thread_->end = end;
    return last_thread_->row;
  }
  void SwitchThread(uint32_t tid, uint64_t start, uint64_t end);
  int64_t ThreadRowSlow(uint32_t tid, uint64_t start, uint64_t end);
  // An API call's or rocTX event's name and category string ids, both rows'
  // per-name values found with one look-up.
  struct NameIds {
    int64_t name = 0;
    int64_t category = 0;
  };
  const NameIds& NameIdsOf(const OpName* op) {
    if (__builtin_expect(op->index < name_ids_of_.size(), 1)) {
      const NameIds& ids = name_ids_of_[op->index];
      if (__builtin_expect(ids.name != 0, 1)) return ids;
    }
    return NameIdsSlow(op);
  }
  const NameIds& NameIdsSlow(const OpName* op);
  void Fail(const char* what);
  void WriteDevice(const ApiEvent& e);
  int64_t AgentRow(AgentRef agent);
  int64_t QueueRow(uint64_t queue_id);
  int64_t StreamRow(uint64_t stream_id);
  int64_t KernelRow(const OpName* op);
  int64_t CodeObjectRow(const CodeObjectInfo& code_object);
  void Fail(const char* what, const std::string& why);
  bool Prepare(const std::string& sql, sqlite3_stmt** stmt);
  int64_t AppendEvent(const ApiEvent& e);
  void WriteArgs(const ApiEvent& e, int64_t event_id, const ApiArgs& args);
  // WriteArgs' common case, inline in WriteOne: a call repeating its op's
  // last call's bytes (no stream argument known), whose rows are appended
  // from their tails. False, nothing written, otherwise.
  bool AppendRepeatedArgs(const ApiEvent& e, int64_t event_id,
                          const ApiArgs& args);
  struct LastArgs;
  void AppendLastRows(LastArgs& last, int64_t event_id);
  // A call's rows on their way (WriteArgs), and the row of an argument that
  // the common path does not take: its cells not encoded yet, a value to
  // cut or repair, rows kept for a repeated call, the stream's extdata.
  struct ArgSink;
  void WriteArgRow(ArgSink& sink, const ApiArg& arg);
  // The same for a value the printers handed over: its type spelled first.
  void SpellArgRow(ArgSink& sink, uint32_t position, const char* header_type,
                   const char* name, const char* value, size_t size);
  int64_t CategoryId(const OpName* op);
  void WriteMarkerMessages();
  void InsertDeviceRows();
  // Commits SQLite's rows, then publishes the appended ones.
  bool Commit();

  std::string path_;
  RunInfo start_info_;
  std::string guid_;
  sqlite3* db_ = nullptr;
  bool opened_ = false;
  bool created_ = false;  // the file exists (SQLite opened it)
  bool ok_ = true;
  // opened_ && ok_, kept by Ready and Fail: WriteOne's one test an event.
  bool writing_ = false;
  // Opens the database when not yet opened; whether events can be written.
  __attribute__((noinline)) bool Ready();
  uint64_t uncommitted_events_ = 0;  // written since the last commit
  sqlite3_stmt* insert_string_ = nullptr;
  sqlite3_stmt* insert_thread_ = nullptr;
  // An API event is a rocpd_event row and a rocpd_region row with the same
  // id, both written by the appender.
  std::unique_ptr<SqliteTableAppender> appender_;
  sqlite3_stmt* insert_dispatch_ = nullptr;
  sqlite3_stmt* insert_copy_ = nullptr;
  sqlite3_stmt* insert_scratch_ = nullptr;
  sqlite3_stmt* insert_allocation_ = nullptr;
  std::unordered_map<int64_t, int64_t> agents_;   // CPU 0, GPU n+1 -> row
  std::unordered_map<uint64_t, int64_t> queues_;  // queue ID -> row
  std::unordered_set<uint64_t> streams_;          // Stream_Ids with a row
  std::unordered_set<uint64_t> code_objects_;     // code object ids written
  std::vector<bool> kernels_;                     // by Kernel_Id: row made
  // A kernel dispatch's, copy's or scratch event's row, its parameters in
  // statement order (the first, the thread).
  struct DeviceRow {
    Category category;
    int64_t values[18];  // a dispatch's 18 parameters, a copy's 9, scratch 9
  };
  std::vector<DeviceRow> device_rows_;
  int64_t next_event_id_ = 1;
  int64_t next_arg_id_ = 1;
  // An operation's last call's argument bytes (when at most 256) and, once
  // a call repeated them, the rocpd_arg rows they print, each encoded but
  // for its event id (WriteArgs).
  struct LastArgs {
    bool valid = false;  // the bytes are a call's
    bool has_rows = false;
    bool stream_known = false;
    // valid, has_rows and no stream: AppendRepeatedArgs' one flag test.
    bool repeatable = false;
    uint32_t domain = 0;
    uint32_t op = 0;
    uint32_t size = 0;
    uint64_t stream_id = 0;
    size_t row_count = 0;
    std::vector<SqliteTableAppender::RowTail> rows;  // row_count used
    SqliteTableAppender::CallImage image;  // the rows' last cells, whole
    unsigned char bytes[256];
  };
  // The columns of an operation's rocpd_arg rows that its parameters alone
  // decide (position, type, name), encoded once a parameter: the rows are
  // then an event id, these cells and the printed value (WriteArgs).
  struct ArgCells {
    const char* name = nullptr;  // the printers' literal: set once encoded
    bool stream = false;         // the parameter named "stream"
    SqliteTableAppender::RowTail cells;
  };
  struct OpArgCells {
    uint32_t domain = 0;
    uint32_t op = 0;
    std::vector<ArgCells> by_position;
  };
  // Both, for one operation: a call finds them with one look-up.
  struct OpArgs {
    LastArgs last;
    OpArgCells cells;
  };
  std::vector<OpArgs> op_args_;  // by OpName::index
  // op_args_.size(), kept: the vector's own divides by sizeof(OpArgs).
  size_t op_args_count_ = 0;
  OpArgs& GrowOpArgs(uint32_t index);  // op_args_ made to hold `index`
  // A call's stream argument's extdata, a value cut or made valid UTF-8
  // (WriteArgs): here, not on its stack, which then needs no guard.
  char arg_stream_[40] = {};
  std::string arg_cut_;
  std::unordered_map<std::string, int64_t> strings_;
  std::vector<int64_t> name_ids_;         // by OpName::index; 0: not yet
  std::vector<int64_t> op_category_ids_;  // by OpName::index; 0: not yet
  std::vector<NameIds> name_ids_of_;      // by OpName::index; 0: not yet
  std::vector<int64_t> marker_events_;    // ids, for their messages
  bool marker_events_overflow_ = false;
  // last_thread_'s tid; no tid's (they are 32-bit) while it is unset, so
  // one compare an event tests both.
  uint64_t last_tid_ = UINT64_MAX;
  int64_t category_ids_[kCategoryCount] = {};
  struct ThreadInfo {
    int64_t row;
    uint64_t start;
    uint64_t end;
  };
  std::unordered_map<uint32_t, ThreadInfo> threads_;
  ThreadInfo* last_thread_ = nullptr;
};

}  // namespace roctrace

#endif  // ROCTRACE_WRITERS_ROCPD_WRITER_H_
