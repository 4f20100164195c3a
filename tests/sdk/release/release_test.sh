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
abi_listing="$8"  # tests/sdk/abi/rocprofiler-sdk-1.0.0-abi.txt
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
# Every HIP runtime operation 1.0.0 names compiles whatever the HIP release
# (those it lacks are named, never-firing operations): a C file naming each
# enumerator of the listing's rocprofiler_hip_runtime_api_id_t, with a
# distinct value each.
names=$(grep '^enum rocprofiler_hip_runtime_api_id_t ' "$abi_listing" |
  tr ' ' '\n' | sed -n 's/^\(ROCPROFILER_HIP_RUNTIME_API_ID_[A-Za-z0-9_]*\)=.*/\1/p' |
  grep -v '_NONE$\|_LAST$')
count=$(echo "$names" | wc -l)
[ "$count" -eq 477 ] || { echo "expected 1.0.0's 477 HIP runtime operations, read $count"; exit 1; }
{
  echo '#include <rocprofiler-sdk/rocprofiler.h>'
  echo '#include <stdio.h>'
  echo 'static const int ops[] = {'
  echo "$names" | sed 's/$/,/'
  echo '};'
  echo 'int main(void) {'
  echo '  int n = (int)(sizeof(ops) / sizeof(ops[0]));'
  echo '  for (int i = 0; i < n; ++i)'
  echo '    for (int j = i + 1; j < n; ++j)'
  echo '      if (ops[i] == ops[j]) { printf("ops %d and %d share %d\n", i, j, ops[i]); return 1; }'
  echo '  for (int i = 0; i < n; ++i)'
  echo '    if (ops[i] < 0 || ops[i] >= ROCPROFILER_HIP_RUNTIME_API_ID_LAST) return 2;'
  echo '  printf("%d HIP runtime operations of 1.0.0 named\n", n);'
  echo '  return 0;'
  echo '}'
} > "$work/hip_ops.c"
gcc "${inc[@]}" -o "$work/hip_ops" "$work/hip_ops.c"
"$work/hip_ops"
LD_LIBRARY_PATH="$work" ROCPROFILER_SDK_NO_AUTO_REGISTER=1 "$work/client"
