#include "roctrace/writers/csv_writer.h"

#include <cerrno>
#include <cstdio>
#include <cstring>

#include "roctrace/writers/agent_naming.h"
#include "roctrace/writers/decimal_digits.h"

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
    case Category::kScratchMemory:
      return "_scratch_memory_trace.csv";
    case Category::kMemoryAllocation:
      return "_memory_allocation_trace.csv";
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

CsvWriter::~CsvWriter() = default;

// An HSA-category event's domain is HSA_... or KFD_API: the first letter
// tells them apart.
int CsvWriter::SlotOf(const OpName& op) {
  return op.category == Category::kHsa && op.domain[0] == 'K'
             ? kKfdSlot
             : static_cast<int>(op.category);
}

OutputFile* CsvWriter::FileFor(int c) {
  const Category category =
      c == kKfdSlot ? Category::kHsa : static_cast<Category>(c);
  OutputFile& f = files_by_category_[c];
  if (!f.is_open()) {
    if (failed_[c]) return nullptr;
    std::string path =
        prefix_ + (c == kKfdSlot ? kKfdTraceSuffix : TraceSuffix(category));
    if (!f.Open(path)) {
      failed_[c] = true;
      ReportFailure(path, std::strerror(errno));
      return nullptr;
    }
    paths_[c] = path;
    open_[c] = true;
    pending_[c].Append(Header(category), std::strlen(Header(category)));
    files_.push_back(path);
  }
  return &f;
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
    case Category::kScratchMemory:
      return "\"Kind\",\"Operation\",\"Agent_Id\",\"Queue_Id\",\"Thread_Id\","
             "\"Alloc_Flags\",\"Start_Timestamp\",\"End_Timestamp\"\n";
    case Category::kMemoryAllocation:
      return "\"Kind\",\"Operation\",\"Agent_Id\",\"Allocation_Size\","
             "\"Address\",\"Correlation_Id\",\"Start_Timestamp\","
             "\"End_Timestamp\"\n";
    default:
      return "\"Domain\",\"Function\",\"Process_Id\",\"Thread_Id\","
             "\"Correlation_Id\",\"Start_Timestamp\",\"End_Timestamp\"\n";
  }
}

namespace {

constexpr uint64_t kTenTo8 = 100000000;

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

// Digits of `v` < 10^8.
int Digits(uint32_t v) {
  return 1 + (v >= 10) + (v >= 100) + (v >= 1000) + (v >= 10000) +
         (v >= 100000) + (v >= 1000000) + (v >= 10000000);
}

// Appends the decimal digits of `v` at `out` (storing up to 8 bytes past
// the last digit: callers reserve room); returns their end.
char* AppendUInt(char* out, uint64_t v) {
  if (v < kTenTo8) {
    const int n = Digits(static_cast<uint32_t>(v));
    // The leading zeros are the low bytes: shifted out.
    const uint64_t text =
        EightDigits(static_cast<uint32_t>(v)) >> (8 * (8 - n));
    std::memcpy(out, &text, 8);
    return out + n;
  }
  out = AppendUInt(out, v / kTenTo8);
  const uint64_t low = EightDigits(static_cast<uint32_t>(v % kTenTo8));
  std::memcpy(out, &low, 8);
  return out + 8;
}

void AppendUInt(std::string* out, uint64_t v) {
  char text[32];
  out->append(text, static_cast<size_t>(AppendUInt(text, v) - text));
}

// LDS_Block_Size as rocprofv3 computes it: the kernel symbol's group segment
// size rounded up to the 512-byte LDS allocation block (empty when the
// symbol is not known). Scratch_Size and the geometry are the packet's.
// The register counts are the kernel descriptor's, empty when the tracer
// could not read it (unknown, never guessed).
void AppendLaunch(const KernelLaunch& l, const KernelRegisterCounts& r,
                  std::string* out) {
  constexpr uint32_t kLdsBlock = 512;
  out->push_back(',');
  if (l.symbol_known) {
    AppendUInt(out, (uint64_t{l.symbol_group_segment_size} + kLdsBlock - 1) &
                        ~uint64_t{kLdsBlock - 1});
  }
  out->push_back(',');
  AppendUInt(out, l.private_segment_size);
  for (uint32_t v : {r.arch_vgpr, r.accum_vgpr, r.sgpr}) {
    out->push_back(',');
    if (r.known) AppendUInt(out, v);
  }
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

template <int kLow>
void CsvWriter::DecimalCache<kLow>::Remember(uint64_t key) {
  key_ = key;
  length_ = static_cast<size_t>(AppendUInt(text_, key) - text_);
}

// Inlined into Write (three numbers a row): the call and its register
// saves were a fifth of this function's instructions.
template <int kLow>
inline __attribute__((always_inline)) char*
CsvWriter::DecimalCache<kLow>::Append(char* out, uint64_t v) {
  static_assert(kLow == 2 || kLow == 4, "two or four digits made");
  constexpr uint64_t kDivisor = kLow == 2 ? 100 : 10000;
  if (__builtin_expect(v < kDivisor, 0)) return AppendUInt(out, v);
  const uint64_t key = v / kDivisor;
  if (__builtin_expect(key != key_, 0)) Remember(key);
  std::memcpy(out, text_, sizeof(text_));
  out += length_;
  const uint32_t last = static_cast<uint32_t>(v - key * kDivisor);
  if (kLow == 2) {
    std::memcpy(out, kPairs.text + 2 * last, 2);
    return out + 2;
  }
  std::memcpy(out, kPairs.text + 2 * (last / 100), 2);
  std::memcpy(out + 2, kPairs.text + 2 * (last % 100), 2);
  return out + 4;
}

void CsvWriter::WriteDevice(const ApiEvent& e, std::string* out) {
  if (e.op->category == Category::kMemoryAllocation) {
    // As rocprofv3: the agent of allocations only, the address as 0x and 16
    // hex digits.
    const MemoryAllocation& m = e.device->allocation;
    out->append("\"MEMORY_ALLOCATION\",");
    AppendQuoted(out, e.op->name);
    out->push_back(',');
    if (m.has_agent) AppendQuoted(out, AgentName(m.agent));
    out->push_back(',');
    AppendUInt(out, m.size);
    char address[24];
    std::snprintf(address, sizeof(address), ",0x%016llx,",
                  static_cast<unsigned long long>(m.address));
    out->append(address);
    AppendUInt(out, e.correlation_id);
    out->push_back(',');
    AppendUInt(out, e.start_ns);
    out->push_back(',');
    AppendUInt(out, e.end_ns);
    out->push_back('\n');
    return;
  }
  if (e.op->category == Category::kScratchMemory) {
    out->append("\"SCRATCH_MEMORY\",");
    AppendQuoted(out, e.op->name);
    out->push_back(',');
    if (e.device->device_id >= 0)
      AppendQuoted(out, AgentName({true, e.device->device_id}));
    for (uint64_t v :
         {e.queue_id, uint64_t{e.tid}, uint64_t{e.device->scratch.flags},
          e.start_ns, e.end_ns}) {
      out->push_back(',');
      AppendUInt(out, v);
    }
    out->push_back('\n');
    return;
  }
  if (e.op->category == Category::kKernel) {
    out->append("\"KERNEL_DISPATCH\",");
    AppendQuoted(out, AgentName({true, e.device->device_id}));
    out->push_back(',');
    AppendUInt(out, e.queue_id);
    out->push_back(',');
    AppendUInt(out, e.stream_id);
    out->push_back(',');
    AppendUInt(out, e.tid);
    out->push_back(',');
    AppendUInt(out, e.device->dispatch_id);
    out->push_back(',');
    AppendUInt(out, e.op->kernel_id);
    out->push_back(',');
    AppendQuoted(out, e.op->name);
  } else {
    AgentRef src{}, dst{};
    CopyAgents(e, &src, &dst);
    out->append("\"MEMORY_COPY\",");
    AppendQuoted(out, e.op->name);
    out->push_back(',');
    AppendUInt(out, e.stream_id);
    out->push_back(',');
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
  if (e.op->category == Category::kKernel)
    AppendLaunch(e.device->launch, e.op->registers, out);
  out->push_back('\n');
}

// Out of line: the row's string would give every API row's Write a larger
// frame and a stack check.
void CsvWriter::AppendDeviceRow(const ApiEvent& e, int c) {
  ByteBuffer& out = pending_[c];
  std::string row;
  WriteDevice(e, &row);
  out.Append(row);
  if (out.size() >= files_by_category_[c].next_write()) Flush(c);
}

CsvWriter::NameRow& CsvWriter::LearnName(const OpName& op) {
  if (op.index >= names_.size()) names_.resize(op.index + 1);
  NameRow& row = names_[op.index];
  row.device = IsDevice(op.category);
  row.prefix.clear();
  if (!row.device) {
    AppendQuoted(&row.prefix, op.domain);
    row.prefix.push_back(',');
    AppendQuoted(&row.prefix, op.name);
  }
  row.is_short = row.prefix.size() <= NameRow::kShortPrefix;
  if (row.is_short) {
    std::memset(row.short_prefix, 0, sizeof(row.short_prefix));
    std::memcpy(row.short_prefix, row.prefix.data(), row.prefix.size());
  }
  row.slot = static_cast<int8_t>(SlotOf(op));
  return row;
}

inline __attribute__((always_inline)) void CsvWriter::WriteOne(
    const ApiEvent& e) {
  const uint32_t index = e.op->index;
  const NameRow& name = index < names_.size() && names_[index].slot >= 0
                            ? names_[index]
                            : LearnName(*e.op);
  const int c = name.slot;
  if (!open_[c] && FileFor(c) == nullptr) {
    CountUnwritten(1);
    return;
  }
  ++pending_rows_[c];
  ByteBuffer& out = pending_[c];
  if (name.device) {
    AppendDeviceRow(e, c);
    return;
  }
  // "Domain","Function", quoted once per name.
  const std::string& prefix = name.prefix;
  // ",pid,tid," formatted once per run of a thread's events.
  const uint64_t thread_key = (uint64_t{e.pid} << 32) | e.tid;
  if (thread_key != thread_key_) {
    thread_key_ = thread_key;
    char* t = thread_text_;
    *t++ = ',';
    t = AppendUInt(t, e.pid);
    *t++ = ',';
    t = AppendUInt(t, e.tid);
    *t++ = ',';
    thread_length_ = static_cast<size_t>(t - thread_text_);
  }
  // The prefix, then at most 20 + 2 * 21 + 1 bytes of numbers (and the
  // 8 bytes AppendUInt may store past them), written through one pointer.
  char* p = out.Reserve(NameRow::kShortPrefix + prefix.size() +
                        sizeof(thread_text_) + 80);
  if (__builtin_expect(name.is_short, 1)) {
    std::memcpy(p, name.short_prefix, NameRow::kShortPrefix);
  } else {
    std::memcpy(p, prefix.data(), prefix.size());
  }
  p += prefix.size();
  std::memcpy(p, thread_text_, sizeof(thread_text_));
  p += thread_length_;
  p = correlation_ids_.Append(p, e.correlation_id);
  *p++ = ',';
  p = timestamps_.Append(p, e.start_ns);
  *p++ = ',';
  p = timestamps_.Append(p, e.end_ns);
  *p++ = '\n';
  out.Commit(p);
  if (out.size() >= files_by_category_[c].next_write()) Flush(c);
}

void CsvWriter::Flush(int c) {
  ByteBuffer& out = pending_[c];
  OutputFile& file = files_by_category_[c];
  // (`out` keeps the file's last partial page, written.)
  if (!file.is_open()) {
    out.clear();
  } else if (!file.Write(&out)) {
    // The file keeps its whole rows up to the last chunk written; this
    // chunk's rows and every later row of the file are lost, and said so.
    ReportFailure(paths_[c], std::strerror(errno));
    CountUnwritten(pending_rows_[c]);
    file.Close();
    open_[c] = false;
    failed_[c] = true;
    out.clear();
  }
  pending_rows_[c] = 0;
}

void CsvWriter::Checkpoint() {
  for (int c = 0; c < kSlots; ++c) Flush(c);
}

void CsvWriter::Finish(const RunInfo&) {
  for (int c = 0; c < kSlots; ++c) {
    Flush(c);
    files_by_category_[c].Close();
    open_[c] = false;
  }
  // rocprofv3 writes the agents it knows with every CSV output.
  const std::vector<AgentInfoRow> agents = AllAgentInfo();
  if (!agents.empty()) {
    const std::string path = prefix_ + "_agent_info.csv";
    if (WriteAgentInfoCsv(path, agents)) {
      files_.push_back(path);
    } else {
      ReportFailure(path, std::strerror(errno));
      std::remove(path.c_str());
    }
  }
}

void CsvWriter::Write(const ApiEvent& e) { WriteOne(e); }

void CsvWriter::WriteAll(const ApiEvent* begin, const ApiEvent* end) {
  for (; begin < end; ++begin) WriteOne(*begin);
}

}  // namespace roctrace
