#include "roctrace/writers/pftrace_writer.h"

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstring>

#include "roctrace/writers/proto_encoder.h"

namespace roctrace {
namespace {

// Field numbers of Perfetto's published trace proto (perfetto/protos/...).
namespace trace {
constexpr uint32_t kPacket = 1;
}
namespace packet {
constexpr uint32_t kClockSnapshot = 6;
constexpr uint32_t kTimestamp = 8;
constexpr uint32_t kSequenceId = 10;  // trusted_packet_sequence_id
constexpr uint32_t kTrackEvent = 11;
constexpr uint32_t kInternedData = 12;
constexpr uint32_t kSequenceFlags = 13;
constexpr uint32_t kTimestampClockId = 58;
constexpr uint32_t kDefaults = 59;  // trace_packet_defaults
constexpr uint32_t kTrackDescriptor = 60;
// TracePacket.SequenceFlags: a sequence's first packet clears its state;
// every packet that reads it (interned iids, the defaults' track and
// incremental clock) says so, letting readers skip such packets of a
// sequence whose start they did not see.
constexpr uint64_t kIncrementalStateCleared = 1;
constexpr uint64_t kNeedsIncrementalState = 2;
}  // namespace packet
namespace defaults {  // TracePacketDefaults, TrackEventDefaults
constexpr uint32_t kTimestampClockId = 58;
constexpr uint32_t kTrackEventDefaults = 11;
constexpr uint32_t kTrackUuid = 11;
}  // namespace defaults
namespace clock {  // ClockSnapshot, ClockSnapshot.Clock
constexpr uint32_t kClocks = 1;
constexpr uint32_t kClockId = 1;
constexpr uint32_t kTimestamp = 2;
constexpr uint32_t kIsIncremental = 3;
constexpr uint64_t kBoottime = 6;      // BuiltinClock BOOTTIME
constexpr uint64_t kIncremental = 64;  // first sequence-scoped clock id
}  // namespace clock
namespace track_event {
constexpr uint32_t kCategoryIids = 3;
constexpr uint32_t kDebugAnnotations = 4;
constexpr uint32_t kType = 9;
constexpr uint32_t kNameIid = 10;
constexpr uint32_t kTrackUuid = 11;
constexpr uint32_t kFlowIds = 47;
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
// A kernel slice's launch, named as rocpd's rocpd_kernel_dispatch columns,
// then its kernel's register counts (rocpd_info_kernel_symbol's; only when
// known); interned as iids 2, 3, ... on the GPU queues' sequences only.
const char* const kKernelArgs[] = {
    "dispatch_id",      "workgroup_size_x",   "workgroup_size_y",
    "workgroup_size_z", "grid_size_x",        "grid_size_y",
    "grid_size_z",      "group_segment_size", "private_segment_size",
    "stream_id",        "arch_vgpr_count",    "accum_vgpr_count",
    "sgpr_count"};
constexpr size_t kRegisterArgs = 3;
constexpr uint64_t kKernelArgsIid = 2;
}  // namespace debug

// Sequence 1 describes the process; threads' sequences follow.
constexpr uint32_t kProcessSequence = 1;
const char* const kCategoryNames[kCategoryCount] = {
    "hip_api",     "hsa_api",        "marker_api",       "kernel_dispatch",
    "memory_copy", "scratch_memory", "memory_allocation"};

// Device tracks name their agent as -A chooses (writers/agent_naming.h); a
// stream's track as rocprofv3's timeline names it, by its ID (0: the null
// stream).
std::string DeviceTrackName(const ApiEvent& e, bool stream) {
  if (stream) return "STREAM [\" " + std::to_string(e.stream_id) + " \"] ";
  if (e.op->category == Category::kKernel) {
    return AgentName({true, e.device->device_id}) + ", queue " +
           std::to_string(e.queue_id);
  }
  if (e.op->category == Category::kMemoryAllocation) {
    return e.device->allocation.has_agent
               ? AgentName(e.device->allocation.agent) + " memory allocations"
               : std::string("memory frees");
  }
  if (e.op->category == Category::kScratchMemory) {
    return e.device->device_id < 0
               ? std::string("scratch memory")
               : AgentName({true, e.device->device_id}) + " scratch memory";
  }
  return e.device->device_id < 0
             ? std::string("host copies")
             : AgentName({true, e.device->device_id}) + " copies";
}

}  // namespace

PftraceWriter::PftraceWriter(std::string path_prefix, RunInfo start_info,
                             uint64_t max_bytes)
    : prefix_(std::move(path_prefix)),
      info_(std::move(start_info)),
      max_bytes_(max_bytes) {}

PftraceWriter::~PftraceWriter() = default;

void PftraceWriter::FlushBuffer() {
  // (out_ keeps the file's last partial page, written.)
  const size_t held = out_.size();
  if (!file_.is_open()) {
    out_.clear();
  } else if (!file_.Write(&out_)) {
    // The file keeps its whole packets up to the last chunk written (a
    // valid trace); this chunk's events and all later ones are lost.
    ReportFailure(files_.back(), std::strerror(errno));
    CountUnwritten(pending_events_);
    file_.Close();
    failed_ = true;
    file_limit_ = 0;
    out_.clear();
  }
  out_base_ += held - out_.size();
  SetLimit(file_limit_);
  pending_events_ = 0;
}

bool PftraceWriter::Ready() {
  SetLimit(0);
  if (failed_) return false;
  if ((!file_.is_open() || (max_bytes_ != 0 && file_bytes() >= max_bytes_)) &&
      !StartFile()) {
    return false;
  }
  SetLimit(max_bytes_ != 0 ? max_bytes_ : UINT64_MAX);
  return true;
}

bool PftraceWriter::StartFile() {
  if (file_.is_open()) {
    FlushBuffer();
    file_.Close();
    out_.clear();  // the closed file's last page
    if (failed_) return false;
  }
  std::string path = prefix_ + "_results";
  if (!files_.empty()) path += "." + std::to_string(files_.size());
  path += ".pftrace";
  if (!file_.Open(path)) {
    ReportFailure(path, std::strerror(errno));
    failed_ = true;
    return false;
  }
  files_.push_back(path);
  tracks_.clear();
  for (Sequence& s : sequences_) {
    s.started = false;
    s.name_iid.assign(s.name_iid.size(), 0);
    s.names = 0;
    for (Sequence::SliceHead& h : s.slice_heads) h.plain = false;
  }

  // The process's track, on a sequence of its own.
  size_t p = out_.Open(trace::kPacket);
  out_.UInt(packet::kSequenceId, kProcessSequence);
  out_.UInt(packet::kSequenceFlags, packet::kIncrementalStateCleared);
  size_t desc = out_.Open(packet::kTrackDescriptor);
  out_.UInt(descriptor::kUuid, ProcessTrack(info_.pid));
  size_t process = out_.Open(descriptor::kProcess);
  out_.UInt(descriptor::kPid, info_.pid);
  out_.Bytes(descriptor::kCmdline, info_.command);
  out_.Bytes(descriptor::kProcessName, info_.command);
  out_.Close(process);
  out_.Close(desc);
  out_.Close(p);
  tracks_.insert(ProcessTrack(info_.pid));
  out_base_ = 0;
  return true;
}

PftraceWriter::Sequence* PftraceWriter::SequenceOfSlow(const ApiEvent& e) {
  if (hip_initialized_ && IsDevice(e.op->category)) {
    group_by_stream_ = hip_initialized_();
    hip_initialized_ = nullptr;
  }
  const uint64_t track =
      IsDevice(e.op->category) ? DeviceTrackOf(e) : ThreadTrack(e.tid);
  if (last_sequence_ < sequences_.size() &&
      sequences_[last_sequence_].track == track) {
    return &sequences_[last_sequence_];
  }
  auto it = sequence_of_track_.find(track);
  if (it == sequence_of_track_.end()) {
    Sequence s;
    s.id = kProcessSequence + 1 + static_cast<uint32_t>(sequences_.size());
    s.tid = e.tid;
    s.track = track;
    it = sequence_of_track_.emplace(track, sequences_.size()).first;
    sequences_.push_back(std::move(s));
  }
  last_sequence_ = it->second;
  last_ = &sequences_[last_sequence_];
  last_track_ = last_->track;
  return last_;
}

// The sequence's first packets in this file: the thread's track, the
// sequence's defaults (that track; the incremental clock), the interned
// categories and annotation name, then the clock snapshot that starts the
// incremental clock at the first event's time.
void PftraceWriter::StartSequence(Sequence* s, const ApiEvent& e) {
  s->started = true;
  size_t p = out_.Open(trace::kPacket);
  out_.UInt(packet::kSequenceId, s->id);
  out_.UInt(packet::kSequenceFlags, packet::kIncrementalStateCleared);
  size_t data = out_.Open(packet::kInternedData);
  for (int c = 0; c < kCategoryCount; ++c) {
    size_t entry = out_.Open(interned::kEventCategories);
    out_.UInt(interned::kIid, static_cast<uint64_t>(c + 1));
    out_.Bytes(interned::kName, kCategoryNames[c]);
    out_.Close(entry);
  }
  size_t entry = out_.Open(interned::kDebugAnnotationNames);
  out_.UInt(interned::kIid, debug::kCorrelationIdIid);
  out_.Bytes(interned::kName, "correlation_id");
  out_.Close(entry);
  // A stream's track holds kernels whatever its first event.
  if (e.op->category == Category::kKernel || IsStreamTrack(s->track)) {
    uint64_t iid = debug::kKernelArgsIid;
    for (const char* name : debug::kKernelArgs) {
      entry = out_.Open(interned::kDebugAnnotationNames);
      out_.UInt(interned::kIid, iid++);
      out_.Bytes(interned::kName, name);
      out_.Close(entry);
    }
  }
  out_.Close(data);
  size_t defaults = out_.Open(packet::kDefaults);
  out_.UInt(defaults::kTimestampClockId, clock::kIncremental);
  size_t event_defaults = out_.Open(defaults::kTrackEventDefaults);
  out_.UInt(defaults::kTrackUuid, s->track);
  out_.Close(event_defaults);
  out_.Close(defaults);
  if (IsDevice(e.op->category)) {
    if (tracks_.insert(s->track).second) {
      size_t desc = out_.Open(packet::kTrackDescriptor);
      out_.UInt(descriptor::kUuid, s->track);
      out_.UInt(descriptor::kParentUuid, ProcessTrack(info_.pid));
      out_.Bytes(descriptor::kName,
                 DeviceTrackName(e, IsStreamTrack(s->track)));
      out_.Close(desc);
    }
  } else if (tracks_.insert(ThreadTrack(s->tid)).second) {
    size_t desc = out_.Open(packet::kTrackDescriptor);
    out_.UInt(descriptor::kUuid, ThreadTrack(s->tid));
    out_.UInt(descriptor::kParentUuid, ProcessTrack(e.pid));
    size_t thread = out_.Open(descriptor::kThread);
    out_.UInt(descriptor::kPid, e.pid);
    out_.UInt(descriptor::kTid, s->tid);
    out_.Bytes(descriptor::kThreadName,
               s->tid == e.pid ? std::string("main thread")
                               : "thread " + std::to_string(s->tid));
    out_.Close(thread);
    out_.Close(desc);
  }
  out_.Close(p);

  s->clock = e.start_ns;
  p = out_.Open(trace::kPacket);
  out_.UInt(packet::kSequenceId, s->id);
  size_t snapshot = out_.Open(packet::kClockSnapshot);
  size_t c = out_.Open(clock::kClocks);
  out_.UInt(clock::kClockId, clock::kIncremental);
  out_.UInt(clock::kTimestamp, s->clock);
  out_.UInt(clock::kIsIncremental, 1);
  out_.Close(c);
  c = out_.Open(clock::kClocks);
  out_.UInt(clock::kClockId, clock::kBoottime);
  out_.UInt(clock::kTimestamp, s->clock);
  out_.Close(c);
  out_.Close(snapshot);
  out_.Close(p);
}

void PftraceWriter::Timestamp(Sequence* s, uint64_t ts) {
  if (ts >= s->clock) {
    out_.UInt(packet::kTimestamp, ts - s->clock);
    s->clock = ts;
  } else {
    out_.UInt(packet::kTimestamp, ts);
    out_.UInt(packet::kTimestampClockId, clock::kBoottime);
  }
}

void PftraceWriter::EnsureTrack(uint64_t uuid, const ApiEvent& e, Sequence* s) {
  if (!tracks_.insert(uuid).second) return;
  size_t p = out_.Open(trace::kPacket);
  out_.UInt(packet::kSequenceId, s->id);
  size_t desc = out_.Open(packet::kTrackDescriptor);
  out_.UInt(descriptor::kUuid, uuid);
  if (uuid == MarkerTrack(e.tid)) {
    // Parented to the thread's track: the UI shows it under the thread.
    out_.UInt(descriptor::kParentUuid, ThreadTrack(e.tid));
    out_.Bytes(descriptor::kName, "rocTX " + std::to_string(e.tid));
  } else {
    out_.UInt(descriptor::kParentUuid, ProcessTrack(e.pid));
    out_.Bytes(descriptor::kName,
               "rocTX range " + std::to_string(e.async_range_id));
  }
  out_.Close(desc);
  out_.Close(p);
}

// The common event, a slice (not a kernel's) on its sequence's own track
// whose name the sequence has interned and whose timestamps do not go back,
// written with plain stores: the same fields, in the same order, as Write's
// general path.
bool PftraceWriter::WriteSlice(Sequence* s, const ApiEvent& e, uint32_t iid,
                               bool flow) {
  using proto::Key;
  using proto::kLengthDelimited;
  using proto::kVarint;
  using proto::PutVarint;
  if (e.start_ns < s->clock || e.end_ns < e.start_ns) return false;
  // Two packets of at most 61 and 25 bytes: every nested length fits the
  // one byte OpenShort leaves for it.
  char* p = out_.Reserve(96);
  char* packet = proto::OpenShort<trace::kPacket>(p);
  p = packet;
  *p++ = Key<packet::kTimestamp, kVarint>();
  p = PutVarint(p, e.start_ns - s->clock);
  *p++ = Key<packet::kSequenceId, kVarint>();
  p = PutVarint(p, s->id);
  *p++ = Key<packet::kSequenceFlags, kVarint>();
  *p++ = static_cast<char>(packet::kNeedsIncrementalState);
  char* event = proto::OpenShort<packet::kTrackEvent>(p);
  p = event;
  *p++ = Key<track_event::kType, kVarint>();
  *p++ = static_cast<char>(track_event::kSliceBegin);
  *p++ = Key<track_event::kNameIid, kVarint>();
  p = PutVarint(p, iid);
  if (flow) {
    p = PutVarint(p, (track_event::kFlowIds << 3) | proto::kFixed64);
    for (int i = 0; i < 8; ++i) {
      *p++ = static_cast<char>((e.correlation_id >> (8 * i)) & 0xff);
    }
  }
  *p++ = Key<track_event::kCategoryIids, kVarint>();
  *p++ = static_cast<char>(static_cast<int>(e.op->category) + 1);
  char* annotation = proto::OpenShort<track_event::kDebugAnnotations>(p);
  p = annotation;
  *p++ = Key<debug::kNameIid, kVarint>();
  *p++ = static_cast<char>(debug::kCorrelationIdIid);
  *p++ = Key<debug::kUintValue, kVarint>();
  p = PutVarint(p, e.correlation_id);
  proto::CloseShort(annotation, p);
  proto::CloseShort(event, p);
  proto::CloseShort(packet, p);

  packet = proto::OpenShort<trace::kPacket>(p);
  p = packet;
  *p++ = Key<packet::kTimestamp, kVarint>();
  p = PutVarint(p, e.end_ns - e.start_ns);
  *p++ = Key<packet::kSequenceId, kVarint>();
  p = PutVarint(p, s->id);
  *p++ = Key<packet::kSequenceFlags, kVarint>();
  *p++ = static_cast<char>(packet::kNeedsIncrementalState);
  event = proto::OpenShort<packet::kTrackEvent>(p);
  p = event;
  *p++ = Key<track_event::kType, kVarint>();
  *p++ = static_cast<char>(track_event::kSliceEnd);
  proto::CloseShort(event, p);
  proto::CloseShort(packet, p);
  s->clock = e.end_ns;
  out_.Commit(p);
  return true;
}

// The same bytes as WriteSlice's without a flow, the constant ones made
// once per name and sequence.
void PftraceWriter::MakeSliceHead(Sequence* s, const ApiEvent& e,
                                  uint32_t iid) {
  using proto::Key;
  using proto::kVarint;
  using proto::PutVarint;
  Sequence::SliceHead& h = s->slice_heads[e.op->index];
  char* p = h.bytes;
  *p++ = Key<packet::kSequenceId, kVarint>();
  p = PutVarint(p, s->id);
  *p++ = Key<packet::kSequenceFlags, kVarint>();
  *p++ = static_cast<char>(packet::kNeedsIncrementalState);
  char* event = proto::OpenShort<packet::kTrackEvent>(p);
  p = event;
  *p++ = Key<track_event::kType, kVarint>();
  *p++ = static_cast<char>(track_event::kSliceBegin);
  *p++ = Key<track_event::kNameIid, kVarint>();
  p = PutVarint(p, iid);
  *p++ = Key<track_event::kCategoryIids, kVarint>();
  *p++ = static_cast<char>(static_cast<int>(e.op->category) + 1);
  char* annotation = proto::OpenShort<track_event::kDebugAnnotations>(p);
  p = annotation;
  *p++ = Key<debug::kNameIid, kVarint>();
  *p++ = static_cast<char>(debug::kCorrelationIdIid);
  *p++ = Key<debug::kUintValue, kVarint>();
  h.size = static_cast<uint8_t>(p - h.bytes);
  h.event_length_at = static_cast<uint8_t>(event - 1 - h.bytes);
  h.event_length = static_cast<uint8_t>(p - event);
  h.annotation_length_at = static_cast<uint8_t>(annotation - 1 - h.bytes);
  h.iid = iid;

  p = s->slice_tail;
  *p++ = Key<packet::kSequenceId, kVarint>();
  p = PutVarint(p, s->id);
  *p++ = Key<packet::kSequenceFlags, kVarint>();
  *p++ = static_cast<char>(packet::kNeedsIncrementalState);
  event = proto::OpenShort<packet::kTrackEvent>(p);
  p = event;
  *p++ = Key<track_event::kType, kVarint>();
  *p++ = static_cast<char>(track_event::kSliceEnd);
  proto::CloseShort(event, p);
  s->slice_tail_size = static_cast<uint8_t>(p - s->slice_tail);
}

inline __attribute__((always_inline)) void PftraceWriter::WriteSliceFromHead(
    Sequence* s, const ApiEvent& e, const Sequence::SliceHead& h) {
  using proto::Key;
  using proto::kVarint;
  using proto::PutVarint;
  static_assert(sizeof(h.bytes) == 32 && sizeof(s->slice_tail) == 16,
                "copied whole");
  // At most 3 + 10 + 32 + 10 and 3 + 10 + 16 bytes (the copies' slack
  // included): each packet's length fits one byte.
  char* const begin = out_.Reserve(96);
  begin[0] = Key<trace::kPacket, proto::kLengthDelimited>();
  begin[2] = Key<packet::kTimestamp, kVarint>();
  char* p = PutVarint(begin + 3, e.start_ns - s->clock);
  char* const head = p;
  std::memcpy(p, h.bytes, sizeof(h.bytes));
  p += h.size;
  char* const id_end = PutVarint(p, e.correlation_id);
  const auto id_bytes = static_cast<uint8_t>(id_end - p);
  head[h.event_length_at] = static_cast<char>(h.event_length + id_bytes);
  head[h.annotation_length_at] = static_cast<char>(3 + id_bytes);
  begin[1] = static_cast<char>(id_end - (begin + 2));

  char* const end = id_end;
  end[0] = Key<trace::kPacket, proto::kLengthDelimited>();
  end[2] = Key<packet::kTimestamp, kVarint>();
  p = PutVarint(end + 3, e.end_ns - e.start_ns);
  std::memcpy(p, s->slice_tail, sizeof(s->slice_tail));
  p += s->slice_tail_size;
  end[1] = static_cast<char>(p - (end + 2));
  s->clock = e.end_ns;
  out_.Commit(p);
}

inline __attribute__((always_inline)) void PftraceWriter::WriteOne(
    const ApiEvent& e) {
  if (__builtin_expect(out_.size() >= out_limit_, 0) && !Ready()) {
    CountUnwritten(1);
    return;
  }
  ++pending_events_;
  Sequence* s = SequenceOf(e);
  if (!s->started) StartSequence(s, e);
  const uint32_t index = e.op->index;
  // The common event first: a name whose slices the sequence writes from
  // its head, time going forward (one test of the head for what the
  // general checks below decide by the operation).
  if (index < s->slice_heads.size()) {
    const Sequence::SliceHead& h = s->slice_heads[index];
    if (h.plain && !e.instant && e.start_ns >= s->clock &&
        e.end_ns >= e.start_ns) {
      WriteSliceFromHead(s, e, h);
      if (out_.size() >= file_.next_write()) FlushBuffer();
      return;
    }
  }
  const bool device = IsDevice(e.op->category);
  // (async_range_id is a rocTX event's: an API call's retval shares it.)
  uint64_t track = device || e.op->category != Category::kMarker ? s->track
                   : e.async_range_id != 0 ? RangeTrack(e.async_range_id)
                                           : MarkerTrack(e.tid);
  // A call that may submit work, and the work, carry the correlation ID as
  // a flow: the trace processor links the events that share one (the UI
  // draws an arrow from the call to each piece of its work).
  // (A memory allocation is its call's own record, on the same thread: no
  // flow, as the call carries none.)
  const bool flow =
      e.correlation_id != 0 &&
      ((device && e.op->category != Category::kMemoryAllocation) ||
       e.op->submits_work);
  if (index >= s->name_iid.size()) {
    s->name_iid.resize(index + 1, 0);
    s->slice_heads.resize(index + 1);
  }
  uint32_t name_iid = s->name_iid[index];
  // Kernel slices carry their launch annotations: the general path.
  if (track == s->track && !e.instant && name_iid != 0 &&
      e.op->category != Category::kKernel) {
    if (!flow && e.start_ns >= s->clock && e.end_ns >= e.start_ns) {
      Sequence::SliceHead& h = s->slice_heads[index];
      if (__builtin_expect(h.iid != name_iid, 0)) {
        MakeSliceHead(s, e, name_iid);
      }
      // (SequenceOf keeps device work and API calls on sequences apart.)
      h.plain =
          !device && !e.op->submits_work && e.op->category != Category::kMarker;
      WriteSliceFromHead(s, e, h);
      if (out_.size() >= file_.next_write()) FlushBuffer();
      return;
    }
  }
  if (track == s->track && !e.instant && name_iid != 0 &&
      e.op->category != Category::kKernel && WriteSlice(s, e, name_iid, flow)) {
    if (out_.size() >= file_.next_write()) FlushBuffer();
    return;
  }
  WritePackets(e, s, track, flow, name_iid);
}

// Out of line: its locals (a kernel's annotation values) would otherwise
// give every call of Write a larger frame and a stack check.
void PftraceWriter::WritePackets(const ApiEvent& e, Sequence* s, uint64_t track,
                                 bool flow, uint32_t name_iid) {
  const uint32_t index = e.op->index;
  if (track != s->track) EnsureTrack(track, e, s);

  size_t p = out_.Open(trace::kPacket);
  Timestamp(s, e.start_ns);
  out_.UInt(packet::kSequenceId, s->id);
  out_.UInt(packet::kSequenceFlags, packet::kNeedsIncrementalState);
  if (name_iid == 0) {
    name_iid = s->name_iid[index] = ++s->names;
    size_t data = out_.Open(packet::kInternedData);
    size_t entry = out_.Open(interned::kEventNames);
    out_.UInt(interned::kIid, name_iid);
    out_.Bytes(interned::kName, e.op->name);
    out_.Close(entry);
    out_.Close(data);
  }
  size_t event = out_.Open(packet::kTrackEvent);
  out_.UInt(track_event::kType,
            e.instant ? track_event::kInstant : track_event::kSliceBegin);
  if (track != s->track) out_.UInt(track_event::kTrackUuid, track);
  out_.UInt(track_event::kNameIid, name_iid);
  if (flow) out_.Fixed64(track_event::kFlowIds, e.correlation_id);
  out_.UInt(track_event::kCategoryIids,
            static_cast<uint64_t>(e.op->category) + 1);
  size_t annotation = out_.Open(track_event::kDebugAnnotations);
  out_.UInt(debug::kNameIid, debug::kCorrelationIdIid);
  out_.UInt(debug::kUintValue, e.correlation_id);
  out_.Close(annotation);
  if (e.op->category == Category::kKernel) {
    const KernelLaunch& l = e.device->launch;
    const KernelRegisterCounts& r = e.op->registers;
    const uint64_t values[] = {e.device->dispatch_id,
                               l.workgroup[0],
                               l.workgroup[1],
                               l.workgroup[2],
                               l.grid[0],
                               l.grid[1],
                               l.grid[2],
                               l.group_segment_size,
                               l.private_segment_size,
                               e.stream_id,
                               r.arch_vgpr,
                               r.accum_vgpr,
                               r.sgpr};
    constexpr size_t kArgs = sizeof(values) / sizeof(values[0]);
    static_assert(kArgs ==
                  sizeof(debug::kKernelArgs) / sizeof(debug::kKernelArgs[0]));
    // Unknown counts are left out, not written as 0.
    const size_t written = r.known ? kArgs : kArgs - debug::kRegisterArgs;
    for (size_t i = 0; i < written; ++i) {
      annotation = out_.Open(track_event::kDebugAnnotations);
      out_.UInt(debug::kNameIid, debug::kKernelArgsIid + i);
      out_.UInt(debug::kUintValue, values[i]);
      out_.Close(annotation);
    }
  }
  out_.Close(event);
  out_.Close(p);

  if (!e.instant) {
    p = out_.Open(trace::kPacket);
    Timestamp(s, e.end_ns);
    out_.UInt(packet::kSequenceId, s->id);
    out_.UInt(packet::kSequenceFlags, packet::kNeedsIncrementalState);
    event = out_.Open(packet::kTrackEvent);
    out_.UInt(track_event::kType, track_event::kSliceEnd);
    if (track != s->track) out_.UInt(track_event::kTrackUuid, track);
    out_.Close(event);
    out_.Close(p);
  }
  if (out_.size() >= file_.next_write()) FlushBuffer();
}

void PftraceWriter::Checkpoint() { FlushBuffer(); }

void PftraceWriter::Finish(const RunInfo&) {
  FlushBuffer();
  file_.Close();
  SetLimit(0);
}

void PftraceWriter::Write(const ApiEvent& e) { WriteOne(e); }

void PftraceWriter::WriteAll(const ApiEvent* begin, const ApiEvent* end) {
  for (; begin < end; ++begin) WriteOne(*begin);
}

}  // namespace roctrace
