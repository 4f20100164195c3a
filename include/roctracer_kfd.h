/* The KFD_API domain (libhsakmt, the kernel-driver thunk ROCR calls for
 * queues, memory and events) as a tracer sees it: KFD_API operation IDs and
 * kfd_api_data_t, generated from the installed hsakmt.h into kfd_api_id.h
 * and kfd_api_data.h. The header ROCm's roctracer shipped for this domain
 * had the same name; of its C++ helpers, the stream printers are given as
 * for HSA (kfd_api_data_pair_t and its operator<<, operator<< for hsakmt's
 * structs), its callback table is not: use
 * roctracer_op_string(ACTIVITY_DOMAIN_KFD_API, op, 0) for names. */

#ifndef ROCTRACER_KFD_H_
#define ROCTRACER_KFD_H_

#include "kfd_api_data.h"    /* kfd_api_data_t and hsakmt.h, generated */
#include "kfd_api_helpers.h" /* kfd_api_data_pair_t, generated */
#include "kfd_api_id.h"      /* enum kfd_api_id_t, generated */
#include "kfd_ostream_ops.h" /* operator<< for hsakmt's structs, generated */
#include "roctracer.h"

#endif /* ROCTRACER_KFD_H_ */
