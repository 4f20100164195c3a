/* ROCm's roctracer installed its generated KFD record under this name
 * (kfd_api_id_t and kfd_api_data_t); code that includes it gets the same
 * declarations, generated from the installed hsakmt.h (roctracer_kfd.h). */

#ifndef ROCTRACER_KFD_PROF_STR_H_
#define ROCTRACER_KFD_PROF_STR_H_

#include "roctracer_kfd.h"

#endif /* ROCTRACER_KFD_PROF_STR_H_ */
