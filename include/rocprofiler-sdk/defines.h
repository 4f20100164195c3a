/* Macros shared by the rocprofiler-sdk headers of this implementation. */
#ifndef ROCPROFILER_SDK_DEFINES_H_
#define ROCPROFILER_SDK_DEFINES_H_

/* Every rocprofiler_* function of the library is exported with this; the
 * library itself is built with -fvisibility=hidden. */
#if defined(__GNUC__)
#define ROCPROFILER_PUBLIC_API __attribute__((visibility("default")))
/* The library itself checks these arguments (it must not crash on NULL), so
 * it is built without the attribute that would let the compiler drop the
 * check. */
#if defined(ROCPROFILER_SDK_BUILDING)
#define ROCPROFILER_NONNULL(...)
#else
#define ROCPROFILER_NONNULL(...) __attribute__((nonnull(__VA_ARGS__)))
#endif
#else
#define ROCPROFILER_PUBLIC_API
#define ROCPROFILER_NONNULL(...)
#endif
#define ROCPROFILER_API ROCPROFILER_PUBLIC_API

#define ROCPROFILER_SDK_COMPUTE_VERSION(MAJOR, MINOR, PATCH) \
  ((10000 * (MAJOR)) + (100 * (MINOR)) + (PATCH))

#ifdef __cplusplus
#define ROCPROFILER_EXTERN_C_INIT extern "C" {
#define ROCPROFILER_EXTERN_C_FINI }
#define ROCPROFILER_HANDLE_LITERAL(type, value) (type{value})
#define ROCPROFILER_UINT64_C(value) static_cast<uint64_t>(value##ULL)
#else
#define ROCPROFILER_EXTERN_C_INIT
#define ROCPROFILER_EXTERN_C_FINI
#define ROCPROFILER_HANDLE_LITERAL(type, value) ((type){value})
#define ROCPROFILER_UINT64_C(value) ((uint64_t)(value##ULL))
#endif

/* Marks the features rocprofiler-sdk 1.0.0 calls experimental or deprecated
 * (counters, PC sampling, thread trace, SPM, OMPT). As in that release, they
 * produce no compiler warning unless ROCPROFILER_SDK_DEPRECATED_WARNINGS is
 * defined > 0 (deprecated) or ROCPROFILER_SDK_EXPERIMENTAL_WARNINGS > 0. */
#if defined(__cplusplus) && __cplusplus >= 201402L
#define ROCPROFILER_SDK_DEPRECATED_MESSAGE(...) [[deprecated(__VA_ARGS__)]]
#elif defined(__GNUC__)
#define ROCPROFILER_SDK_DEPRECATED_MESSAGE(...) __attribute__((deprecated))
#else
#define ROCPROFILER_SDK_DEPRECATED_MESSAGE(...)
#endif
#if defined(ROCPROFILER_SDK_DEPRECATED_WARNINGS) && \
    ROCPROFILER_SDK_DEPRECATED_WARNINGS > 0
#define ROCPROFILER_SDK_DEPRECATED(...) \
  ROCPROFILER_SDK_DEPRECATED_MESSAGE(__VA_ARGS__)
#else
#define ROCPROFILER_SDK_DEPRECATED(...)
#endif
#if defined(ROCPROFILER_SDK_EXPERIMENTAL_WARNINGS) && \
    ROCPROFILER_SDK_EXPERIMENTAL_WARNINGS > 0
#define ROCPROFILER_SDK_EXPERIMENTAL \
  ROCPROFILER_SDK_DEPRECATED_MESSAGE("experimental rocprofiler-sdk feature")
#else
#define ROCPROFILER_SDK_EXPERIMENTAL
#endif

#endif /* ROCPROFILER_SDK_DEFINES_H_ */
