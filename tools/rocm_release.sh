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
# It also writes what this machine cannot test of the release:
# <cache>/<suite>/test_tag_filters (e.g. `-runs_rocm,-kfd`) and, one reason a
# line, <cache>/<suite>/skipped. Tests tagged `runs_rocm` need the release
# built against to be this machine's ROCm: they load its libraries or build
# a client against the headers installed under /usr. They are filtered out
# for every fetched release, with what its libraries lack here (sid's need a
# newer glibc than bookworm's). The GPU tests on softhsa are not: softhsa,
# the tracer and the test programs are all built from the release's headers.
# Tests tagged `kfd` need libhsakmt. tools/test_release.sh applies the
# filter and prints the reasons.
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

# Whether this machine's loader can load the suite's runtime libraries (from
# the prefix, else the system): `ldd` names every library or symbol version
# it lacks (sid's need glibc >= 2.38 where bookworm has 2.36).
write_filters() {
  local lib missing skip=() why=()
  lib=$prefix/lib/x86_64-linux-gnu
  missing=$(for f in "$lib"/lib{hsa-runtime64,amdhip64,hsakmt}.so.[0-9]; do
              [[ -e $f ]] && LD_LIBRARY_PATH=$lib ldd "$f" 2>&1
            done | grep 'not found' | grep -o "version \`[^']*' not found\|[^ ]* => not found" |
            sed "s/version \`\(.*\)' not found/\1/; s/ => not found//" | sort -uV | paste -sd' ' || true)
  skip+=(-runs_rocm)
  if [[ -n $missing ]]; then
    why+=("tests tagged runs_rocm (they load the installed ROCm's libraries or build against its headers): $suite's ROCm is not installed here, and its libraries need what this machine lacks: $missing")
  else
    why+=("tests tagged runs_rocm (they load the installed ROCm's libraries or build against its headers): $suite's ROCm is not installed here")
  fi
  if ! ls "$prefix"/lib/x86_64-linux-gnu/libhsakmt.so* >/dev/null 2>&1; then
    skip+=(-kfd)
    why+=("tests tagged kfd: $suite has no libhsakmt")
  fi
  # One reason a line (test.sh prints them), then the tag filter.
  if ((${#why[@]})); then printf '%s\n' "${why[@]}"; fi >"$dir/skipped"
  local IFS=,
  echo "${skip[*]}" >"$dir/test_tag_filters"
}

if [[ -f $dir/complete ]]; then
  write_filters
  echo "$prefix"
  exit 0
fi

st=$(mktemp -d)
trap 'rm -rf "$st"' EXIT
mkdir -p "$st/lists/partial" "$st/archives/partial" "$st/debs"
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
(cd "$st/debs" && apt-get "${opts[@]}" -qq download "${pkgs[@]}")
mkdir -p "$dir"
rm -rf "$dir/root.new"
for deb in "$st"/debs/*.deb; do dpkg -x "$deb" "$dir/root.new"; done
rm -rf "$dir/root"
mv "$dir/root.new" "$dir/root"
printf '%s\n' "${pkgs[@]}" >"$dir/packages"
(cd "$st/debs" && ls) >"$dir/debs"
write_filters
touch "$dir/complete"
echo "$prefix"
