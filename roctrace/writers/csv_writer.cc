#include "roctrace/writers/csv_writer.h"

#include <cstring>

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
    std::fputs(
        "\"Domain\",\"Function\",\"Process_Id\",\"Thread_Id\","
        "\"Correlation_Id\",\"Start_Timestamp\",\"End_Timestamp\"\n",
        f);
    files_.push_back(path);
  }
  return f;
}

namespace {

// The decimal digits of `v`, written backwards to end at `end`; returns
// where they start. Two digits per division (a division per digit and a
// push_back per character were a tenth of the whole trace's CPU).
struct DigitPairs {
  constexpr DigitPairs() : text() {
    for (int i = 0; i < 100; ++i) {
      text[2 * i] = static_cast<char>('0' + i / 10);
      text[2 * i + 1] = static_cast<char>('0' + i % 10);
    }
  }
  char text[200];
};
constexpr DigitPairs kPairs;

char* FormatUInt(uint64_t v, char* end) {
  while (v >= 100) {
    const uint64_t pair = v % 100;
    v /= 100;
    end -= 2;
    std::memcpy(end, kPairs.text + 2 * pair, 2);
  }
  if (v >= 10) {
    end -= 2;
    std::memcpy(end, kPairs.text + 2 * v, 2);
  } else {
    *--end = static_cast<char>('0' + v);
  }
  return end;
}

}  // namespace

void CsvWriter::Write(const ApiEvent& e) {
  int c = static_cast<int>(e.op->category);
  if (FileFor(e.op->category) == nullptr) return;
  // "Domain","Function", quoted once per name.
  if (e.op->index >= prefixes_.size()) prefixes_.resize(e.op->index + 1);
  std::string& prefix = prefixes_[e.op->index];
  if (prefix.empty()) {
    AppendQuoted(&prefix, e.op->domain);
    prefix.push_back(',');
    AppendQuoted(&prefix, e.op->name);
  }
  // The numbers, formatted backwards into one buffer, appended at once.
  char row[5 * 21 + 1];
  char* at = row + sizeof(row);
  *--at = '\n';
  for (uint64_t v : {e.end_ns, e.start_ns, e.correlation_id, uint64_t{e.tid},
                     uint64_t{e.pid}}) {
    at = FormatUInt(v, at);
    *--at = ',';
  }
  std::string& out = pending_[c];
  out.append(prefix);
  out.append(at, row + sizeof(row) - at);
  if (out.size() >= kFlushBytes) Flush(c);
}

void CsvWriter::Flush(int c) {
  std::string& out = pending_[c];
  if (files_by_category_[c] != nullptr && !out.empty()) {
    std::fwrite(out.data(), 1, out.size(), files_by_category_[c]);
  }
  out.clear();
}

void CsvWriter::Checkpoint() {
  for (int c = 0; c < kCategoryCount; ++c) {
    Flush(c);
    if (files_by_category_[c] != nullptr) std::fflush(files_by_category_[c]);
  }
}

void CsvWriter::Finish(const RunInfo&) {
  for (int c = 0; c < kCategoryCount; ++c) Flush(c);
  for (std::FILE*& f : files_by_category_) {
    if (f != nullptr) std::fclose(f);
    f = nullptr;
  }
}

}  // namespace roctrace
