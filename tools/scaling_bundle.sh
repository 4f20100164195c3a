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
#   tools/scaling_bundle.sh [DIR]           # default DIR: scaling-bundle/
#   DIR/run.sh [RESULTS_DIR [FLAGS...]]     # there: each benchmark, every
#                                           # thread count up to the cores,
#                                           # median of 5, JSON into
#                                           # RESULTS_DIR (default DIR/results)
set -euo pipefail
cd "$(dirname "$0")/.."
out="${1:-scaling-bundle}"

targets=(//benchmarks/intercept:threads_benchmark
  //benchmarks/sdk:e2e_benchmark //roctrace:end_to_end_benchmark
  //roctrace //roctrace:traced_program //roctrace:libroctrace_tool.so)
bazel build "${targets[@]}"
bin=bazel-bin

rm -rf "$out"
mkdir -p "$out/lib" "$out/bin"
# name in the bundle, then the built file; roctrace finds its libraries
# beside its binary.
files=(api_threads "$bin/benchmarks/intercept/threads_benchmark"
  sdk_e2e "$bin/benchmarks/sdk/e2e_benchmark"
  end_to_end_benchmark "$bin/roctrace/end_to_end_benchmark"
  traced_program "$bin/roctrace/traced_program"
  roctrace "$bin/roctrace/roctrace"
  libroctrace_tool.so "$bin/roctrace/libroctrace_tool.so"
  libroctracer64.so.4 "$bin/libroctracer64.so.4")
for ((i = 0; i < ${#files[@]}; i += 2)); do
  cp -L "${files[i + 1]}" "$out/bin/${files[i]}"
done
# Every library the loader resolves for the built files (the tracer's own
# from Bazel's solib folders, the runtimes and the C/C++ runtime from the
# system), and the loader.
resolved="$(for ((i = 1; i < ${#files[@]}; i += 2)); do ldd "${files[i]}"; done)"
if grep -q "not found" <<<"$resolved"; then
  echo "scaling_bundle: a library was not found" >&2
  exit 1
fi
awk '/=> \//{print $3} /^\t\/.*ld-linux/{print $1}' <<<"$resolved" | sort -u |
  while read -r lib; do cp -L "$lib" "$out/lib/"; done
[[ -f "$out/lib/ld-linux-x86-64.so.2" ]] || {
  echo "scaling_bundle: the loader was not found" >&2
  exit 1
}
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
chmod +x "$out/run.sh"
echo "scaling_bundle: $out ($(du -sh "$out" | cut -f1)); run $out/run.sh"
