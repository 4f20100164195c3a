// The rocpd SQLite database (<prefix>_results.db). Created at the first
// event, in WAL mode, committed at every checkpoint: a process killed at any
// moment leaves a database that opens, with every event up to the last
// checkpoint.
#ifndef ROCTRACE_WRITERS_ROCPD_WRITER_H_
#define ROCTRACE_WRITERS_ROCPD_WRITER_H_

#include <sqlite3.h>

#include <string>
#include <unordered_map>
#include <vector>

#include "roctrace/writers/event.h"

namespace roctrace {

class RocpdWriter : public Writer {
 public:
  RocpdWriter(std::string path, RunInfo start_info);
  ~RocpdWriter() override;
  void Write(const ApiEvent& event) override;
  void Checkpoint() override;
  void Finish(const RunInfo& info) override;
  std::vector<std::string> Files() const override;

  // False once a statement failed (disk full, ...); the error is on stderr
  // once and the writer stops writing.
  bool ok() const { return ok_; }

 private:
  bool Open();
  bool Exec(const char* sql);
  int64_t StringId(const std::string& text);
  int64_t ThreadRow(uint32_t tid, uint64_t start, uint64_t end);
  void Fail(const char* what);

  std::string path_;
  RunInfo start_info_;
  std::string guid_;
  sqlite3* db_ = nullptr;
  bool opened_ = false;
  bool ok_ = true;
  sqlite3_stmt* insert_string_ = nullptr;
  sqlite3_stmt* insert_event_ = nullptr;
  sqlite3_stmt* insert_region_ = nullptr;
  sqlite3_stmt* insert_thread_ = nullptr;
  int64_t next_event_id_ = 1;
  std::unordered_map<std::string, int64_t> strings_;
  std::unordered_map<const OpName*, int64_t> name_ids_;
  int64_t category_ids_[kCategoryCount] = {};
  struct ThreadInfo {
    int64_t row;
    uint64_t start;
    uint64_t end;
  };
  std::unordered_map<uint32_t, ThreadInfo> threads_;
};

}  // namespace roctrace

#endif  // ROCTRACE_WRITERS_ROCPD_WRITER_H_
