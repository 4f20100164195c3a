#!/usr/bin/env bash
# Builds the thread-scaling benchmark (benchmarks/intercept/threads_benchmark)
# as users build the library (the default, optimised configuration) and puts
# it in one self-contained folder, with every shared library it loads and
# Debian's loader, so it runs unchanged on a machine with more cores and
# other system libraries:
#   tools/scaling_bundle.sh [DIR]        # default DIR: scaling-bundle/
#   DIR/run.sh [benchmark flags]         # there: every thread count up to
#                                        # the cores, median of 5
set -euo pipefail
cd "$(dirname "$0")/.."
out="${1:-scaling-bundle}"

bazel build //benchmarks/intercept:threads_benchmark
bin=bazel-bin/benchmarks/intercept/threads_benchmark

rm -rf "$out"
mkdir -p "$out/lib"
cp -L "$bin" "$out/threads_benchmark"
# Every library the loader resolves (the tracer's own from Bazel's solib
# folder, the runtimes and the C/C++ runtime from the system), and the loader.
ldd "$bin" | awk '/=> \//{print $3} /^\t\/.*ld-linux/{print $1}' |
  while read -r lib; do cp -L "$lib" "$out/lib/"; done
[[ -f "$out/lib/ld-linux-x86-64.so.2" ]] || {
  echo "scaling_bundle: the loader was not found" >&2
  exit 1
}
cat >"$out/run.sh" <<'RUN'
#!/usr/bin/env bash
# Runs the bundled benchmark through the bundled loader and libraries.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
exec "$here/lib/ld-linux-x86-64.so.2" --library-path "$here/lib" \
  "$here/threads_benchmark" --benchmark_repetitions=5 \
  --benchmark_report_aggregates_only=true "$@"
RUN
chmod +x "$out/run.sh"
echo "scaling_bundle: $out ($(du -sh "$out" | cut -f1)); run $out/run.sh"
