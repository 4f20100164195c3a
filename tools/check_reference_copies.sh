#!/usr/bin/env bash
# Checks that the copies of the shared reference files kept in the tree (the
# tests read the copies, so that they run where the reference is absent) are
# still equal to the reference. The reference is looked for in
# $ROCTRACER_REFERENCE_DIR, then ../shared/reference beside the repository
# root, then /work/shared/reference. Exits 1 on a difference or a missing
# copy; when no reference directory exists it says so and exits 0 (there is
# nothing to compare against), never silently.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"

# reference file name -> the tree's copy of it
declare -A copies=(
  [rocprofiler-sdk-1.0.0-abi.txt]=tests/sdk/abi/rocprofiler-sdk-1.0.0-abi.txt
)

if [[ -n "${ROCTRACER_REFERENCE_DIR:-}" && ! -d "$ROCTRACER_REFERENCE_DIR" ]]; then
  echo "check_reference_copies: FAILED: ROCTRACER_REFERENCE_DIR=$ROCTRACER_REFERENCE_DIR" \
    "is not a directory" >&2
  exit 1
fi
ref_dir=""
for d in "${ROCTRACER_REFERENCE_DIR:-}" "$root/../shared/reference" \
  /work/shared/reference; do
  if [[ -n "$d" && -d "$d" ]]; then
    ref_dir="$d"
    break
  fi
done
if [[ -z "$ref_dir" ]]; then
  echo "check_reference_copies: SKIPPED: no reference directory" \
    "(ROCTRACER_REFERENCE_DIR, ../shared/reference, /work/shared/reference)"
  exit 0
fi

status=0
for name in "${!copies[@]}"; do
  ref="$ref_dir/$name"
  copy="$root/${copies[$name]}"
  if [[ ! -f "$ref" ]]; then
    echo "check_reference_copies: $ref absent: ${copies[$name]} not compared"
    continue
  fi
  if [[ ! -f "$copy" ]]; then
    echo "check_reference_copies: FAILED: ${copies[$name]} is missing" >&2
    status=1
    continue
  fi
  if ! cmp -s "$ref" "$copy"; then
    echo "check_reference_copies: FAILED: ${copies[$name]} differs from $ref:" >&2
    diff -u "$ref" "$copy" | head -40 >&2 || true
    status=1
    continue
  fi
  echo "check_reference_copies: ${copies[$name]} equals $ref"
done
exit "$status"
