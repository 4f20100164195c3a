#!/bin/bash
# Builds the generated ABI check with the system C and C++ compilers and
# their default flags against the public headers (and the headers of the ROCm
# release built against), then runs both: C and C++ tools must see the same
# layouts.
set -euo pipefail
check_c="$1" rocprofiler_h="$2" roctracer_h="$3"
sdk_generated_h="$4"  # codegen/sdk/rocprofiler-sdk/hsa/api_id.h
generated_h="$5"      # codegen/hsa_api_data.h
rocm_include=$(cd "$(dirname "$6")/.." && pwd)  # <release>/include/hsa/hsa.h
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
inc=(-I"$(cd "$(dirname "$rocprofiler_h")/.." && pwd)"
     -I"$(cd "$(dirname "$roctracer_h")" && pwd)"
     -I"$(cd "$(dirname "$sdk_generated_h")/../.." && pwd)"
     -I"$(cd "$(dirname "$generated_h")" && pwd)"
     -I"$rocm_include")
cp "$check_c" "$work/abi_check.c"
cp "$check_c" "$work/abi_check.cc"
gcc "${inc[@]}" -o "$work/abi_c" "$work/abi_check.c"
g++ "${inc[@]}" -o "$work/abi_cc" "$work/abi_check.cc"
echo "== C"
"$work/abi_c"
echo "== C++"
"$work/abi_cc"
