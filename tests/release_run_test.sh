#!/usr/bin/env bash
# release_run.sh: a program runs unchanged outside a release run; in one, an
# ELF program runs through the release's loader with its own LD_LIBRARY_PATH
# ahead of the release's runtime, and a script runs as it is.
set -euo pipefail
run=$1
tmp=$(mktemp -d "${TEST_TMPDIR:-/tmp}/release_run.XXXXXX")
fail() { echo "FAIL: $*" >&2; exit 1; }

# A stand-in loader that reports how it was called.
cat >"$tmp/loader" <<'LOADER'
#!/bin/sh
echo "loader $*"
LOADER
chmod +x "$tmp/loader"
printf '#!/bin/sh\necho "script $*"\n' >"$tmp/script"
chmod +x "$tmp/script"
elf=$(type -P true)

out=$(env -u ROCTRACER_RELEASE_LOADER "$run" "$tmp/script" a b)
[[ $out == "script a b" ]] || fail "outside a release: $out"
env -u ROCTRACER_RELEASE_LOADER "$run" "$elf" || fail "outside a release: true failed"

export ROCTRACER_RELEASE_LOADER=$tmp/loader ROCTRACER_RELEASE_LIBRARY_PATH=/rt:/hip
out=$(LD_LIBRARY_PATH=/softhsa "$run" "$elf" x y)
[[ $out == "loader --library-path /softhsa:/rt:/hip $elf x y" ]] || fail "ELF: $out"
out=$(env -u LD_LIBRARY_PATH "$run" true x)
[[ $out == "loader --library-path /rt:/hip $elf x" ]] || fail "ELF from PATH: $out"
out=$("$run" "$tmp/script" a)
[[ $out == "script a" ]] || fail "script: $out"
echo PASS
