/* The interface of a roctracer output plugin (ROCm >= 5.4): a shared library
 * a tracing tool loads to write the records it collects. The plugin defines
 * these four functions; the tool calls them. Nothing here is implemented by
 * libroctracer64.so. */

#ifndef ROCTRACER_PLUGIN_H_
#define ROCTRACER_PLUGIN_H_

#include <stdint.h>

#include "roctracer.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Called once, before any record, with the version of roctracer the tool
 * uses. Returns 0 when the plugin can work with it, non-zero to refuse. */
ROCTRACER_EXPORT int roctracer_plugin_initialize(
    uint32_t roctracer_major_version, uint32_t roctracer_minor_version);

/* Called once, after the last record: flush and release everything. */
ROCTRACER_EXPORT void roctracer_plugin_finalize(void);

/* One record of a synchronous callback (`callback_data` is the domain's
 * hsa_api_data_t, hip_api_data_t, roctx_api_data_t, ...). Returns 0 on
 * success. */
ROCTRACER_EXPORT int roctracer_plugin_write_callback_record(
    const roctracer_record_t* record, const void* callback_data);

/* The activity records [begin, end) of a delivered buffer. Returns 0 on
 * success. */
ROCTRACER_EXPORT int roctracer_plugin_write_activity_records(
    const roctracer_record_t* begin, const roctracer_record_t* end);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* ROCTRACER_PLUGIN_H_ */
