// Stream_Id: HIP streams numbered as rocprofiler-sdk numbers them. The null
// stream (handle 0) is 0; every other stream gets 1, 2, ... in the order the
// tool first learns of it: when a traced API creates it (hipStreamCreate*,
// through the callback the tool enables on those APIs) or, for a stream
// created before the tool was watching, when work is first submitted on it.
// A handle keeps its ID for the whole run, also after the stream is
// destroyed and its handle reused (rocprofiler-sdk keeps its map too).
#ifndef ROCTRACE_TOOL_STREAM_IDS_H_
#define ROCTRACE_TOOL_STREAM_IDS_H_

#include <cstdint>
#include <mutex>
#include <unordered_map>

namespace roctrace {

class StreamIds {
 public:
  // The ID of `handle` (hipStream_t as an integer), numbering it if new.
  // Thread-safe; called on the application's threads, inside the tracer's
  // noexcept paths: when memory runs out a new stream is answered 0 (the
  // null stream) rather than throwing into the application.
  uint64_t IdOf(uint64_t handle) noexcept;
  // The ID of `handle` when it has one already (never numbers it: the
  // order streams are numbered in stays the application's).
  bool Find(uint64_t handle, uint64_t* id) noexcept;

 private:
  std::mutex mutex_;
  std::unordered_map<uint64_t, uint64_t> ids_;
  uint64_t next_ = 1;
};

}  // namespace roctrace

#endif  // ROCTRACE_TOOL_STREAM_IDS_H_
