#!/bin/bash
# Every rocprofiler_* function the map lists is a defined dynamic symbol of
# the library, and the library exports no other rocprofiler_* symbol.
set -euo pipefail
lib="$1"
map="$2"
expected=$(grep -oE '^\s+rocprofiler_[a-z_]+;' "$map" | tr -d ' ;' | sort)
actual=$(nm -D --defined-only "$lib" | awk '{print $3}' | sed 's/@.*//' | grep '^rocprofiler_' | sort)
if [[ "$expected" != "$actual" ]]; then
  echo "map and library disagree:"
  diff <(echo "$expected") <(echo "$actual") || true
  exit 1
fi
count=$(echo "$expected" | wc -l)
if (( count < 20 )); then
  echo "only $count functions exported"
  exit 1
fi
echo "ok: $count rocprofiler_* functions exported"
