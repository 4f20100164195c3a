#!/usr/bin/env bash
# Runs every test: the whole tree, then the core suites again under
# AddressSanitizer+UBSan and the concurrency suites under ThreadSanitizer,
# all against the installed ROCm (Debian bookworm's 5.2.3); then the whole
# tree against each ROCm release of the matrix (tools/rocm_release.sh).
#
# ROCTRACER_RELEASES (default "trixie sid experimental") names the Debian
# suites of the matrix; set it empty to test the installed ROCm only. A suite
# that cannot be fetched fails the run.
set -euo pipefail
cd "$(dirname "$0")/.."
./tools/install_deps.sh

bazel test //... "$@"
bazel test --config=asan --test_tag_filters=-no_asan --build_tests_only //... "$@"
bazel test --config=tsan --test_tag_filters=tsan --build_tests_only //... "$@"

cache=${ROCTRACER_ROCM_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/roctracer-rocm}
for suite in ${ROCTRACER_RELEASES-trixie sid experimental}; do
  prefix=$(./tools/rocm_release.sh "$suite")
  # Each release builds in a copy of this tree: its own Bazel output base
  # (switching @rocm back and forth would rebuild everything each time), and
  # none of this tree's bazel-* links, which a second output base would take
  # for packages.
  ws=$cache/$suite/workspace
  rm -rf "$ws"
  mkdir -p "$ws"
  git ls-files -z --cached --others --exclude-standard |
    tar --null -T - -cf - | tar -xf - -C "$ws"
  echo "=== ROCm release matrix: $suite ($prefix)"
  filters=$(cat "$cache/$suite/test_tag_filters")
  if [[ -n $filters ]]; then
    sed 's/^/=== skipped for '"$suite"': /' "$cache/$suite/skipped"
  fi
  status=0
  (cd "$ws" && bazel test --repo_env=ROCM_PATH="$prefix" \
    ${filters:+--test_tag_filters="$filters"} //... "$@") || status=$?
  (cd "$ws" && bazel shutdown)
  if ((status != 0)); then
    echo "=== ROCm release matrix: $suite FAILED" >&2
    exit "$status"
  fi
done
