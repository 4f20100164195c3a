/* Arguments and return values of the ROCDECODE_API kinds' operations
 * (rocprofiler_rocdecode_api_id_t): one member per rocDecode function,
 * holding its parameters in order, as rocprofiler-sdk 1.0.0 lays them out.
 * C99 and C++. */
#ifndef ROCPROFILER_SDK_ROCDECODE_API_ARGS_H_
#define ROCPROFILER_SDK_ROCDECODE_API_ARGS_H_

#include <stdint.h>

#include "rocprofiler-sdk/defines.h"
#include "rocprofiler-sdk/rocdecode/api_trace.h"
#include "rocprofiler-sdk/rocdecode/details/roc_bitstream_reader.h"
#include "rocprofiler-sdk/rocdecode/details/rocdecode.h"
#include "rocprofiler-sdk/rocdecode/details/rocparser.h"

ROCPROFILER_EXTERN_C_INIT

typedef struct rocprofiler_rocdecode_api_no_args {
  char empty;
} rocprofiler_rocdecode_api_no_args;

typedef union rocprofiler_rocdecode_api_retval_t {
  uint64_t uint64_t_retval;
  int32_t rocDecStatus_retval;
  const char* const_charp_retval;
} rocprofiler_rocdecode_api_retval_t;

typedef union rocprofiler_rocdecode_api_args_t {
  struct {
    RocdecVideoParser* parser_handle;
    RocdecParserParams* params;
  } rocDecCreateVideoParser;
  struct {
    RocdecVideoParser parser_handle;
    RocdecSourceDataPacket* packet;
  } rocDecParseVideoData;
  struct {
    RocdecVideoParser parser_handle;
  } rocDecDestroyVideoParser;
  struct {
    rocDecDecoderHandle* decoder_handle;
    RocDecoderCreateInfo* decoder_create_info;
  } rocDecCreateDecoder;
  struct {
    rocDecDecoderHandle decoder_handle;
  } rocDecDestroyDecoder;
  struct {
    RocdecDecodeCaps* decode_caps;
  } rocDecGetDecoderCaps;
  struct {
    rocDecDecoderHandle decoder_handle;
    RocdecPicParams* pic_params;
  } rocDecDecodeFrame;
  struct {
    rocDecDecoderHandle decoder_handle;
    int pic_idx;
    RocdecDecodeStatus* decode_status;
  } rocDecGetDecodeStatus;
  struct {
    rocDecDecoderHandle decoder_handle;
    RocdecReconfigureDecoderInfo* reconfig_params;
  } rocDecReconfigureDecoder;
  struct {
    rocDecDecoderHandle decoder_handle;
    int pic_idx;
    void** dev_mem_ptr;
    uint32_t* horizontal_pitch;
    RocdecProcParams* vid_postproc_params;
  } rocDecGetVideoFrame;
  struct {
    rocDecStatus rocdec_status;
  } rocDecGetErrorName;
  struct {
    RocdecBitstreamReader* bs_reader_handle;
    const char* input_file_path;
  } rocDecCreateBitstreamReader;
  struct {
    RocdecBitstreamReader bs_reader_handle;
    rocDecVideoCodec* codec_type;
  } rocDecGetBitstreamCodecType;
  struct {
    RocdecBitstreamReader bs_reader_handle;
    int* bit_depth;
  } rocDecGetBitstreamBitDepth;
  struct {
    RocdecBitstreamReader bs_reader_handle;
    uint8_t** pic_data;
    int* pic_size;
    int64_t* pts;
  } rocDecGetBitstreamPicData;
  struct {
    RocdecBitstreamReader bs_reader_handle;
  } rocDecDestroyBitstreamReader;
} rocprofiler_rocdecode_api_args_t;

ROCPROFILER_EXTERN_C_FINI

#endif /* ROCPROFILER_SDK_ROCDECODE_API_ARGS_H_ */
