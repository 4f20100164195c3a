// Turns roctracer activity records into writer events: names API records
// (cached per operation), pairs rocTX push/pop per thread and start/stop by
// range ID, and counts what it could not turn into an event.
#ifndef ROCTRACE_TOOL_RECORD_CONVERTER_H_
#define ROCTRACE_TOOL_RECORD_CONVERTER_H_

#include <roctracer.h>

#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "roctrace/writers/event.h"

namespace roctrace {

class RecordConverter {
 public:
  using Sink = std::function<void(const ApiEvent&)>;
  explicit RecordConverter(Sink sink) : sink_(std::move(sink)) {}

  void Convert(const activity_record_t& record);

  uint64_t unresolved_names() const { return unresolved_names_; }
  uint64_t unmatched_range_ends() const { return unmatched_range_ends_; }
  // rocTX ranges still open (never popped or stopped).
  uint64_t open_ranges() const;

 private:
  const OpName* ApiName(uint32_t domain, uint32_t op);
  const OpName* MarkerName(const char* message);

  struct OpenRange {
    const OpName* name;
    uint64_t id;
    uint64_t start_ns;
  };

  Sink sink_;
  std::vector<std::unique_ptr<OpName>> api_names_[ACTIVITY_DOMAIN_NUMBER];
  std::unordered_map<uint64_t, std::unique_ptr<OpName>> sparse_names_;
  std::unordered_map<std::string, std::unique_ptr<OpName>> marker_names_;
  std::unordered_map<uint32_t, std::vector<OpenRange>> pushed_;  // by tid
  std::unordered_map<uint64_t, OpenRange> started_;              // by range ID
  uint32_t next_index_ = 0;  // OpName::index of the next name made
  uint64_t unresolved_names_ = 0;
  uint64_t unmatched_range_ends_ = 0;
};

// rocprofv3's Domain column for an HSA function, from its name's table.
const char* HsaDomainOf(const std::string& name);

}  // namespace roctrace

#endif  // ROCTRACE_TOOL_RECORD_CONVERTER_H_
