#!/usr/bin/env bash
# The main job: builds libroctracer64.so and traces the bundled sample program.
set -euo pipefail
cd "$(dirname "$0")/.."
./tools/install_deps.sh

bazel build //:roctracer //examples:matrix_transpose_trace
./bazel-bin/examples/matrix_transpose_trace "$@"
