/* rocDecode's dispatch table (rocDecode 0.10, table version 0 step 1): one
 * function pointer per rocDecode function, in the order a tool given the
 * table through the intercept-table service finds them. C99 and C++. */
#ifndef ROCPROFILER_SDK_ROCDECODE_DETAILS_ROCDECODE_API_TRACE_H_
#define ROCPROFILER_SDK_ROCDECODE_DETAILS_ROCDECODE_API_TRACE_H_

#include <stddef.h>
#include <stdint.h>

#include "rocprofiler-sdk/rocdecode/details/roc_bitstream_reader.h"
#include "rocprofiler-sdk/rocdecode/details/rocdecode.h"
#include "rocprofiler-sdk/rocdecode/details/rocparser.h"

#define ROCDECODE_RUNTIME_API_TABLE_MAJOR_VERSION 0
#define ROCDECODE_RUNTIME_API_TABLE_STEP_VERSION 1

#ifdef __cplusplus
extern "C" {
#endif

typedef rocDecStatus(ROCDECAPI* PfnRocDecCreateVideoParser)(
    RocdecVideoParser* parser_handle, RocdecParserParams* params);
typedef rocDecStatus(ROCDECAPI* PfnRocDecParseVideoData)(
    RocdecVideoParser parser_handle, RocdecSourceDataPacket* packet);
typedef rocDecStatus(ROCDECAPI* PfnRocDecDestroyVideoParser)(
    RocdecVideoParser parser_handle);
typedef rocDecStatus(ROCDECAPI* PfnRocDecCreateDecoder)(
    rocDecDecoderHandle* decoder_handle,
    RocDecoderCreateInfo* decoder_create_info);
typedef rocDecStatus(ROCDECAPI* PfnRocDecDestroyDecoder)(
    rocDecDecoderHandle decoder_handle);
typedef rocDecStatus(ROCDECAPI* PfnRocDecGetDecoderCaps)(
    RocdecDecodeCaps* decode_caps);
typedef rocDecStatus(ROCDECAPI* PfnRocDecDecodeFrame)(
    rocDecDecoderHandle decoder_handle, RocdecPicParams* pic_params);
typedef rocDecStatus(ROCDECAPI* PfnRocDecGetDecodeStatus)(
    rocDecDecoderHandle decoder_handle, int pic_idx,
    RocdecDecodeStatus* decode_status);
typedef rocDecStatus(ROCDECAPI* PfnRocDecReconfigureDecoder)(
    rocDecDecoderHandle decoder_handle,
    RocdecReconfigureDecoderInfo* reconfig_params);
typedef rocDecStatus(ROCDECAPI* PfnRocDecGetVideoFrame)(
    rocDecDecoderHandle decoder_handle, int pic_idx, void* dev_mem_ptr[3],
    uint32_t* horizontal_pitch, RocdecProcParams* vid_postproc_params);
typedef const char*(ROCDECAPI* PfnRocDecGetErrorName)(
    rocDecStatus rocdec_status);
typedef rocDecStatus(ROCDECAPI* PfnRocDecCreateBitstreamReader)(
    RocdecBitstreamReader* bs_reader_handle, const char* input_file_path);
typedef rocDecStatus(ROCDECAPI* PfnRocDecGetBitstreamCodecType)(
    RocdecBitstreamReader bs_reader_handle, rocDecVideoCodec* codec_type);
typedef rocDecStatus(ROCDECAPI* PfnRocDecGetBitstreamBitDepth)(
    RocdecBitstreamReader bs_reader_handle, int* bit_depth);
typedef rocDecStatus(ROCDECAPI* PfnRocDecGetBitstreamPicData)(
    RocdecBitstreamReader bs_reader_handle, uint8_t** pic_data, int* pic_size,
    int64_t* pts);
typedef rocDecStatus(ROCDECAPI* PfnRocDecDestroyBitstreamReader)(
    RocdecBitstreamReader bs_reader_handle);

/* `size` is the table's size in bytes as the runtime filled it: a tool reads
 * only the entries that fit. */
struct RocDecodeDispatchTable {
  size_t size;
  PfnRocDecCreateVideoParser pfn_rocdec_create_video_parser;
  PfnRocDecParseVideoData pfn_rocdec_parse_video_data;
  PfnRocDecDestroyVideoParser pfn_rocdec_destroy_video_parser;
  PfnRocDecCreateDecoder pfn_rocdec_create_decoder;
  PfnRocDecDestroyDecoder pfn_rocdec_destroy_decoder;
  PfnRocDecGetDecoderCaps
      pfn_rocdec_get_gecoder_caps; /* rocDecode's spelling */
  PfnRocDecDecodeFrame pfn_rocdec_decode_frame;
  PfnRocDecGetDecodeStatus pfn_rocdec_get_decode_status;
  PfnRocDecReconfigureDecoder pfn_rocdec_reconfigure_decoder;
  PfnRocDecGetVideoFrame pfn_rocdec_get_video_frame;
  PfnRocDecGetErrorName pfn_rocdec_get_error_name;
  PfnRocDecCreateBitstreamReader pfn_rocdec_create_bitstream_reader;
  PfnRocDecGetBitstreamCodecType pfn_rocdec_get_bitstream_codec_type;
  PfnRocDecGetBitstreamBitDepth pfn_rocdec_get_bitstream_bit_depth;
  PfnRocDecGetBitstreamPicData pfn_rocdec_get_bitstream_pic_data;
  PfnRocDecDestroyBitstreamReader pfn_rocdec_destroy_bitstream_reader;
};

#ifdef __cplusplus
}
#endif

#endif /* ROCPROFILER_SDK_ROCDECODE_DETAILS_ROCDECODE_API_TRACE_H_ */
