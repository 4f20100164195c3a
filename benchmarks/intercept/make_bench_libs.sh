#!/bin/bash
# make_bench_libs.sh OUTDIR N: N small shared libraries built with the system
# g++, each calling a few HIP and HSA functions and libc (so each has the
# PLT/GOT relocations a real library has), for patch_cost_benchmark.
set -euo pipefail
out="$1"
n="$2"
mkdir -p "$out"
for i in $(seq -f "%03g" 0 $((n - 1))); do
  cat > "$out/lib$i.cc" <<SRC
#include <hip/hip_runtime_api.h>
#include <hsa/hsa.h>
#include <cstdio>
#include <cstring>
extern "C" int bench_lib_$i(char* buf, size_t n) {
  int count = 0;
  hipGetDeviceCount(&count);
  const char* s = nullptr;
  hsa_status_string(HSA_STATUS_ERROR, &s);
  std::snprintf(buf, n, "%s %s %d", hipGetErrorString(hipErrorInvalidValue), s ? s : "", count);
  return static_cast<int>(std::strlen(buf));
}
SRC
  g++ -D__HIP_PLATFORM_AMD__ -shared -fPIC -O1 -o "$out/lib$i.so" "$out/lib$i.cc" \
    -lamdhip64 -lhsa-runtime64 &
  # Two compilers at a time: the build machine has two cores.
  if (( 10#$i % 2 == 1 )); then wait; fi
done
wait
rm -f "$out"/*.cc
