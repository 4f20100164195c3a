#include "roctrace/writers/json_writer.h"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <map>
#include <string>
#include <utility>

#include "roctrace/writers/utf8.h"

namespace roctrace {
namespace {

constexpr size_t kFlushBytes = 1 << 20;

// Agent handles in the JSON: the host 0, kernel agent n at n + 1.
uint64_t AgentHandle(AgentRef a) {
  return a.gpu ? static_cast<uint64_t>(a.index) + 1 : 0;
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

}  // namespace

void AppendJsonString(std::string* out, std::string_view text) {
  out->push_back('"');
  for (char c : text) {
    auto u = static_cast<unsigned char>(c);
    if (c == '"' || c == '\\') {
      out->push_back('\\');
      out->push_back(c);
    } else if (u < 0x20) {
      char esc[8];
      std::snprintf(esc, sizeof(esc), "\\u%04x", u);
      out->append(esc);
    } else {
      out->push_back(c);
    }
  }
  out->push_back('"');
}

namespace {

void AppendDouble(std::string* out, double v) {
  char digits[32];
  int n = std::snprintf(digits, sizeof(digits), "%.17g", v);
  out->append(digits, static_cast<size_t>(n));
}

// rocprofv3's summary domain names (its domain_type column names).
const char* SummaryDomain(Category c) {
  switch (c) {
    case Category::kHip:
      return "HIP_API";
    case Category::kHsa:
      return "HSA_API";
    case Category::kMarker:
      return "MARKER_API";
    case Category::kKernel:
      return "KERNEL_DISPATCH";
    case Category::kMemoryCopy:
      return "MEMORY_COPY";
    case Category::kScratchMemory:
      return "SCRATCH_MEMORY";
    case Category::kMemoryAllocation:
      return "MEMORY_ALLOCATION";
  }
  return "UNKNOWN";
}

// sizeof the rocprofiler-sdk 1.0.0 buffer record of each kind (API calls'
// records, rocprofiler_buffer_tracing_kernel_dispatch_record_t,
// _memory_copy_record_t, _scratch_memory_record_t).
uint64_t RecordSize(Category c) {
  switch (c) {
    case Category::kKernel:
      return 184;
    case Category::kMemoryCopy:
      return 96;
    case Category::kScratchMemory:
      return 88;
    case Category::kMemoryAllocation:
      return 80;
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
    for (const OpName* op : operations_[c]) {
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

JsonWriter::JsonWriter(std::string path, RunInfo start_info)
    : path_(std::move(path)), start_info_(std::move(start_info)) {}

JsonWriter::~JsonWriter() { DropParts(); }

std::string JsonWriter::PartPath(int category) const {
  return path_ + "." + Section(static_cast<Category>(category)) + ".part";
}

void JsonWriter::DropParts() {
  for (int c = 0; c < kCategoryCount; ++c) {
    if (parts_[c] == nullptr) continue;
    parts_[c].reset();
    std::remove(PartPath(c).c_str());
  }
}

uint32_t JsonWriter::Operation(const OpName* op) {
  if (op->index >= operation_of_.size()) operation_of_.resize(op->index + 1);
  uint32_t& slot = operation_of_[op->index];
  if (slot == 0) {
    auto& list = operations_[static_cast<int>(op->category)];
    list.push_back(op);
    slot = static_cast<uint32_t>(list.size());
  }
  return slot - 1;
}

void JsonWriter::Lose(const std::string& what, int err) {
  // One JSON document: a part of it missing is no document at all.
  ReportFailure(path_, what + std::strerror(err) + " (no JSON written)");
  failed_ = true;
  CountUnwritten(events_);
  DropParts();
}

void JsonWriter::Write(const ApiEvent& e) {
  if (failed_) {
    CountUnwritten(1);
    return;
  }
  ++events_;
  if (e.op->index >= stats_.size()) stats_.resize(e.op->index + 1);
  stats_[e.op->index].Add(e.end_ns >= e.start_ns ? e.end_ns - e.start_ns : 0);
  const int c = static_cast<int>(e.op->category);
  if (parts_[c] == nullptr) {
    parts_[c] = std::make_unique<OutputFile>();
    if (!parts_[c]->Open(PartPath(c))) {
      Lose(PartPath(c) + ": ", errno);
      return;
    }
  }
  std::string& out = pending_[c];
  out.append(records_[c]++ == 0 ? "\n{" : ",\n{");
  // `size`: the rocprofiler-sdk 1.0.0 record's size in bytes, the first
  // field rocprofv3 writes of each.
  Key(&out, "size", RecordSize(e.op->category));
  out.push_back(',');
  Key(&out, "kind", static_cast<uint64_t>(c));
  out.push_back(',');
  Key(&out, "operation", Operation(e.op));
  out.append(",\"correlation_id\":{");
  Key(&out, "internal", e.correlation_id);
  out.append(",\"external\":0,\"ancestor\":0},");
  Key(&out, "start_timestamp", e.start_ns);
  out.push_back(',');
  Key(&out, "end_timestamp", e.end_ns);
  out.push_back(',');
  Key(&out, "thread_id", e.tid);
  if (IsDevice(e.op->category)) {
    // rocprofv3's records of device work carry their HIP stream.
    out.append(",\"stream_id\":{");
    Key(&out, "handle", e.stream_id);
    out.push_back('}');
  }
  if (e.op->category == Category::kKernel) {
    AgentRef agent{true, e.device->device_id};
    if (e.op->kernel_id > kernels_.size()) kernels_.resize(e.op->kernel_id);
    kernels_[e.op->kernel_id - 1] = e.op;
    NoteAgent(agent);
    out.append(",\"dispatch_info\":{\"size\":128,\"agent_id\":{");
    Key(&out, "handle", AgentHandle(agent));
    out.append("},\"queue_id\":{");
    Key(&out, "handle", e.queue_id);
    out.append("},");
    Key(&out, "kernel_id", e.op->kernel_id);
    out.push_back(',');
    Key(&out, "dispatch_id", e.device->dispatch_id);
    // rocprofiler_kernel_dispatch_info_t's sizes: the packet's.
    const KernelLaunch& l = e.device->launch;
    out.push_back(',');
    Key(&out, "private_segment_size", l.private_segment_size);
    out.push_back(',');
    Key(&out, "group_segment_size", l.group_segment_size);
    Dim3(&out, "workgroup_size", l.workgroup[0], l.workgroup[1],
         l.workgroup[2]);
    Dim3(&out, "grid_size", l.grid[0], l.grid[1], l.grid[2]);
    out.push_back('}');
  } else if (e.op->category == Category::kMemoryCopy) {
    AgentRef src, dst;
    CopyAgents(e, &src, &dst);
    NoteAgent(src);
    NoteAgent(dst);
    out.append(",\"dst_agent_id\":{");
    Key(&out, "handle", AgentHandle(dst));
    out.append("},\"src_agent_id\":{");
    Key(&out, "handle", AgentHandle(src));
    out.append("},");
    Key(&out, "bytes", e.bytes);
  } else if (e.op->category == Category::kMemoryAllocation) {
    // rocprofiler_buffer_tracing_memory_allocation_record_t's fields.
    const MemoryAllocation& m = e.device->allocation;
    uint64_t agent_handle = 0;
    if (m.has_agent) {
      NoteAgent(m.agent);
      agent_handle = AgentHandle(m.agent);
    }
    out.append(",\"agent_id\":{");
    Key(&out, "handle", agent_handle);
    out.append("},\"address\":{");
    Key(&out, "handle", m.address);
    out.append("},");
    Key(&out, "allocation_size", m.size);
  } else if (e.op->category == Category::kScratchMemory) {
    // rocprofiler_buffer_tracing_scratch_memory_record_t's fields.
    if (e.device->device_id >= 0) {
      AgentRef agent{true, e.device->device_id};
      NoteAgent(agent);
      out.append(",\"agent_id\":{");
      Key(&out, "handle", AgentHandle(agent));
      out.push_back('}');
    }
    out.append(",\"queue_id\":{");
    Key(&out, "handle", e.queue_id);
    out.append("},");
    Key(&out, "flags", e.device->scratch.flags);
    out.push_back(',');
    Key(&out, "allocation_size", e.device->scratch.size);
  } else {
    if (e.args != nullptr) AppendArgs(&out, *e.args);
    if (e.stream_known) {
      // As rocprofv3's HIP records: the stream the call names.
      out.append(",\"stream_id\":{");
      Key(&out, "handle", e.stream_id);
      out.push_back('}');
    }
    if (e.op->returns_status) {
      // rocprofiler-sdk's retval union, written as rocprofv3 writes a HIP
      // call's: its 64-bit member, the status zero-extended.
      out.append(",\"retval\":{");
      Key(&out, "uint64_t_retval",
          static_cast<uint64_t>(static_cast<uint32_t>(e.retval)));
      out.push_back('}');
    }
    if (e.failed) out.append(",\"failed\":true");  // ours: an error returned
  }
  out.push_back('}');
  if (out.size() >= kFlushBytes) Flush(c);
}

// ,"args":[{"type":..,"name":..,"value":..},...] as rocprofv3 writes a HIP
// call's: the type as rocprofiler-sdk names it (its typeid name), the value
// as printed (made valid UTF-8 where a struct's char array was not).
void JsonWriter::AppendArgs(std::string* out, const ApiArgs& args) {
  out->append(",\"args\":[");
  args.each(
      [](void* user, const ApiArg& arg) {
        auto* o = static_cast<std::string*>(user);
        o->append(arg.position == 0 ? "{\"type\":" : ",{\"type\":");
        AppendJsonString(o, arg.mangled_type);
        o->append(",\"name\":");
        AppendJsonString(o, std::string_view(arg.name, arg.name_size));
        o->append(",\"value\":");
        const std::string_view value(arg.value, arg.value_size);
        const bool ascii = std::all_of(value.begin(), value.end(), [](char c) {
          return static_cast<unsigned char>(c) < 0x80;
        });
        if (ascii || IsValidUtf8(std::string(value))) {
          AppendJsonString(o, value);
        } else {
          AppendJsonString(o, MakeValidUtf8(std::string(value)));
        }
        o->push_back('}');
      },
      out);
  out->push_back(']');
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
  for (int c = 0; c < kCategoryCount && !failed_; ++c) Flush(c);
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
  std::string head = "{\"rocprofiler-sdk-tool\":[{\"metadata\":{";
  Key(&head, "pid", info.pid);
  head.push_back(',');
  Key(&head, "ppid", info.ppid);
  head.push_back(',');
  Key(&head, "init_time", start_info_.start_ns);
  head.push_back(',');
  Key(&head, "fini_time", info.end_ns);
  head.append(",\"hostname\":");
  AppendJsonString(&head, info.hostname);
  head.append(",\"command\":");
  AppendJsonString(&head, info.command);
  head.append(",\"roctrace_lost\":{");
  for (size_t i = 0; i < info.losses.size(); ++i) {
    if (i != 0) head.push_back(',');
    AppendJsonString(&head, info.losses[i].first);
    head.push_back(':');
    AppendUInt(&head, info.losses[i].second);
  }
  head.append("}},\n\"agents\":[");
  const std::vector<AgentRef>& unique = agents_;
  for (size_t i = 0; i < unique.size(); ++i) {
    head.append(i == 0 ? "{\"id\":{" : ",{\"id\":{");
    Key(&head, "handle", AgentHandle(unique[i]));
    head.append("},\"type\":");
    AppendJsonString(&head, unique[i].gpu ? "GPU" : "CPU");
    head.push_back(',');
    Key(&head, "logical_node_type_id", static_cast<uint64_t>(unique[i].index));
    head.append(",\"name\":");
    AppendJsonString(&head, AgentName(unique[i]));
    head.push_back('}');
  }
  head.append(
      "],\n\"counters\":[],\n\"strings\":{\"callback_records\":[],"
      "\"buffer_records\":[");
  for (int c = 0; c < kCategoryCount; ++c) {
    head.append(c == 0 ? "{\"kind\":" : ",{\"kind\":");
    AppendJsonString(&head, CategoryName(static_cast<Category>(c)));
    head.append(",\"operations\":[");
    for (size_t i = 0; i < operations_[c].size(); ++i) {
      if (i != 0) head.push_back(',');
      AppendJsonString(&head, operations_[c][i]->name);
    }
    head.append("]}");
  }
  // The rest of rocprofv3's strings: what roctrace has none of.
  head.append(
      "],\"marker_api\":[],\"correlation_id\":{\"external\":[]},"
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
  // Staged in chunks: OutputFile takes whole writes back on an error.
  std::string out = std::move(head);
  bool ok = true;
  int err = 0;
  auto put = [&](const char* data, size_t n) {
    out.append(data, n);
    if (ok && out.size() >= OutputFile::kChunkBytes) {
      if (!f.Write(out.data(), out.size())) {
        ok = false;
        err = errno;
      }
      out.clear();
    }
  };
  char copy[1 << 16];
  for (int c = 0; c < kCategoryCount && ok; ++c) {
    std::string key = c == 0 ? "\"" : ",\n\"";
    key += Section(static_cast<Category>(c));
    key += "\":[";
    put(key.data(), key.size());
    if (parts_[c] != nullptr) {
      const int fd = ::open(PartPath(c).c_str(), O_RDONLY | O_CLOEXEC);
      if (fd < 0) {
        ok = false;
        err = errno;
        break;
      }
      ssize_t n;
      while (ok && (n = ::read(fd, copy, sizeof(copy))) != 0) {
        if (n < 0) {
          if (errno == EINTR) continue;
          ok = false;
          err = errno;
          break;
        }
        put(copy, static_cast<size_t>(n));
      }
      ::close(fd);
    }
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
