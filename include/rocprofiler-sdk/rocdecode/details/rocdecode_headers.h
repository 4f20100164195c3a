/* Which rocDecode headers the rocDecode declarations come from. As in
 * rocprofiler-sdk 1.0.0, always the bundled ones (0), installed rocDecode
 * or not, so the ROCDECODE_API layouts are the same everywhere. C99 and
 * C++. */
#ifndef ROCPROFILER_SDK_ROCDECODE_DETAILS_ROCDECODE_HEADERS_H_
#define ROCPROFILER_SDK_ROCDECODE_DETAILS_ROCDECODE_HEADERS_H_

#ifndef ROCPROFILER_SDK_USE_SYSTEM_ROCDECODE
#define ROCPROFILER_SDK_USE_SYSTEM_ROCDECODE 0
#endif

#endif /* ROCPROFILER_SDK_ROCDECODE_DETAILS_ROCDECODE_HEADERS_H_ */
