// The HSA_OPS activity records (roctracer 4.1's ACTIVITY_DOMAIN_HSA_OPS):
// an observer of the GPU events (gpu_events.h) that writes one record per
// completed dispatch, application barrier packet and copy into the pools
// (the program's and the tool's, domain_registry.h) enabled for its op when
// the operation was submitted.
#ifndef RUNTIME_GPU_HSA_OPS_RECORDS_H_
#define RUNTIME_GPU_HSA_OPS_RECORDS_H_

#include <roctracer.h>

#include <cstddef>

#include "runtime/activity/domain_registry.h"
#include "runtime/private/gpu_events.h"

namespace roctracer::gpu {

Observer* HsaOpsRecords();

// The fields every GPU operation's record carries (HSA_OPS and HIP_OPS),
// on activity_emit.h's MakeRecord; written with its WriteRecordTo.
activity_record_t OpRecord(uint32_t domain, uint32_t op, uint32_t kind,
                           uint64_t correlation_id, uint64_t begin_ns,
                           uint64_t end_ns, int device_id);

}  // namespace roctracer::gpu

#endif  // RUNTIME_GPU_HSA_OPS_RECORDS_H_
