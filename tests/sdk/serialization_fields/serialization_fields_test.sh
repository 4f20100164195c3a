#!/bin/bash
# <rocprofiler-sdk/cxx/serialization/save.hpp> writes what rocprofiler-sdk
# 1.0.0's does: a client built with the system g++, -Werror and
# -I<prefix>/include alone (cereal's headers from the system) against the
# install tree, linked with -lrocprofiler-sdk, checks the JSON and binary
# archives of every type in rocprofiler-sdk-1.0.0-serialization.txt and the
# round trips through load.hpp (serialization_fields.cc).
set -euo pipefail
install="$1"
client_source="$2"
table="$3"

tmp=$(mktemp -d "${TEST_TMPDIR:-/tmp}/serialization_fields.XXXXXX")
"$install" --prefix "$tmp/prefix" >/dev/null
prefix="$tmp/prefix"

g++ -std=c++17 -Wall -Wextra -Werror -I"$prefix/include" "$client_source" \
  -L"$prefix/lib" -lrocprofiler-sdk -Wl,-rpath,"$prefix/lib" \
  -o "$tmp/serialization_fields"
env -u LD_LIBRARY_PATH ROCPROFILER_SDK_NO_AUTO_REGISTER=1 \
  "$tmp/serialization_fields" "$table" | tee "$tmp/log"
grep -q "checks passed" "$tmp/log"
