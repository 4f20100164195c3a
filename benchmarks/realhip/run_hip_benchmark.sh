#!/bin/bash
# Runs hip_benchmark twice on softhsa: without the tracer, then with
# libroctracer64.so.4 preloaded and as the HSA tool (its modes "off" and
# "traced" in one process). Extra arguments go to both runs.
set -euo pipefail
bench=$(realpath "$1") softhsa=$(realpath "$2") tracer=$(realpath "$3")
shift 3
lib=$(mktemp -d "${TMPDIR:-/tmp}/hip_benchmark.XXXXXX")
trap 'rm -rf "$lib"' EXIT
ln -s "$softhsa" "$lib/libhsa-runtime64.so.1"
export SOFTHSA_SYSTEM_CLOCK=monotonic  # the clock HIP's own times assume
echo "== without the tracer"
LD_LIBRARY_PATH="$lib" "$bench" --benchmark_filter='/0/' "$@"
echo "== libroctracer64.so.4 preloaded and as the HSA tool"
LD_LIBRARY_PATH="$lib" LD_PRELOAD="$tracer" HSA_TOOLS_LIB="$tracer" \
  "$bench" "$@"
