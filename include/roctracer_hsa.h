/* The HSA domains as a tracer sees them: HSA_API operation IDs and callback
 * data (generated from the installed HSA headers into hsa_api_id.h and
 * hsa_api_data.h), HSA_OPS operations and HSA_EVT event data, and what ROCm's
 * roctracer_hsa.h gives C++ clients with them: hsa_api_data_pair_t and its
 * operator<< (hsa_api_helpers.h), stream operators for HSA's structs
 * (hsa_ostream_ops.h). */

#ifndef ROCTRACER_HSA_H_
#define ROCTRACER_HSA_H_

#include <hsa/hsa.h>
#include <hsa/hsa_ext_amd.h>

#include "hsa_api_data.h"    /* hsa_api_data_t, generated */
#include "hsa_api_helpers.h" /* hsa_api_data_pair_t, generated */
#include "hsa_api_id.h"      /* enum hsa_api_id_t, generated */
#include "hsa_ostream_ops.h" /* operator<< for HSA's structs, generated */
#include "roctracer.h"

/* As ROCm's roctracer_hsa.h, which includes its C++ stream printers. */
#ifdef __cplusplus
#include <iostream>
#include <string>
#endif

enum hsa_op_id_t {
  HSA_OP_ID_DISPATCH = 0,
  HSA_OP_ID_COPY = 1,
  HSA_OP_ID_BARRIER = 2,
  HSA_OP_ID_RESERVED1 = 3,
  HSA_OP_ID_NUMBER
};

enum hsa_evt_id_t {
  HSA_EVT_ID_ALLOCATE = 0,
  HSA_EVT_ID_DEVICE = 1,
  HSA_EVT_ID_MEMCOPY = 2,
  HSA_EVT_ID_SUBMIT = 3,
  HSA_EVT_ID_KSYMBOL = 4,
  HSA_EVT_ID_CODEOBJ = 5,
  HSA_EVT_ID_NUMBER
};

struct hsa_ops_properties_t {
  void* reserved1[4];
};

#ifdef __cplusplus
/* roctracer 5.2-5.3's properties of the HSA_OPS domain, under its namespace
 * (roctracer_set_properties accepts and ignores them). */
namespace roctracer {
namespace hsa_support {
enum { HSA_OP_ID_async_copy = 0 };
struct ops_properties_t {
  void* table;
  activity_async_callback_t async_copy_callback_fun;
  void* async_copy_callback_arg;
  const char* output_prefix;
};
}  // namespace hsa_support
typedef hsa_support::ops_properties_t hsa_ops_properties_t;
}  // namespace roctracer
#endif

/* Data of ACTIVITY_DOMAIN_HSA_EVT callbacks (layout of roctracer 4.1). */
typedef struct {
  union {
    struct {
      const void* ptr;
      size_t size; /* 0 means the area was freed */
      hsa_amd_segment_t segment;
      hsa_amd_memory_pool_global_flag_t global_flag;
      int is_code;
    } allocate;
    struct {
      hsa_device_type_t type;
      uint32_t id;
      hsa_agent_t agent;
      const void* ptr;
    } device;
    struct {
      const void* dst;
      const void* src;
      size_t size;
    } memcopy;
    struct {
      const void* packet;
      const char* kernel_name; /* NULL unless a kernel dispatch */
      hsa_queue_t* queue;
      uint32_t device_type;
      uint32_t device_id;
    } submit;
    struct {
      uint64_t object;
      const char* name;
      uint32_t name_length;
      int unload;
    } ksymbol;
    struct {
      uint32_t storage_type;
      int storage_file;
      uint64_t memory_base;
      uint64_t memory_size;
      uint64_t load_base;
      uint64_t load_size;
      uint64_t load_delta;
      uint32_t uri_length; /* without the terminating NUL */
      const char* uri;
      int unload;
    } codeobj;
  };
} hsa_evt_data_t;

#endif /* ROCTRACER_HSA_H_ */
