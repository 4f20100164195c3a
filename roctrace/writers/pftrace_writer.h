// Perfetto's native trace (<prefix>_results.pftrace): one track per thread
// for API calls (nested calls nest), a child track per thread for rocTX
// ranges and marks, a track per roctxRangeStart range, a track per GPU queue
// (kernel dispatches, named by kernel) and per GPU for copies, or, grouped by
// stream as rocprofv3 draws a HIP program by default, a track per HIP stream
// for both; flows from an API call to its device work, interned names.
//
// Each thread's (and device track's) events are a packet sequence of their
// own, so that an API
// slice costs few bytes: the sequence's defaults name the thread's track
// (no track UUID per event) and its timestamps are deltas on an incremental
// clock (1-2 bytes instead of 8). A timestamp earlier than the sequence's
// last one (an enclosing call, delivered after the calls it encloses) is
// written absolute, on the BOOTTIME clock. The trace processor sorts every
// packet by time, so slices nest whatever order they were written in.
//
// Packets are appended as events arrive; a file that reaches the size limit
// is closed and the next one (<prefix>_results.1.pftrace, ...) starts every
// sequence afresh (descriptors, clocks, interning), so each file opens on
// its own.
#ifndef ROCTRACE_WRITERS_PFTRACE_WRITER_H_
#define ROCTRACE_WRITERS_PFTRACE_WRITER_H_

#include <cstdint>
#include <functional>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "roctrace/writers/event.h"
#include "roctrace/writers/output_file.h"
#include "roctrace/writers/proto_encoder.h"

namespace roctrace {

class PftraceWriter : public Writer {
 public:
  // `max_bytes` 0: one file whatever its size.
  PftraceWriter(std::string path_prefix, RunInfo start_info,
                uint64_t max_bytes);
  ~PftraceWriter() override;
  void Write(const ApiEvent& event) override;
  void WriteAll(const ApiEvent* begin, const ApiEvent* end) override;
  void Checkpoint() override;
  void Finish(const RunInfo& info) override;
  std::vector<std::string> Files() const override { return files_; }

  // Kernels and copies on one track per HIP stream (their Stream_Id), as
  // rocprofv3's timeline once HIP is initialised and without
  // --group-by-queue; otherwise (the default here) per queue and per GPU.
  // `hip_initialized` is asked once, at the first kernel or copy (a program
  // may load HIP after its first traced call). Set before the first event.
  void GroupByStreamIf(std::function<bool()> hip_initialized) {
    hip_initialized_ = std::move(hip_initialized);
  }

  // Track UUIDs (also what a reader needs to map tracks back to threads).
  static uint64_t ProcessTrack(uint32_t pid) { return (1ull << 32) | pid; }
  static uint64_t ThreadTrack(uint32_t tid) { return tid; }
  static uint64_t MarkerTrack(uint32_t tid) { return (2ull << 32) | tid; }
  static uint64_t RangeTrack(uint64_t id) { return (3ull << 56) | id; }
  // A GPU queue's kernels; a kernel agent's copies (device -1: host to
  // host).
  static uint64_t QueueTrack(int32_t device, uint64_t queue) {
    return (4ull << 56) | (static_cast<uint64_t>(device & 0xffff) << 40) |
           (queue & ((1ull << 40) - 1));
  }
  static uint64_t CopyTrack(int32_t device) {
    return (5ull << 56) | static_cast<uint32_t>(device + 1);
  }
  static uint64_t ScratchTrack(int32_t device) {
    return (6ull << 56) | static_cast<uint32_t>(device + 1);
  }
  // An agent's memory allocations (frees, whose agent is not recorded, on
  // one track of their own).
  static uint64_t AllocationTrack(const MemoryAllocation& m) {
    if (!m.has_agent) return 7ull << 56;
    return (7ull << 56) | (m.agent.gpu ? 1ull << 32 : 0) |
           static_cast<uint32_t>(m.agent.index + 1);
  }
  static uint64_t StreamTrack(uint32_t stream_id) {
    return (8ull << 56) | stream_id;
  }
  static bool IsStreamTrack(uint64_t uuid) { return uuid >> 56 == 8; }
  static uint64_t DeviceTrack(const ApiEvent& e) {
    switch (e.op->category) {
      case Category::kMemoryAllocation:
        return AllocationTrack(e.device->allocation);
      case Category::kKernel:
        return QueueTrack(e.device->device_id, e.queue_id);
      case Category::kScratchMemory:
        return ScratchTrack(e.device->device_id);
      default:
        return CopyTrack(e.device->device_id);
    }
  }

 private:
  // Write's body, inlined into Write and WriteAll.
  inline void WriteOne(const ApiEvent& e);
  // A thread's packet sequence, and what the current file has of it.
  // A thread's packet sequence (API calls, rocTX), or a device track's.
  // A whole number of cache lines: found by index with a shift.
  struct alignas(64) Sequence {
    uint32_t id = 0;  // trusted_packet_sequence_id
    uint32_t tid = 0;
    uint64_t track = 0;    // its default track
    bool started = false;  // in the current file
    uint64_t clock = 0;    // the incremental clock's last value
    // Name iids by OpName::index, 0 where the current file has not interned
    // the name on this sequence. Numbered per sequence in first-use order,
    // so a thread's first 127 names take one-byte iids in every event.
    std::vector<uint32_t> name_iid;
    uint32_t names = 0;  // iids given in the current file
    // By OpName::index (as long as name_iid): a slice's begin packet after
    // its timestamp, up to its correlation ID's value (made by the first
    // slice of the name with its iid; no flow). Constant but for two
    // lengths, set per slice. A whole cache line: the vector's size and an
    // element's place by a shift (41 bytes would take a multiply for each).
    struct alignas(64) SliceHead {
      uint32_t iid = 0;  // made for this iid; 0 not made
      uint8_t size = 0;
      uint8_t event_length_at = 0;  // the TrackEvent's length byte
      uint8_t event_length = 0;     // its value less the ID's bytes
      uint8_t annotation_length_at = 0;
      // Every slice of this name on this sequence takes this head while
      // the file lasts (an API call's, never a flow: its operation submits
      // no work), whatever else the event holds but its times and instant.
      bool plain = false;
      char bytes[32] = {};
    };
    std::vector<SliceHead> slice_heads;
    // A slice's end packet after its timestamp.
    uint8_t slice_tail_size = 0;
    char slice_tail[16] = {};
  };

  bool StartFile();
  // Whether an event can be written, a file started as needed (WriteOne's
  // slow path, taken when file_bytes() reaches file_limit_); sets the limit.
  __attribute__((noinline)) bool Ready();
  // Inline for the common event, another of the last sequence's thread's
  // calls.
  Sequence* SequenceOf(const ApiEvent& e) {
    if (__builtin_expect(
            !IsDevice(e.op->category) && ThreadTrack(e.tid) == last_track_,
            1)) {
      return last_;
    }
    return SequenceOfSlow(e);
  }
  __attribute__((noinline)) Sequence* SequenceOfSlow(const ApiEvent& e);
  void StartSequence(Sequence* s, const ApiEvent& e);
  void Timestamp(Sequence* s, uint64_t ts);
  void EnsureTrack(uint64_t uuid, const ApiEvent& e, Sequence* s);
  // False when `e` needs the general path.
  bool WriteSlice(Sequence* s, const ApiEvent& e, uint32_t iid, bool flow);
  // A slice without a flow whose head is made: the head and tail copied,
  // the three values and two lengths set. Inlined into Write (defined in
  // its file).
  inline void WriteSliceFromHead(Sequence* s, const ApiEvent& e,
                                 const Sequence::SliceHead& head);
  // Makes the head of `e`'s name with `iid` (and the sequence's tail).
  __attribute__((noinline)) void MakeSliceHead(Sequence* s, const ApiEvent& e,
                                               uint32_t iid);
  // The general path: every packet of `e` through the encoder.
  __attribute__((noinline)) void WritePackets(const ApiEvent& e, Sequence* s,
                                              uint64_t track, bool flow,
                                              uint32_t name_iid);
  void FlushBuffer();

  std::string prefix_;
  RunInfo info_;
  uint64_t max_bytes_;
  OutputFile file_;
  // The file's bytes before out_'s first: the file's size so far is
  // out_base_ + out_.size(), so an event adds to no count but out_'s.
  uint64_t out_base_ = 0;
  uint64_t file_bytes() const { return out_base_ + out_.size(); }
  // file_bytes() at which WriteOne calls Ready: the size limit of an open
  // file (UINT64_MAX without one), 0 with no file open or after a failure
  // (one test an event instead of three); out_limit_ is the same as a size
  // of out_ (SetLimit keeps both, and out_limit_ after each flush).
  uint64_t file_limit_ = 0;
  uint64_t out_limit_ = 0;
  void SetLimit(uint64_t file_limit) {
    file_limit_ = file_limit;
    out_limit_ = file_limit > out_base_ ? file_limit - out_base_ : 0;
  }
  bool failed_ = false;
  std::vector<std::string> files_;
  uint64_t pending_events_ = 0;  // events encoded in out_
  proto::Buffer out_;            // encoded packets not yet written
  std::vector<Sequence> sequences_;
  std::unordered_map<uint64_t, size_t> sequence_of_track_;
  size_t last_sequence_ = SIZE_MAX;
  // sequences_[last_sequence_] and its track, set with it (SequenceOfSlow,
  // which alone adds sequences); no track's (a tid is 32-bit) while unset.
  Sequence* last_ = nullptr;
  uint64_t last_track_ = UINT64_MAX;
  std::unordered_set<uint64_t> tracks_;  // described in the current file
  bool group_by_stream_ = false;
  std::function<bool()> hip_initialized_;  // asked once, then cleared
  // A device event's track: its stream's when grouped by stream (kernels
  // and copies), else DeviceTrack.
  uint64_t DeviceTrackOf(const ApiEvent& e) const {
    return group_by_stream_ && (e.op->category == Category::kKernel ||
                                e.op->category == Category::kMemoryCopy)
               ? StreamTrack(e.stream_id)
               : DeviceTrack(e);
  }
};

}  // namespace roctrace

#endif  // ROCTRACE_WRITERS_PFTRACE_WRITER_H_
