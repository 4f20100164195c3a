#!/usr/bin/env bash
# Runs every test: the whole tree, then the core suites again under
# AddressSanitizer+UBSan and the concurrency suites under ThreadSanitizer,
# all against the installed ROCm (Debian bookworm's 5.2.3); then the whole
# tree against each ROCm release of the matrix (tools/test_release.sh).
#
# ROCTRACER_RELEASES (default "trixie sid experimental") names the Debian
# suites of the matrix; set it empty to test the installed ROCm only. A suite
# that cannot be fetched fails the run (after the other suites ran).
set -euo pipefail
cd "$(dirname "$0")/.."
./tools/install_deps.sh
# The tree's copies of the shared reference files must equal the reference.
./tools/check_reference_copies.sh

bazel test //... "$@"
bazel test --config=asan --test_tag_filters=-no_asan --build_tests_only //... "$@"
bazel test --config=tsan --test_tag_filters=tsan --build_tests_only //... "$@"

# Every release is tested even when one fails; the run fails at the end.
failed=()
for suite in ${ROCTRACER_RELEASES-trixie sid experimental}; do
  ./tools/test_release.sh "$suite" "$@" || failed+=("$suite")
done
if ((${#failed[@]})); then
  echo "=== ROCm release matrix: FAILED for ${failed[*]}" >&2
  exit 1
fi
