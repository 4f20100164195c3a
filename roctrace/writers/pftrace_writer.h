// Perfetto's native trace (<prefix>_results.pftrace): one track per thread
// for API calls (nested calls nest), a child track per thread for rocTX
// ranges and marks, a track per roctxRangeStart range, interned names.
// Packets are appended as events arrive; a file that reaches the size limit
// is closed and the next one (<prefix>_results.1.pftrace, ...) starts with
// its own descriptors and interning, so every file opens on its own.
#ifndef ROCTRACE_WRITERS_PFTRACE_WRITER_H_
#define ROCTRACE_WRITERS_PFTRACE_WRITER_H_

#include <cstdio>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "roctrace/writers/event.h"

namespace roctrace {

class PftraceWriter : public Writer {
 public:
  // `max_bytes` 0: one file whatever its size.
  PftraceWriter(std::string path_prefix, RunInfo start_info,
                uint64_t max_bytes);
  ~PftraceWriter() override;
  void Write(const ApiEvent& event) override;
  void Checkpoint() override;
  void Finish(const RunInfo& info) override;
  std::vector<std::string> Files() const override { return files_; }

  // Track UUIDs (also what a reader needs to map tracks back to threads).
  static uint64_t ProcessTrack(uint32_t pid) { return (1ull << 32) | pid; }
  static uint64_t ThreadTrack(uint32_t tid) { return tid; }
  static uint64_t MarkerTrack(uint32_t tid) { return (2ull << 32) | tid; }
  static uint64_t RangeTrack(uint64_t id) { return (3ull << 56) | id; }

 private:
  bool StartFile();
  void EmitPacket(const std::string& packet);
  void EnsureTrack(uint64_t uuid, const ApiEvent& e);
  uint64_t NameIid(const OpName* op, std::string* interned);

  std::string prefix_;
  RunInfo info_;
  uint64_t max_bytes_;
  std::FILE* file_ = nullptr;
  uint64_t file_bytes_ = 0;
  bool failed_ = false;
  std::vector<std::string> files_;
  // Per-file state: what this file has already described or interned.
  std::unordered_set<uint64_t> tracks_;
  std::unordered_map<const OpName*, uint64_t> name_iids_;
  bool categories_interned_ = false;
  std::string packet_, event_, scratch_;
};

}  // namespace roctrace

#endif  // ROCTRACE_WRITERS_PFTRACE_WRITER_H_
