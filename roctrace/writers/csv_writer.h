// rocprofv3's trace CSVs: <prefix>_hip_api_trace.csv, _hsa_api_trace.csv,
// _marker_api_trace.csv, _kernel_trace.csv, _memory_copy_trace.csv, each
// created with its header when the first row of its domain arrives.
#ifndef ROCTRACE_WRITERS_CSV_WRITER_H_
#define ROCTRACE_WRITERS_CSV_WRITER_H_

#include <cstdio>
#include <string>
#include <vector>

#include "roctrace/writers/event.h"

namespace roctrace {

class CsvWriter : public Writer {
 public:
  explicit CsvWriter(std::string path_prefix);
  ~CsvWriter() override;
  void Write(const ApiEvent& event) override;
  void Checkpoint() override;
  void Finish(const RunInfo& info) override;
  std::vector<std::string> Files() const override { return files_; }

  // The file name suffix rocprofv3 gives a domain's API trace.
  static const char* TraceSuffix(Category category);
  // The file's header row: API columns, or the kernel / copy trace's.
  static const char* Header(Category category);

 private:
  std::FILE* FileFor(Category category);
  void Flush(int category);
  void WriteDevice(const ApiEvent& e, std::string* out);

  // Rows are formatted into one buffer per file and written 1 MB at a time.
  static constexpr size_t kFlushBytes = 1 << 20;

  std::string prefix_;
  std::FILE* files_by_category_[kCategoryCount] = {};
  std::string pending_[kCategoryCount];
  std::vector<std::string> prefixes_;  // by OpName::index
  std::vector<std::string> files_;
};

// Appends `text` to `out` as a CSV field, quoted as rocprofv3 quotes
// strings (inner quotes doubled).
void AppendQuoted(std::string* out, const std::string& text);

}  // namespace roctrace

#endif  // ROCTRACE_WRITERS_CSV_WRITER_H_
