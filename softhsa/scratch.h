// Scratch (private segment) memory as ROCR accounts for it, so that a tool's
// scratch-event hooks (the tools table of ROCm >= 6.1 headers) are called
// as ROCR calls them. No memory is allocated: a kernel here uses its own
// stack. Built from headers without hsa/hsa_amd_tool.h, nothing is raised.
#ifndef SOFTHSA_SCRATCH_H_
#define SOFTHSA_SCRATCH_H_

#include <cstdint>

#include "softhsa/queue.h"

namespace softhsa {

// Before a dispatch runs on executing queue `q`: a dispatch needing more
// scratch than `q` holds gets it (ALLOC), as the queue's main scratch when it
// is within the single-allocation limit, else for this dispatch alone
// (USE_ONCE). Returns true for a use-once allocation, which
// ScratchAfterDispatch frees (FREE, USE_ONCE).
bool ScratchBeforeDispatch(Queue* q, const hsa_kernel_dispatch_packet_t& p,
                           uint64_t dispatch_id);
void ScratchAfterDispatch(Queue* q, bool use_once);
// After any packet, before its completion signal moves: with
// SOFTHSA_SCRATCH_RECLAIM=1, a queue left with nothing to run gives its main
// scratch back (ASYNC_RECLAIM).
void ScratchIfIdle(Queue* q, uint64_t index);
// At queue destruction: the main scratch is freed (FREE).
void ScratchOnDestroy(Queue* q);
// The most scratch a kernel agent may hold
// (HSA_AMD_AGENT_INFO_SCRATCH_LIMIT_MAX) and its current use-once threshold
// (_CURRENT: SOFTHSA_SCRATCH_LIMIT until hsa_amd_agent_set_async_scratch_limit
// sets one).
constexpr uint64_t kScratchLimitMax = uint64_t{4} << 30;
uint64_t ScratchLimit(const Agent* agent);
// Reads SOFTHSA_SCRATCH_LIMIT and SOFTHSA_SCRATCH_RECLAIM (at hsa_init).
void ReadScratchSettings();

}  // namespace softhsa

#endif  // SOFTHSA_SCRATCH_H_
