/* rocJPEG's public types and functions, as far as a tool reading the
 * ROCJPEG_API callback payloads needs them (rocJPEG 0.6, the release
 * rocprofiler-sdk 1.0.0 describes). Declared here so that tools compile
 * without rocJPEG installed; this library does not trace rocJPEG. C99 and
 * C++. */
#ifndef ROCPROFILER_SDK_ROCJPEG_DETAILS_ROCJPEG_H_
#define ROCPROFILER_SDK_ROCJPEG_DETAILS_ROCJPEG_H_

#include <stddef.h>
#include <stdint.h>

#include "rocprofiler-sdk/rocjpeg/details/rocjpeg_version.h"

#ifndef ROCJPEGAPI
#define ROCJPEGAPI
#endif

#ifdef __cplusplus
extern "C" {
#endif

#define ROCJPEG_MAX_COMPONENT 4

typedef enum {
  ROCJPEG_STATUS_SUCCESS = 0,
  ROCJPEG_STATUS_NOT_INITIALIZED = -1,
  ROCJPEG_STATUS_INVALID_PARAMETER = -2,
  ROCJPEG_STATUS_BAD_JPEG = -3,
  ROCJPEG_STATUS_JPEG_NOT_SUPPORTED = -4,
  ROCJPEG_STATUS_OUTOF_MEMORY = -5,
  ROCJPEG_STATUS_EXECUTION_FAILED = -6,
  ROCJPEG_STATUS_ARCH_MISMATCH = -7,
  ROCJPEG_STATUS_INTERNAL_ERROR = -8,
  ROCJPEG_STATUS_IMPLEMENTATION_NOT_SUPPORTED = -9,
  ROCJPEG_STATUS_HW_JPEG_DECODER_NOT_SUPPORTED = -10,
  ROCJPEG_STATUS_RUNTIME_ERROR = -11,
  ROCJPEG_STATUS_NOT_IMPLEMENTED = -12
} RocJpegStatus;

typedef enum {
  ROCJPEG_CSS_444 = 0,
  ROCJPEG_CSS_440 = 1,
  ROCJPEG_CSS_422 = 2,
  ROCJPEG_CSS_420 = 3,
  ROCJPEG_CSS_411 = 4,
  ROCJPEG_CSS_400 = 5,
  ROCJPEG_CSS_UNKNOWN = -1
} RocJpegChromaSubsampling;

/* A decoded image: one pointer and one pitch per channel. */
typedef struct {
  uint8_t* channel[ROCJPEG_MAX_COMPONENT];
  uint32_t pitch[ROCJPEG_MAX_COMPONENT];
} RocJpegImage;

typedef enum {
  ROCJPEG_OUTPUT_NATIVE = 0,
  ROCJPEG_OUTPUT_YUV_PLANAR = 1,
  ROCJPEG_OUTPUT_Y = 2,
  ROCJPEG_OUTPUT_RGB = 3,
  ROCJPEG_OUTPUT_RGB_PLANAR = 4,
  ROCJPEG_OUTPUT_FORMAT_MAX = 5
} RocJpegOutputFormat;

typedef struct {
  RocJpegOutputFormat output_format;
  struct {
    int16_t left;
    int16_t top;
    int16_t right;
    int16_t bottom;
  } crop_rectangle;
  struct {
    uint32_t width;
    uint32_t height;
  } target_dimension;
} RocJpegDecodeParams;

typedef enum {
  ROCJPEG_BACKEND_HARDWARE = 0,
  ROCJPEG_BACKEND_HYBRID = 1
} RocJpegBackend;

typedef void* RocJpegStreamHandle;
typedef void* RocJpegHandle;

RocJpegStatus ROCJPEGAPI
rocJpegStreamCreate(RocJpegStreamHandle* jpeg_stream_handle);
RocJpegStatus ROCJPEGAPI
rocJpegStreamParse(const unsigned char* data, size_t length,
                   RocJpegStreamHandle jpeg_stream_handle);
RocJpegStatus ROCJPEGAPI
rocJpegStreamDestroy(RocJpegStreamHandle jpeg_stream_handle);
RocJpegStatus ROCJPEGAPI rocJpegCreate(RocJpegBackend backend, int device_id,
                                       RocJpegHandle* handle);
RocJpegStatus ROCJPEGAPI rocJpegDestroy(RocJpegHandle handle);
RocJpegStatus ROCJPEGAPI rocJpegGetImageInfo(
    RocJpegHandle handle, RocJpegStreamHandle jpeg_stream_handle,
    uint8_t* num_components, RocJpegChromaSubsampling* subsampling,
    uint32_t* widths, uint32_t* heights);
RocJpegStatus ROCJPEGAPI rocJpegDecode(RocJpegHandle handle,
                                       RocJpegStreamHandle jpeg_stream_handle,
                                       const RocJpegDecodeParams* decode_params,
                                       RocJpegImage* destination);
RocJpegStatus ROCJPEGAPI rocJpegDecodeBatched(
    RocJpegHandle handle, RocJpegStreamHandle* jpeg_stream_handles,
    int batch_size, const RocJpegDecodeParams* decode_params,
    RocJpegImage* destinations);
const char* ROCJPEGAPI rocJpegGetErrorName(RocJpegStatus rocjpeg_status);

#ifdef __cplusplus
}
#endif

#endif /* ROCPROFILER_SDK_ROCJPEG_DETAILS_ROCJPEG_H_ */
