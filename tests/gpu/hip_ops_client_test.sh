#!/bin/bash
# A tool built as users build one (the system g++, default flags, through
# the installed tree's pkg-config) tracing HIP_OPS and HSA_EVT: run with the
# stand-in HIP library as libamdhip64.so.5 and softhsa as
# libhsa-runtime64.so.1, found by SONAME (--as-needed keeps neither in the
# program's DT_NEEDED), and the installed tracer as the HSA tool.
set -euo pipefail
install="$1" client="$2" standin="$3" standin_kernels="$4" softhsa="$5"
kernels="$6"

tmp=$(mktemp -d "${TEST_TMPDIR:-/tmp}/hip_ops_client.XXXXXX")
fail() { echo "FAIL: $*" >&2; exit 1; }

"$install" --prefix "$tmp/prefix" >/dev/null
prefix="$tmp/prefix"
mkdir "$tmp/runtimes"
cp "$standin" "$tmp/runtimes/libamdhip64.so.5"
cp "$standin_kernels" "$tmp/runtimes/"
cp "$softhsa" "$tmp/runtimes/libhsa-runtime64.so.1"
ln -s libamdhip64.so.5 "$tmp/runtimes/libamdhip64.so"
ln -s libhsa-runtime64.so.1 "$tmp/runtimes/libhsa-runtime64.so"

export PKG_CONFIG_PATH="$prefix/lib/pkgconfig"
# shellcheck disable=SC2046
g++ -D__HIP_PLATFORM_AMD__ "$client" $(pkg-config --cflags --libs roctracer) \
  -L"$tmp/runtimes" -lamdhip64 -lhsa-runtime64 -o "$tmp/client"

LD_LIBRARY_PATH="$tmp/runtimes:$prefix/lib" \
  HSA_TOOLS_LIB="$prefix/lib/libroctracer64.so.4" \
  "$tmp/client" "$kernels" | tee "$tmp/out" || fail "the client failed"
grep -q "hip_ops_client: 0 failures" "$tmp/out" || fail "no success line"
echo "ok"
