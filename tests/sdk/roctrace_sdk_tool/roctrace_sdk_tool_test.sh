#!/bin/bash
# roctrace --sdk-tool LIB: an SDK tool runs in the traced program beside
# roctrace's own tool, and both see the same calls with the same
# correlation IDs.
set -euo pipefail
roctrace="$1" tool="$2" program="$3"
tmp=$(mktemp -d "${TEST_TMPDIR:-/tmp}/sdktool.XXXXXX")
fail() { echo "FAIL: $*" >&2; exit 1; }
"$roctrace" --hip-trace --output-format csv -d "$tmp/trace" -o t \
  --sdk-tool "$tool" -- "$program" 2>"$tmp/err" ||
  { cat "$tmp/err"; fail "roctrace"; }
cat "$tmp/err"
tool_ids=$(grep '^sdk tool:' "$tmp/err" | sed 's/^sdk tool: *//' | tr ' ' '\n' |
  sort -n) || fail "the SDK tool did not finalize"
csv_ids=$(/usr/bin/python3 - "$tmp/trace/t_hip_api_trace.csv" <<'PY'
import csv, sys
with open(sys.argv[1]) as f:
  ids = sorted(int(r["Correlation_Id"]) for r in csv.DictReader(f)
               if r["Function"] == "hipGetErrorString")
print("\n".join(map(str, ids)))
PY
)
[[ $(wc -l <<<"$csv_ids") == 25 ]] || fail "roctrace: $(wc -l <<<"$csv_ids") rows"
[[ "$tool_ids" == "$csv_ids" ]] ||
  fail "the SDK tool's IDs differ from roctrace's: $tool_ids vs $csv_ids"
# A bad value is refused before anything runs.
if "$roctrace" --sdk-tool a:b -- "$program" 2>"$tmp/err2"; then
  fail "--sdk-tool a:b accepted"
fi
echo ok
