/* The attribute and linkage macros rocprofiler-sdk-roctx's headers declare
 * (names and meanings of rocprofiler-sdk 1.0.0's
 * <rocprofiler-sdk-roctx/defines.h>), for tools that use them in their own
 * declarations. Each is left alone when the includer defined it first.
 * roctx.h does not include it (1.0.0's does): roctracer's <roctx.h> defines
 * ROCTX_EXPORT and ROCTX_IMPORT otherwise, and a program may include both
 * rocTX headers. C99 and C++. */
#ifndef ROCPROFILER_SDK_ROCTX_DEFINES_H_
#define ROCPROFILER_SDK_ROCTX_DEFINES_H_

/* Marks functions of the first rocprofiler-sdk-roctx interface (the symbols
 * of libroctx64.so.4 that librocprofiler-sdk-roctx.so.1 forwards to). */
#define ROCPROFILER_SDK_ROCTX_VERSION_0_0

#if !defined(ROCTX_ATTRIBUTE)
#define ROCTX_ATTRIBUTE(...) __attribute__((__VA_ARGS__))
#endif

#if !defined(ROCTX_PUBLIC_API)
#define ROCTX_PUBLIC_API ROCTX_ATTRIBUTE(visibility("default"))
#endif

#if !defined(ROCTX_HIDDEN_API)
#define ROCTX_HIDDEN_API ROCTX_ATTRIBUTE(visibility("hidden"))
#endif

#if !defined(ROCTX_EXPORT_DECORATOR)
#define ROCTX_EXPORT_DECORATOR ROCTX_PUBLIC_API
#endif

/* ELF needs nothing to import a symbol. */
#if !defined(ROCTX_IMPORT_DECORATOR)
#define ROCTX_IMPORT_DECORATOR
#endif

#define ROCTX_EXPORT ROCTX_EXPORT_DECORATOR
#define ROCTX_IMPORT ROCTX_IMPORT_DECORATOR

/* Exported while building the library itself (roctx_EXPORTS), imported by
 * everyone else. */
#if !defined(ROCTX_API)
#if defined(roctx_EXPORTS)
#define ROCTX_API ROCTX_EXPORT
#else
#define ROCTX_API ROCTX_IMPORT
#endif
#endif

#if !defined(ROCTX_NONNULL)
#if defined(__GNUC__) || defined(__clang__)
#define ROCTX_NONNULL(...) __attribute__((nonnull(__VA_ARGS__)))
#else
#define ROCTX_NONNULL(...)
#endif
#endif

#ifdef __cplusplus
#define ROCTX_EXTERN_C_INIT extern "C" {
#define ROCTX_EXTERN_C_FINI }
#else
#define ROCTX_EXTERN_C_INIT
#define ROCTX_EXTERN_C_FINI
#endif

#endif /* ROCPROFILER_SDK_ROCTX_DEFINES_H_ */
