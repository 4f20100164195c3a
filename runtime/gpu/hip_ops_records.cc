#include "runtime/gpu/hip_ops_records.h"

#include <roctracer.h>

#include <atomic>
#include <cstdint>
#include <cstring>
#include <new>

#include "runtime/activity/activity_emit.h"
#include "runtime/activity/builtin_domains.h"
#include "runtime/activity/domain_registry.h"
#include "runtime/gpu/hsa_ops_records.h"
#include "runtime/intercept/trace_guard.h"
#include "runtime/pool/pool.h"

namespace roctracer::gpu {

using activity::ActivityPools;
using activity::ActivityPoolsFor;
using activity::kHipCopyDeviceToDevice;
using activity::kHipCopyDeviceToHost;
using activity::kHipCopyHostToDevice;
using activity::kHipFillBuffer;
using activity::kHipKernelExecution;
using activity::kHipMarker;
using activity::OpName;
using activity::WriteRecordTo;

namespace {

// hip_op_id_t (roctracer_hip.h, which needs HIP's headers): fixed by
// roctracer 4.1.
constexpr uint32_t kHipOpDispatch = 0;
constexpr uint32_t kHipOpCopy = 1;
constexpr uint32_t kHipOpBarrier = 2;

// What the completion needs and the packet no longer says. One per traced
// operation, freed at its completion or when it is abandoned.
struct Pending {
  ActivityPools pools;
  uint64_t correlation_id;
  uint32_t op;
  uint32_t kind;
};

// What a HIP call does to the work submitted inside it: HIP fills memory
// (hipMemset*, hipMemsetD*) with a kernel or a copy that it reports as one
// FillBuffer command, an op of the COPY kind; it copies device memory
// (hipMemcpy* between device buffers) with its blit kernels and reports a
// copy (a dispatch inside hipMemcpy* is a CopyDeviceToDevice, HIP's
// buffer-to-buffer command).
enum class CallClass : uint8_t { kUnknown, kOther, kFill, kMemcpy };

CallClass ClassOfName(uint32_t hip_api_op) {
  const char* name = OpName(ACTIVITY_DOMAIN_HIP_API, hip_api_op);
  if (name == nullptr) return CallClass::kOther;
  if (std::strncmp(name, "hipMemset", 9) == 0) return CallClass::kFill;
  if (std::strncmp(name, "hipMemcpy", 9) == 0) return CallClass::kMemcpy;
  return CallClass::kOther;
}

// By name once per op (the names are fixed): the classes of the HIP API's
// ops, kept for every enqueue after.
constexpr uint32_t kClassesKept = 2048;
std::atomic<CallClass> g_classes[kClassesKept];

CallClass ClassOf(uint32_t hip_api_op) {
  if (hip_api_op >= kClassesKept) return ClassOfName(hip_api_op);
  CallClass c = g_classes[hip_api_op].load(std::memory_order_relaxed);
  if (c == CallClass::kUnknown) {
    c = ClassOfName(hip_api_op);
    g_classes[hip_api_op].store(c, std::memory_order_relaxed);
  }
  return c;
}

// HIP's command for a copy between two memory objects by the runtime's
// direction: reads and writes of device memory from the host are
// CopyDeviceToHost / CopyHostToDevice, anything else is a buffer-to-buffer
// copy (CopyDeviceToDevice), also between two host buffers.
uint32_t CopyCommand(uint32_t direction) {
  switch (direction) {
    case hsaHostToDevice:
      return kHipCopyHostToDevice;
    case hsaDeviceToHost:
      return kHipCopyDeviceToHost;
    default:
      return kHipCopyDeviceToDevice;
  }
}

class Writer final : public Observer {
 public:
  uint64_t OnEnqueue(const EnqueueInfo& info) noexcept override {
    // Nothing enabled, nothing asked: the common case costs pool look-ups.
    const bool dispatch_or_copy = info.kind != OpKind::kBarrier;
    const ActivityPools copy_pools =
        dispatch_or_copy ? ActivityPoolsFor(ACTIVITY_DOMAIN_HIP_OPS, kHipOpCopy)
                         : ActivityPools{nullptr, nullptr};
    ActivityPools other_pools{nullptr, nullptr};
    if (info.kind == OpKind::kDispatch) {
      other_pools = ActivityPoolsFor(ACTIVITY_DOMAIN_HIP_OPS, kHipOpDispatch);
    } else if (info.kind == OpKind::kBarrier) {
      other_pools = ActivityPoolsFor(ACTIVITY_DOMAIN_HIP_OPS, kHipOpBarrier);
    }
    if (!copy_pools.any() && !other_pools.any()) return 0;
    uint32_t hip_api_op = 0;
    uint64_t hip_call_id = 0;
    if (!InnermostCallOf(ACTIVITY_DOMAIN_HIP_API, &hip_api_op, &hip_call_id)) {
      return 0;
    }
    uint32_t op = kHipOpCopy;
    uint32_t kind = kHipFillBuffer;
    ActivityPools pools = copy_pools;
    if (info.kind == OpKind::kBarrier) {
      op = kHipOpBarrier;
      kind = kHipMarker;
      pools = other_pools;
    } else if (const CallClass call = ClassOf(hip_api_op);
               call != CallClass::kFill) {
      if (info.kind == OpKind::kDispatch && call == CallClass::kMemcpy) {
        kind = kHipCopyDeviceToDevice;
      } else if (info.kind == OpKind::kDispatch) {
        op = kHipOpDispatch;
        kind = kHipKernelExecution;
        pools = other_pools;
      } else {
        kind = CopyCommand(info.direction);
      }
    }
    if (!pools.any()) return 0;
    auto* pending = new (std::nothrow) Pending{pools, hip_call_id, op, kind};
    return reinterpret_cast<uint64_t>(pending);
  }

  void OnDispatch(const DispatchRecord& r, uint64_t cookie) noexcept override {
    Pending* p = Take(cookie);
    activity_record_t record =
        Base(*p, r.begin_ns, r.end_ns, r.queue.device_id);
    record.queue_id = r.queue.queue_id;
    if (p->op == kHipOpDispatch) {
      WriteRecordTo(p->pools, record, r.kernel_name,
                    std::strlen(r.kernel_name) + 1);
    } else {
      WriteRecordTo(p->pools, record);
    }
    delete p;
  }

  void OnBarrier(const BarrierRecord& r, uint64_t cookie) noexcept override {
    Pending* p = Take(cookie);
    activity_record_t record =
        Base(*p, r.begin_ns, r.end_ns, r.queue.device_id);
    record.queue_id = r.queue.queue_id;
    WriteRecordTo(p->pools, record);
    delete p;
  }

  void OnAbandon(uint64_t cookie) noexcept override { delete Take(cookie); }

  void OnCopy(const CopyRecord& r, uint64_t cookie) noexcept override {
    Pending* p = Take(cookie);
    activity_record_t record = Base(*p, r.begin_ns, r.end_ns, r.device_id);
    record.queue_id = 0;
    record.bytes = r.bytes;
    WriteRecordTo(p->pools, record);
    delete p;
  }

 private:
  static Pending* Take(uint64_t cookie) {
    return reinterpret_cast<Pending*>(cookie);
  }
  static activity_record_t Base(const Pending& p, uint64_t begin, uint64_t end,
                                int device) {
    return OpRecord(ACTIVITY_DOMAIN_HIP_OPS, p.op, p.kind, p.correlation_id,
                    begin, end, device);
  }
};

}  // namespace

Observer* HipOpsRecords() {
  static Writer* writer = new Writer;  // observers are never destroyed
  return writer;
}

}  // namespace roctracer::gpu
