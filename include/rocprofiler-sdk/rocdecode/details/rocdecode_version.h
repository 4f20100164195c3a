/* The rocDecode release whose interface these headers declare (0.10, the
 * one rocprofiler-sdk 1.0.0 bundles) and rocDecode's version test. C99 and
 * C++. */
#ifndef ROCDECODE_VERSION_H
#define ROCDECODE_VERSION_H

#define ROCDECODE_MAJOR_VERSION 0
#define ROCDECODE_MINOR_VERSION 10
#define ROCDECODE_MICRO_VERSION 0

/* Nonzero when this release is at least major.minor.micro. */
#define ROCDECODE_CHECK_VERSION(major, minor, micro) \
  (ROCDECODE_MAJOR_VERSION > (major) ||              \
   (ROCDECODE_MAJOR_VERSION == (major) &&            \
    ROCDECODE_MINOR_VERSION > (minor)) ||            \
   (ROCDECODE_MAJOR_VERSION == (major) &&            \
    ROCDECODE_MINOR_VERSION == (minor) && ROCDECODE_MICRO_VERSION >= (micro)))

#endif /* ROCDECODE_VERSION_H */
