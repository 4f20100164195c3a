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
#include <vector>

#include "roctrace/writers/event.h"
#include "roctrace/writers/output_file.h"

namespace roctrace {

class JsonWriter : public Writer {
 public:
  JsonWriter(std::string path, RunInfo start_info);
  ~JsonWriter() override;
  void Write(const ApiEvent& event) override;
  void Finish(const RunInfo& info) override;
  std::vector<std::string> Files() const override { return files_; }

  // The buffer_records section of a category, which is also the `kind` of
  // its records: the index of its entry in strings.buffer_records.
  static const char* Section(Category category);

 private:
  // A record's `operation`: the index of its name in its kind's list.
  uint32_t Operation(const OpName* op);
  void Flush(int category);
  void NoteAgent(AgentRef agent);
  static void AppendArgs(std::string* out, const ApiArgs& args);
  // Reports the file lost (`what` then errno's text), counts every event
  // as unwritten and stops.
  void Lose(const std::string& what, int err);

  std::string path_;
  RunInfo start_info_;
  std::string PartPath(int category) const;
  // Closes and removes every part.
  void DropParts();

  std::unique_ptr<OutputFile> parts_[kCategoryCount];
  std::string pending_[kCategoryCount];
  uint64_t records_[kCategoryCount] = {};
  std::vector<uint32_t> operation_of_;  // by OpName::index, +1; 0: none yet
  std::vector<const OpName*> operations_[kCategoryCount];
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
  bool failed_ = false;
  uint64_t events_ = 0;  // received while not failed
  std::vector<std::string> files_;
};

// Appends `text` as a JSON string (quoted, escaped).
void AppendJsonString(std::string* out, std::string_view text);

}  // namespace roctrace

#endif  // ROCTRACE_WRITERS_JSON_WRITER_H_
