/* rocTX as rocprofiler-sdk-roctx declares it: the markers and ranges of
 * roctx.h, plus requests an application makes of whatever profiling tool is
 * attached (pause/resume, naming threads, agents, devices and streams) and
 * roctxGetThreadId. libroctx64.so implements all of it. C99 and C++.
 *
 * The requests are delivered to rocprofiler-sdk tools as the MARKER_CONTROL_API
 * and MARKER_NAME_API callback-tracing kinds. roctxProfilerPause/Resume also
 * act as roctracer_stop/roctracer_start for roctracer's own callbacks and
 * activity (process-wide: roctracer cannot stop one thread). Every function
 * returns 0 on success, non-zero for a NULL pointer argument. */
#ifndef ROCPROFILER_SDK_ROCTX_ROCTX_H_
#define ROCPROFILER_SDK_ROCTX_ROCTX_H_

#include <stddef.h>
#include <stdint.h>

#include "rocprofiler-sdk-roctx/types.h"

#if defined(__GNUC__)
#define ROCTX_SDK_PUBLIC_ __attribute__((visibility("default")))
#else
#define ROCTX_SDK_PUBLIC_
#endif

#if defined(__cplusplus)
extern "C" {
#endif

/* Forward declarations: the HSA and HIP headers are not needed to call these. */
struct hsa_agent_s;
struct ihipStream_t;

ROCTX_SDK_PUBLIC_ void roctxMarkA(const char* message);
ROCTX_SDK_PUBLIC_ int roctxRangePushA(const char* message);
ROCTX_SDK_PUBLIC_ int roctxRangePop(void);
ROCTX_SDK_PUBLIC_ roctx_range_id_t roctxRangeStartA(const char* message);
ROCTX_SDK_PUBLIC_ void roctxRangeStop(roctx_range_id_t id);

/* tid: 0 for the whole process, else one thread (roctxGetThreadId). A tool
 * already paused (resumed) ignores the request and returns 0. */
ROCTX_SDK_PUBLIC_ int roctxProfilerPause(roctx_thread_id_t tid);
ROCTX_SDK_PUBLIC_ int roctxProfilerResume(roctx_thread_id_t tid);

/* Labels for a tool's output; nothing is renamed (no pthread_setname_np). */
ROCTX_SDK_PUBLIC_ int roctxNameOsThread(const char* name);
ROCTX_SDK_PUBLIC_ int roctxNameHsaAgent(const char* name,
                                        const struct hsa_agent_s* agent);
ROCTX_SDK_PUBLIC_ int roctxNameHipDevice(const char* name, int device_id);
ROCTX_SDK_PUBLIC_ int roctxNameHipStream(const char* name,
                                         const struct ihipStream_t* stream);

/* The calling thread's ID, equal to what rocprofiler_get_thread_id gives a
 * tool on the same thread. */
ROCTX_SDK_PUBLIC_ int roctxGetThreadId(roctx_thread_id_t* tid);

#if defined(__cplusplus)
}
#endif

#if !defined(roctxMark)
#define roctxMark(message) roctxMarkA(message)
#endif
#if !defined(roctxRangePush)
#define roctxRangePush(message) roctxRangePushA(message)
#endif
#if !defined(roctxRangeStart)
#define roctxRangeStart(message) roctxRangeStartA(message)
#endif

#endif /* ROCPROFILER_SDK_ROCTX_ROCTX_H_ */
