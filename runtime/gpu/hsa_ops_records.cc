#include "runtime/gpu/hsa_ops_records.h"

#include <roctracer_hsa.h>

#include <cstring>

#include "runtime/activity/domain_registry.h"
#include "runtime/pool/pool.h"

namespace roctracer::gpu {
namespace {

// Record layout (activity_record_t, all three ops): correlation_id, begin_ns,
// end_ns, device_id; dispatches and barriers carry queue_id (the
// application's hsa_queue_t::id) and kind 0, a dispatch's kernel_name is
// delivered with its buffer; a copy carries bytes, kind =
// hsa_amd_copy_direction_t and queue_id 0.
class Writer final : public Observer {
 public:
  // The cookie is the pool: records of operations submitted while activity
  // was enabled are written even when it is disabled before they complete
  // (a pool closed meanwhile refuses them).
  uint64_t OnEnqueue(const EnqueueInfo& info) noexcept override {
    uint32_t op = HSA_OP_ID_COPY;
    if (info.kind == OpKind::kDispatch) op = HSA_OP_ID_DISPATCH;
    if (info.kind == OpKind::kBarrier) op = HSA_OP_ID_BARRIER;
    return reinterpret_cast<uint64_t>(
        ActivityPoolFor(ACTIVITY_DOMAIN_HSA_OPS, op));
  }

  void OnDispatch(const DispatchRecord& r, uint64_t cookie) noexcept override {
    activity_record_t record = Base(HSA_OP_ID_DISPATCH, r.correlation_id,
                                    r.begin_ns, r.end_ns, r.queue.device_id);
    record.queue_id = r.queue.queue_id;
    ToPool(cookie)->Write(record, r.kernel_name,
                          std::strlen(r.kernel_name) + 1);
  }

  void OnBarrier(const BarrierRecord& r, uint64_t cookie) noexcept override {
    activity_record_t record = Base(HSA_OP_ID_BARRIER, r.correlation_id,
                                    r.begin_ns, r.end_ns, r.queue.device_id);
    record.queue_id = r.queue.queue_id;
    ToPool(cookie)->Write(record);
  }

  void OnCopy(const CopyRecord& r, uint64_t cookie) noexcept override {
    activity_record_t record = Base(HSA_OP_ID_COPY, r.correlation_id,
                                    r.begin_ns, r.end_ns, r.device_id);
    record.kind = r.direction;
    record.queue_id = 0;
    record.bytes = r.bytes;
    ToPool(cookie)->Write(record);
  }

 private:
  static Pool* ToPool(uint64_t cookie) {
    return reinterpret_cast<Pool*>(cookie);
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
  activity_record_t record{};
  record.domain = domain;
  record.kind = kind;
  record.op = op;
  record.correlation_id = correlation_id;
  record.begin_ns = begin_ns;
  record.end_ns = end_ns;
  record.device_id = device_id;
  return record;
}

Observer* HsaOpsRecords() {
  static Writer* writer = new Writer;  // observers are never destroyed
  return writer;
}

}  // namespace roctracer::gpu
