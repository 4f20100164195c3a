#!/bin/bash
# rocprofiler-sdk-roctx's additions, used as users use them: a tool library
# and an application built with the system compiler and its default flags
# (Debian's gcc links --as-needed), linked against libroctx64.so and
# libroctracer64.so, against the headers of the ROCm release built against
# (hsa.h's path in it). The tool must receive each request as a MARKER_CORE /
# MARKER_CONTROL / MARKER_NAME callback with its arguments; pause/resume must
# stop and restart roctracer's own rocTX callbacks.
set -euo pipefail
roctx_so="$1" roctracer_so="$2" tool_c="$3" client_cc="$4" roctracer_h="$5"
sdk_generated_h="$6"  # codegen/sdk/rocprofiler-sdk/hsa/api_id.h
generated_h="$7"      # codegen/hsa_api_data.h
rocm_include=$(cd "$(dirname "$8")/.." && pwd)  # <release>/include/hsa/hsa.h
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# Laid out as installed: the SONAME file and the development link.
cp "$roctx_so" "$work/libroctx64.so.4"
cp "$roctracer_so" "$work/libroctracer64.so.4"
ln -s libroctx64.so.4 "$work/libroctx64.so"
ln -s libroctracer64.so.4 "$work/libroctracer64.so"
inc=(-I"$(cd "$(dirname "$roctracer_h")" && pwd)"
     -I"$(cd "$(dirname "$sdk_generated_h")/../.." && pwd)"
     -I"$(cd "$(dirname "$generated_h")" && pwd)"
     -I"$rocm_include")
gcc "${inc[@]}" -fPIC -shared -o "$work/libmarker_tool.so" "$tool_c" \
    -L"$work" -lroctracer64
g++ "${inc[@]}" -o "$work/client" "$client_cc" -L"$work" -lroctx64 -lroctracer64
# Tools are injected, as rocprofiler-sdk's are.
out=$(cd "$work" && LD_LIBRARY_PATH="$work" LD_PRELOAD="$work/libmarker_tool.so" ./client)
echo "$out"
failures=0
expect() {
  if grep -qxF -- "$1" <<<"$out"; then
    echo "ok: $1"
  else
    echo "MISSING: $1"
    failures=$((failures + 1))
  fi
}
expect "APP pause=0"
expect "APP marks_while_paused=1"
expect "APP resume=0"
expect "APP marks=2"
expect "APP get_thread_id=0 matches_gettid=1"
expect "APP null_name=1 null_tid=1"
expect "TOOL MARKER_CONTROL_API roctxProfilerPause ENTER roctx_thread_id_t tid=0; "
expect "TOOL MARKER_CONTROL_API roctxProfilerPause EXIT roctx_thread_id_t tid=0; "
expect "TOOL MARKER_CONTROL_API roctxProfilerResume EXIT roctx_thread_id_t tid=0; "
expect "TOOL MARKER_NAME_API roctxNameOsThread EXIT const char* name=\"main-thread\"; "
expect "TOOL MARKER_NAME_API roctxNameHipDevice EXIT const char* name=\"gpu-three\"; int device_id=3; "
expect "TOOL MARKER_NAME_API roctxNameHipStream EXIT const char* name=\"copy-stream\"; const struct ihipStream_t* stream=0x1234; "
expect "TOOL MARKER_NAME_API roctxNameHsaAgent EXIT const char* name=\"agent-x\"; const struct hsa_agent_s* agent=0x5678; "
expect "TOOL MARKER_CORE_API roctxMarkA EXIT const char* message=\"after\"; "
# The SDK's callbacks are the tool's business: a pause does not stop them.
expect "TOOL MARKER_CORE_API roctxMarkA EXIT const char* message=\"paused\"; "
if grep -q "name=(null)\|TOOL MARKER_NAME_API roctxNameOsThread EXIT $" <<<"$out"; then
  echo "a refused request was reported"
  failures=$((failures + 1))
fi
calls=$(grep -c "^TOOL MARKER_CORE_API roctxGetThreadId EXIT roctx_thread_id_t\* tid=[0-9]*; $" <<<"$out" || true)
if [[ "$calls" != 1 ]]; then
  echo "roctxGetThreadId reported $calls times, want 1"
  failures=$((failures + 1))
fi
exit $((failures > 0))
