#!/usr/bin/env bash
# The main job: builds libroctracer64.so and roctrace, runs the bundled
# sample that traces itself through the roctracer API, then traces the same
# calls in an unmodified program from the command line with roctrace.
set -euo pipefail
cd "$(dirname "$0")/.."
./tools/install_deps.sh

bazel build //:roctracer //examples:matrix_transpose_trace //examples:matrix_transpose //roctrace
./bazel-bin/examples/matrix_transpose_trace "$@"

out="${TMPDIR:-/tmp}/roctrace_sample"
echo
echo "# roctrace: the same calls in a program without tracing code"
./bazel-bin/roctrace/roctrace --sys-trace --stats --summary \
  --output-format rocpd pftrace csv -d "$out" -o matrix_transpose \
  -- ./bazel-bin/examples/matrix_transpose
cat <<MSG

Open the timeline: https://ui.perfetto.dev -> "Open trace file" ->
  $out/matrix_transpose_results.pftrace
Query the database (rocpd schema):
  sqlite3 $out/matrix_transpose_results.db \\
    'SELECT category, name, COUNT(*), SUM(duration) FROM regions GROUP BY name'
MSG
