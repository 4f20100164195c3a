#!/bin/bash
# Every function rocprofiler-sdk 1.0.0's headers declare (the reference
# listing's `function` lines) is exported as ROCm exports it:
# - librocprofiler-sdk.so.1 defines each one without a symbol version
#   (ROCm's library is linked without a version script) and defines no
#   symbol version, with SONAME librocprofiler-sdk.so.1;
# - libroctracer64.so.4, where its stubs resolve, defines each one as
#   NAME@@ROCPROFILER_SDK_0.4.
# Not exported, as in 1.0.0: rocprofiler_configure (a tool defines it) and
# the functions 1.0.0's headers define inline (listed below); each listed
# name must be in the listing, so the list cannot go stale.
set -euo pipefail
reference="$1" sdk_lib="$2" tracer_lib="$3"

declare -A not_exported=(
  [rocprofiler_configure]="defined by the tool"
  [rocprofiler_create_profile_config]="inline in deprecated/profile_config.h"
  [rocprofiler_destroy_profile_config]="inline in deprecated/profile_config.h"
)

functions=$(awk '$1 == "function" {print $2}' "$reference" | sort -u)
count=$(echo "$functions" | wc -l)
if (( count < 70 )); then
  echo "FAIL: only $count functions in $reference"
  exit 1
fi
for name in "${!not_exported[@]}"; do
  if ! grep -qx "$name" <<<"$functions"; then
    echo "FAIL: $name is not a function of the listing (stale exception)"
    exit 1
  fi
done

sdk_syms=$(nm -D --defined-only "$sdk_lib" | awk '{print $3}')
tracer_syms=$(nm -D --defined-only "$tracer_lib" | awk '{print $3}')
failures=0 checked=0
for f in $functions; do
  if [[ -n "${not_exported[$f]:-}" ]]; then
    if grep -q "^$f\(@\|$\)" <<<"$sdk_syms$(printf '\n')$tracer_syms"; then
      echo "FAIL: $f is exported; 1.0.0 does not (${not_exported[$f]})"
      failures=$((failures + 1))
    fi
    continue
  fi
  checked=$((checked + 1))
  if ! grep -qx "$f" <<<"$sdk_syms"; then
    if grep -q "^$f@" <<<"$sdk_syms"; then
      echo "FAIL: $(grep "^$f@" <<<"$sdk_syms") is versioned in $(basename "$sdk_lib")"
    else
      echo "FAIL: $f is not exported by $(basename "$sdk_lib")"
    fi
    failures=$((failures + 1))
  fi
  if ! grep -qx "$f@@ROCPROFILER_SDK_0.4" <<<"$tracer_syms"; then
    echo "FAIL: $f@@ROCPROFILER_SDK_0.4 is not exported by $(basename "$tracer_lib")"
    failures=$((failures + 1))
  fi
done

# Some link editors (gold) always write the BASE entry, which names the file
# and versions nothing; any other entry would be a symbol version.
defined=$(readelf -V "$sdk_lib" |
  sed -n '/Version definition/,/^$/p' | grep -o 'Name: [^ ]*' | grep -v 'Name: librocprofiler-sdk.so.1$' || true)
if [[ -n "$defined" ]]; then
  echo "FAIL: $(basename "$sdk_lib") defines symbol versions: $defined"
  failures=$((failures + 1))
fi
soname=$(readelf -d "$sdk_lib" | sed -n 's/.*Library soname: \[\(.*\)\]/\1/p')
if [[ "$soname" != "librocprofiler-sdk.so.1" ]]; then
  echo "FAIL: SONAME is '$soname'"
  failures=$((failures + 1))
fi

if (( failures > 0 )); then
  echo "$failures failures"
  exit 1
fi
echo "ok: $checked of the listing's $count functions exported unversioned" \
  "by $(basename "$sdk_lib") and as @@ROCPROFILER_SDK_0.4 by" \
  "$(basename "$tracer_lib"); ${#not_exported[@]} not exported, as in 1.0.0"
