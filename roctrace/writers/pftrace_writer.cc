#include "roctrace/writers/pftrace_writer.h"

#include "roctrace/writers/proto_encoder.h"

namespace roctrace {
namespace {

// Field numbers of Perfetto's published trace proto (perfetto/protos/...).
namespace trace {
constexpr uint32_t kPacket = 1;
}
namespace packet {
constexpr uint32_t kTimestamp = 8;
constexpr uint32_t kSequenceId = 10;  // trusted_packet_sequence_id
constexpr uint32_t kTrackEvent = 11;
constexpr uint32_t kInternedData = 12;
constexpr uint32_t kSequenceFlags = 13;
constexpr uint32_t kTrackDescriptor = 60;
constexpr uint64_t kIncrementalStateCleared = 1;
constexpr uint64_t kNeedsIncrementalState = 2;
}  // namespace packet
namespace track_event {
constexpr uint32_t kCategoryIids = 3;
constexpr uint32_t kDebugAnnotations = 4;
constexpr uint32_t kType = 9;
constexpr uint32_t kNameIid = 10;
constexpr uint32_t kTrackUuid = 11;
constexpr uint64_t kSliceBegin = 1;
constexpr uint64_t kSliceEnd = 2;
constexpr uint64_t kInstant = 3;
}  // namespace track_event
namespace descriptor {
constexpr uint32_t kUuid = 1;
constexpr uint32_t kName = 2;
constexpr uint32_t kProcess = 3;
constexpr uint32_t kThread = 4;
constexpr uint32_t kParentUuid = 5;
constexpr uint32_t kPid = 1;          // ProcessDescriptor and ThreadDescriptor
constexpr uint32_t kCmdline = 2;      // ProcessDescriptor
constexpr uint32_t kProcessName = 6;  // ProcessDescriptor
constexpr uint32_t kTid = 2;          // ThreadDescriptor
constexpr uint32_t kThreadName = 5;   // ThreadDescriptor
}  // namespace descriptor
namespace interned {
constexpr uint32_t kEventCategories = 1;
constexpr uint32_t kEventNames = 2;
constexpr uint32_t kDebugAnnotationNames = 3;
constexpr uint32_t kIid = 1;
constexpr uint32_t kName = 2;
}  // namespace interned
namespace debug {
constexpr uint32_t kNameIid = 1;
constexpr uint32_t kUintValue = 3;
constexpr uint64_t kCorrelationIdIid = 1;
}  // namespace debug

constexpr uint64_t kSequence = 1;
const char* const kCategoryNames[kCategoryCount] = {"hip_api", "hsa_api",
                                                    "marker_api"};

}  // namespace

PftraceWriter::PftraceWriter(std::string path_prefix, RunInfo start_info,
                             uint64_t max_bytes)
    : prefix_(std::move(path_prefix)),
      info_(std::move(start_info)),
      max_bytes_(max_bytes) {}

PftraceWriter::~PftraceWriter() {
  if (file_ != nullptr) std::fclose(file_);
}

bool PftraceWriter::StartFile() {
  if (file_ != nullptr) std::fclose(file_);
  std::string path = prefix_ + "_results";
  if (!files_.empty()) path += "." + std::to_string(files_.size());
  path += ".pftrace";
  file_ = std::fopen(path.c_str(), "w");
  if (file_ == nullptr) {
    std::perror(("roctrace: " + path).c_str());
    failed_ = true;
    return false;
  }
  std::setvbuf(file_, nullptr, _IOFBF, 1 << 20);
  files_.push_back(path);
  file_bytes_ = 0;
  tracks_.clear();
  name_iids_.clear();

  // First packet of the file: clears the sequence's incremental state,
  // interns the categories and the annotation name, describes the process.
  using namespace proto;
  std::string interned_data, entry, process, desc;
  for (int c = 0; c < kCategoryCount; ++c) {
    entry.clear();
    UInt(&entry, interned::kIid, static_cast<uint64_t>(c + 1));
    Bytes(&entry, interned::kName, kCategoryNames[c]);
    Bytes(&interned_data, interned::kEventCategories, entry);
  }
  entry.clear();
  UInt(&entry, interned::kIid, debug::kCorrelationIdIid);
  Bytes(&entry, interned::kName, "correlation_id");
  Bytes(&interned_data, interned::kDebugAnnotationNames, entry);

  UInt(&process, descriptor::kPid, info_.pid);
  Bytes(&process, descriptor::kCmdline, info_.command);
  Bytes(&process, descriptor::kProcessName, info_.command);
  UInt(&desc, descriptor::kUuid, ProcessTrack(info_.pid));
  Bytes(&desc, descriptor::kProcess, process);

  packet_.clear();
  UInt(&packet_, packet::kSequenceId, kSequence);
  UInt(&packet_, packet::kSequenceFlags, packet::kIncrementalStateCleared);
  Bytes(&packet_, packet::kInternedData, interned_data);
  Bytes(&packet_, packet::kTrackDescriptor, desc);
  EmitPacket(packet_);
  tracks_.insert(ProcessTrack(info_.pid));
  return true;
}

void PftraceWriter::EmitPacket(const std::string& packet) {
  scratch_.clear();
  proto::Bytes(&scratch_, trace::kPacket, packet);
  std::fwrite(scratch_.data(), 1, scratch_.size(), file_);
  file_bytes_ += scratch_.size();
}

void PftraceWriter::EnsureTrack(uint64_t uuid, const ApiEvent& e) {
  if (!tracks_.insert(uuid).second) return;
  using namespace proto;
  std::string desc, sub;
  UInt(&desc, descriptor::kUuid, uuid);
  if (uuid == ThreadTrack(e.tid)) {
    UInt(&desc, descriptor::kParentUuid, ProcessTrack(e.pid));
    UInt(&sub, descriptor::kPid, e.pid);
    UInt(&sub, descriptor::kTid, e.tid);
    Bytes(&sub, descriptor::kThreadName,
          e.tid == e.pid ? std::string("main thread")
                         : "thread " + std::to_string(e.tid));
    Bytes(&desc, descriptor::kThread, sub);
  } else if (uuid == MarkerTrack(e.tid)) {
    // Parented to the thread's track: the UI shows it under the thread.
    EnsureTrack(ThreadTrack(e.tid), e);
    UInt(&desc, descriptor::kParentUuid, ThreadTrack(e.tid));
    Bytes(&desc, descriptor::kName, "rocTX " + std::to_string(e.tid));
  } else {
    UInt(&desc, descriptor::kParentUuid, ProcessTrack(e.pid));
    Bytes(&desc, descriptor::kName,
          "rocTX range " + std::to_string(e.async_range_id));
  }
  packet_.clear();
  UInt(&packet_, packet::kSequenceId, kSequence);
  Bytes(&packet_, packet::kTrackDescriptor, desc);
  EmitPacket(packet_);
}

uint64_t PftraceWriter::NameIid(const OpName* op, std::string* interned_data) {
  auto it = name_iids_.find(op);
  if (it != name_iids_.end()) return it->second;
  uint64_t iid = name_iids_.size() + 1;
  name_iids_.emplace(op, iid);
  std::string entry;
  proto::UInt(&entry, interned::kIid, iid);
  proto::Bytes(&entry, interned::kName, op->name);
  proto::Bytes(interned_data, interned::kEventNames, entry);
  return iid;
}

void PftraceWriter::Write(const ApiEvent& e) {
  if (failed_) return;
  if (file_ == nullptr || (max_bytes_ != 0 && file_bytes_ >= max_bytes_)) {
    if (!StartFile()) return;
  }
  using namespace proto;
  uint64_t track = e.async_range_id != 0 ? RangeTrack(e.async_range_id)
                   : e.op->category == Category::kMarker ? MarkerTrack(e.tid)
                                                         : ThreadTrack(e.tid);
  EnsureTrack(track, e);

  std::string interned_data;
  uint64_t name_iid = NameIid(e.op, &interned_data);
  event_.clear();
  UInt(&event_, track_event::kType,
       e.instant ? track_event::kInstant : track_event::kSliceBegin);
  UInt(&event_, track_event::kTrackUuid, track);
  UInt(&event_, track_event::kNameIid, name_iid);
  UInt(&event_, track_event::kCategoryIids,
       static_cast<uint64_t>(e.op->category) + 1);
  std::string annotation;
  UInt(&annotation, debug::kNameIid, debug::kCorrelationIdIid);
  UInt(&annotation, debug::kUintValue, e.correlation_id);
  Bytes(&event_, track_event::kDebugAnnotations, annotation);

  packet_.clear();
  UInt(&packet_, packet::kTimestamp, e.start_ns);
  UInt(&packet_, packet::kSequenceId, kSequence);
  UInt(&packet_, packet::kSequenceFlags, packet::kNeedsIncrementalState);
  if (!interned_data.empty()) {
    Bytes(&packet_, packet::kInternedData, interned_data);
  }
  Bytes(&packet_, packet::kTrackEvent, event_);
  EmitPacket(packet_);
  if (e.instant) return;

  // The slice's end: the trace processor sorts packets by timestamp, so an
  // inner call written before its enclosing call still nests.
  event_.clear();
  UInt(&event_, track_event::kType, track_event::kSliceEnd);
  UInt(&event_, track_event::kTrackUuid, track);
  packet_.clear();
  UInt(&packet_, packet::kTimestamp, e.end_ns);
  UInt(&packet_, packet::kSequenceId, kSequence);
  Bytes(&packet_, packet::kTrackEvent, event_);
  EmitPacket(packet_);
}

void PftraceWriter::Checkpoint() {
  if (file_ != nullptr) std::fflush(file_);
}

void PftraceWriter::Finish(const RunInfo&) {
  if (file_ != nullptr) std::fclose(file_);
  file_ = nullptr;
}

}  // namespace roctrace
