#!/bin/bash
# <rocprofiler-sdk/cxx/serialization.hpp> as a tool uses it: a client built
# with the system g++, its default flags and -I<prefix>/include alone (cereal's
# headers from the system, libcereal-dev) against the install tree, linked
# with -lrocprofiler-sdk, writes agents, code-object and kernel-symbol records
# to JSON and binary files and reads them back equal (serialization_client.cc).
set -euo pipefail
install="$1"
client_source="$2"

tmp=$(mktemp -d "${TEST_TMPDIR:-/tmp}/serialization.XXXXXX")
"$install" --prefix "$tmp/prefix" >/dev/null
prefix="$tmp/prefix"

g++ -std=c++17 -Wall -Wextra -Werror -I"$prefix/include" "$client_source" \
  -L"$prefix/lib" -lrocprofiler-sdk -Wl,-rpath,"$prefix/lib" \
  -o "$tmp/serialization_client"
mkdir "$tmp/out"
env -u LD_LIBRARY_PATH ROCPROFILER_SDK_NO_AUTO_REGISTER=1 \
  "$tmp/serialization_client" "$tmp/out" | tee "$tmp/log"
grep -q "checks passed" "$tmp/log"
# The JSON file holds the records under the C headers' field names.
grep -q '"kernel_name": "_Z6vecAddPfS_S_i.kd"' "$tmp/out/records.json"
grep -q '"uri": "file:///opt/app/bin/app#offset=8192&size=40960"' \
  "$tmp/out/records.json"
