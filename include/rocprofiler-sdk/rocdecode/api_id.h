/* Operations of the ROCDECODE_API kinds: one per rocDecode function, numbered
 * as rocprofiler-sdk 1.0.0 numbers them (the bitstream reader's, table step
 * 1, last). C99 and C++. */
#ifndef ROCPROFILER_SDK_ROCDECODE_API_ID_H_
#define ROCPROFILER_SDK_ROCDECODE_API_ID_H_

#include "rocprofiler-sdk/rocdecode/api_trace.h"

typedef enum rocprofiler_rocdecode_api_id_t {
  ROCPROFILER_ROCDECODE_API_ID_NONE = -1,
  ROCPROFILER_ROCDECODE_API_ID_rocDecCreateVideoParser = 0,
  ROCPROFILER_ROCDECODE_API_ID_rocDecParseVideoData,
  ROCPROFILER_ROCDECODE_API_ID_rocDecDestroyVideoParser,
  ROCPROFILER_ROCDECODE_API_ID_rocDecCreateDecoder,
  ROCPROFILER_ROCDECODE_API_ID_rocDecDestroyDecoder,
  ROCPROFILER_ROCDECODE_API_ID_rocDecGetDecoderCaps,
  ROCPROFILER_ROCDECODE_API_ID_rocDecDecodeFrame,
  ROCPROFILER_ROCDECODE_API_ID_rocDecGetDecodeStatus,
  ROCPROFILER_ROCDECODE_API_ID_rocDecReconfigureDecoder,
  ROCPROFILER_ROCDECODE_API_ID_rocDecGetVideoFrame,
  ROCPROFILER_ROCDECODE_API_ID_rocDecGetErrorName,
  ROCPROFILER_ROCDECODE_API_ID_rocDecCreateBitstreamReader,
  ROCPROFILER_ROCDECODE_API_ID_rocDecGetBitstreamCodecType,
  ROCPROFILER_ROCDECODE_API_ID_rocDecGetBitstreamBitDepth,
  ROCPROFILER_ROCDECODE_API_ID_rocDecGetBitstreamPicData,
  ROCPROFILER_ROCDECODE_API_ID_rocDecDestroyBitstreamReader,
  ROCPROFILER_ROCDECODE_API_ID_LAST
} rocprofiler_rocdecode_api_id_t;

#endif /* ROCPROFILER_SDK_ROCDECODE_API_ID_H_ */
