#!/usr/bin/env bash
# Fetches a Debian suite's HSA and HIP development headers (libhsa-runtime-dev,
# libamdhip64-dev) for dispatch_table_numbering_test, into the cache layout of
# the project's release tool (<cache>/<suite>/root/usr/include; the cache is
# $ROCTRACER_ROCM_CACHE, else ${XDG_CACHE_HOME:-~/.cache}/roctracer-rocm), so
# either fills it. `apt-get download` under an apt state of its own, then
# `dpkg -x`: nothing is installed system-wide. Headers only (no libraries).
#
# Usage: tests/sdk/release/fetch_headers.sh SUITE    (e.g. sid)
set -euo pipefail
if (($# != 1)) || [[ ! $1 =~ ^[a-z][a-z0-9-]*$ ]]; then
  echo "usage: $0 SUITE   (a Debian suite name, e.g. sid)" >&2
  exit 2
fi
suite=$1
cache=${ROCTRACER_ROCM_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/roctracer-rocm}
dir=$cache/$suite
if [[ -f $dir/root/usr/include/hip/hip_runtime_api.h ]]; then
  echo "$dir/root/usr"
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
      -o "Debug::NoLocking=1" -o "APT::Default-Release=$suite")
apt-get "${opts[@]}" -qq update
(cd "$st/debs" && apt-get "${opts[@]}" -qq download libhsa-runtime-dev libamdhip64-dev)
mkdir -p "$dir"
rm -rf "$dir/root.new"
for deb in "$st"/debs/*.deb; do dpkg -x "$deb" "$dir/root.new"; done
rm -rf "$dir/root"
mv "$dir/root.new" "$dir/root"
echo "$dir/root/usr"
