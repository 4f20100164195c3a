#include "roctrace/writers/csv_writer.h"

#include <cinttypes>

namespace roctrace {

const char* CsvWriter::TraceSuffix(Category category) {
  switch (category) {
    case Category::kHip:
      return "_hip_api_trace.csv";
    case Category::kHsa:
      return "_hsa_api_trace.csv";
    case Category::kMarker:
      return "_marker_api_trace.csv";
  }
  return "_api_trace.csv";
}

void AppendQuoted(std::string* out, const std::string& text) {
  out->push_back('"');
  for (char c : text) {
    if (c == '"') out->push_back('"');
    out->push_back(c);
  }
  out->push_back('"');
}

CsvWriter::CsvWriter(std::string path_prefix)
    : prefix_(std::move(path_prefix)) {}

CsvWriter::~CsvWriter() {
  for (std::FILE*& f : files_by_category_) {
    if (f != nullptr) std::fclose(f);
    f = nullptr;
  }
}

std::FILE* CsvWriter::FileFor(Category category) {
  std::FILE*& f = files_by_category_[static_cast<int>(category)];
  if (f == nullptr) {
    std::string path = prefix_ + TraceSuffix(category);
    f = std::fopen(path.c_str(), "w");
    if (f == nullptr) return nullptr;
    // A large buffer: rows are short and the tracer thread should not pay a
    // write(2) per handful of rows.
    std::setvbuf(f, nullptr, _IOFBF, 1 << 20);
    std::fputs(
        "\"Domain\",\"Function\",\"Process_Id\",\"Thread_Id\","
        "\"Correlation_Id\",\"Start_Timestamp\",\"End_Timestamp\"\n",
        f);
    files_.push_back(path);
  }
  return f;
}

void CsvWriter::Write(const ApiEvent& e) {
  std::FILE* f = FileFor(e.op->category);
  if (f == nullptr) return;
  line_.clear();
  AppendQuoted(&line_, e.op->domain);
  line_.push_back(',');
  AppendQuoted(&line_, e.op->name);
  char numbers[128];
  int n = std::snprintf(numbers, sizeof(numbers),
                        ",%u,%u,%" PRIu64 ",%" PRIu64 ",%" PRIu64 "\n", e.pid,
                        e.tid, e.correlation_id, e.start_ns, e.end_ns);
  line_.append(numbers, static_cast<size_t>(n));
  std::fwrite(line_.data(), 1, line_.size(), f);
}

void CsvWriter::Checkpoint() {
  for (std::FILE* f : files_by_category_) {
    if (f != nullptr) std::fflush(f);
  }
}

void CsvWriter::Finish(const RunInfo&) {
  for (std::FILE*& f : files_by_category_) {
    if (f != nullptr) std::fclose(f);
    f = nullptr;
  }
}

}  // namespace roctrace
