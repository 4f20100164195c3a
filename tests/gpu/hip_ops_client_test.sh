#!/bin/bash
# A tool built as users build one (the system g++, default flags, through
# the installed tree's pkg-config) tracing HIP_OPS and HSA_EVT: run with the
# stand-in HIP library under the HIP SONAME of the release built against
# (libamdhip64.so.5 on 5.2.3, .so.6 on HIP 6: the name the tracer loads) and
# softhsa as libhsa-runtime64.so.1, found by SONAME (--as-needed keeps
# neither in the program's DT_NEEDED), and the installed tracer as the HSA
# tool. The client compiles against that release's headers (hsa.h's path in
# it), where a user of the release has them.
set -euo pipefail
install="$1" client="$2" standin="$3" standin_kernels="$4" softhsa="$5"
kernels="$6" rocm_include=$(cd "$(dirname "$7")/.." && pwd)
hip_soname=$(cat "$8")

tmp=$(mktemp -d "${TEST_TMPDIR:-/tmp}/hip_ops_client.XXXXXX")
fail() { echo "FAIL: $*" >&2; exit 1; }

"$install" --prefix "$tmp/prefix" >/dev/null
prefix="$tmp/prefix"
mkdir "$tmp/runtimes"
cp "$standin" "$tmp/runtimes/$hip_soname"
[[ $hip_soname == libamdhip64.so.5 ]] ||
  ln -s "$hip_soname" "$tmp/runtimes/libamdhip64.so.5"  # the stand-in's SONAME
cp "$standin_kernels" "$tmp/runtimes/"
cp "$softhsa" "$tmp/runtimes/libhsa-runtime64.so.1"
ln -s "$hip_soname" "$tmp/runtimes/libamdhip64.so"
ln -s libhsa-runtime64.so.1 "$tmp/runtimes/libhsa-runtime64.so"

export PKG_CONFIG_PATH="$prefix/lib/pkgconfig"
# shellcheck disable=SC2046
g++ -D__HIP_PLATFORM_AMD__ -I"$rocm_include" "$client" \
  $(pkg-config --cflags --libs roctracer) \
  -L"$tmp/runtimes" -lamdhip64 -lhsa-runtime64 -o "$tmp/client"

LD_LIBRARY_PATH="$tmp/runtimes:$prefix/lib" \
  HSA_TOOLS_LIB="$prefix/lib/libroctracer64.so.4" \
  "$tmp/client" "$kernels" | tee "$tmp/out" || fail "the client failed"
grep -q "hip_ops_client: 0 failures" "$tmp/out" || fail "no success line"
echo "ok"
