// rocprofv3's JSON output (<prefix>_results.json): one object
// {"rocprofiler-sdk-tool": [{metadata, agents, counters, strings,
// code_objects, kernel_symbols, host_functions, summary, callback_records,
// buffer_records}]} with rocprofv3's keys, sections that roctrace has
// nothing for (counters, code objects, host functions, PC samples, ...)
// present and empty (see ../README.md for the subset).
//
// Streamed: records are formatted as they arrive into one part file per
// buffer_records section (`<path>.<section>.part`, beside the JSON);
// Finish writes the file's head (metadata, agents, names seen), copies each
// part in and removes the parts. Memory holds only names, agents and the
// write buffers. The parts and the JSON are OutputFiles: a program that
// closes (or dup2s over) their descriptors neither loses them nor gets
// their data (the part is opened again by its name, which an anonymous
// temporary file could not be). A killed process leaves no JSON, only its
// parts (each a run of records, no document); rocpd is the format that
// survives.
#ifndef ROCTRACE_WRITERS_JSON_WRITER_H_
#define ROCTRACE_WRITERS_JSON_WRITER_H_

#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "roctrace/writers/byte_buffer.h"
#include "roctrace/writers/event.h"
#include "roctrace/writers/output_file.h"

namespace roctrace {

// The run's output options as rocprofv3's metadata `config` names them
// (its output_config): paths formatted and raw, summary and output-format
// choices. Perfetto's buffer options are rocprofv3's defaults but for the
// buffer size (roctrace's --perfetto-buffer-size limit, in KiB).
struct JsonRunConfig {
  std::string output_path = ".";
  std::string output_file = "%hostname%/%pid%";
  std::string raw_output_path = ".";
  std::string raw_output_file = "%hostname%/%pid%";
  uint64_t perfetto_buffer_size_kb = 1 << 20;
  bool summary = false;
  bool summary_per_domain = false;
  std::vector<std::string> summary_groups;
  std::string summary_unit = "nsec";
  std::string summary_file = "stderr";
  bool csv_output = false;
  bool json_output = true;
  bool pftrace_output = false;
  bool summary_output = false;
  bool rocpd_output = false;
  bool kernel_rename = false;
  bool group_by_queue = false;
  // The tracer's rocprofiler-sdk operation names, by buffer tracing kind
  // and then by operation number ("" where it names none): a record's
  // `operation` is its name's SDK number and strings.buffer_records lists
  // every operation of a kind, as rocprofv3 writes them. Names the SDK
  // does not have, and every name when this is empty, are numbered after
  // the kind's list in the order they first appear.
  std::vector<std::vector<std::string>> sdk_operations;
  // The tracer's rocprofiler-sdk buffer tracing kind names, by kind: a
  // record's `kind` is the kind named as its domain, and
  // strings.buffer_records names the kinds so ("" where the SDK names none;
  // every record is kind 0 when this is empty).
  std::vector<std::string> sdk_kinds;
};

class JsonWriter : public Writer {
 public:
  JsonWriter(std::string path, RunInfo start_info,
             JsonRunConfig config = JsonRunConfig());
  ~JsonWriter() override;
  void Write(const ApiEvent& event) override;
  void Finish(const RunInfo& info) override;
  std::vector<std::string> Files() const override { return files_; }

  // The buffer_records section of a category.
  static const char* Section(Category category);

  // A record's `kind`: rocprofiler-sdk's rocprofiler_buffer_tracing_kind_t
  // value of the record rocprofv3 writes for an operation of this rocprofv3
  // domain (OpName::domain), the kind of that name in
  // JsonRunConfig::sdk_kinds, which is also the index of its entry in
  // strings.buffer_records. HIP calls' domains are the _EXT kinds (21, 22),
  // those rocprofv3 records them with; rocTX events MARKER_CORE_RANGE_API (32);
  // libhsakmt calls (KFD_API, roctrace's own) kKfdKind, after
  // rocprofiler-sdk's last kind.
  uint32_t Kind(const std::string& domain) const;
  static constexpr uint32_t kKfdKind = 33;
  static constexpr uint32_t kKindCount = 34;
  // A kind's name in strings.buffer_records.
  const std::string& KindName(uint32_t kind) const;

 private:
  struct OpSlot {
    uint32_t kind = 0;
    uint32_t operation = 0;
    bool known = false;
    // A record's first bytes, the same for every record of the operation:
    // `{"size":..,"kind":..,"operation":` (head_size bytes), then but for
    // rocTX (whose operation is the event's) the operation and
    // `,"correlation_id":{"internal":` (size bytes).
    uint8_t head_size = 0;
    uint8_t size = 0;
    char text[80];
  };
  // A record's kind and `operation`: the index of its name in its kind's
  // list (rocTX events: the rocTX function, their message in
  // strings.marker_api).
  const OpSlot& Operation(const ApiEvent& e);
  // The number of `name` in `kind`'s list (a HIP function renamed with an
  // ABI suffix, hipChooseDeviceR0600, numbered as its name before the
  // rename where the list has only that), appended when not there.
  uint32_t OperationNumber(uint32_t kind, const std::string& name);
  void Flush(int category);
  void NoteAgent(AgentRef agent);
  void AppendArgs(ByteBuffer* out, const ApiArgs& args);
  // An argument's bytes up to its value (`{"type":"..","name":"..","value":"`)
  // by the printers' type and name literals (their addresses name them).
  struct ArgPrefix {
    const char* header_type = nullptr;
    const char* name = nullptr;
    uint32_t size = 0;
    char text[96];
    std::string long_text;  // in place of `text` when longer
  };
  static constexpr size_t kArgPrefixSlots = 256;
  std::vector<ArgPrefix> arg_prefixes_ =
      std::vector<ArgPrefix>(kArgPrefixSlots);
  struct ArgSink;
  // A timestamp's digits: those above its last 8, the same for 100 ms
  // (and in a record's start and end), kept from the last one.
  char* PutTimestamp(char* p, uint64_t ns);
  uint64_t time_high_ = ~uint64_t{0};
  uint64_t time_high_text_ = 0;  // its digits, time_high_size_ of them
  uint32_t time_high_size_ = 0;
  const ArgPrefix& LearnArgPrefix(ArgPrefix& slot, const ApiArgs& args,
                                  uint32_t position, const char* header_type,
                                  const char* name);
  // Reports the file lost (`what` then errno's text), counts every event
  // as unwritten and stops.
  void Lose(const std::string& what, int err);

  std::string path_;
  RunInfo start_info_;
  JsonRunConfig config_;
  // Parts: one per category's buffer_records section, kMarkerPart for
  // strings.marker_api (a rocTX event's correlation ID and message) and
  // kKfdPart for roctrace's own buffer_records section `kfd_api`
  // (libhsakmt calls: no rocprofv3 section holds them).
  static constexpr int kMarkerPart = kCategoryCount;
  static constexpr int kKfdPart = kCategoryCount + 1;
  static constexpr int kPartCount = kCategoryCount + 2;
  std::string PartPath(int part) const;
  bool OpenPart(int part);
  // Closes and removes every part.
  void DropParts();

  std::unique_ptr<OutputFile> parts_[kPartCount];
  ByteBuffer pending_[kPartCount];
  uint64_t records_[kPartCount] = {};
  std::vector<OpSlot> operation_of_;  // by OpName::index
  // Each kind's operation names (strings.buffer_records) and their numbers.
  std::vector<std::string> operations_[kKindCount];
  std::unordered_map<std::string, uint32_t> operation_numbers_[kKindCount];
  // Every operation by category, for the summary.
  std::vector<const OpName*> by_category_[kCategoryCount];
  std::vector<const OpName*> kernels_;  // by Kernel_Id - 1
  std::vector<AgentRef> agents_;
  // Per operation (by OpName::index): the summary's statistics, in
  // rocprofv3's terms (count, sum, sum of squares, min, max of durations).
  struct Stats {
    uint64_t count = 0;
    uint64_t sum = 0;
    double sqr = 0;
    uint64_t min = 0;
    uint64_t max = 0;
    void Add(uint64_t ns);
    void Add(const Stats& other);
  };
  std::vector<Stats> stats_;
  void AppendSummary(std::string* out) const;
  // ,"config":{...}: rocprofv3's output_config fields.
  void AppendConfig(std::string* out) const;
  // [{...}, ...]: every agent the topology describes (and any other the
  // records name), each as rocprofv3 writes a rocprofiler_agent_v0_t.
  void AppendAgents(std::string* out) const;
  bool failed_ = false;
  uint64_t events_ = 0;  // received while not failed
  std::vector<std::string> files_;
};

// Appends `text` as a JSON string (quoted, escaped).
void AppendJsonString(std::string* out, std::string_view text);

}  // namespace roctrace

#endif  // ROCTRACE_WRITERS_JSON_WRITER_H_
