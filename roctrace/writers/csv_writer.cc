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
    case Category::kKernel:
      return "_kernel_trace.csv";
    case Category::kMemoryCopy:
      return "_memory_copy_trace.csv";
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
    std::fputs(Header(category), f);
    files_.push_back(path);
  }
  return f;
}

const char* CsvWriter::Header(Category category) {
  switch (category) {
    case Category::kKernel:
      return "\"Kind\",\"Agent_Id\",\"Queue_Id\",\"Stream_Id\",\"Thread_Id\","
             "\"Dispatch_Id\",\"Kernel_Id\",\"Kernel_Name\",\"Correlation_Id\","
             "\"Start_Timestamp\",\"End_Timestamp\",\"LDS_Block_Size\","
             "\"Scratch_Size\",\"VGPR_Count\",\"Accum_VGPR_Count\",\"SGPR_"
             "Count\","
             "\"Workgroup_Size_X\",\"Workgroup_Size_Y\",\"Workgroup_Size_Z\","
             "\"Grid_Size_X\",\"Grid_Size_Y\",\"Grid_Size_Z\"\n";
    case Category::kMemoryCopy:
      return "\"Kind\",\"Direction\",\"Stream_Id\",\"Source_Agent_Id\","
             "\"Destination_Agent_Id\",\"Correlation_Id\",\"Start_Timestamp\","
             "\"End_Timestamp\"\n";
    default:
      return "\"Domain\",\"Function\",\"Process_Id\",\"Thread_Id\","
             "\"Correlation_Id\",\"Start_Timestamp\",\"End_Timestamp\"\n";
  }
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

void AppendUInt(std::string* out, uint64_t v) {
  char text[20];
  const char* at = FormatUInt(v, text + sizeof(text));
  out->append(at, text + sizeof(text) - at);
}

// LDS_Block_Size as rocprofv3 computes it: the kernel symbol's group segment
// size rounded up to the 512-byte LDS allocation block (empty when the
// symbol is not known). Scratch_Size and the geometry are the packet's.
// The three register counts need the kernel descriptor: left empty
// (unknown), never guessed.
void AppendLaunch(const KernelLaunch& l, std::string* out) {
  constexpr uint32_t kLdsBlock = 512;
  out->push_back(',');
  if (l.symbol_known) {
    AppendUInt(out, (uint64_t{l.symbol_group_segment_size} + kLdsBlock - 1) &
                        ~uint64_t{kLdsBlock - 1});
  }
  out->push_back(',');
  AppendUInt(out, l.private_segment_size);
  out->append(",,,");
  for (uint32_t v : l.workgroup) {
    out->push_back(',');
    AppendUInt(out, v);
  }
  for (uint32_t v : l.grid) {
    out->push_back(',');
    AppendUInt(out, v);
  }
}

}  // namespace

void CsvWriter::WriteDevice(const ApiEvent& e, std::string* out) {
  if (e.op->category == Category::kKernel) {
    out->append("\"KERNEL_DISPATCH\",");
    AppendQuoted(out, AgentName({true, e.device_id}));
    out->push_back(',');
    AppendUInt(out, e.queue_id);
    out->append(",0,");  // Stream_Id: no HIP stream is known
    AppendUInt(out, e.tid);
    out->push_back(',');
    AppendUInt(out, e.dispatch_id);
    out->push_back(',');
    AppendUInt(out, e.op->kernel_id);
    out->push_back(',');
    AppendQuoted(out, e.op->name);
  } else {
    AgentRef src{}, dst{};
    CopyAgents(e, &src, &dst);
    out->append("\"MEMORY_COPY\",");
    AppendQuoted(out, e.op->name);
    out->append(",0,");
    AppendQuoted(out, AgentName(src));
    out->push_back(',');
    AppendQuoted(out, AgentName(dst));
  }
  out->push_back(',');
  AppendUInt(out, e.correlation_id);
  out->push_back(',');
  AppendUInt(out, e.start_ns);
  out->push_back(',');
  AppendUInt(out, e.end_ns);
  if (e.op->category == Category::kKernel) AppendLaunch(e.launch, out);
  out->push_back('\n');
}

void CsvWriter::Write(const ApiEvent& e) {
  int c = static_cast<int>(e.op->category);
  if (FileFor(e.op->category) == nullptr) return;
  if (IsDevice(e.op->category)) {
    WriteDevice(e, &pending_[c]);
    if (pending_[c].size() >= kFlushBytes) Flush(c);
    return;
  }
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
