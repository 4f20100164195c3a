/* rocJPEG's dispatch table (what rocJPEG hands a profiler through
 * rocprofiler-register, ROCPROFILER_ROCJPEG_TABLE). Members are only ever
 * appended; `size` is the table's size in bytes as the library built it. */
#ifndef ROCPROFILER_SDK_ROCJPEG_DETAILS_ROCJPEG_API_TRACE_H_
#define ROCPROFILER_SDK_ROCJPEG_DETAILS_ROCJPEG_API_TRACE_H_

#include "rocprofiler-sdk/rocjpeg/details/rocjpeg.h"

#define ROCJPEG_RUNTIME_API_TABLE_MAJOR_VERSION 0
#define ROCJPEG_RUNTIME_API_TABLE_STEP_VERSION 0

typedef RocJpegStatus(ROCJPEGAPI* PfnRocJpegStreamCreate)(
    RocJpegStreamHandle* jpeg_stream_handle);
typedef RocJpegStatus(ROCJPEGAPI* PfnRocJpegStreamParse)(
    const unsigned char* data, size_t length,
    RocJpegStreamHandle jpeg_stream_handle);
typedef RocJpegStatus(ROCJPEGAPI* PfnRocJpegStreamDestroy)(
    RocJpegStreamHandle jpeg_stream_handle);
typedef RocJpegStatus(ROCJPEGAPI* PfnRocJpegCreate)(RocJpegBackend backend,
                                                    int device_id,
                                                    RocJpegHandle* handle);
typedef RocJpegStatus(ROCJPEGAPI* PfnRocJpegDestroy)(RocJpegHandle handle);
typedef RocJpegStatus(ROCJPEGAPI* PfnRocJpegGetImageInfo)(
    RocJpegHandle handle, RocJpegStreamHandle jpeg_stream_handle,
    uint8_t* num_components, RocJpegChromaSubsampling* subsampling,
    uint32_t* widths, uint32_t* heights);
typedef RocJpegStatus(ROCJPEGAPI* PfnRocJpegDecode)(
    RocJpegHandle handle, RocJpegStreamHandle jpeg_stream_handle,
    const RocJpegDecodeParams* decode_params, RocJpegImage* destination);
typedef RocJpegStatus(ROCJPEGAPI* PfnRocJpegDecodeBatched)(
    RocJpegHandle handle, RocJpegStreamHandle* jpeg_stream_handles,
    int batch_size, const RocJpegDecodeParams* decode_params,
    RocJpegImage* destinations);
typedef const char*(ROCJPEGAPI* PfnRocJpegGetErrorName)(
    RocJpegStatus rocjpeg_status);

#ifdef __cplusplus
extern "C" {
#endif

struct RocJpegDispatchTable {
  size_t size;
  PfnRocJpegStreamCreate pfn_rocjpeg_stream_create;
  PfnRocJpegStreamParse pfn_rocjpeg_stream_parse;
  PfnRocJpegStreamDestroy pfn_rocjpeg_stream_destroy;
  PfnRocJpegCreate pfn_rocjpeg_create;
  PfnRocJpegDestroy pfn_rocjpeg_destroy;
  PfnRocJpegGetImageInfo pfn_rocjpeg_get_image_info;
  PfnRocJpegDecode pfn_rocjpeg_decode;
  PfnRocJpegDecodeBatched pfn_rocjpeg_decode_batched;
  PfnRocJpegGetErrorName pfn_rocjpeg_get_error_name;
};
/* The table's name without `struct`, in C as in C++. */
typedef struct RocJpegDispatchTable RocJpegDispatchTable;

#ifdef __cplusplus
}
#endif

#endif /* ROCPROFILER_SDK_ROCJPEG_DETAILS_ROCJPEG_API_TRACE_H_ */
