/* rocTX: application annotations (markers, nested per-thread ranges and
 * process-wide start/stop ranges) reported to a tracer when one listens.
 * Costs one atomic load per call when no tracer is attached. */

#ifndef ROCTX_H_
#define ROCTX_H_ 1

#if !defined(ROCTX_CALL)
#define ROCTX_CALL
#endif

#if !defined(ROCTX_EXPORT_DECORATOR)
#if defined(__GNUC__)
#define ROCTX_EXPORT_DECORATOR __attribute__((visibility("default")))
#else
#define ROCTX_EXPORT_DECORATOR
#endif
#endif

#if !defined(ROCTX_IMPORT_DECORATOR)
#define ROCTX_IMPORT_DECORATOR
#endif

#define ROCTX_EXPORT ROCTX_EXPORT_DECORATOR ROCTX_CALL
#define ROCTX_IMPORT ROCTX_IMPORT_DECORATOR ROCTX_CALL

#if !defined(ROCTX)
#if defined(ROCTX_EXPORTS)
#define ROCTX_API ROCTX_EXPORT
#else
#define ROCTX_API ROCTX_IMPORT
#endif
#endif

#include <stdint.h>

#if defined(__cplusplus)
extern "C" {
#endif

/* Every function carries the ELF symbol version "ROCTX_4.1". */
#define ROCTX_VERSION_4_1

#define ROCTX_VERSION_MAJOR 4
#define ROCTX_VERSION_MINOR 1

ROCTX_API uint32_t roctx_version_major(void) ROCTX_VERSION_4_1;
ROCTX_API uint32_t roctx_version_minor(void) ROCTX_VERSION_4_1;

/* Record an instantaneous event. `message` may be NULL; a tracer copies it. */
ROCTX_API void roctxMarkA(const char* message) ROCTX_VERSION_4_1;
#define roctxMark(message) roctxMarkA(message)

/* Open a nested range on the calling thread. Returns the 0-based nesting
 * level of the new range. */
ROCTX_API int roctxRangePushA(const char* message) ROCTX_VERSION_4_1;
#define roctxRangePush(message) roctxRangePushA(message)

/* Close the calling thread's innermost range. Returns its 0-based level, or a
 * negative value when no range is open on this thread. */
ROCTX_API int roctxRangePop(void) ROCTX_VERSION_4_1;

/* Also declared by rocprofiler-sdk-roctx/types.h: C99 forbids a repeated
 * typedef, so whichever header comes first declares it. */
#ifndef ROCTX_RANGE_ID_T_DECLARED_
#define ROCTX_RANGE_ID_T_DECLARED_
typedef uint64_t roctx_range_id_t;
#endif

/* Open a process-wide range that may be closed from any thread. Returns an ID
 * unique within the process (never 0). */
ROCTX_API roctx_range_id_t roctxRangeStartA(const char* message)
    ROCTX_VERSION_4_1;
#define roctxRangeStart(message) roctxRangeStartA(message)

/* Close the range `id` returned by roctxRangeStartA. */
ROCTX_API void roctxRangeStop(roctx_range_id_t id) ROCTX_VERSION_4_1;

/* As ROCm 5.2.3's roctx.h declared it (libroctx64 exports it too): the
 * tracer's last error text when libroctracer64 is loaded, else "". */
const char* roctracer_error_string(void);

#if defined(__cplusplus)
}
#endif

#endif /* ROCTX_H_ */
