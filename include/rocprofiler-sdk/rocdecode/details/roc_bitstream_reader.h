/* rocDecode's elementary-stream reader (roc_bitstream_reader.h of rocDecode
 * 0.10): its handle and functions. Declarations only. C99 and C++. */
#ifndef ROCPROFILER_SDK_ROCDECODE_DETAILS_ROC_BITSTREAM_READER_H_
#define ROCPROFILER_SDK_ROCDECODE_DETAILS_ROC_BITSTREAM_READER_H_

#include "rocprofiler-sdk/rocdecode/details/rocdecode.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef void* RocdecBitstreamReader;

extern rocDecStatus ROCDECAPI rocDecCreateBitstreamReader(
    RocdecBitstreamReader* bs_reader_handle, const char* input_file_path);
extern rocDecStatus ROCDECAPI rocDecGetBitstreamCodecType(
    RocdecBitstreamReader bs_reader_handle, rocDecVideoCodec* codec_type);
extern rocDecStatus ROCDECAPI rocDecGetBitstreamBitDepth(
    RocdecBitstreamReader bs_reader_handle, int* bit_depth);
extern rocDecStatus ROCDECAPI
rocDecGetBitstreamPicData(RocdecBitstreamReader bs_reader_handle,
                          uint8_t** pic_data, int* pic_size, int64_t* pts);
extern rocDecStatus ROCDECAPI
rocDecDestroyBitstreamReader(RocdecBitstreamReader bs_reader_handle);

#ifdef __cplusplus
}
#endif

#endif /* ROCPROFILER_SDK_ROCDECODE_DETAILS_ROC_BITSTREAM_READER_H_ */
