/* The rocJPEG release whose interface rocjpeg.h here declares. */
#ifndef ROCPROFILER_SDK_ROCJPEG_DETAILS_ROCJPEG_VERSION_H_
#define ROCPROFILER_SDK_ROCJPEG_DETAILS_ROCJPEG_VERSION_H_

#define ROCJPEG_MAJOR_VERSION 0
#define ROCJPEG_MINOR_VERSION 6
#define ROCJPEG_MICRO_VERSION 0

/* Non-zero when that release is at least major.minor.micro. */
#define ROCJPEG_CHECK_VERSION(major, minor, micro)                          \
  (ROCJPEG_MAJOR_VERSION > (major) ||                                       \
   (ROCJPEG_MAJOR_VERSION == (major) && ROCJPEG_MINOR_VERSION > (minor)) || \
   (ROCJPEG_MAJOR_VERSION == (major) && ROCJPEG_MINOR_VERSION == (minor) && \
    ROCJPEG_MICRO_VERSION >= (micro)))

#endif /* ROCPROFILER_SDK_ROCJPEG_DETAILS_ROCJPEG_VERSION_H_ */
