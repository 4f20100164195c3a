// The HIP_OPS activity records (roctracer 4.1's ACTIVITY_DOMAIN_HIP_OPS): an
// observer of the GPU events (gpu_events.h) that writes one record per
// dispatch, barrier packet and copy submitted inside a traced HIP call,
// carrying that call's correlation ID and the command type HIP would give it
// (README.md, "HIP_OPS").
#ifndef RUNTIME_GPU_HIP_OPS_RECORDS_H_
#define RUNTIME_GPU_HIP_OPS_RECORDS_H_

#include "runtime/private/gpu_events.h"

namespace roctracer::gpu {

Observer* HipOpsRecords();

}  // namespace roctracer::gpu

#endif  // RUNTIME_GPU_HIP_OPS_RECORDS_H_
