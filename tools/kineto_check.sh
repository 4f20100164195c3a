#!/usr/bin/env bash
# Runs PyTorch's Kineto (libkineto, its rocprofiler-sdk backend) on this
# library: builds libkineto from a Kineto source tree as its CMake does for
# ROCm (the rocm source list of libkineto_defs.bzl, C++20, KINETO_NAMESPACE,
# HAS_ROCTRACER, ENABLE_IPC_FABRIC) against the install tree, links it with
# librocprofiler-sdk.so and libamdhip64.so, and runs a driver that traces a
# hipcc-built program's kernels and copies through libkineto's public API
# (libkineto_init, prepareTrace, startTrace, stopTrace, save) on softhsa.
# tools/kineto/check_kineto_trace.py then checks the activities and the
# chrome trace. A manual outside test: Kineto's sources are not in the tree.
#
# Usage: tools/kineto_check.sh KINETO [WORKDIR]
#   KINETO   a Kineto checkout (holding libkineto/) or a bare git repository
#            of it (libkineto is taken from its HEAD)
#   WORKDIR  scratch directory (default: a new one under ${TMPDIR:-/tmp})
# Needs: hipcc, libfmt-dev (Debian packages; tools/install_deps.sh has them).
# Exit 0 when every check passed.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
kineto="${1:?usage: tools/kineto_check.sh KINETO [WORKDIR]}"
work="${2:-$(mktemp -d "${TMPDIR:-/tmp}/kineto_check.XXXXXX")}"
mkdir -p "$work"
work="$(cd "$work" && pwd)"
jobs="$(nproc)"

echo "# Kineto's libkineto from $kineto"
rm -rf "$work/src" && mkdir -p "$work/src"
if [[ -d "$kineto/libkineto" ]]; then
  cp -r "$kineto/libkineto" "$work/src/"
  rev="$(git -C "$kineto" rev-parse HEAD 2>/dev/null || echo unknown)"
else
  git --git-dir="$kineto" archive HEAD libkineto | tar -x -C "$work/src"
  rev="$(git --git-dir="$kineto" rev-parse HEAD)"
fi
kin="$work/src/libkineto"
echo "kineto revision: $rev"

echo "# the install tree and softhsa"
(cd "$root" && bazel run //:install -- --prefix "$work/inst" >"$work/install.log" 2>&1) ||
  { tail -20 "$work/install.log"; exit 1; }
(cd "$root" && bazel build //softhsa:libhsa-runtime64.so.1 >"$work/softhsa.log" 2>&1) ||
  { tail -20 "$work/softhsa.log"; exit 1; }
mkdir -p "$work/softhsa"
cp -fL "$root/bazel-bin/softhsa/libhsa-runtime64.so.1" "$work/softhsa/"
inst="$work/inst"

echo "# libkineto.so (ROCm backend), $jobs jobs"
srcs=$(/usr/bin/python3 - "$kin/libkineto_defs.bzl" <<'PY'
import sys
defs = {}
exec(open(sys.argv[1]).read(), defs)
print(" ".join(defs["get_libkineto_rocprofiler_srcs"](with_api=True)))
PY
)
flags=(-std=c++20 -O2 -fPIC -fexceptions -Wno-deprecated-declarations
  -Wno-unused-function -I"$kin/include" -I"$kin/src"
  -I"$kin/third_party/dynolog_headers"
  -I"$kin/third_party/dynolog_headers/dynolog/src/ipcfabric"
  -I"$inst/include" -I"$inst/include/roctracer"
  -D__HIP_PLATFORM_AMD__ -D__HIP_PLATFORM_HCC__ -DHAS_ROCTRACER
  -DKINETO_NAMESPACE=libkineto -DENABLE_IPC_FABRIC)
mkdir -p "$work/obj"
printf '%s\n' $srcs | xargs -P "$jobs" -I{} sh -c \
  'o="$0/obj/$(basename {} .cpp).o"; g++ "$@" -c "'"$kin"'/{}" -o "$o" 2>"$o.err" || { cat "$o.err"; echo "FAILED: {}"; exit 255; }' \
  "$work" "${flags[@]}"
g++ -shared -o "$work/libkineto.so" "$work"/obj/*.o -L"$inst/lib" \
  -Wl,-rpath,"$inst/lib" -lrocprofiler-sdk -lamdhip64 -lfmt -pthread \
  -Wl,--no-undefined
echo "linked $work/libkineto.so ($(printf '%s\n' $srcs | wc -l) sources)"

echo "# the HIP work (hipcc) and the driver"
hipcc --offload-arch=gfx90a -fPIC -shared \
  "$root/tools/kineto/kineto_work.hip" -o "$work/libkineto_work.so"
g++ -std=c++20 -O1 -I"$kin/include" -DKINETO_NAMESPACE=libkineto \
  "$root/tools/kineto/kineto_driver.cc" -o "$work/kineto_driver" \
  -L"$work" -lkineto -lkineto_work -Wl,-rpath,"$work:$inst/lib"

echo "# run on softhsa"
# No HSA_TOOLS_LIB, as a PyTorch user runs: Kineto's GPU kinds make the
# library name itself as the HSA runtime's tool before HIP's hsa_init (on
# ROCm 7 the runtime hands its table over through rocprofiler-register).
# (Unset here even when the caller has it set.)
status=0
env -u HSA_TOOLS_LIB \
  LD_LIBRARY_PATH="$work/softhsa${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" \
  SOFTHSA_SYSTEM_CLOCK=monotonic \
  "$work/kineto_driver" "$work/kineto_trace.json" \
  >"$work/driver.out" 2>"$work/driver.err" || status=$?
if ((status != 0)); then
  echo "kineto_driver failed ($status):"
  tail -30 "$work/driver.err"
  exit 1
fi
/usr/bin/python3 "$root/tools/kineto/check_kineto_trace.py" \
  "$work/driver.out" "$work/kineto_trace.json"
echo "chrome trace: $work/kineto_trace.json (Kineto's log: $work/driver.err)"
