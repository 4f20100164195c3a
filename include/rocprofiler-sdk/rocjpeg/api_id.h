/* Operations of the ROCJPEG_API kinds: one per rocJPEG function, numbered
 * as rocprofiler-sdk 1.0.0 numbers them. C99 and C++. */
#ifndef ROCPROFILER_SDK_ROCJPEG_API_ID_H_
#define ROCPROFILER_SDK_ROCJPEG_API_ID_H_

typedef enum rocprofiler_rocjpeg_api_id_t {
  ROCPROFILER_ROCJPEG_API_ID_NONE = -1,
  ROCPROFILER_ROCJPEG_API_ID_rocJpegStreamCreate = 0,
  ROCPROFILER_ROCJPEG_API_ID_rocJpegStreamParse,
  ROCPROFILER_ROCJPEG_API_ID_rocJpegStreamDestroy,
  ROCPROFILER_ROCJPEG_API_ID_rocJpegCreate,
  ROCPROFILER_ROCJPEG_API_ID_rocJpegDestroy,
  ROCPROFILER_ROCJPEG_API_ID_rocJpegGetImageInfo,
  ROCPROFILER_ROCJPEG_API_ID_rocJpegDecode,
  ROCPROFILER_ROCJPEG_API_ID_rocJpegDecodeBatched,
  ROCPROFILER_ROCJPEG_API_ID_rocJpegGetErrorName,
  ROCPROFILER_ROCJPEG_API_ID_LAST
} rocprofiler_rocjpeg_api_id_t;

#endif /* ROCPROFILER_SDK_ROCJPEG_API_ID_H_ */
