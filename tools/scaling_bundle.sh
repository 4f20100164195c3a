#!/usr/bin/env bash
# Builds the thread-scaling benchmarks as users build the library (the
# default, optimised configuration) and puts them in one self-contained
# folder, with every shared library they load and Debian's loader, so they
# run unchanged on a machine with more cores and other system libraries:
#   benchmarks/intercept/threads_benchmark  roctracer API callback/activity,
#                                           HIP, HSA and rocTX
#   benchmarks/sdk/e2e_benchmark           rocprofiler-sdk callback and
#                                           buffer tracing
#   roctrace/end_to_end_benchmark           roctrace's cost per call of the
#                                           whole run, 1 thread and every core
#   tools/scaling_bundle.sh [DIR [BASE]]    # default DIR: scaling-bundle/
#   DIR/run.sh [RESULTS_DIR [FLAGS...]]     # there: each benchmark, every
#                                           # thread count up to the cores,
#                                           # median of 5, JSON into
#                                           # RESULTS_DIR (default DIR/results)
#   DIR/ab.sh                               # with BASE (a git revision):
#                                           # BASE's build and this one
#                                           # alternated twice, 1 thread and
#                                           # every core, medians to stdout
# A machine's one-thread figures swing between loans (and within one), so
# before/after comparisons are only meaningful within one run: ab.sh.
set -euo pipefail
cd "$(dirname "$0")/.."
out="${1:-scaling-bundle}"
base="${2:-}"

targets=(//benchmarks/intercept:threads_benchmark
  //benchmarks/sdk:e2e_benchmark //roctrace:end_to_end_benchmark
  //roctrace //roctrace:traced_program //roctrace:libroctrace_tool.so)
# name in the bundle, then the built file; roctrace finds its libraries
# beside its binary.
files=(api_threads benchmarks/intercept/threads_benchmark
  sdk_e2e benchmarks/sdk/e2e_benchmark
  end_to_end_benchmark roctrace/end_to_end_benchmark
  traced_program roctrace/traced_program
  roctrace roctrace/roctrace
  libroctrace_tool.so roctrace/libroctrace_tool.so
  libroctracer64.so.4 libroctracer64.so.4)

# collect TREE BIN LIB [SHARED_LIB]: builds the targets in TREE and copies
# the built files to BIN and every library the loader resolves for them (the
# tracer's own from Bazel's solib folders, the runtimes and the C/C++ runtime
# from the system, and the loader) to LIB, but those SHARED_LIB already holds.
collect() {
  local tree="$1" bin="$2" lib="$3" shared="${4:-}" resolved
  (cd "$tree" && bazel build "${targets[@]}")
  mkdir -p "$bin" "$lib"
  for ((i = 0; i < ${#files[@]}; i += 2)); do
    cp -L "$tree/bazel-bin/${files[i + 1]}" "$bin/${files[i]}"
  done
  resolved="$(for ((i = 1; i < ${#files[@]}; i += 2)); do
    ldd "$tree/bazel-bin/${files[i]}"
  done)"
  if grep -q "not found" <<<"$resolved"; then
    echo "scaling_bundle: a library was not found" >&2
    exit 1
  fi
  awk '/=> \//{print $3} /^\t\/.*ld-linux/{print $1}' <<<"$resolved" |
    sort -u | while read -r l; do
      if [[ -z "$shared" ]] || ! cmp -s "$l" "$shared/$(basename "$l")"; then
        cp -L "$l" "$lib/"
      fi
    done
}

rm -rf "$out"
collect . "$out/bin" "$out/lib"
[[ -f "$out/lib/ld-linux-x86-64.so.2" ]] || {
  echo "scaling_bundle: the loader was not found" >&2
  exit 1
}
if [[ -n "$base" ]]; then
  # BASE's build in a worktree of its own (its own Bazel output base; the
  # disk cache serves what the two share); only its libraries that differ
  # from this build's go to base/lib, searched first.
  tmp="$(mktemp -d)"
  tree="$tmp/base"
  git worktree add --detach "$tree" "$base"
  collect "$tree" "$out/base/bin" "$out/base/lib" "$out/lib"
  (cd "$tree" && bazel clean --expunge) || true
  git worktree remove --force "$tree"
  rmdir "$tmp"
fi
cat >"$out/run.sh" <<'RUN'
#!/usr/bin/env bash
# Runs the bundled benchmarks through the bundled loader and libraries:
#   run.sh [RESULTS_DIR [BENCHMARK_FLAGS...]]
set -uo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
results="${1:-$here/results}"
shift || true
mkdir -p "$results"
ld=("$here/lib/ld-linux-x86-64.so.2" --library-path "$here/lib")
common=(--benchmark_repetitions=5 --benchmark_report_aggregates_only=true "$@")
status=0
nproc >"$results/nproc.txt"
for b in api_threads sdk_e2e; do
  "${ld[@]}" "$here/bin/$b" "${common[@]}" --benchmark_out_format=json \
    --benchmark_out="$results/$b.json" || status=1
done
"${ld[@]}" "$here/bin/end_to_end_benchmark" "$here/bin/roctrace" \
  "$here/bin/traced_program" "${ld[@]}" "${common[@]}" \
  --benchmark_filter=BM_RocpdPftraceCsv --benchmark_out_format=json \
  --benchmark_out="$results/end_to_end.json" || status=1
exit "$status"
RUN
cat >"$out/ab.sh" <<'AB'
#!/usr/bin/env bash
# BASE's build (base/) and this one alternated twice: CPU and real time per
# call at 1 thread and at every core, medians of 3, to stdout.
here="$(cd "$(dirname "$0")" && pwd)"
ld="$here/lib/ld-linux-x86-64.so.2"
all="threads:(1|$(nproc))"
median() { grep -E "_median" | awk '{$2=$2; print}' | cut -c1-260; }
flags=(--benchmark_repetitions=3 --benchmark_report_aggregates_only=true)
side() { # NAME: the library path and binary folder of that side
  if [[ "$1" == base ]]; then
    echo "$here/base/lib:$here/lib" "$here/base/bin"
  else echo "$here/lib" "$here/bin"; fi
}
nproc
for b in api_threads sdk_e2e end_to_end_benchmark; do
  for round in 1 2; do
    for s in base new; do
      read -r libs bin < <(side "$s")
      echo "## $s $b $round"
      case "$b" in
        api_threads) "$ld" --library-path "$libs" "$bin/$b" "${flags[@]}" \
          --benchmark_min_time=0.3 --benchmark_filter="$all\$" 2>&1 | median ;;
        sdk_e2e) "$ld" --library-path "$libs" "$bin/$b" "${flags[@]}" \
          --benchmark_min_time=0.3 \
          --benchmark_filter="(SdkTraced|Direct|BM_Threads/.*$all\$)" 2>&1 | median ;;
        *) "$ld" --library-path "$libs" "$bin/$b" "$bin/roctrace" \
          "$bin/traced_program" "$ld" --library-path "$libs" "${flags[@]}" \
          --benchmark_filter="BM_RocpdPftraceCsv/$all/" 2>&1 | median ;;
      esac
    done
  done
done
AB
chmod +x "$out/ab.sh"
[[ -d "$out/base" ]] || rm "$out/ab.sh"
chmod +x "$out/run.sh"
echo "scaling_bundle: $out ($(du -sh "$out" | cut -f1)); run $out/run.sh"
