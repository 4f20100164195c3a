#!/bin/bash
# librocprofiler-sdk.so.1 as a tool author uses it: the system C compiler,
# default flags, -lrocprofiler-sdk against the installed layout
# (librocprofiler-sdk.so -> .so.1 beside libroctracer64.so.4).
set -euo pipefail
sdk_so="$1" roctracer_so="$2" client_c="$3" rocprofiler_h="$4" roctracer_h="$5"
sdk_generated_h="$6"  # codegen/sdk/rocprofiler-sdk/hsa/api_id.h
generated_h="$7"      # codegen/hsa_api_data.h
rocm_include=$(cd "$(dirname "$8")/.." && pwd)  # <release>/include/hsa/hsa.h
client_cxx="$9"       # the same through the C++ helpers, built by g++
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp "$sdk_so" "$work/librocprofiler-sdk.so.1"
ln -s librocprofiler-sdk.so.1 "$work/librocprofiler-sdk.so"
cp "$roctracer_so" "$work/libroctracer64.so.4"
inc=(-I"$(cd "$(dirname "$rocprofiler_h")/.." && pwd)"
     -I"$(cd "$(dirname "$roctracer_h")" && pwd)"
     -I"$(cd "$(dirname "$sdk_generated_h")/../.." && pwd)"
     -I"$(cd "$(dirname "$generated_h")" && pwd)"
     -I"$rocm_include")
gcc "${inc[@]}" -o "$work/client" "$client_c" -L"$work" -lrocprofiler-sdk -ldl
readelf -d "$work/client" | grep -q 'NEEDED.*\[librocprofiler-sdk.so.1\]' ||
  { echo "client does not need librocprofiler-sdk.so.1"; exit 1; }
readelf -d "$work/librocprofiler-sdk.so.1" |
  grep -q 'FILTER.*\[libroctracer64.so.4\]' ||
  { echo "librocprofiler-sdk.so.1 is not a filter of libroctracer64.so.4"; exit 1; }
LD_LIBRARY_PATH="$work" ROCPROFILER_SDK_NO_AUTO_REGISTER=1 "$work/client"
g++ -D__HIP_PLATFORM_AMD__ "${inc[@]}" -o "$work/cxx_client" "$client_cxx" \
  -L"$work" -lrocprofiler-sdk
LD_LIBRARY_PATH="$work" ROCPROFILER_SDK_NO_AUTO_REGISTER=1 "$work/cxx_client"
