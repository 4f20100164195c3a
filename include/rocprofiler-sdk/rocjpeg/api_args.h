/* Arguments and return value of each rocJPEG function, as the ROCJPEG_API
 * callback payload holds them: one member per function, named after it,
 * holding its parameters by value in order. C99 and C++. */
#ifndef ROCPROFILER_SDK_ROCJPEG_API_ARGS_H_
#define ROCPROFILER_SDK_ROCJPEG_API_ARGS_H_

#include <stddef.h>
#include <stdint.h>

#include "rocprofiler-sdk/defines.h"
#include "rocprofiler-sdk/rocjpeg/details/rocjpeg.h"

ROCPROFILER_EXTERN_C_INIT

/* One byte, so that C and C++ agree on the size of a member without
 * arguments. */
typedef struct rocprofiler_rocjpeg_api_no_args {
  char empty;
} rocprofiler_rocjpeg_api_no_args;

typedef union rocprofiler_rocjpeg_api_retval_t {
  int32_t rocJpegStatus_retval;
  const char* const_charp_retval;
} rocprofiler_rocjpeg_api_retval_t;

typedef union rocprofiler_rocjpeg_api_args_t {
  struct {
    RocJpegStreamHandle* jpeg_stream_handle;
  } rocJpegStreamCreate;
  struct {
    const unsigned char* data;
    size_t length;
    RocJpegStreamHandle jpeg_stream_handle;
  } rocJpegStreamParse;
  struct {
    RocJpegStreamHandle jpeg_stream_handle;
  } rocJpegStreamDestroy;
  struct {
    RocJpegBackend backend;
    int device_id;
    RocJpegHandle* handle;
  } rocJpegCreate;
  struct {
    RocJpegHandle handle;
  } rocJpegDestroy;
  struct {
    RocJpegHandle handle;
    RocJpegStreamHandle jpeg_stream_handle;
    uint8_t* num_components;
    RocJpegChromaSubsampling* subsampling;
    uint32_t* widths;
    uint32_t* heights;
  } rocJpegGetImageInfo;
  struct {
    RocJpegHandle handle;
    RocJpegStreamHandle jpeg_stream_handle;
    const RocJpegDecodeParams* decode_params;
    RocJpegImage* destination;
  } rocJpegDecode;
  struct {
    RocJpegHandle handle;
    RocJpegStreamHandle* jpeg_stream_handles;
    int batch_size;
    const RocJpegDecodeParams* decode_params;
    RocJpegImage* destinations;
  } rocJpegDecodeBatched;
  struct {
    RocJpegStatus rocjpeg_status;
  } rocJpegGetErrorName;
} rocprofiler_rocjpeg_api_args_t;

ROCPROFILER_EXTERN_C_FINI

#endif /* ROCPROFILER_SDK_ROCJPEG_API_ARGS_H_ */
