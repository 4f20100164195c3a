#include "runtime/gpu/hsa_ops_records.h"

#include <roctracer_hsa.h>

#include <cstring>

#include "runtime/activity/activity_emit.h"
#include "runtime/activity/domain_registry.h"
#include "runtime/pool/pool.h"

namespace roctracer::gpu {

using activity::ActivityPools;
using activity::ActivityPoolsFor;
using activity::MakeRecord;
using activity::ToolPoolFor;
using activity::WriteRecordTo;
using pool::Pool;

namespace {

// Record layout (activity_record_t, all three ops): correlation_id, begin_ns,
// end_ns, device_id; dispatches and barriers carry queue_id (the
// application's hsa_queue_t::id) and kind 0, a dispatch's kernel_name is
// delivered with its buffer; a copy carries bytes, kind =
// hsa_amd_copy_direction_t and queue_id 0.
class Writer final : public Observer {
 public:
  // The cookie is the program's pool, its low bit set when the tool slot was
  // enabled too: records of operations submitted while activity was enabled
  // are written even when it is disabled before they complete (a pool closed
  // meanwhile refuses them). The tool's pool is looked up again at
  // completion: it only changes when the tool closes it.
  uint64_t OnEnqueue(const EnqueueInfo& info) noexcept override {
    const ActivityPools pools =
        ActivityPoolsFor(ACTIVITY_DOMAIN_HSA_OPS, OpOf(info.kind));
    static_assert(alignof(Pool) > 1, "the low bit of a Pool* must be free");
    return reinterpret_cast<uint64_t>(pools.program) |
           (pools.tool != nullptr ? kToolBit : 0);
  }

  void OnDispatch(const DispatchRecord& r, uint64_t cookie) noexcept override {
    activity_record_t record = Base(HSA_OP_ID_DISPATCH, r.correlation_id,
                                    r.begin_ns, r.end_ns, r.queue.device_id);
    record.queue_id = r.queue.queue_id;
    WriteRecordTo(ToPools(HSA_OP_ID_DISPATCH, cookie), record, r.kernel_name,
                  std::strlen(r.kernel_name) + 1);
  }

  void OnBarrier(const BarrierRecord& r, uint64_t cookie) noexcept override {
    activity_record_t record = Base(HSA_OP_ID_BARRIER, r.correlation_id,
                                    r.begin_ns, r.end_ns, r.queue.device_id);
    record.queue_id = r.queue.queue_id;
    WriteRecordTo(ToPools(HSA_OP_ID_BARRIER, cookie), record);
  }

  void OnCopy(const CopyRecord& r, uint64_t cookie) noexcept override {
    activity_record_t record = Base(HSA_OP_ID_COPY, r.correlation_id,
                                    r.begin_ns, r.end_ns, r.device_id);
    record.kind = r.direction;
    record.queue_id = 0;
    record.bytes = r.bytes;
    WriteRecordTo(ToPools(HSA_OP_ID_COPY, cookie), record);
  }

 private:
  static constexpr uint64_t kToolBit = 1;

  static uint32_t OpOf(OpKind kind) {
    if (kind == OpKind::kDispatch) return HSA_OP_ID_DISPATCH;
    if (kind == OpKind::kBarrier) return HSA_OP_ID_BARRIER;
    return HSA_OP_ID_COPY;
  }
  static ActivityPools ToPools(uint32_t op, uint64_t cookie) {
    Pool* program = reinterpret_cast<Pool*>(cookie & ~kToolBit);
    Pool* tool = (cookie & kToolBit) != 0
                     ? ToolPoolFor(ACTIVITY_DOMAIN_HSA_OPS, op)
                     : nullptr;
    return {program, tool != program ? tool : nullptr};
  }
  static activity_record_t Base(uint32_t op, uint64_t correlation_id,
                                uint64_t begin, uint64_t end, int device) {
    return OpRecord(ACTIVITY_DOMAIN_HSA_OPS, op, 0, correlation_id, begin, end,
                    device);
  }
};

}  // namespace

activity_record_t OpRecord(uint32_t domain, uint32_t op, uint32_t kind,
                           uint64_t correlation_id, uint64_t begin_ns,
                           uint64_t end_ns, int device_id) {
  activity_record_t record =
      MakeRecord(domain, op, correlation_id, begin_ns, end_ns);
  record.kind = kind;
  record.device_id = device_id;
  return record;
}

Observer* HsaOpsRecords() {
  static Writer* writer = new Writer;  // observers are never destroyed
  return writer;
}

}  // namespace roctracer::gpu
