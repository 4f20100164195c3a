// What the writers receive: one finished API call, rocTX range or mark,
// already paired and named by the tool, so that every writer stays a plain
// formatter and none of them needs to know about roctracer records.
#ifndef ROCTRACE_WRITERS_EVENT_H_
#define ROCTRACE_WRITERS_EVENT_H_

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace roctrace {

// rocprofv3's output domains; the order is the order of the stats tables.
enum class Category : uint8_t { kHip = 0, kHsa = 1, kMarker = 2 };
constexpr int kCategoryCount = 3;

// The interned identity of an operation: names live as long as the process,
// so events carry a pointer. `index` is dense (0, 1, 2, ... in the order the
// names were made), so writers keep per-name state in vectors, not maps.
struct OpName {
  Category category;
  std::string name;    // function name, or the rocTX message
  std::string domain;  // rocprofv3's Domain column (HIP_RUNTIME_API, ...)
  uint32_t index = 0;
};

struct ApiEvent {
  const OpName* op;
  uint64_t correlation_id;
  uint64_t start_ns;
  uint64_t end_ns;
  uint32_t pid;
  uint32_t tid;
  // rocTX ranges opened with roctxRangeStartA may end on another thread and
  // overlap each other: they go on a track of their own (this ID), never on
  // a thread's nested track. 0 for everything else.
  uint64_t async_range_id;
  bool instant;  // a rocTX mark
};

// Process facts and losses, known at the end (or at a checkpoint).
struct RunInfo {
  uint32_t pid = 0;
  uint32_t ppid = 0;
  std::string command;
  std::string hostname;
  uint64_t start_ns = 0;
  uint64_t end_ns = 0;
  // (tag, count) of everything that did not make it into the outputs.
  std::vector<std::pair<std::string, uint64_t>> losses;
};

// A writer is driven by one thread at a time (the tool serialises calls).
class Writer {
 public:
  virtual ~Writer() = default;
  virtual void Write(const ApiEvent& event) = 0;
  // Make everything written so far durable (called periodically).
  virtual void Checkpoint() {}
  virtual void Finish(const RunInfo& info) = 0;
  // Files this writer produced, for the exit message.
  virtual std::vector<std::string> Files() const = 0;
};

}  // namespace roctrace

#endif  // ROCTRACE_WRITERS_EVENT_H_
