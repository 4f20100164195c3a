#!/usr/bin/env bash
# Fetches one Debian suite's ROCm (HSA, HIP and, where the suite has them,
# libhsakmt headers and runtime libraries) into a cache outside the source
# tree and prints its prefix (<cache>/<suite>/root/usr), ready for
#   bazel test --repo_env=ROCM_PATH=$(tools/rocm_release.sh sid) //...
#
# `apt-get download` under an apt state of its own, then `dpkg -x`: nothing is
# installed system-wide and the system's apt state is never read or written.
# The cache is $ROCTRACER_ROCM_CACHE, else ${XDG_CACHE_HOME:-~/.cache}/roctracer-rocm;
# a suite already there is reused. Package names differ between suites (the
# HIP library carries its soname major: libamdhip64-5, -6, -7), so they are
# looked up under the separate state. Fetching fails loudly: a release that
# cannot be fetched must fail CI, not be skipped.
#
# The suite's ROCm libraries need a newer C and C++ runtime than this
# machine's (glibc >= 2.38, GLIBCXX_3.4.32) and libraries it may lack
# (comgr, libdrm_amdgpu, libnuma, libelf, LLVM): every package they depend
# on, as apt resolves it for an empty system, is unpacked beside the release
# into <cache>/<suite>/runtime, with the suite's own loader. Programs run on
# the release through that loader,
#   <cache>/<suite>/runtime/usr/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2 \
#     --library-path <dirs> program
# with <dirs> written to <cache>/<suite>/library_path and the loader's path
# to <cache>/<suite>/loader (tests/release_run.sh does both). library_path
# names the runtime's directories, then <cache>/<suite>/hip, which holds the
# release's libamdhip64 under every soname a HIP program may ask for
# (libamdhip64.so.5, .6, .7): programs built by this machine's hipcc 5.2.3
# then load the release's HIP. The release's libhsa-runtime64 is not on it
# (a program on softhsa must keep softhsa); a program that wants the
# release's HSA puts <prefix>/lib/x86_64-linux-gnu on its LD_LIBRARY_PATH.
#
# It also writes what this machine cannot test of the release:
# <cache>/<suite>/test_tag_filters (e.g. `-installed_rocm,-kfd`) and, one
# reason a line, <cache>/<suite>/skipped. Tests tagged `installed_rocm`
# build clients against the ROCm installed under /usr: they are filtered out
# for every fetched release. Tests tagged `runs_rocm` load the release's
# libraries: tools/test_release.sh runs them through the loader when every
# library and symbol version the release's libraries need resolves there,
# and otherwise filters them out here with what is missing. Tests tagged
# `kfd` need libhsakmt. tools/test_release.sh applies the filter and prints
# the reasons.
#
# Usage: tools/rocm_release.sh SUITE        (trixie, sid, experimental, ...)
set -euo pipefail
if (($# != 1)) || [[ ! $1 =~ ^[a-z][a-z0-9-]*$ ]]; then
  echo "usage: $0 SUITE   (a Debian suite name, e.g. sid)" >&2
  exit 2
fi
suite=$1
cache=${ROCTRACER_ROCM_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/roctracer-rocm}
dir=$cache/$suite
prefix=$dir/root/usr

runtime=$dir/runtime
loader=$runtime/usr/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2

# Whether the release's loader loads the suite's ROCm libraries from the
# release, its runtime and the hip directory: `--list` names every library
# or symbol version that is missing. Without a runtime (or where something
# is still missing) the tests tagged runs_rocm are filtered out.
write_filters() {
  local lib missing skip=() why=()
  lib=$prefix/lib/x86_64-linux-gnu
  missing=$(for f in "$lib"/lib{hsa-runtime64,amdhip64,hsakmt}.so.[0-9]; do
              [[ -e $f ]] || continue
              if [[ -x $loader ]]; then
                "$loader" --library-path "$(cat "$dir/library_path"):$lib" --list "$f" 2>&1
              else
                LD_LIBRARY_PATH=$lib ldd "$f" 2>&1
              fi
            done | grep 'not found' | grep -o "version \`[^']*' not found\|[^ ]* => not found" |
            sed "s/version \`\(.*\)' not found/\1/; s/ => not found//" | sort -uV | paste -sd' ' || true)
  if [[ -n $missing || ! -x $loader ]]; then
    skip+=(-runs_rocm)
    why+=("tests tagged runs_rocm (they load the release's libraries): $suite's libraries need what neither this machine nor the runtime unpacked beside the release has: ${missing:-its loader}")
  fi
  skip+=(-installed_rocm)
  why+=("tests tagged installed_rocm (they build clients against the ROCm installed under /usr and load its libraries): $suite's ROCm is not installed here")
  if ! ls "$prefix"/lib/x86_64-linux-gnu/libhsakmt.so* >/dev/null 2>&1; then
    skip+=(-kfd)
    why+=("tests tagged kfd: $suite has no libhsakmt")
  fi
  # One reason a line (test.sh prints them), then the tag filter.
  if ((${#why[@]})); then printf '%s\n' "${why[@]}"; fi >"$dir/skipped"
  local IFS=,
  echo "${skip[*]}" >"$dir/test_tag_filters"
}

if [[ -f $dir/complete && -f $runtime/complete ]]; then
  write_filters
  echo "$prefix"
  exit 0
fi

st=$(mktemp -d)
trap 'rm -rf "$st"' EXIT
mkdir -p "$st/lists/partial" "$st/archives/partial" "$st/debs" "$st/runtime-debs"
: >"$st/status"
{
  echo "deb http://deb.debian.org/debian $suite main"
  if [[ $suite == experimental ]]; then echo "deb http://deb.debian.org/debian sid main"; fi
} >"$st/sources.list"
opts=(-o "Dir::Etc::SourceList=$st/sources.list" -o "Dir::Etc::SourceParts=/dev/null"
      -o "Dir::Etc::Preferences=/dev/null" -o "Dir::Etc::PreferencesParts=/dev/null"
      -o "Dir::State::Lists=$st/lists" -o "Dir::State::status=$st/status"
      -o "Dir::Cache=$st" -o "Dir::Cache::archives=$st/archives"
      -o "Debug::NoLocking=1" -o "APT::Sandbox::User=root" -o "APT::Default-Release=$suite")
if ! apt-get "${opts[@]}" -qq update; then
  echo "$0: cannot reach Debian's archive for $suite" >&2
  exit 1
fi

# The candidate version of a package in this suite, empty if it has none.
candidate() {
  apt-cache "${opts[@]}" policy "$1" 2>/dev/null | awk '/Candidate:/ {print $2}' | grep -v '(none)' || true
}
pkgs=(libhsa-runtime-dev libhsa-runtime64-1 libamdhip64-dev)
# The HIP runtime package is named after its soname major.
hip=$(apt-cache "${opts[@]}" depends libamdhip64-dev 2>/dev/null |
      awk '/Depends: libamdhip64-[0-9]+$/ {print $2; exit}')
[[ -n $hip ]] || { echo "$0: $suite: libamdhip64-dev names no libamdhip64-N" >&2; exit 1; }
pkgs+=("$hip")
for opt in libhsakmt-dev libhsakmt1; do
  [[ -n $(candidate $opt) ]] && pkgs+=("$opt")
done
mapfile -t pkgs < <(printf '%s\n' "${pkgs[@]}" | sort -u)
mkdir -p "$dir"
if [[ ! -f $dir/complete ]]; then
  (cd "$st/debs" && apt-get "${opts[@]}" -qq download "${pkgs[@]}")
  rm -rf "$dir/root.new"
  for deb in "$st"/debs/*.deb; do dpkg -x "$deb" "$dir/root.new"; done
  rm -rf "$dir/root"
  mv "$dir/root.new" "$dir/root"
  printf '%s\n' "${pkgs[@]}" >"$dir/packages"
  (cd "$st/debs" && ls) >"$dir/debs"
  touch "$dir/complete"
fi

# The runtime: everything the ROCm runtime libraries depend on, as apt would
# install it on an empty system (the status file is empty), less the ROCm
# packages themselves (they are in root/).
runtime_pkgs=$(apt-get "${opts[@]}" -s install --no-install-recommends \
                 $(printf '%s\n' "${pkgs[@]}" | grep -v -- '-dev$') |
               awk '/^Inst / {print $2}' | grep -vxF -f <(printf '%s\n' "${pkgs[@]}") | sort -u)
[[ -n $runtime_pkgs ]] || { echo "$0: $suite: no runtime packages resolved" >&2; exit 1; }
(cd "$st/runtime-debs" && apt-get "${opts[@]}" -qq download $runtime_pkgs)
rm -rf "$runtime.new"
for deb in "$st"/runtime-debs/*.deb; do dpkg -x "$deb" "$runtime.new"; done
[[ -x $runtime.new/usr/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2 ]] ||
  { echo "$0: $suite: its libc6 has no usr/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2" >&2; exit 1; }
(cd "$st/runtime-debs" && ls) >"$runtime.new/debs"
rm -rf "$runtime"
mv "$runtime.new" "$runtime"
# The release's HIP under every soname a HIP program may need.
rm -rf "$dir/hip"
mkdir -p "$dir/hip"
real_hip=$(readlink -f "$prefix"/lib/x86_64-linux-gnu/libamdhip64.so.[0-9])
for major in 5 6 7; do ln -s "$real_hip" "$dir/hip/libamdhip64.so.$major"; done
# Every runtime directory that holds shared libraries, then the HIP one.
{
  find "$runtime" -name '*.so*' \( -type f -o -type l \) -printf '%h\n' | sort -u |
    grep -E "^$runtime/(usr/)?lib(64|/x86_64-linux-gnu)?\$"
  echo "$dir/hip"
} | paste -sd: >"$dir/library_path"
echo "$loader" >"$dir/loader"
touch "$runtime/complete"
write_filters
echo "$prefix"
