#include "roctrace/writers/json_writer.h"

#include <fcntl.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iterator>
#include <map>
#include <string>
#include <utility>

#include "roctrace/writers/agent_info.h"
#include "roctrace/writers/decimal_digits.h"
#include "roctrace/writers/utf8.h"

namespace roctrace {
namespace {

constexpr size_t kFlushBytes = 1 << 20;

// Agent handles in the JSON: the agent's logical index + 1 (rocprofv3's
// are addresses; any value unique in the file serves).
uint64_t AgentHandle(AgentRef a) {
  return static_cast<uint64_t>(AgentLogicalIndex(a)) + 1;
}

// rocprofiler-sdk 1.0.0's MARKER_CORE_RANGE_API: every rocTX event's kind.
constexpr uint32_t kMarkerRangeKind = 32;

// rocprofiler_marker_core_range_api_id_t's names, by value: a rocTX
// record's operation.
constexpr const char* kMarkerOperations[] = {"roctxMarkA", "roctxThreadRangeA",
                                             "roctxProcessRangeA",
                                             "roctxGetThreadId"};

// The traced program's command line, one string an argument (read from
// /proc when the writer runs in that process, else the joined line split
// at spaces).
std::vector<std::string> CommandLine(const RunInfo& info) {
  std::vector<std::string> args;
  if (info.pid == static_cast<uint32_t>(::getpid())) {
    std::ifstream in("/proc/self/cmdline", std::ios::binary);
    std::string all((std::istreambuf_iterator<char>(in)),
                    std::istreambuf_iterator<char>());
    size_t start = 0;
    for (size_t i = 0; i < all.size(); ++i) {
      if (all[i] == '\0') {
        args.push_back(all.substr(start, i - start));
        start = i + 1;
      }
    }
    if (start < all.size()) args.push_back(all.substr(start));
    if (!args.empty()) return args;
  }
  size_t start = 0;
  while (start < info.command.size()) {
    size_t space = info.command.find(' ', start);
    if (space == std::string::npos) space = info.command.size();
    if (space > start)
      args.push_back(info.command.substr(start, space - start));
    start = space + 1;
  }
  return args;
}

std::string MachineId() {
  std::ifstream in("/etc/machine-id");
  std::string id;
  std::getline(in, id);
  return id.empty() ? "unknown" : id;
}

void AppendUInt(std::string* out, uint64_t v) {
  char digits[24];
  int n = std::snprintf(digits, sizeof(digits), "%" PRIu64, v);
  out->append(digits, static_cast<size_t>(n));
}

void Key(std::string* out, const char* key, uint64_t value) {
  out->push_back('"');
  out->append(key);
  out->append("\":");
  AppendUInt(out, value);
}

// ,"key":{"x":x,"y":y,"z":z} (rocprofiler_dim3_t).
void Dim3(std::string* out, const char* key, uint64_t x, uint64_t y,
          uint64_t z) {
  out->append(",\"");
  out->append(key);
  out->append("\":{");
  Key(out, "x", x);
  out->push_back(',');
  Key(out, "y", y);
  out->push_back(',');
  Key(out, "z", z);
  out->push_back('}');
}

// A record is formatted through a plain pointer into room reserved in its
// part's ByteBuffer (Put*: each returns where its bytes end), not appended
// to a std::string piece by piece: snprintf for each number and the
// string's size reloaded after every byte were most of the writer's cost.

// The literal's bytes, without its terminating NUL.
template <size_t N>
inline char* Put(char* p, const char (&text)[N]) {
  std::memcpy(p, text, N - 1);
  return p + N - 1;
}

constexpr uint64_t kTenTo8 = 100000000;

// 10^i, for the digit count.
constexpr uint32_t kPowersOfTen[] = {
    1, 10, 100, 1000, 10000, 100000, 1000000, 10000000, 100000000, 1000000000};

// The digits of `v` < 10^8 at `p` (8 bytes stored), returning their end.
// The count from the highest bit (1233 / 4096 ~ log10(2)), one compare.
inline __attribute__((always_inline)) char* PutUpTo8Digits(char* p,
                                                           uint32_t v) {
  const uint32_t bits = 32 - static_cast<uint32_t>(__builtin_clz(v | 1));
  const uint32_t guess = (bits * 1233) >> 12;
  // (v | 1: 0 has a digit; no power of ten from 10 on is odd.)
  const int n = static_cast<int>(guess + 1 - ((v | 1) < kPowersOfTen[guess]));
  // The leading zeros are the low bytes: shifted out.
  const uint64_t text = EightDigits(v) >> (8 * (8 - n));
  std::memcpy(p, &text, 8);
  return p + n;
}

// The decimal digits of `v` at `p`, returning their end; stores up to 8
// bytes past it (every caller's room has them). Timestamps, 14-16 digits,
// are two words of digits; a copy of a variable length would be a call.
inline char* PutUInt(char* p, uint64_t v) {
  if (__builtin_expect(v < kTenTo8, 1)) {
    return PutUpTo8Digits(p, static_cast<uint32_t>(v));
  }
  uint64_t high = v / kTenTo8;
  const auto low = static_cast<uint32_t>(v - high * kTenTo8);
  if (__builtin_expect(high >= kTenTo8, 0)) {
    const uint64_t top = high / kTenTo8;
    p = PutUpTo8Digits(p, static_cast<uint32_t>(top));
    const uint64_t middle =
        EightDigits(static_cast<uint32_t>(high - top * kTenTo8));
    std::memcpy(p, &middle, 8);
    p += 8;
  } else {
    p = PutUpTo8Digits(p, static_cast<uint32_t>(high));
  }
  const uint64_t digits = EightDigits(low);
  std::memcpy(p, &digits, 8);
  return p + 8;
}

// Which bytes a JSON string escapes: '"', '\\' and the controls.
struct EscapeTable {
  constexpr EscapeTable() : escape() {
    for (int i = 0; i < 0x20; ++i) escape[i] = true;
    escape[static_cast<unsigned char>('"')] = true;
    escape[static_cast<unsigned char>('\\')] = true;
  }
  bool escape[256];
};
constexpr EscapeTable kEscape;

// Room PutJsonString needs for `n` bytes of text (a control is 6 bytes),
// with 8 bytes to spare.
constexpr size_t JsonStringRoom(size_t n) { return 6 * n + 2 + 8; }

// Whether any of a word's 8 bytes may need a look (a control, '"', '\\' or
// a byte of 0x80 and above): the classic has-less-than and has-zero tests,
// whose false positives (borrows) only send a word to the byte loop.
inline bool WordNeedsLook(uint64_t w) {
  constexpr uint64_t kOnes = 0x0101010101010101ull;
  constexpr uint64_t kHigh = 0x8080808080808080ull;
  const uint64_t quote = w ^ (kOnes * '"');
  const uint64_t backslash = w ^ (kOnes * '\\');
  return (((w - kOnes * 0x20) | (quote - kOnes) | (backslash - kOnes) | w) &
          kHigh) != 0;
}

// `text`'s bytes, escaped, at `p` (no quotes); sets *high when a byte is
// 0x80 or above (left as it is).
inline char* PutJsonEscaped(char* p, const char* text, size_t n, bool* high) {
  const char* end = text + n;
  while (text != end) {
    if (end - text >= 8) {
      uint64_t w;
      std::memcpy(&w, text, 8);
      if (__builtin_expect(!WordNeedsLook(w), 1)) {
        std::memcpy(p, &w, 8);
        p += 8;
        text += 8;
        continue;
      }
    }
    // A byte at a time up to the next word (or the end).
    const char* stop = end - text > 8 ? text + 8 : end;
    for (; text != stop; ++text) {
      const char c = *text;
      const auto u = static_cast<unsigned char>(c);
      if (__builtin_expect(!kEscape.escape[u], 1)) {
        *high |= u >= 0x80;
        *p++ = c;
      } else if (c == '"' || c == '\\') {
        *p++ = '\\';
        *p++ = c;
      } else {
        p = Put(p, "\\u00");
        *p++ = static_cast<char>('0' + (u >> 4));
        *p++ = "0123456789abcdef"[u & 0xf];
      }
    }
  }
  return p;
}

// `text` as a JSON string (quoted, escaped; controls as \u00xx).
inline char* PutJsonString(char* p, std::string_view text) {
  bool high = false;
  *p++ = '"';
  p = PutJsonEscaped(p, text.data(), text.size(), &high);
  *p++ = '"';
  return p;
}

// "key":value
template <size_t N>
inline char* PutKey(char* p, const char (&key)[N], uint64_t value) {
  *p++ = '"';
  p = Put(p, key);
  p = Put(p, "\":");
  return PutUInt(p, value);
}

// ,"key":{"x":x,"y":y,"z":z} (rocprofiler_dim3_t).
template <size_t N>
inline char* PutDim3(char* p, const char (&key)[N], uint64_t x, uint64_t y,
                     uint64_t z) {
  p = Put(p, ",\"");
  p = Put(p, key);
  p = PutKey(Put(p, "\":{"), "x", x);
  p = PutKey(Put(p, ","), "y", y);
  p = PutKey(Put(p, ","), "z", z);
  *p++ = '}';
  return p;
}

// Room for a record's fields but its arguments: about 40 keys and numbers
// of at most 20 digits fit with plenty to spare.
constexpr size_t kRecordRoom = 2048;

}  // namespace

void AppendJsonString(std::string* out, std::string_view text) {
  const size_t size = out->size();
  out->resize(size + JsonStringRoom(text.size()));
  char* end = PutJsonString(out->data() + size, text);
  out->resize(static_cast<size_t>(end - out->data()));
}

namespace {

void AppendDouble(std::string* out, double v) {
  char digits[32];
  int n = std::snprintf(digits, sizeof(digits), "%.17g", v);
  out->append(digits, static_cast<size_t>(n));
}

// sizeof the rocprofiler-sdk 1.0.0 buffer record of each kind (API calls'
// records, rocprofiler_buffer_tracing_kernel_dispatch_record_t,
// _memory_copy_record_t, _scratch_memory_record_t,
// _memory_allocation_record_t).
uint64_t RecordSize(Category c) {
  switch (c) {
    case Category::kKernel:
      return 184;
    case Category::kMemoryCopy:
      return 96;
    case Category::kScratchMemory:
      return 88;
    case Category::kMemoryAllocation:
      return 88;
    case Category::kHip:
      return 176;  // rocprofiler_buffer_tracing_hip_api_ext_record_t
    default:
      return 64;
  }
}

// buffer_records sections rocprofv3 has and roctrace never fills.
constexpr const char* kEmptyBufferSections[] = {
    "rccl_api", "rocdecode_api", "rocjpeg_api", "pc_sample_host_trap",
    "pc_sample_stochastic"};

// {"count":..,"sum":..,"sqr":..,"min":..,"max":..,"mean":..,"stddev":..,
// "variance":..} as rocprofv3's statistics: the variance the sample's
// (n - 1), 0 below two values.
template <typename S>
void AppendStats(std::string* out, const S& s) {
  Key(out, "count", s.count);
  out->push_back(',');
  Key(out, "sum", s.sum);
  out->append(",\"sqr\":");
  AppendDouble(out, s.sqr);
  out->push_back(',');
  Key(out, "min", s.min);
  out->push_back(',');
  Key(out, "max", s.max);
  const double n = static_cast<double>(s.count);
  const double mean = s.count != 0 ? static_cast<double>(s.sum) / n : 0;
  double variance = 0;
  if (s.count > 1) {
    const double sum = static_cast<double>(s.sum);
    variance = (s.sqr - sum * sum / n) / (n - 1);
  }
  out->append(",\"mean\":");
  AppendDouble(out, mean);
  out->append(",\"stddev\":");
  AppendDouble(out, std::sqrt(std::fabs(variance)));
  out->append(",\"variance\":");
  AppendDouble(out, variance);
}

// "node":{...}: the machine as rocprofv3's node_info (the rocpd writer's
// rocpd_info_node row: the same id, hash and names).
void AppendNode(std::string* out, const std::string& hostname) {
  const std::string machine = MachineId();
  struct utsname u {};
  uname(&u);
  out->append("\"node\":{");
  Key(out, "id", 1);
  out->push_back(',');
  Key(out, "hash", std::hash<std::string>()(machine) >> 1);
  const std::pair<const char*, std::string> texts[] = {
      {"machine_id", machine},      {"system_name", u.sysname},
      {"hostname", hostname},       {"release", u.release},
      {"version", u.version},       {"hardware_name", u.machine},
      {"domain_name", u.domainname}};
  for (const auto& [key, value] : texts) {
    out->append(",\"").append(key).append("\":");
    AppendJsonString(out, value);
  }
  out->push_back('}');
}

void AppendBool(std::string* out, const char* key, bool value) {
  out->append(",\"").append(key).append(value ? "\":true" : "\":false");
}

void AppendText(std::string* out, const char* key, const std::string& value) {
  out->append(",\"").append(key).append("\":");
  AppendJsonString(out, value);
}

// One agent as rocprofv3 writes a rocprofiler_agent_v0_t (and its
// gpu_index); `info` null for an agent the topology does not describe
// (its numbers 0, its name roctrace's).
void AppendAgent(std::string* out, AgentRef ref, const AgentInfo* info) {
  Key(out, "size", 304);  // sizeof(rocprofiler_agent_v0_t), 1.0.0
  out->append(",\"id\":{");
  Key(out, "handle", AgentHandle(ref));
  out->append("},");
  Key(out, "type", ref.gpu ? 2 : 1);  // rocprofiler_agent_type_t
  AgentInfo none;
  none.gpu = ref.gpu;
  const AgentInfo& a = info != nullptr ? *info : none;
  const std::vector<AgentField> fields = AgentFields(a);
  for (size_t i = 0; i < fields.size(); ++i) {
    const std::string name = fields[i].name;
    const size_t n = name.size();
    // A dim3 (workgroup_max_dim, grid_max_dim): its _x, _y, _z fields.
    if (n > 2 && name.compare(n - 2, 2, "_x") == 0 && i + 2 < fields.size()) {
      Dim3(out, name.substr(0, n - 2).c_str(), fields[i].value,
           fields[i + 1].value, fields[i + 2].value);
      i += 2;
      continue;
    }
    out->push_back(',');
    Key(out, fields[i].name, fields[i].value);
  }
  AppendText(out, "name",
             info != nullptr && !a.name.empty() ? a.name : AgentName(ref));
  AppendText(out, "vendor_name", a.vendor_name);
  AppendText(out, "product_name", a.product_name);
  AppendText(out, "model_name", a.model_name);
  out->push_back(',');
  Key(out, "node_id",
      info != nullptr ? a.node_id
                      : static_cast<uint64_t>(AgentAbsoluteIndex(ref)));
  out->push_back(',');
  Key(out, "logical_node_id", static_cast<uint64_t>(AgentLogicalIndex(ref)));
  out->push_back(',');
  Key(out, "logical_node_type_id", static_cast<uint64_t>(ref.index));
  // Which runtimes see the agent: HSA every agent, HIP the GPUs.
  out->append(",\"runtime_visibility\":{\"hsa\":1,\"hip\":");
  out->append(ref.gpu ? "1" : "0");
  out->append(",\"rccl\":0,\"rocdecode\":0}");
  // rocprofiler_uuid_t's bytes: the KFD unique_id, little-endian.
  const uint64_t uuid = a.Property("unique_id");
  out->append(",\"uuid\":{\"bytes\":[");
  for (int b = 0; b < 8; ++b) {
    if (b != 0) out->push_back(',');
    AppendUInt(out, (uuid >> (8 * b)) & 0xff);
  }
  // Banks, caches and links: their counts only (the lists not read).
  out->append("]},\"mem_banks\":[],\"caches\":[],\"io_links\":[],");
  out->append("\"gpu_index\":");
  out->append(ref.gpu ? std::to_string(ref.index) : "-1");
}

}  // namespace

void JsonWriter::Stats::Add(uint64_t ns) {
  if (count == 0 || ns < min) min = ns;
  if (ns > max) max = ns;
  ++count;
  sum += ns;
  sqr += static_cast<double>(ns) * static_cast<double>(ns);
}

void JsonWriter::Stats::Add(const Stats& o) {
  if (o.count == 0) return;
  if (count == 0 || o.min < min) min = o.min;
  if (o.max > max) max = o.max;
  count += o.count;
  sum += o.sum;
  sqr += o.sqr;
}

// [{"domain": "HIP_API", "stats": {totals..., "operations": [{"key":
// name, "value": {stats}}, ...]}}, ...]: one entry per domain that has
// records, operations by name (a map, written as cereal writes one).
void JsonWriter::AppendSummary(std::string* out) const {
  out->push_back('[');
  bool first_domain = true;
  for (int c = 0; c < kCategoryCount; ++c) {
    std::map<std::string, Stats> by_name;
    for (const OpName* op : by_category_[c]) {
      if (op->index < stats_.size()) by_name[op->name].Add(stats_[op->index]);
    }
    Stats total;
    for (const auto& entry : by_name) total.Add(entry.second);
    if (total.count == 0) continue;
    out->append(first_domain ? "{\"domain\":" : ",{\"domain\":");
    first_domain = false;
    AppendJsonString(out, SummaryDomain(static_cast<Category>(c)));
    out->append(",\"stats\":{");
    AppendStats(out, total);
    out->append(",\"operations\":[");
    bool first = true;
    for (const auto& entry : by_name) {
      out->append(first ? "{\"key\":" : ",{\"key\":");
      first = false;
      AppendJsonString(out, entry.first);
      out->append(",\"value\":{");
      AppendStats(out, entry.second);
      out->append("}}");
    }
    out->append("]}}");
  }
  out->push_back(']');
}

void JsonWriter::AppendConfig(std::string* out) const {
  const JsonRunConfig& c = config_;
  out->append(",\"config\":{\"output_path\":");
  AppendJsonString(out, c.output_path);
  AppendText(out, "output_file", c.output_file);
  AppendText(out, "tmp_directory", c.output_path);
  AppendText(out, "raw_output_path", c.raw_output_path);
  AppendText(out, "raw_output_file", c.raw_output_file);
  AppendText(out, "raw_tmp_directory", c.raw_output_path);
  out->push_back(',');
  Key(out, "perfetto_shmem_size_hint", 64);
  out->push_back(',');
  Key(out, "perfetto_buffer_size", c.perfetto_buffer_size_kb);
  AppendText(out, "perfetto_buffer_fill_policy", "discard");
  AppendText(out, "perfetto_backend", "inprocess");
  AppendBool(out, "summary", c.summary);
  AppendBool(out, "summary_per_domain", c.summary_per_domain);
  out->append(",\"summary_groups\":[");
  for (size_t i = 0; i < c.summary_groups.size(); ++i) {
    if (i != 0) out->push_back(',');
    AppendJsonString(out, c.summary_groups[i]);
  }
  out->push_back(']');
  AppendText(out, "summary_unit", c.summary_unit);
  AppendText(out, "summary_file", c.summary_file);
  AppendBool(out, "csv_output", c.csv_output);
  AppendBool(out, "json_output", c.json_output);
  AppendBool(out, "pftrace_output", c.pftrace_output);
  AppendBool(out, "otf2_output", false);
  AppendBool(out, "summary_output", c.summary_output);
  AppendBool(out, "rocpd_output", c.rocpd_output);
  AppendBool(out, "kernel_rename", c.kernel_rename);
  AppendBool(out, "group_by_queue", c.group_by_queue);
  out->push_back('}');
}

void JsonWriter::AppendAgents(std::string* out) const {
  // The topology's agents in KFD node order (a node's CPU agent first),
  // then any agent the records name that it does not describe.
  std::vector<std::pair<AgentRef, const AgentInfo*>> all;
  for (bool gpu : {false, true}) {
    for (int32_t i = 0;; ++i) {
      const AgentInfo* info = AgentInfoOf({gpu, i});
      if (info == nullptr) break;
      all.push_back({AgentRef{gpu, i}, info});
    }
  }
  std::stable_sort(all.begin(), all.end(), [](const auto& x, const auto& y) {
    return x.second->node_id < y.second->node_id;
  });
  std::vector<AgentRef> others;
  for (AgentRef a : agents_) {
    if (AgentInfoOf(a) == nullptr) others.push_back(a);
  }
  std::sort(others.begin(), others.end(), [](AgentRef x, AgentRef y) {
    return AgentLogicalIndex(x) < AgentLogicalIndex(y);
  });
  for (AgentRef a : others) all.push_back({a, nullptr});
  out->push_back('[');
  for (size_t i = 0; i < all.size(); ++i) {
    out->append(i == 0 ? "{" : ",{");
    AppendAgent(out, all[i].first, all[i].second);
    out->push_back('}');
  }
  out->push_back(']');
}

const char* JsonWriter::Section(Category category) {
  switch (category) {
    case Category::kHip:
      return "hip_api";
    case Category::kHsa:
      return "hsa_api";
    case Category::kMarker:
      return "marker_api";
    case Category::kKernel:
      return "kernel_dispatch";
    case Category::kMemoryCopy:
      return "memory_copy";
    case Category::kScratchMemory:
      return "scratch_memory";
    case Category::kMemoryAllocation:
      return "memory_allocation";
  }
  return "unknown";
}

JsonWriter::JsonWriter(std::string path, RunInfo start_info,
                       JsonRunConfig config)
    : path_(std::move(path)),
      start_info_(std::move(start_info)),
      config_(std::move(config)) {
  // rocTX's kind keeps its own list (the operations roctrace writes) and
  // KFD_API is roctrace's own kind: the SDK numbers neither.
  for (uint32_t k = 1; k < kKindCount && k < config_.sdk_operations.size();
       ++k) {
    if (k == kMarkerRangeKind || k == kKfdKind) continue;
    operations_[k] = config_.sdk_operations[k];
    for (uint32_t op = 0; op < operations_[k].size(); ++op) {
      if (!operations_[k][op].empty()) {
        operation_numbers_[k].emplace(operations_[k][op], op);
      }
    }
  }
}

uint32_t JsonWriter::OperationNumber(uint32_t kind, const std::string& name) {
  auto found = operation_numbers_[kind].find(name);
  if (found != operation_numbers_[kind].end()) return found->second;
  operations_[kind].push_back(name);
  const auto number = static_cast<uint32_t>(operations_[kind].size() - 1);
  operation_numbers_[kind].emplace(name, number);
  return number;
}

uint32_t JsonWriter::Kind(const std::string& domain) const {
  if (domain.compare(0, 7, "MARKER_") == 0) return kMarkerRangeKind;
  if (domain == "KFD_API") return kKfdKind;
  for (uint32_t k = 1; k < kKfdKind && k < config_.sdk_kinds.size(); ++k) {
    if (domain == config_.sdk_kinds[k]) return k;
  }
  return 0;
}

const std::string& JsonWriter::KindName(uint32_t kind) const {
  static const std::string kKfd = "KFD_API";
  static const std::string kUnnamed;
  if (kind == kKfdKind) return kKfd;
  return kind < config_.sdk_kinds.size() ? config_.sdk_kinds[kind] : kUnnamed;
}

JsonWriter::~JsonWriter() { DropParts(); }

std::string JsonWriter::PartPath(int part) const {
  const char* name = part == kMarkerPart ? "marker_strings"
                     : part == kKfdPart  ? "kfd_api"
                                         : Section(static_cast<Category>(part));
  return path_ + "." + name + ".part";
}

bool JsonWriter::OpenPart(int part) {
  if (parts_[part] != nullptr) return true;
  parts_[part] = std::make_unique<OutputFile>();
  if (!parts_[part]->Open(PartPath(part))) {
    Lose(PartPath(part) + ": ", errno);
    return false;
  }
  return true;
}

void JsonWriter::DropParts() {
  for (int c = 0; c < kPartCount; ++c) {
    if (parts_[c] == nullptr) continue;
    parts_[c].reset();
    std::remove(PartPath(c).c_str());
  }
}

const JsonWriter::OpSlot& JsonWriter::Operation(const ApiEvent& e) {
  const OpName* op = e.op;
  if (op->index >= operation_of_.size()) operation_of_.resize(op->index + 1);
  OpSlot& slot = operation_of_[op->index];
  if (!slot.known) {
    slot.known = true;
    by_category_[static_cast<int>(op->category)].push_back(op);
    slot.kind =
        op->category == Category::kMarker ? kMarkerRangeKind : Kind(op->domain);
    if (slot.kind != kMarkerRangeKind) {
      // With the SDK's numbering a dispatch record is the SDK's: its
      // operation is the completion (the kernel is named by kernel_id).
      const bool sdk_dispatch =
          op->category == Category::kKernel && !config_.sdk_operations.empty();
      static const std::string kDispatchComplete = "KERNEL_DISPATCH_COMPLETE";
      slot.operation = OperationNumber(
          slot.kind, sdk_dispatch ? kDispatchComplete : op->name);
    }
    // `size`: the rocprofiler-sdk 1.0.0 record's size in bytes, the first
    // field rocprofv3 writes of each.
    char* p = PutUInt(Put(slot.text, "{\"size\":"), RecordSize(op->category));
    p = PutKey(Put(p, ","), "kind", slot.kind);
    p = Put(p, ",\"operation\":");
    slot.head_size = static_cast<uint8_t>(p - slot.text);
    p = PutUInt(p, slot.operation);
    p = Put(p, ",\"correlation_id\":{\"internal\":");
    slot.size = static_cast<uint8_t>(p - slot.text);
  }
  return slot;
}

void JsonWriter::Lose(const std::string& what, int err) {
  // One JSON document: a part of it missing is no document at all.
  ReportFailure(path_, what + std::strerror(err) + " (no JSON written)");
  failed_ = true;
  CountUnwritten(events_);
  DropParts();
}

inline char* JsonWriter::PutTimestamp(char* p, uint64_t ns) {
  const uint64_t high = ns / kTenTo8;
  if (__builtin_expect(high - 1 >= kTenTo8 - 1, 0)) return PutUInt(p, ns);
  if (__builtin_expect(high != time_high_, 0)) {
    char text[16];
    time_high_size_ = static_cast<uint32_t>(
        PutUpTo8Digits(text, static_cast<uint32_t>(high)) - text);
    std::memcpy(&time_high_text_, text, 8);
    time_high_ = high;
  }
  std::memcpy(p, &time_high_text_, 8);
  p += time_high_size_;
  const uint64_t low = EightDigits(static_cast<uint32_t>(ns - high * kTenTo8));
  std::memcpy(p, &low, 8);
  return p + 8;
}

void JsonWriter::Write(const ApiEvent& e) {
  if (failed_) {
    CountUnwritten(1);
    return;
  }
  ++events_;
  if (e.op->index >= stats_.size()) stats_.resize(e.op->index + 1);
  stats_[e.op->index].Add(e.end_ns >= e.start_ns ? e.end_ns - e.start_ns : 0);
  const OpSlot& slot = Operation(e);
  const int c =
      slot.kind == kKfdKind ? kKfdPart : static_cast<int>(e.op->category);
  if (!OpenPart(c)) return;
  uint32_t operation = slot.operation;
  if (e.op->category == Category::kMarker) {
    // As rocprofv3 records rocTX: a mark, a pushed (thread) range or a
    // started (process) range, its message in strings.marker_api by
    // correlation ID.
    operation = e.instant ? 0 : e.async_range_id != 0 ? 2 : 1;
    if (!OpenPart(kMarkerPart)) return;
    ByteBuffer& strings = pending_[kMarkerPart];
    char* p = strings.Reserve(64 + JsonStringRoom(e.op->name.size()));
    p = records_[kMarkerPart]++ == 0 ? Put(p, "\n{") : Put(p, ",\n{");
    p = PutKey(p, "key", e.correlation_id);
    p = Put(p, ",\"value\":");
    p = PutJsonString(p, e.op->name);
    *p++ = '}';
    strings.Commit(p);
    if (strings.size() >= kFlushBytes) Flush(kMarkerPart);
    if (failed_) return;
  }
  ByteBuffer& out = pending_[c];
  char* p = out.Reserve(kRecordRoom);
  *p = ',';
  p += records_[c]++ != 0;
  *p++ = '\n';
  // The operation's first bytes, whole: a copy of a constant size.
  std::memcpy(p, slot.text, sizeof(slot.text));
  if (__builtin_expect(e.op->category != Category::kMarker, 1)) {
    p += slot.size;
  } else {
    p = PutUInt(p + slot.head_size, operation);
    p = Put(p, ",\"correlation_id\":{\"internal\":");
  }
  p = PutUInt(p, e.correlation_id);
  p = Put(p, ",\"external\":0,\"ancestor\":0},\"start_timestamp\":");
  p = PutTimestamp(p, e.start_ns);
  p = PutTimestamp(Put(p, ",\"end_timestamp\":"), e.end_ns);
  p = PutKey(Put(p, ","), "thread_id", e.tid);
  if (IsDevice(e.op->category) && e.op->category != Category::kScratchMemory) {
    // rocprofv3's records of dispatches, copies and allocations carry their
    // HIP stream; its scratch records are the SDK's record as it is.
    p = PutKey(Put(p, ",\"stream_id\":{"), "handle", e.stream_id);
    *p++ = '}';
  }
  if (e.op->category == Category::kKernel) {
    AgentRef agent{true, e.device->device_id};
    if (e.op->kernel_id > kernels_.size()) kernels_.resize(e.op->kernel_id);
    kernels_[e.op->kernel_id - 1] = e.op;
    NoteAgent(agent);
    p = PutKey(Put(p, ",\"dispatch_info\":{\"size\":128,\"agent_id\":{"),
               "handle", AgentHandle(agent));
    p = PutKey(Put(p, "},\"queue_id\":{"), "handle", e.queue_id);
    p = PutKey(Put(p, "},"), "kernel_id", e.op->kernel_id);
    p = PutKey(Put(p, ","), "dispatch_id", e.device->dispatch_id);
    // rocprofiler_kernel_dispatch_info_t's sizes: the packet's.
    const KernelLaunch& l = e.device->launch;
    p = PutKey(Put(p, ","), "private_segment_size", l.private_segment_size);
    p = PutKey(Put(p, ","), "group_segment_size", l.group_segment_size);
    p = PutDim3(p, "workgroup_size", l.workgroup[0], l.workgroup[1],
                l.workgroup[2]);
    p = PutDim3(p, "grid_size", l.grid[0], l.grid[1], l.grid[2]);
    *p++ = '}';
  } else if (e.op->category == Category::kMemoryCopy) {
    AgentRef src, dst;
    CopyAgents(e, &src, &dst);
    NoteAgent(src);
    NoteAgent(dst);
    p = PutKey(Put(p, ",\"dst_agent_id\":{"), "handle", AgentHandle(dst));
    p = PutKey(Put(p, "},\"src_agent_id\":{"), "handle", AgentHandle(src));
    p = PutKey(Put(p, "},"), "bytes", e.bytes);
  } else if (e.op->category == Category::kMemoryAllocation) {
    // rocprofiler_buffer_tracing_memory_allocation_record_t's fields.
    const MemoryAllocation& m = e.device->allocation;
    uint64_t agent_handle = 0;
    if (m.has_agent) {
      NoteAgent(m.agent);
      agent_handle = AgentHandle(m.agent);
    }
    p = PutKey(Put(p, ",\"agent_id\":{"), "handle", agent_handle);
    // As rocprofiler-sdk 1.0.0 saves it: a string, 0x and 16 hex digits.
    p = Put(p, "},\"address\":\"0x");
    for (int shift = 60; shift >= 0; shift -= 4) {
      *p++ = "0123456789abcdef"[(m.address >> shift) & 0xf];
    }
    p = PutKey(Put(p, "\","), "allocation_size", m.size);
  } else if (e.op->category == Category::kScratchMemory) {
    // rocprofiler_buffer_tracing_scratch_memory_record_t's fields.
    if (e.device->device_id >= 0) {
      AgentRef agent{true, e.device->device_id};
      NoteAgent(agent);
      p = PutKey(Put(p, ",\"agent_id\":{"), "handle", AgentHandle(agent));
      *p++ = '}';
    }
    p = PutKey(Put(p, ",\"queue_id\":{"), "handle", e.queue_id);
    // 1.0.0's record has no allocation size (the CSV has it).
    p = PutKey(Put(p, "},"), "flags", e.device->scratch.flags);
  } else if (e.op->category == Category::kHip || slot.kind == kKfdKind) {
    // Only rocprofv3's HIP records (the _EXT kinds) carry the arguments and
    // the returned value; its HSA and marker records are the SDK's plain
    // API record. roctrace's own kfd_api section is written as the HIP
    // ones.
    if (e.args != nullptr) {
      out.Commit(p);
      AppendArgs(&out, *e.args);
      p = out.Reserve(kRecordRoom);
    } else {
      p = Put(p, ",\"args\":[]");  // not captured (ROCTRACE_API_ARGS)
    }
    // rocprofiler-sdk's retval union, written as rocprofv3 writes a HIP
    // call's: its 64-bit member, the result's bits zero-extended (the union
    // starts zeroed: 0 for a void call). A result of another type than the
    // status is in the call's args, when they were recorded.
    const bool has_retval =
        e.op->returns_status || e.op->returns_void ||
        (e.op->retval_in_args && e.args != nullptr && e.args->size >= 8);
    if (has_retval) {
      p = PutKey(Put(p, ",\"retval\":{"), "uint64_t_retval",
                 e.op->returns_status
                     ? static_cast<uint64_t>(static_cast<uint32_t>(e.retval))
                 : e.op->returns_void ? uint64_t{0}
                                      : RetvalOf(*e.args));
      *p++ = '}';
    }
    if (e.op->category == Category::kHip) {
      // As rocprofv3's HIP records: the stream the call names, 0 (the
      // null stream) for a call that names none.
      p = PutKey(Put(p, ",\"stream_id\":{"), "handle",
                 e.stream_known ? e.stream_id : 0);
      *p++ = '}';
    }
  }
  *p++ = '}';
  out.Commit(p);
  if (out.size() >= kFlushBytes) Flush(c);
}

// ,"args":[{"type":..,"name":..,"value":..},...] as rocprofv3 writes a HIP
// call's: the type as rocprofiler-sdk names it (its typeid name), the value
// as printed (made valid UTF-8 where a struct's char array was not).
// The printers hand each value over with their type and name literals;
// the argument's bytes up to its value are kept per parameter (ArgPrefix),
// so a known parameter costs a copy and its value's escaping.
struct JsonWriter::ArgSink {
  JsonWriter* writer;
  const ApiArgs* args;
  ByteBuffer* out;
};

const JsonWriter::ArgPrefix& JsonWriter::LearnArgPrefix(ArgPrefix& slot,
                                                        const ApiArgs& args,
                                                        uint32_t position,
                                                        const char* header_type,
                                                        const char* name) {
  const ApiArg arg =
      args.printers->spell(args, position, header_type, name, "", 0);
  const std::string_view type(arg.mangled_type);
  const std::string_view arg_name(arg.name, arg.name_size);
  std::string text(
      32 + JsonStringRoom(type.size()) + JsonStringRoom(arg_name.size()), '\0');
  char* p = Put(text.data(), "{\"type\":");
  p = PutJsonString(p, type);
  p = PutJsonString(Put(p, ",\"name\":"), arg_name);
  p = Put(p, ",\"value\":\"");
  text.resize(static_cast<size_t>(p - text.data()));
  slot.header_type = header_type;
  slot.name = name;
  slot.long_text.clear();
  slot.size = static_cast<uint32_t>(text.size());
  if (text.size() <= sizeof(slot.text)) {
    std::memcpy(slot.text, text.data(), text.size());
  } else {
    slot.long_text = std::move(text);
  }
  return slot;
}

void JsonWriter::AppendArgs(ByteBuffer* out, const ApiArgs& args) {
  out->Append(",\"args\":[", 9);
  ArgSink sink{this, &args, out};
  args.printers->values(
      args,
      [](uint32_t position, const char* header_type, const char* name,
         const char* value, size_t size, void* user) {
        auto* s = static_cast<ArgSink*>(user);
        JsonWriter* w = s->writer;
        ArgPrefix* slot =
            &w->arg_prefixes_[((reinterpret_cast<uintptr_t>(name) >> 2) ^
                               (reinterpret_cast<uintptr_t>(header_type) >>
                                3)) &
                              (kArgPrefixSlots - 1)];
        if (__builtin_expect(
                slot->name != name || slot->header_type != header_type, 0)) {
          w->LearnArgPrefix(*slot, *s->args, position, header_type, name);
        }
        char* start = s->out->Reserve(1 + sizeof(slot->text) + slot->size +
                                      JsonStringRoom(size) + 2);
        char* p = start;
        *p = ',';
        p += position != 0;
        if (__builtin_expect(slot->long_text.empty(), 1)) {
          // Whole: a copy of a constant size is a few moves, not a call.
          std::memcpy(p, slot->text, sizeof(slot->text));
        } else {
          std::memcpy(p, slot->long_text.data(), slot->size);
        }
        p += slot->size;
        char* value_start = p;
        bool high = false;
        p = PutJsonEscaped(p, value, size, &high);
        if (__builtin_expect(high, 0)) {
          const std::string text(value, size);
          if (!IsValidUtf8(text)) {
            const std::string valid = MakeValidUtf8(text);
            s->out->Commit(value_start);
            p = s->out->Reserve(JsonStringRoom(valid.size()) + 2);
            p = PutJsonEscaped(p, valid.data(), valid.size(), &high);
          }
        }
        p = Put(p, "\"}");
        s->out->Commit(p);
      },
      &sink);
  out->Append("]", 1);
}

// A machine has a handful of agents: a list beats a map.
void JsonWriter::NoteAgent(AgentRef a) {
  for (AgentRef known : agents_) {
    if (known.gpu == a.gpu && known.index == a.index) return;
  }
  agents_.push_back(a);
}

void JsonWriter::Flush(int c) {
  if (parts_[c] != nullptr && !pending_[c].empty() &&
      !parts_[c]->Write(pending_[c].data(), pending_[c].size())) {
    const int err = errno;
    pending_[c].clear();
    Lose(PartPath(c) + ": ", err);
    return;
  }
  pending_[c].clear();
}

void JsonWriter::Finish(const RunInfo& info) {
  for (int c = 0; c < kPartCount && !failed_; ++c) Flush(c);
  if (failed_) return;
  for (auto& part : parts_) {
    if (part != nullptr) part->Close();  // complete on disk, read back below
  }
  OutputFile f;
  if (!f.Open(path_)) {
    Lose("", errno);
    return;
  }
  for (const auto& code_object : info.code_objects) {
    if (code_object != nullptr && code_object->device_id >= 0) {
      NoteAgent({true, code_object->device_id});
    }
  }
  // Staged in chunks: OutputFile takes whole writes back on an error.
  ByteBuffer out;
  bool ok = true;
  int err = 0;
  auto write_out = [&] {
    if (ok && out.size() >= OutputFile::kChunkBytes) {
      if (!f.Write(out.data(), out.size())) {
        ok = false;
        err = errno;
      }
      out.clear();
    }
  };
  auto put = [&](const char* data, size_t n) {
    out.Append(data, n);
    write_out();
  };
  auto put_string = [&](const std::string& text) {
    put(text.data(), text.size());
  };
  // A part's records, copied in as they are on disk.
  auto copy_part = [&](int part) {
    if (!ok || parts_[part] == nullptr) return;
    const int fd = ::open(PartPath(part).c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
      ok = false;
      err = errno;
      return;
    }
    // Read straight into the staging buffer (no copy between).
    constexpr size_t kRead = 1 << 16;
    while (ok) {
      char* to = out.Reserve(kRead);
      const ssize_t n = ::read(fd, to, kRead);
      if (n == 0) break;
      if (n < 0) {
        if (errno == EINTR) continue;
        ok = false;
        err = errno;
        break;
      }
      out.Commit(to + n);
      write_out();
    }
    ::close(fd);
  };
  std::string head = "{\"rocprofiler-sdk-tool\":[{\"metadata\":{";
  AppendNode(&head, start_info_.hostname.empty() ? info.hostname
                                                 : start_info_.hostname);
  head.push_back(',');
  Key(&head, "pid", info.pid);
  head.push_back(',');
  Key(&head, "init_time", start_info_.start_ns);
  head.push_back(',');
  Key(&head, "fini_time", info.end_ns);
  head.append(",\"command\":[");
  const std::vector<std::string> command = CommandLine(info);
  for (size_t i = 0; i < command.size(); ++i) {
    if (i != 0) head.push_back(',');
    AppendJsonString(&head, command[i]);
  }
  head.push_back(']');
  AppendConfig(&head);
  // roctrace's own: the parent, the host and what was lost.
  head.push_back(',');
  Key(&head, "ppid", info.ppid);
  head.append(",\"hostname\":");
  AppendJsonString(&head, info.hostname);
  head.append(",\"roctrace_lost\":{");
  for (size_t i = 0; i < info.losses.size(); ++i) {
    if (i != 0) head.push_back(',');
    AppendJsonString(&head, info.losses[i].first);
    head.push_back(':');
    AppendUInt(&head, info.losses[i].second);
  }
  head.append("}},\n\"agents\":");
  AppendAgents(&head);
  head.append(
      ",\n\"counters\":[],\n\"strings\":{\"callback_records\":[],"
      "\"buffer_records\":[");
  // Indexed by kind: every kind up to the last one used, as rocprofv3
  // lists every kind rocprofiler-sdk has.
  for (uint32_t k = 0; k < kKindCount; ++k) {
    if (k >= kKfdKind && operations_[k].empty()) break;
    head.append(k == 0 ? "{\"kind\":" : ",{\"kind\":");
    AppendJsonString(&head, KindName(k));
    head.append(",\"operations\":[");
    if (k == kMarkerRangeKind) {
      for (size_t i = 0; i < std::size(kMarkerOperations); ++i) {
        if (i != 0) head.push_back(',');
        AppendJsonString(&head, kMarkerOperations[i]);
      }
    }
    for (size_t i = 0; i < operations_[k].size(); ++i) {
      if (i != 0) head.push_back(',');
      AppendJsonString(&head, operations_[k][i]);
    }
    head.append("]}");
  }
  head.append("],\"marker_api\":[");
  put_string(head);
  copy_part(kMarkerPart);
  // The rest of rocprofv3's strings: what roctrace has none of.
  head.assign(
      "],\"correlation_id\":{\"external\":[]},"
      "\"counters\":{\"dimension_ids\":[]},"
      "\"pc_sample_instructions\":[],\"pc_sample_comments\":[],"
      "\"att_filenames\":[],\"code_object_snapshot_filenames\":[]},"
      "\n\"code_objects\":[");
  // rocprofiler-sdk's code object load records (1.0.0's size), every code
  // object loaded while the program ran.
  bool first = true;
  for (const auto& c : info.code_objects) {
    if (c == nullptr) continue;
    head.append(first ? "{" : ",{");
    first = false;
    Key(&head, "size", 88);
    head.push_back(',');
    Key(&head, "code_object_id", c->id);
    head.append(",\"rocp_agent\":{");
    Key(&head, "handle",
        c->device_id >= 0 ? AgentHandle({true, c->device_id}) : 0);
    head.append("},\"uri\":");
    AppendJsonString(&head, c->uri);
    const std::pair<const char*, uint64_t> fields[] = {
        {"load_base", c->load_base},
        {"load_size", c->load_size},
        {"load_delta", static_cast<uint64_t>(c->load_delta)},
        {"storage_type", c->storage_type},
        {"memory_base", c->memory_base},
        {"memory_size", c->memory_size}};
    for (const auto& [key, value] : fields) {
      head.push_back(',');
      Key(&head, key, value);
    }
    head.push_back('}');
  }
  head.append("],\n\"kernel_symbols\":[");
  for (size_t i = 0; i < kernels_.size(); ++i) {
    if (i != 0) head.push_back(',');
    head.push_back('{');
    Key(&head, "kernel_id", i + 1);
    // kernel_name: the symbol as the runtime reports it, where known.
    const KernelSymbolInfo* symbol =
        kernels_[i] != nullptr ? kernels_[i]->symbol.get() : nullptr;
    for (const char* key :
         {"kernel_name", "formatted_kernel_name", "truncated_kernel_name"}) {
      head.append(",\"");
      head.append(key);
      head.append("\":");
      const bool raw =
          symbol != nullptr && key[0] == 'k' && !symbol->symbol_name.empty();
      AppendJsonString(&head, raw                      ? symbol->symbol_name
                              : kernels_[i] != nullptr ? kernels_[i]->name
                                                       : "");
    }
    if (symbol != nullptr) {
      const std::pair<const char*, uint64_t> fields[] = {
          {"code_object_id",
           symbol->code_object != nullptr ? symbol->code_object->id : 0},
          {"kernel_object", symbol->kernel_object},
          {"kernarg_segment_size", symbol->kernarg_segment_size},
          {"kernarg_segment_alignment", symbol->kernarg_segment_alignment},
          {"group_segment_size", symbol->group_segment_size},
          {"private_segment_size", symbol->private_segment_size}};
      for (const auto& [key, value] : fields) {
        head.push_back(',');
        Key(&head, key, value);
      }
    }
    // rocprofiler-sdk's kernel symbol fields; null where not known.
    const KernelRegisterCounts r = kernels_[i] != nullptr
                                       ? kernels_[i]->registers
                                       : KernelRegisterCounts{};
    const std::pair<const char*, uint32_t> registers[] = {
        {"arch_vgpr_count", r.arch_vgpr},
        {"accum_vgpr_count", r.accum_vgpr},
        {"sgpr_count", r.sgpr}};
    for (const auto& [key, value] : registers) {
      head.push_back(',');
      if (r.known) {
        Key(&head, key, value);
      } else {
        head.append("\"").append(key).append("\":null");
      }
    }
    head.push_back('}');
  }
  head.append("],\n\"host_functions\":[],\n\"summary\":");
  AppendSummary(&head);
  head.append(
      ",\n\"callback_records\":{\"counter_collection\":[]},"
      "\n\"buffer_records\":{");
  for (const char* section : kEmptyBufferSections) {
    head.append("\"").append(section).append("\":[],");
  }
  put_string(head);
  for (int c = 0; c < kCategoryCount && ok; ++c) {
    std::string key = c == 0 ? "\"" : ",\n\"";
    key += Section(static_cast<Category>(c));
    key += "\":[";
    put_string(key);
    copy_part(c);
    put("]", 1);
  }
  if (parts_[kKfdPart] != nullptr) {
    put_string(",\n\"kfd_api\":[");
    copy_part(kKfdPart);
    put("]", 1);
  }
  put("}}]}\n", 5);
  if (ok && !out.empty() && !f.Write(out.data(), out.size())) {
    ok = false;
    err = errno;
  }
  f.Close();
  if (!ok) {
    std::remove(path_.c_str());
    Lose("", err);
    return;
  }
  DropParts();
  files_.push_back(path_);
}

}  // namespace roctrace
