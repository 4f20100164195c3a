#!/usr/bin/env bash
# The main job: builds libroctracer64.so and roctrace, runs the bundled
# sample that traces itself through the roctracer API, then traces the same
# calls in an unmodified program from the command line with roctrace, then
# a hipcc-built matrix transpose with real kernels and copies (on the GPU
# when there is one; otherwise on softhsa, the CPU implementation of the HSA
# runtime, with the installed HIP runtime unmodified).
set -euo pipefail
cd "$(dirname "$0")/.."
./tools/install_deps.sh

bazel build //:roctracer //examples:matrix_transpose_trace //examples:matrix_transpose //roctrace \
  //examples:hip_matrix_transpose //softhsa
./bazel-bin/examples/matrix_transpose_trace "$@"

out="${TMPDIR:-/tmp}/roctrace_sample"
echo
echo "# roctrace: the same calls in a program without tracing code"
./bazel-bin/roctrace/roctrace --sys-trace --stats --summary \
  --output-format rocpd pftrace csv -d "$out" -o matrix_transpose \
  -- ./bazel-bin/examples/matrix_transpose

echo
if [[ -e /dev/kfd ]]; then
  echo "# roctrace: a HIP program with kernels and copies, on the GPU"
  runtime=()
else
  echo "# roctrace: a HIP program with kernels and copies, on softhsa (no GPU here)"
  lib=$(cd bazel-bin/softhsa && pwd)  # holds libhsa-runtime64.so.1
  # The system timestamps in the clock HIP's event times assume.
  runtime=(env "LD_LIBRARY_PATH=$lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
    SOFTHSA_SYSTEM_CLOCK=monotonic)
fi
"${runtime[@]}" ./bazel-bin/roctrace/roctrace --sys-trace --stats --summary \
  --output-format rocpd pftrace csv -d "$out" -o hip_matrix_transpose \
  -- ./bazel-bin/examples/hip_matrix_transpose
cat <<MSG

Open the timelines: https://ui.perfetto.dev -> "Open trace file" ->
  $out/matrix_transpose_results.pftrace
  $out/hip_matrix_transpose_results.pftrace (kernels, copies, flows from the API calls)
Query the databases (rocpd schema):
  sqlite3 $out/matrix_transpose_results.db \\
    'SELECT category, name, COUNT(*), SUM(duration) FROM regions GROUP BY name'
  sqlite3 $out/hip_matrix_transpose_results.db \\
    'SELECT name, COUNT(*), SUM(duration) FROM kernels GROUP BY name'
MSG
