#!/usr/bin/env bash
# Installs the Debian bookworm packages the build and tests use. Idempotent:
# when every package is already installed it only checks and returns.
set -euo pipefail

packages=(
  bazel-bootstrap
  g++
  libhsa-runtime-dev
  libamdhip64-dev
  hipcc
  libhsakmt-dev
  python3-clang-14
  libclang-14-dev
  python3-jinja2
  libgtest-dev
  googletest
  libbenchmark-dev
  cmake
  pkgconf
  libsqlite3-dev
  sqlite3
  openmpi-bin
  libopenmpi-dev
  nlohmann-json3-dev
  libyaml-cpp-dev
  # rocprofiler-sdk's cxx/serialization.hpp (header-only cereal)
  libcereal-dev
  # rocprofiler-sdk's cxx/codeobj/ (comgr disassembly, libdw source lines)
  libamd-comgr-dev
  libdw-dev
  # benchmarks/realhip/count_copy_cost.py: system calls and instructions per
  # thread (copy_cost.hip includes valgrind/callgrind.h)
  linux-perf
  valgrind
  # roctrace/tests/pftrace_protoc_test.py: protoc --decode of a .pftrace
  protobuf-compiler
  # tools/kineto_check.sh: Kineto's libkineto formats with fmt
  libfmt-dev
)

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done

if ((${#missing[@]} == 0)); then
  exit 0
fi

echo "install_deps: installing ${missing[*]}" >&2
sudo_cmd=()
if [[ $(id -u) -ne 0 ]]; then sudo_cmd=(sudo); fi
"${sudo_cmd[@]}" apt-get update -qq
DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
