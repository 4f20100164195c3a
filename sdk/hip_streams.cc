#include "sdk/hip_streams.h"

#include <pthread.h>

#include <atomic>
#include <cinttypes>
#include <cstdio>
#include <cstring>
#include <mutex>
#include <new>
#include <unordered_map>

#include "codegen/support/arg_format.h"
#include "ext/prof_protocol.h"
#include "hip_api_data.h"
#include "hip_api_id.h"
#include "hip_api_tables.h"
#include "rocprofiler-sdk/callback_tracing.h"
#include "runtime/platform/thread_id.h"
#include "sdk/dispatch.h"
#include "sdk_op_tables.h"

namespace rocprofiler_sdk {

// A SET between its ENTER and EXIT, per frame depth.
struct HipStreamCall {
  uint64_t call_id;  // the HIP call's correlation ID; 0: none
  uint64_t called;   // bit i: context i got ENTER
  rocprofiler_callback_tracing_hip_stream_data_t payload;
  rocprofiler_user_data_t user[kMaxContexts];
  rocprofiler_user_data_t external[kMaxContexts];
};

struct HipStreamThread {
  HipStreamCall calls[kMaxCallDepth];
};

namespace {

constexpr int kKind = ROCPROFILER_CALLBACK_TRACING_HIP_STREAM;

// What a HIP call does with its stream parameter, and where that parameter
// sits in its hip_api_data_t.
struct StreamParam {
  int8_t op;  // rocprofiler_hip_stream_operation_t; 0: no stream parameter
  uint16_t offset;
};

// HIP API ID -> its stream parameter, found by type in the generated
// argument printers (the runtime kind's calls only).
struct StreamTable {
  StreamParam params[HIP_API_ID_NUMBER] = {};

  struct Visit {
    const char* base;
    StreamParam found;
  };

  static int OnArg(uint32_t, const void* addr, int32_t, const char* type,
                   const char*, const char*, int32_t, void* user) {
    auto* v = static_cast<Visit*>(user);
    char spelled[256];
    roctracer::codegen::NormalizeTypeSpelling(type, spelled, sizeof(spelled));
    // Blanks out: "hipStream_t *" and "hipStream_t*" are one type.
    char compact[256];
    size_t n = 0;
    for (const char* c = spelled; *c != '\0' && n + 1 < sizeof(compact); ++c) {
      if (*c != ' ') compact[n++] = *c;
    }
    compact[n] = '\0';
    int8_t op = 0;
    if (std::strcmp(compact, "hipStream_t") == 0)
      op = ROCPROFILER_HIP_STREAM_SET;
    if (std::strcmp(compact, "hipStream_t*") == 0) {
      op = ROCPROFILER_HIP_STREAM_CREATE;
    }
    if (op != 0 && v->found.op == 0) {
      v->found.op = op;
      v->found.offset =
          static_cast<uint16_t>(static_cast<const char*>(addr) - v->base);
    }
    return 0;
  }

  StreamTable() {
    const gen::KindOps& runtime = gen::kHipKinds[0];
    auto* data = static_cast<hip_api_data_t*>(
        ::operator new(sizeof(hip_api_data_t), std::nothrow));
    if (data == nullptr) return;
    for (uint32_t op = 0; op < runtime.count; ++op) {
      const uint32_t id = runtime.ids[op];
      if (id >= HIP_API_ID_NUMBER) continue;
      std::memset(static_cast<void*>(data), 0, sizeof(*data));
      Visit v{reinterpret_cast<const char*>(data), {0, 0}};
      roctracer::hip_api::IterateArgs(id, data, false, 0, &OnArg, &v);
      if (v.found.op == ROCPROFILER_HIP_STREAM_SET &&
          std::strcmp(runtime.names[op], "hipStreamDestroy") == 0) {
        v.found.op = ROCPROFILER_HIP_STREAM_DESTROY;
      }
      params[id] = v.found;
    }
    ::operator delete(data);
  }
};

const StreamTable& Table() {
  static const StreamTable table;
  return table;
}

// Stream handle -> ID. Never destroyed: streams are used from static
// destructors too.
std::mutex g_ids_mutex;
// Taken on the API path: a thread holding it when another forks would hold
// it forever in the child, so the child starts with a fresh one (as the
// SDK's other API-path locks).
void FreshIdsMutexInChild() noexcept { new (&g_ids_mutex) std::mutex(); }
__attribute__((constructor)) void RegisterFreshIdsMutexInChildForkHandler() {
  pthread_atfork(nullptr, nullptr, &FreshIdsMutexInChild);
}
struct Ids {
  std::unordered_map<uint64_t, uint64_t> by_stream{{0, 0}};
  uint64_t next = 1;
};
Ids& StreamIds() {
  static auto* ids = new Ids();
  return *ids;
}

// A new ID for `stream` (CREATE: a handle seen again is a new stream).
uint64_t NewId(uint64_t stream) {
  std::lock_guard<std::mutex> lock(g_ids_mutex);
  Ids& ids = StreamIds();
  const uint64_t id = ids.next++;
  ids.by_stream[stream] = id;
  return id;
}

// A stream used but never seen created (created while no context traced
// HIP_STREAM, or a special handle such as hipStreamPerThread): rocprofiler-sdk
// 1.0.0 has no ID for it and throws std::out_of_range out of the HIP call,
// which ends a program that does not catch it. Here it is numbered, and the
// first such stream of the process is reported on stderr, so that a tool's
// author learns why its IDs differ from 1.0.0's.
void ReportUncreatedStream(uint64_t stream, uint64_t id) {
  static std::atomic<bool> reported{false};
  if (reported.exchange(true, std::memory_order_relaxed)) return;
  std::fprintf(stderr,
               "rocprofiler-sdk: HIP stream 0x%" PRIx64
               " was used but not seen created while HIP_STREAM was traced: "
               "given stream ID %" PRIu64
               " (rocprofiler-sdk 1.0.0 has none for it); later such streams "
               "are numbered without a report\n",
               stream, id);
}

// The ID of `stream`, a new one if it was never seen (one look-up and
// insertion under the lock: two threads meeting a stream first at once get
// the same ID).
uint64_t IdOf(uint64_t stream) {
  uint64_t id;
  bool inserted;
  {
    std::lock_guard<std::mutex> lock(g_ids_mutex);
    Ids& ids = StreamIds();
    auto found = ids.by_stream.try_emplace(stream, 0);
    inserted = found.second;
    if (inserted) found.first->second = ids.next++;
    id = found.first->second;
  }
  if (inserted) ReportUncreatedStream(stream, id);
  return id;
}

// Active contexts whose HIP_STREAM callback service traces `op`.
uint64_t Tracing(int32_t op) noexcept {
  uint64_t mask = g_active_mask.load(std::memory_order_acquire) &
                  g_kind_mask[kKind].load(std::memory_order_acquire);
  for (uint64_t m = mask; m != 0; m &= m - 1) {
    const int i = __builtin_ctzll(m);
    if (!g_contexts[i].services[kKind].Traces(op)) {
      mask &= ~(uint64_t{1} << i);
    }
  }
  return mask;
}

void Callbacks(ThreadState& t, uint64_t mask, int32_t op,
               rocprofiler_callback_phase_t phase,
               rocprofiler_callback_tracing_hip_stream_data_t* payload,
               rocprofiler_user_data_t* user,
               const rocprofiler_user_data_t* external, uint64_t* called) {
  rocprofiler_callback_tracing_record_t r{};
  r.thread_id = roctracer::platform::ThreadId();
  r.kind = static_cast<rocprofiler_callback_tracing_kind_t>(kKind);
  r.operation = op;
  r.phase = phase;
  r.payload = payload;
  DeliverCallbacks(t, mask, r, user, external, called);
}

const StreamParam* ParamOf(const roctracer::ApiCallInfo& info) noexcept {
  if (info.domain != ACTIVITY_DOMAIN_HIP_API || info.op >= HIP_API_ID_NUMBER ||
      info.api_data == nullptr) {
    return nullptr;
  }
  const StreamParam& p = Table().params[info.op];
  return p.op != 0 ? &p : nullptr;
}

template <class T>
T ArgAt(const roctracer::ApiCallInfo& info, uint16_t offset) noexcept {
  T value;
  std::memcpy(&value, static_cast<const char*>(info.api_data) + offset,
              sizeof(value));
  return value;
}

}  // namespace

void HipStreamEnter(const roctracer::ApiCallInfo& info, ThreadState& t,
                    uint32_t depth) noexcept {
  const StreamParam* p = ParamOf(info);
  if (p == nullptr || p->op != ROCPROFILER_HIP_STREAM_SET) return;
  const uint64_t callbacks = Tracing(ROCPROFILER_HIP_STREAM_SET);
  if (callbacks == 0) return;
  if (t.hip_streams == nullptr) {
    t.hip_streams = new (std::nothrow) HipStreamThread();
    if (t.hip_streams == nullptr) return;
  }
  HipStreamCall& c = t.hip_streams->calls[depth];
  const uint64_t stream = ArgAt<uint64_t>(info, p->offset);
  c.call_id = info.correlation_id;
  c.called = 0;
  c.payload = {};
  c.payload.size = sizeof(c.payload);
  c.payload.stream_id.handle = IdOf(stream);
  c.payload.stream_value.value = stream;
  for (uint64_t m = callbacks; m != 0; m &= m - 1) {
    const int i = __builtin_ctzll(m);
    c.external[i] = t.ExternalTop(i);
  }
  Callbacks(t, callbacks, ROCPROFILER_HIP_STREAM_SET,
            ROCPROFILER_CALLBACK_PHASE_ENTER, &c.payload, c.user, c.external,
            &c.called);
}

void HipStreamExit(const roctracer::ApiCallInfo& info, ThreadState& t,
                   uint32_t depth) noexcept {
  const StreamParam* p = ParamOf(info);
  if (p == nullptr) return;
  if (p->op == ROCPROFILER_HIP_STREAM_SET) {
    if (t.hip_streams == nullptr) return;
    HipStreamCall& c = t.hip_streams->calls[depth];
    if (c.call_id == 0 || c.call_id != info.correlation_id) return;
    c.call_id = 0;
    const uint64_t mask =
        c.called & g_active_mask.load(std::memory_order_acquire);
    if (mask != 0) {
      Callbacks(t, mask, ROCPROFILER_HIP_STREAM_SET,
                ROCPROFILER_CALLBACK_PHASE_EXIT, &c.payload, c.user, c.external,
                nullptr);
    }
    return;
  }
  const uint64_t callbacks = Tracing(p->op);
  if (callbacks == 0) return;
  rocprofiler_callback_tracing_hip_stream_data_t payload{};
  payload.size = sizeof(payload);
  if (p->op == ROCPROFILER_HIP_STREAM_CREATE) {
    // The runtime stored the new stream where the caller asked.
    const auto* where = ArgAt<const uint64_t*>(info, p->offset);
    if (where != nullptr) {
      uint64_t stream;
      std::memcpy(&stream, where, sizeof(stream));
      payload.stream_id.handle = NewId(stream);
      payload.stream_value.value = stream;
    }
  } else {
    const uint64_t stream = ArgAt<uint64_t>(info, p->offset);
    payload.stream_id.handle = IdOf(stream);
    payload.stream_value.value = stream;
  }
  Callbacks(t, callbacks, p->op, ROCPROFILER_CALLBACK_PHASE_NONE, &payload,
            nullptr, nullptr, nullptr);
}

bool TracesHipStreams(const Context& ctx) noexcept {
  return ctx.services[kKind].configured.load(std::memory_order_acquire);
}

void ForEachHipStreamCall(const Context& ctx,
                          void (*fn)(uint32_t domain, uint32_t id, void* data),
                          void* data) noexcept {
  if (!TracesHipStreams(ctx)) return;
  const StreamTable& table = Table();
  for (uint32_t id = 0; id < HIP_API_ID_NUMBER; ++id) {
    const int8_t op = table.params[id].op;
    if (op != 0 && ctx.services[kKind].Traces(op)) {
      fn(ACTIVITY_DOMAIN_HIP_API, id, data);
    }
  }
}

void ResetHipStreams(ThreadState& t) noexcept {
  if (t.hip_streams == nullptr) return;
  for (HipStreamCall& c : t.hip_streams->calls) c.call_id = 0;
}

}  // namespace rocprofiler_sdk
