// The HSA_EVT callbacks (roctracer 4.1's ACTIVITY_DOMAIN_HSA_EVT): an
// observer of code-object and kernel-symbol loads and unloads (gpu_events.h)
// that calls the callback enabled for HSA_EVT_ID_CODEOBJ / HSA_EVT_ID_KSYMBOL
// with an hsa_evt_data_t (README.md, "HSA_EVT").
#ifndef RUNTIME_GPU_HSA_EVT_CALLBACKS_H_
#define RUNTIME_GPU_HSA_EVT_CALLBACKS_H_

#include "runtime/private/gpu_events.h"

namespace roctracer::gpu {

Observer* HsaEvtCallbacks();

}  // namespace roctracer::gpu

#endif  // RUNTIME_GPU_HSA_EVT_CALLBACKS_H_
