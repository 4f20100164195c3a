#include "runtime/gpu/queue_intercept.h"

#include <hsa/hsa_api_trace.h>

#include <cstddef>
#include <cstring>

#include "runtime/activity/correlation.h"
#include "runtime/gpu/agents.h"
#include "runtime/gpu/completion.h"
#include "runtime/gpu/observers.h"
#include "runtime/gpu/runtime_table.h"
#include "runtime/intercept/trace_guard.h"

namespace roctracer::gpu {

using activity::NextCorrelationId;

namespace {

constexpr size_t kSignalOffset =
    offsetof(hsa_kernel_dispatch_packet_t, completion_signal);
static_assert(offsetof(hsa_barrier_and_packet_t, completion_signal) ==
                      kSignalOffset &&
                  offsetof(hsa_barrier_or_packet_t, completion_signal) ==
                      kSignalOffset,
              "every AQL packet ends with its completion signal");
constexpr size_t kDepOffset = offsetof(hsa_barrier_and_packet_t, dep_signal);
static_assert(offsetof(hsa_barrier_and_packet_t, dep_signal) ==
                      offsetof(hsa_barrier_or_packet_t, dep_signal) &&
                  sizeof(hsa_barrier_and_packet_t::dep_signal) ==
                      sizeof(hsa_barrier_or_packet_t::dep_signal),
              "both barrier packets list their dependencies alike");

// Ring slots per queue: as many as the queue has packets (every traced
// operation also holds a slot of the queue below until it is launched),
// within limits that keep an idle queue's memory small.
uint32_t RingCapacity(uint32_t queue_size) {
  uint32_t c = 64;
  while (c < queue_size && c < 16384) c <<= 1;
  return c;
}

// The packet that completes the application's signal after its traced
// packet: a barrier-AND with the barrier bit (it launches once the traced
// packet completed), no dependencies, and the traced packet's release fence,
// so the signal changes when and as the runtime would have changed it.
void WriteSignalBarrier(uint16_t traced_header, hsa_signal_t app_signal,
                        uint8_t* out) {
  hsa_barrier_and_packet_t b;
  std::memset(&b, 0, sizeof(b));
  const uint16_t release =
      (traced_header >> HSA_PACKET_HEADER_SCRELEASE_FENCE_SCOPE) &
      ((1u << HSA_PACKET_HEADER_WIDTH_SCRELEASE_FENCE_SCOPE) - 1);
  b.completion_signal = app_signal;
  std::memcpy(out, &b, sizeof(b));
  const uint16_t header = static_cast<uint16_t>(
      (HSA_PACKET_TYPE_BARRIER_AND << HSA_PACKET_HEADER_TYPE) |
      (1u << HSA_PACKET_HEADER_BARRIER) |
      (HSA_FENCE_SCOPE_NONE << HSA_PACKET_HEADER_SCACQUIRE_FENCE_SCOPE) |
      (release << HSA_PACKET_HEADER_SCRELEASE_FENCE_SCOPE));
  std::memcpy(out, &header, sizeof(header));
}

void FillDispatch(const void* packet, PendingOp* op) {
  hsa_kernel_dispatch_packet_t p;
  std::memcpy(&p, packet, sizeof(p));
  op->kernel_object = p.kernel_object;
  op->grid[0] = p.grid_size_x;
  op->grid[1] = p.grid_size_y;
  op->grid[2] = p.grid_size_z;
  op->workgroup[0] = p.workgroup_size_x;
  op->workgroup[1] = p.workgroup_size_y;
  op->workgroup[2] = p.workgroup_size_z;
  op->private_segment_size = p.private_segment_size;
  op->group_segment_size = p.group_segment_size;
}

// One packet: passed on as it is, or rewritten (see the README) into the
// traced packet and, when it had a completion signal, the barrier that
// completes it.
void Intercept(QueueState* q, const uint8_t* packet,
               hsa_amd_queue_intercept_packet_writer writer) {
  uint16_t header;
  std::memcpy(&header, packet, sizeof(header));
  const uint8_t type = PacketType(header);
  OpKind kind;
  if (!TracedPacketKind(type, &kind)) {
    writer(packet, 1);
    return;
  }
  // The two barrier packets have the same layout.
  const bool barrier = kind == OpKind::kBarrier;
  hsa_signal_t deps[5] = {};
  if (barrier) std::memcpy(deps, packet + kDepOffset, sizeof(deps));
  EnqueueInfo info{};
  info.kind = kind;
  info.op_id = NextCorrelationId();
  info.correlation_id = hook::CurrentCallId();
  info.stream = &InnermostStream;
  info.queue = q->info;
  info.packet = packet;
  Interest interest;
  const bool wanted = AskObservers(info, &interest);
  // A barrier no observer wants still takes a slot when it may wait for a
  // traced copy: given the copy's tracer signal, it is followed to its end
  // (unreported) so that the signal is given back then.
  const bool may_borrow = barrier && MayBorrowCopySignals(deps, 5);
  if (!wanted && !may_borrow) {
    if (barrier) NoteDependencies(deps, 5);
    writer(packet, 1);
    return;
  }
  PendingOp* op = q->ring.Reserve();
  if (op == nullptr && wanted) {
    HarvestQueueNow(q);
    op = q->ring.Reserve();
  }
  if (op == nullptr || !EnsureSignal(op)) {
    if (barrier) NoteDependencies(deps, 5);
    if (wanted) {
      AbandonInterest(interest);
      Count().untraced.fetch_add(1, std::memory_order_relaxed);
    }
    writer(packet, 1);
    return;
  }
  alignas(64) uint8_t out[128];
  std::memcpy(out, packet, 64);
  bool lent = false;
  if (barrier) {
    // A barrier waiting for a traced copy waits for the copy, not for its
    // report: it gets the copy's tracer signal, which the runtime completes.
    // Lent before the copies are marked as depended on: marking one kicks
    // the completion thread, which would then hold the mutex lending takes.
    hsa_signal_t replaced[5];
    lent = LendCopySignals(deps, 5, replaced, op->borrowed);
    if (lent) std::memcpy(out + kDepOffset, replaced, sizeof(replaced));
    NoteDependencies(deps, 5);
  }
  if (!wanted && !lent) {
    // The slot is not published: nothing to follow.
    writer(packet, 1);
    return;
  }
  op->kind = kind;
  op->packet_type = type;
  op->op_id = info.op_id;
  op->correlation_id = info.correlation_id;
  op->interest = interest;
  op->loans_only = !wanted;
  if (kind == OpKind::kDispatch) FillDispatch(packet, op);
  hsa_signal_t app_signal;
  std::memcpy(&app_signal, packet + kSignalOffset, sizeof(app_signal));
  std::memcpy(out + kSignalOffset, &op->signal, sizeof(op->signal));
  uint64_t count = 1;
  if (app_signal.handle != 0) {
    WriteSignalBarrier(header, app_signal, out + 64);
    count = 2;
  }
  q->ring.Publish();
  writer(out, count);
  // Past three quarters, the submitting thread reports what completed
  // rather than wait for the completion thread.
  if (q->ring.InFlight() > q->ring.capacity() / 4 * 3) HarvestQueueIfFree(q);
}

void OnPackets(const void* packets, uint64_t count, uint64_t /*user_index*/,
               void* data, hsa_amd_queue_intercept_packet_writer writer) {
  auto* q = static_cast<QueueState*>(data);
  const auto* p = static_cast<const uint8_t*>(packets);
  for (uint64_t i = 0; i < count; ++i) {
    Intercept(q, p + i * 64, writer);
    q->packets_seen.fetch_add(1, std::memory_order_release);
  }
}

}  // namespace

hsa_status_t QueueCreate(hsa_agent_t agent, uint32_t size,
                         hsa_queue_type32_t type,
                         void (*callback)(hsa_status_t, hsa_queue_t*, void*),
                         void* data, uint32_t private_segment_size,
                         uint32_t group_segment_size, hsa_queue_t** queue) {
  const hsa_status_t status = Amd().hsa_amd_queue_intercept_create_fn(
      agent, size, type, callback, data, private_segment_size,
      group_segment_size, queue);
  if (status != HSA_STATUS_SUCCESS) return status;
  QueueInfo info{agent, DeviceIndex(agent), (*queue)->id, *queue};
  auto* state = new QueueState(*queue, info, RingCapacity((*queue)->size));
  if (Amd().hsa_amd_queue_intercept_register_fn(*queue, &OnPackets, state) !=
      HSA_STATUS_SUCCESS) {
    delete state;  // the queue works, untraced
    return status;
  }
  Amd().hsa_amd_profiling_set_profiler_enabled_fn(*queue, 1);
  RegisterQueue(state);
  EnsureCompletionThread();
  return status;
}

hsa_status_t QueueDestroy(hsa_queue_t* queue) {
  return DrainAndDestroyQueue(
      queue, [](hsa_queue_t* q) { return Core().hsa_queue_destroy_fn(q); });
}

hsa_status_t ProfilerEnable(hsa_queue_t* queue, int enable) {
  if (enable == 0 && queue != nullptr && IsTracedQueue(queue)) {
    return HSA_STATUS_SUCCESS;
  }
  return Amd().hsa_amd_profiling_set_profiler_enabled_fn(queue, enable);
}

}  // namespace roctracer::gpu
