/* Deprecated: HCC is gone and HIP's operations are declared in
 * roctracer_hip.h. Kept because ROCm 5.2 still ships this header and tools
 * written for older ROCm include it; it only includes roctracer_hip.h. */
#ifndef ROCTRACER_HCC_H_
#define ROCTRACER_HCC_H_

#include "roctracer_hip.h"

#endif /* ROCTRACER_HCC_H_ */
