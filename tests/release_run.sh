#!/usr/bin/env bash
# Runs a program on the ROCm release under test: through that release's own
# loader and C/C++ runtime (unpacked beside it by tools/rocm_release.sh),
# since its libraries need a newer glibc and libstdc++ than this machine's.
# tools/test_release.sh sets ROCTRACER_RELEASE_LOADER and
# ROCTRACER_RELEASE_LIBRARY_PATH for the tests tagged runs_rocm and passes
# this script as --run_under; tests that start programs themselves put it in
# front of them (ROCTRACER_RELEASE_RUN). Without a release, or for a script
# (a py_test's stub, a shell test), it runs the command as it is.
#
# The program's LD_LIBRARY_PATH comes first (softhsa stays ahead of the
# release's libraries), then the release's runtime; the loader ignores
# LD_LIBRARY_PATH itself, and its children start on this machine's loader
# again, each one through this script where it must.
set -euo pipefail
if [[ -z ${ROCTRACER_RELEASE_LOADER:-} ]] || (($# == 0)); then exec "$@"; fi
program=$1
[[ $program == */* ]] || program=$(type -P -- "$program" || echo "$program")
if [[ $(head -c 4 -- "$program" 2>/dev/null) != $'\x7fELF' ]]; then exec "$@"; fi
shift
exec "$ROCTRACER_RELEASE_LOADER" \
  --library-path "${LD_LIBRARY_PATH:+$LD_LIBRARY_PATH:}$ROCTRACER_RELEASE_LIBRARY_PATH" \
  "$program" "$@"
