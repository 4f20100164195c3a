#!/bin/bash
# The SDK front end against rocprofiler-sdk 1.0.0's facts (release_client.c),
# as a tool author builds: the system C compiler, default flags, the public
# headers, the headers of the ROCm release built against (hsa.h's path in
# it), and libroctracer64.so laid out as installed.
set -euo pipefail
roctracer_so="$1" client_c="$2" rocprofiler_h="$3" roctracer_h="$4"
sdk_generated_h="$5"  # codegen/sdk/rocprofiler-sdk/hsa/api_id.h
generated_h="$6"      # codegen/hsa_api_data.h
rocm_include=$(cd "$(dirname "$7")/.." && pwd)  # <release>/include/hsa/hsa.h
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp "$roctracer_so" "$work/libroctracer64.so.4"
ln -s libroctracer64.so.4 "$work/libroctracer64.so"
inc=(-I"$(cd "$(dirname "$rocprofiler_h")/.." && pwd)"
     -I"$(cd "$(dirname "$roctracer_h")" && pwd)"
     -I"$(cd "$(dirname "$sdk_generated_h")/../.." && pwd)"
     -I"$(cd "$(dirname "$generated_h")" && pwd)"
     -I"$rocm_include")
gcc "${inc[@]}" -o "$work/client" "$client_c" -L"$work" -lroctracer64
LD_LIBRARY_PATH="$work" ROCPROFILER_SDK_NO_AUTO_REGISTER=1 "$work/client"
