#include "sdk/memory_allocation.h"

#include <cstdint>
#include <cstring>
#include <type_traits>
#include <utility>

#include "ext/prof_protocol.h"
#include "hsa_api_data.h"
#include "hsa_api_id.h"
#include "rocprofiler-sdk/buffer_tracing.h"
#include "rocprofiler-sdk/callback_tracing.h"
#include "rocprofiler-sdk/external_correlation.h"
#include "runtime/clock/clock.h"
#include "runtime/platform/thread_id.h"
#include "sdk/agents.h"
#include "sdk/buffers.h"
#include "sdk/dispatch.h"
#include "sdk_op_tables.h"

namespace rocprofiler_sdk {
namespace {

constexpr int32_t kKind = ROCPROFILER_CALLBACK_TRACING_MEMORY_ALLOCATION;

// rocprofiler-sdk's null agent ID (handle UINT64_MAX): the agent of a free
// (the freed address's pool is not looked up) and of an allocation from a
// pool or region no agent reported owns.
constexpr uint64_t kNullAgent = UINT64_MAX;

uint64_t AgentOrNull(rocprofiler_agent_id_t id) noexcept {
  return id.handle != 0 ? id.handle : kNullAgent;
}

// How a call's arguments give the record's fields.
enum class Layout : uint8_t {
  kNone,
  kRegionAllocate,  // hsa_memory_allocate(region, size, ptr)
  kPoolAllocate,    // hsa_amd_memory_pool_allocate(pool, size, flags, ptr)
  kVmemCreate,      // hsa_amd_vmem_handle_create(pool, size, ..., handle*)
  kFree,            // hsa_memory_free(ptr), hsa_amd_memory_pool_free(ptr)
  kVmemRelease,     // hsa_amd_vmem_handle_release(handle)
};

struct Call {
  const char* name;
  int32_t op;
  Layout layout;
};

constexpr Call kCalls[] = {
    {"hsa_memory_allocate", ROCPROFILER_MEMORY_ALLOCATION_ALLOCATE,
     Layout::kRegionAllocate},
    {"hsa_amd_memory_pool_allocate", ROCPROFILER_MEMORY_ALLOCATION_ALLOCATE,
     Layout::kPoolAllocate},
    {"hsa_amd_vmem_handle_create", ROCPROFILER_MEMORY_ALLOCATION_VMEM_ALLOCATE,
     Layout::kVmemCreate},
    {"hsa_memory_free", ROCPROFILER_MEMORY_ALLOCATION_FREE, Layout::kFree},
    {"hsa_amd_memory_pool_free", ROCPROFILER_MEMORY_ALLOCATION_FREE,
     Layout::kFree},
    {"hsa_amd_vmem_handle_release", ROCPROFILER_MEMORY_ALLOCATION_VMEM_FREE,
     Layout::kVmemRelease},
};

// HSA API ID -> the call above (index + 1; 0: none), found by name in the
// generated HSA kinds (the vmem calls exist only in newer runtimes' tables).
uint8_t g_call[HSA_API_ID_NUMBER];

__attribute__((constructor)) void FillCallTable() noexcept {
  for (uint32_t k = 0; k < gen::kHsaKindCount; ++k) {
    const gen::KindOps& kind = gen::kHsaKinds[k];
    for (uint32_t op = 0; op < kind.count; ++op) {
      const uint32_t id = kind.ids[op];
      if (id >= HSA_API_ID_NUMBER) continue;
      for (size_t c = 0; c < sizeof(kCalls) / sizeof(kCalls[0]); ++c) {
        if (std::strcmp(kind.names[op], kCalls[c].name) == 0) {
          g_call[id] = static_cast<uint8_t>(c + 1);
          g_memory_op[id] = static_cast<int8_t>(kCalls[c].op);
        }
      }
    }
  }
}

const Call* CallOf(uint32_t id) noexcept {
  if (id >= HSA_API_ID_NUMBER) return nullptr;
  const uint8_t c = g_call[id];
  return c == 0 ? nullptr : &kCalls[c - 1];
}

// The vmem calls' arguments, where the generated argument union has them.
using HsaArgs = decltype(std::declval<hsa_api_data_t&>().args);
template <class A, class = void>
struct Vmem {
  static void Create(const A&, MemoryCall*) noexcept {}
  static void Release(const A&, MemoryCall*) noexcept {}
};
template <class A>
struct Vmem<
    A, std::void_t<decltype(std::declval<A&>().hsa_amd_vmem_handle_create)>> {
  static void Create(const A& a, MemoryCall* m) noexcept {
    m->agent =
        AgentOrNull(AgentIdOfPool(a.hsa_amd_vmem_handle_create.pool.handle));
    m->size = a.hsa_amd_vmem_handle_create.size;
    m->out = a.hsa_amd_vmem_handle_create.memory_handle;
  }
  static void Release(const A& a, MemoryCall* m) noexcept {
    m->address = a.hsa_amd_vmem_handle_release.memory_handle.handle;
  }
};

// Active contexts whose callback (`buffer` false) or buffer service of
// MEMORY_ALLOCATION traces `op`.
uint64_t Tracing(int32_t op, bool buffer) noexcept {
  return ContextsTracing(kKind, kKind, op, buffer);
}

rocprofiler_callback_tracing_memory_allocation_data_t Payload(
    const MemoryCall& m, uint64_t start, uint64_t end) noexcept {
  rocprofiler_callback_tracing_memory_allocation_data_t p{};
  p.size = sizeof(p);
  p.start_timestamp = start;
  p.end_timestamp = end;
  p.agent_id.handle = m.agent;
  p.address.value = m.address;
  p.allocation_size = m.size;
  return p;
}

void Callbacks(ThreadState& t, uint64_t mask, bool exit,
               rocprofiler_callback_tracing_memory_allocation_data_t* p) {
  MemoryCall& m = t.memory;
  rocprofiler_callback_tracing_record_t r{};
  r.thread_id = roctracer::platform::ThreadId();
  r.correlation_id.internal = m.correlation_id;
  r.correlation_id.ancestor = m.ancestor;
  r.kind = static_cast<rocprofiler_callback_tracing_kind_t>(kKind);
  r.operation = m.op;
  r.phase =
      exit ? ROCPROFILER_CALLBACK_PHASE_EXIT : ROCPROFILER_CALLBACK_PHASE_ENTER;
  r.payload = p;
  DeliverCallbacks(t, mask, r, m.user, m.external, &m.called);
}

}  // namespace

int8_t g_memory_op[HSA_API_ID_NUMBER];

void ForEachMemoryApi(int32_t op, void (*fn)(uint32_t id, void* data),
                      void* data) noexcept {
  for (uint32_t id = 0; id < HSA_API_ID_NUMBER; ++id) {
    if (MemoryOpOf(id) == op) fn(id, data);
  }
}

void MemoryEnter(const roctracer::ApiCallInfo& info, int32_t op, ThreadState& t,
                 uint32_t frame) noexcept {
  MemoryCall& m = t.memory;
  // One in progress further out (a tool's allocation from its callback):
  // the inner call is not reported.
  if (m.call_id != 0 && m.frame < frame &&
      t.frames[m.frame].correlation_id == m.call_id) {
    return;
  }
  m.call_id = 0;
  const uint64_t callbacks = Tracing(op, false);
  const uint64_t buffered = Tracing(op, true);
  if ((callbacks | buffered) == 0) return;
  const Call* call = CallOf(info.op);
  const auto& args = static_cast<const hsa_api_data_t*>(info.api_data)->args;
  m.agent = kNullAgent;
  m.size = m.address = 0;
  m.out = nullptr;
  switch (call->layout) {
    case Layout::kRegionAllocate:
      m.agent =
          AgentOrNull(AgentIdOfRegion(args.hsa_memory_allocate.region.handle));
      m.size = args.hsa_memory_allocate.size;
      m.out = args.hsa_memory_allocate.ptr;
      break;
    case Layout::kPoolAllocate:
      m.agent = AgentOrNull(
          AgentIdOfPool(args.hsa_amd_memory_pool_allocate.memory_pool.handle));
      m.size = args.hsa_amd_memory_pool_allocate.size;
      m.out = args.hsa_amd_memory_pool_allocate.ptr;
      break;
    case Layout::kVmemCreate:
      Vmem<HsaArgs>::Create(args, &m);
      break;
    case Layout::kFree:
      // hsa_memory_free and hsa_amd_memory_pool_free take the same argument.
      static_assert(
          sizeof(args.hsa_memory_free) == sizeof(args.hsa_amd_memory_pool_free),
          "one layout for both frees");
      m.address = reinterpret_cast<uint64_t>(args.hsa_memory_free.ptr);
      break;
    case Layout::kVmemRelease:
      Vmem<HsaArgs>::Release(args, &m);
      break;
    case Layout::kNone:
      return;
  }
  // The ID of the innermost call some context traces (this one's when none
  // is): as rocprofiler-sdk, an allocation belongs to the traced call it
  // was made from.
  Frame* owner = &t.frames[frame];
  for (uint32_t i = frame + 1; i-- > 0;) {
    if ((t.frames[i].called | t.frames[i].buffered |
         t.frames[i].buffered_ext) != 0) {
      owner = &t.frames[i];
      break;
    }
  }
  owner->seen = true;
  m.correlation_id = owner->correlation_id;
  m.ancestor = AncestorOf(t, owner - t.frames, owner->correlation_id);
  m.call_id = info.correlation_id;
  m.frame = frame;
  m.op = op;
  m.called = 0;
  m.buffered = buffered;
  // External IDs: the request service's answer for a context with none
  // pushed, else the top of its stack.
  const uint64_t all = callbacks | buffered;
  for (uint64_t b = all; b != 0; b &= b - 1) {
    const int i = __builtin_ctzll(b);
    m.external[i] = t.ExternalTop(i);
  }
  RequestExternalIds(
      t, all, ROCPROFILER_EXTERNAL_CORRELATION_REQUEST_MEMORY_ALLOCATION, op,
      m.correlation_id, roctracer::platform::ThreadId(), m.external);
  if (callbacks != 0) {
    auto p = Payload(m, 0, 0);
    Callbacks(t, callbacks, false, &p);
  }
  m.start_ns = roctracer::clock::TimestampNs();
}

void MemoryExit(const roctracer::ApiCallInfo& info, ThreadState& t) noexcept {
  MemoryCall& m = t.memory;
  if (m.call_id == 0 || m.call_id != info.correlation_id) return;
  m.call_id = 0;
  const uint64_t end = roctracer::clock::TimestampNs();
  // The runtime stored the address (or the vmem handle, whose value is the
  // address) where the caller asked.
  if (m.out != nullptr) std::memcpy(&m.address, m.out, sizeof(m.address));
  const uint64_t active = g_active_mask.load(std::memory_order_acquire);
  const uint64_t callbacks = m.called & active;
  if (callbacks != 0) {
    auto p = Payload(m, m.start_ns, end);
    Callbacks(t, callbacks, true, &p);
  }
  uint64_t buffered = m.buffered & active;
  if (buffered == 0) return;
  rocprofiler_buffer_tracing_memory_allocation_record_t r{};
  r.size = sizeof(r);
  r.kind = ROCPROFILER_BUFFER_TRACING_MEMORY_ALLOCATION;
  r.operation = static_cast<rocprofiler_memory_allocation_operation_t>(m.op);
  r.correlation_id.internal = m.correlation_id;
  r.correlation_id.ancestor = m.ancestor;
  r.thread_id = roctracer::platform::ThreadId();
  r.start_timestamp = m.start_ns;
  r.end_timestamp = end;
  r.agent_id.handle = m.agent;
  r.address.value = m.address;
  r.allocation_size = m.size;
  while (buffered != 0) {
    const int i = __builtin_ctzll(buffered);
    buffered &= buffered - 1;
    r.correlation_id.external = m.external[i];
    WriteRecord(g_contexts[i].buffer_services[kKind].buffer, &r, sizeof(r));
  }
}

}  // namespace rocprofiler_sdk
