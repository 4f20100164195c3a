/* The KFD_API domain (libhsakmt, the kernel-driver thunk ROCR calls for
 * queues, memory and events) as a tracer sees it: KFD_API operation IDs and
 * kfd_api_data_t, generated from the installed hsakmt.h into kfd_api_id.h
 * and kfd_api_data.h. The header ROCm's roctracer shipped for this domain
 * had the same name; its C++ helpers (stream printers, a callback table) are
 * not part of the tracing API and are not provided: use
 * roctracer_op_string(ACTIVITY_DOMAIN_KFD_API, op, 0) for names. */

#ifndef ROCTRACER_KFD_H_
#define ROCTRACER_KFD_H_

#include "kfd_api_data.h" /* kfd_api_data_t and hsakmt.h, generated */
#include "kfd_api_id.h"   /* enum kfd_api_id_t, generated */
#include "roctracer.h"

#endif /* ROCTRACER_KFD_H_ */
