#!/usr/bin/env bash
# Runs `bazel test //...` against one ROCm release of the matrix: the Debian
# suite's ROCm, fetched by tools/rocm_release.sh, in a copy of this tree under
# the release cache (its own Bazel output base, so switching @rocm back and
# forth never rebuilds everything, and none of this tree's bazel-* links,
# which a second output base would take for packages). Tests this machine
# cannot run for that release are filtered out by tag, and said so.
#
# The tests tagged runs_rocm load the release's libraries, which need the
# release's own C and C++ runtime: they run in a second `bazel test`, each
# test binary through the release's loader (tests/release_run.sh as
# --run_under; tests that start programs find it in ROCTRACER_RELEASE_RUN),
# the rest in the first, as on this machine.
#
# Usage: tools/test_release.sh SUITE [bazel test options...] [targets...]
# Options in their --name=value form; the targets default to //...
# (`tools/test_release.sh sid //tests/gpu/...` tests one package).
set -euo pipefail
cd "$(dirname "$0")/.."
if (($# < 1)); then
  echo "usage: $0 SUITE [bazel test options...] [targets...]" >&2
  exit 2
fi
suite=$1
shift
options=() targets=()
for arg in "$@"; do
  if [[ $arg == -* ]]; then options+=("$arg"); else targets+=("$arg"); fi
done
((${#targets[@]})) || targets=(//...)
cache=${ROCTRACER_ROCM_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/roctracer-rocm}
prefix=$(./tools/rocm_release.sh "$suite")
ws=$cache/$suite/workspace
# One run per release at a time (a second one waits): the copy is replaced
# below, and its Bazel output base is reused from run to run.
# (Bazel runs with the descriptor closed: its server outlives the script.)
exec 9>"$cache/$suite/lock"
if ! flock -n 9; then
  echo "=== ROCm release $suite: waiting for another run of it" >&2
  flock 9
fi
rm -rf "$ws"
mkdir -p "$ws"
git ls-files -z --cached --others --exclude-standard |
  tar --null -T - -cf - | tar -xf - -C "$ws"
echo "=== ROCm release $suite ($prefix)"
filters=$(cat "$cache/$suite/test_tag_filters")
while read -r why; do
  [[ -n $why ]] && echo "=== skipped for $suite: $why"
done <"$cache/$suite/skipped"
loader=$(cat "$cache/$suite/loader" 2>/dev/null || true)
library_path=$(cat "$cache/$suite/library_path" 2>/dev/null || true)
status=0
if [[ ,$filters, == *,-runs_rocm,* ]]; then
  (cd "$ws" && exec 9>&- && bazel test --repo_env=ROCM_PATH="$prefix" \
    ${filters:+--build_tag_filters="$filters" --test_tag_filters="$filters"} \
    "${options[@]}" -- "${targets[@]}") || status=$?
else
  # Bazel exits 4 when no test matched: a failure only if neither run had one.
  rest=0 rocm=0
  (cd "$ws" && exec 9>&- && bazel test --repo_env=ROCM_PATH="$prefix" \
    --build_tag_filters="-runs_rocm${filters:+,$filters}" \
    --test_tag_filters="-runs_rocm${filters:+,$filters}" \
    "${options[@]}" -- "${targets[@]}") || rest=$?
  echo "=== ROCm release $suite: tests tagged runs_rocm, through $loader"
  (cd "$ws" && exec 9>&- && bazel test --repo_env=ROCM_PATH="$prefix" \
    --build_tag_filters="runs_rocm${filters:+,$filters}" \
    --test_tag_filters="runs_rocm${filters:+,$filters}" \
    --run_under="$ws/tests/release_run.sh" \
    --test_env=ROCTRACER_RELEASE_LOADER="$loader" \
    --test_env=ROCTRACER_RELEASE_LIBRARY_PATH="$library_path" \
    --test_env=ROCTRACER_RELEASE_RUN="$ws/tests/release_run.sh" \
    --test_env=ROCTRACER_RELEASE_PREFIX="$prefix" \
    "${options[@]}" -- "${targets[@]}") || rocm=$?
  for rc in "$rest" "$rocm"; do
    ((rc == 0 || rc == 4)) || status=$rc
  done
  ((rest == 4 && rocm == 4)) && status=4
fi
# One server per release would stay resident otherwise.
(cd "$ws" && exec 9>&- && bazel shutdown)
if ((status != 0)); then
  echo "=== ROCm release $suite: FAILED" >&2
fi
exit "$status"
