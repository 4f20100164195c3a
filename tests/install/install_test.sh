#!/bin/bash
# `bazel run //:install -- --prefix DIR` gives a tree users build against as
# against ROCm: ROCm's lib/ and include/ layout, and a program built with the
# system g++ and default flags through pkg-config, and another through
# CMake's find_package(roctracer), run on the installed libraries; and
# bin/roctrace tracing a program from there.
set -euo pipefail
install="$1"
client="$2"
cmakelists="$3"
sdk_client="$4"  # a C client of librocprofiler-sdk.so.1
sdk_roctx_client="$5"  # a C client of librocprofiler-sdk-roctx.so.1
sdk_tool_client="$6"  # a C++ SDK tool as the SDK's samples write one
sdk_source_compat_client="$7"  # 1.0.0's member-access expressions, C and C++
header_clients=("${@:8}")

tmp=$(mktemp -d "${TEST_TMPDIR:-/tmp}/install.XXXXXX")
fail() { echo "FAIL: $*" >&2; exit 1; }

"$install" --prefix "$tmp/staged"
# The tree is relocatable: pkg-config and CMake files find it from their own
# location.
mv "$tmp/staged" "$tmp/prefix"
prefix="$tmp/prefix"

for f in lib/libroctracer64.so.4.1.0 lib/libroctx64.so.4.1.0 \
  include/roctracer/roctracer.h include/roctracer/roctracer_ext.h \
  include/roctracer/roctracer_hip.h include/roctracer/roctracer_hsa.h \
  include/roctracer/roctracer_roctx.h include/roctracer/roctx.h \
  include/roctracer/ext/prof_protocol.h include/roctracer/hip_api_id.h \
  include/roctracer/roctracer_plugin.h include/roctracer/hip_ostream_ops.h \
  include/roctracer/hsa_ostream_ops.h include/roctracer/hip_api_helpers.h \
  include/roctracer/hsa_api_data.h include/rocprofiler-sdk/rocprofiler.h \
  include/rocprofiler-sdk/hsa/api_id.h include/rocprofiler-sdk/hip/api_args.h \
  lib/pkgconfig/roctracer.pc lib/pkgconfig/roctx.pc \
  lib/cmake/roctracer/roctracer-config.cmake \
  lib/cmake/roctracer/roctracer-config-version.cmake; do
  [[ -f "$prefix/$f" ]] || fail "$f not installed"
done
for lib in roctracer64 roctx64; do
  [[ "$(readlink "$prefix/lib/lib$lib.so")" == "lib$lib.so.4" ]] ||
    fail "lib$lib.so does not link to lib$lib.so.4"
  [[ "$(readlink "$prefix/lib/lib$lib.so.4")" == "lib$lib.so.4.1.0" ]] ||
    fail "lib$lib.so.4 does not link to lib$lib.so.4.1.0"
  readelf -d "$prefix/lib/lib$lib.so" | grep -q "Library soname: \[lib$lib.so.4\]" ||
    fail "lib$lib.so: SONAME is not lib$lib.so.4"
done
# Programs built against ROCm <= 5.2 need libroctracer64.so.1 and
# libroctx64.so.1: one linked so (against stand-ins with those SONAMEs) runs
# on the installed libraries.
for lib in roctracer64 roctx64; do
  [[ "$(readlink "$prefix/lib/lib$lib.so.1")" == "lib$lib.so.4" ]] ||
    fail "lib$lib.so.1 does not link to lib$lib.so.4"
done
old="$tmp/rocm_5_2"
mkdir -p "$old"
printf 'int roctracer_version_major(void) { return 1; }\n' >"$old/t.c"
printf 'int roctxRangePushA(const char* m) { (void)m; return -1; }\n' >"$old/x.c"
cc -shared -fPIC -Wl,-soname,libroctracer64.so.1 "$old/t.c" -o "$old/libroctracer64.so"
cc -shared -fPIC -Wl,-soname,libroctx64.so.1 "$old/x.c" -o "$old/libroctx64.so"
cat >"$old/client.c" <<'CLIENT'
#include <stdio.h>
int roctracer_version_major(void);
int roctxRangePushA(const char* message);
int main(void) {
  printf("%d %d\n", roctracer_version_major(), roctxRangePushA("old"));
  return 0;
}
CLIENT
cc "$old/client.c" -L"$old" -lroctracer64 -lroctx64 -o "$old/client"
readelf -d "$old/client" | grep -q "Shared library: \[libroctracer64.so.1\]" ||
  fail "the ROCm 5.2 client does not need libroctracer64.so.1"
[[ "$(LD_LIBRARY_PATH="$prefix/lib" "$old/client")" == "4 0" ]] ||
  fail "a client built for ROCm 5.2's library names does not run on ours"
# What users install is optimised (the README's commands build it so; a
# traced call costs several times more otherwise).
for f in lib/libroctracer64.so.4.1.0 lib/libroctx64.so.4.1.0 bin/roctrace \
  lib/libroctrace_tool.so; do
  mode=$(readelf -p .roctracer.build "$prefix/$f" 2>/dev/null |
    grep -o 'roctracer build: [a-z]*' || true)
  case "$mode" in
    *': optimized') ;;
    '') fail "$f: no build-mode record" ;;
    *) fail "$f: built ${mode#roctracer build: }" ;;
  esac
done
# The HSA tool entry points survive installation (ROCR dlsym()s them).
syms=$(readelf --dyn-syms -W "$prefix/lib/libroctracer64.so")
for s in OnLoad OnUnload HSA_AMD_TOOL_PRIORITY; do
  grep -qE " $s@@ROCTRACER_4\.[01]\$" <<<"$syms" || fail "$s not exported"
done

check_client() {  # binary: records the SONAMEs and runs cleanly
  local needed
  needed=$(readelf -d "$1")
  grep -q "Shared library: \[libroctracer64.so.4\]" <<<"$needed" ||
    fail "$1 does not need libroctracer64.so.4"
  grep -q "Shared library: \[libroctx64.so.4\]" <<<"$needed" ||
    fail "$1 does not need libroctx64.so.4"
  LD_LIBRARY_PATH="$prefix/lib" "$1" | tee "$tmp/out"
  grep -q "install_client: 0 failures" "$tmp/out" || fail "$1 failed"
}

# pkg-config, default g++ flags (--as-needed included).
export PKG_CONFIG_PATH="$prefix/lib/pkgconfig"
# shellcheck disable=SC2046
g++ -D__HIP_PLATFORM_AMD__ "$client" $(pkg-config --cflags --libs roctracer roctx) \
  -o "$tmp/pkg_config_client"
check_client "$tmp/pkg_config_client"

# A client of every public roctracer header, using what ROCm's headers of the
# same name give (HIP's hip_prof_str.h helpers, the stream printers, the
# plugin interface), in C++ with HIP's hip_prof_str.h after ours and before
# ours, and in C.
for src in "${header_clients[@]}"; do
  name=$(basename "$src")
  case "$name" in
    *.c) compiler=gcc ;;
    *) compiler=g++ ;;
  esac
  # shellcheck disable=SC2046
  "$compiler" -D__HIP_PLATFORM_AMD__ "$src" \
    $(pkg-config --cflags --libs roctracer roctx) -o "$tmp/${name%.*}_bin" ||
    fail "$name does not compile against the installed headers"
  LD_LIBRARY_PATH="$prefix/lib" "$tmp/${name%.*}_bin" | tee "$tmp/out"
  grep -q ": 0 failures" "$tmp/out" || fail "$name failed"
done

# CMake find_package(roctracer).
mkdir "$tmp/src"
cp "$client" "$tmp/src/install_client.cc"
cp "$cmakelists" "$tmp/src/CMakeLists.txt"
cmake -S "$tmp/src" -B "$tmp/build" -DCMAKE_PREFIX_PATH="$prefix" >"$tmp/cmake.log" 2>&1 ||
  { cat "$tmp/cmake.log"; fail "cmake configure"; }
cmake --build "$tmp/build" >>"$tmp/cmake.log" 2>&1 ||
  { cat "$tmp/cmake.log"; fail "cmake build"; }
check_client "$tmp/build/install_client"

# rocprofiler-sdk's library and packages: librocprofiler-sdk.so.1 (an ELF
# filter of libroctracer64.so.4), pkg-config rocprofiler-sdk and CMake
# find_package(rocprofiler-sdk) with ROCm's target name.
for f in lib/librocprofiler-sdk.so.1.0.0 lib/pkgconfig/rocprofiler-sdk.pc \
  lib/cmake/rocprofiler-sdk/rocprofiler-sdk-config.cmake \
  lib/cmake/rocprofiler-sdk/rocprofiler-sdk-config-version.cmake \
  include/rocprofiler-sdk/cxx/name_info.hpp include/rocprofiler-sdk/agent.h; do
  [[ -f "$prefix/$f" ]] || fail "$f not installed"
done
[[ "$(readlink "$prefix/lib/librocprofiler-sdk.so")" == "librocprofiler-sdk.so.1" ]] ||
  fail "librocprofiler-sdk.so does not link to librocprofiler-sdk.so.1"
[[ "$(readlink "$prefix/lib/librocprofiler-sdk.so.1")" == "librocprofiler-sdk.so.1.0.0" ]] ||
  fail "librocprofiler-sdk.so.1 does not link to librocprofiler-sdk.so.1.0.0"
check_sdk_client() {
  readelf -d "$1" | grep -q "Shared library: \[librocprofiler-sdk.so.1\]" ||
    fail "$1 does not need librocprofiler-sdk.so.1"
  LD_LIBRARY_PATH="$prefix/lib" ROCPROFILER_SDK_NO_AUTO_REGISTER=1 "$1" ||
    fail "$1 failed"
}
# shellcheck disable=SC2046
gcc "$sdk_client" $(pkg-config --cflags --libs rocprofiler-sdk) -ldl \
  -o "$tmp/sdk_pkg_config_client"
check_sdk_client "$tmp/sdk_pkg_config_client"
# Source written against 1.0.0's headers (the agent's KFD unions, the retval
# unions' member names) compiles as C and C++ and reads the same bits.
for compiler in gcc "g++ -x c++"; do
  # shellcheck disable=SC2046,SC2086
  $compiler "$sdk_source_compat_client" $(pkg-config --cflags rocprofiler-sdk) \
    -Wall -Wextra -Werror -o "$tmp/sdk_source_compat_client" ||
    fail "sdk_source_compat_client does not compile with $compiler"
  "$tmp/sdk_source_compat_client" | tee "$tmp/out"
  grep -q ": 0 failures" "$tmp/out" || fail "sdk_source_compat_client ($compiler)"
done
mkdir "$tmp/sdk_src"
cp "$sdk_client" "$tmp/sdk_src/client.c"
cat >"$tmp/sdk_src/CMakeLists.txt" <<'CMAKE'
cmake_minimum_required(VERSION 3.16)
project(sdk_client C)
find_package(rocprofiler-sdk 1.0 REQUIRED)
# rocprofiler-sdk 1.0.0's target names.
foreach(target headers shared-library external-nolink)
  if(NOT TARGET rocprofiler-sdk::rocprofiler-sdk-${target})
    message(FATAL_ERROR "no rocprofiler-sdk::rocprofiler-sdk-${target}")
  endif()
endforeach()
add_executable(sdk_client client.c)
target_link_libraries(sdk_client rocprofiler-sdk::rocprofiler-sdk ${CMAKE_DL_LIBS})
CMAKE
cmake -S "$tmp/sdk_src" -B "$tmp/sdk_build" -DCMAKE_PREFIX_PATH="$prefix" \
  >"$tmp/sdk_cmake.log" 2>&1 || { cat "$tmp/sdk_cmake.log"; fail "cmake configure (rocprofiler-sdk)"; }
cmake --build "$tmp/sdk_build" >>"$tmp/sdk_cmake.log" 2>&1 ||
  { cat "$tmp/sdk_cmake.log"; fail "cmake build (rocprofiler-sdk)"; }
check_sdk_client "$tmp/sdk_build/sdk_client"

# A C++ tool written as the SDK's samples and Kineto write theirs, built
# with -I<prefix>/include alone and run through a RUNPATH to <prefix>/lib
# alone: the filter finds libroctracer64.so.4 beside itself ($ORIGIN).
g++ -std=c++17 -I"$prefix/include" "$sdk_tool_client" -L"$prefix/lib" \
  -lrocprofiler-sdk -Wl,-rpath,"$prefix/lib" -o "$tmp/sdk_tool_client" ||
  fail "the SDK tool client does not build with -I<prefix>/include alone"
env -u LD_LIBRARY_PATH "$tmp/sdk_tool_client" | tee "$tmp/out"
grep -q "sdk_tool_client: 0 failures" "$tmp/out" || fail "sdk_tool_client failed"

# librocprofiler-sdk-roctx.so.1 (an ELF filter of libroctx64.so.4, every
# name it exports defined there in the same version), pkg-config
# rocprofiler-sdk-roctx and CMake find_package(rocprofiler-sdk-roctx) with
# ROCm's target name.
for f in lib/librocprofiler-sdk-roctx.so.1.0.0 \
  lib/pkgconfig/rocprofiler-sdk-roctx.pc \
  lib/cmake/rocprofiler-sdk-roctx/rocprofiler-sdk-roctx-config.cmake \
  lib/cmake/rocprofiler-sdk-roctx/rocprofiler-sdk-roctx-config-version.cmake \
  include/rocprofiler-sdk-roctx/roctx.h include/rocprofiler-sdk-roctx/types.h; do
  [[ -f "$prefix/$f" ]] || fail "$f not installed"
done
[[ "$(readlink "$prefix/lib/librocprofiler-sdk-roctx.so")" == "librocprofiler-sdk-roctx.so.1" ]] ||
  fail "librocprofiler-sdk-roctx.so does not link to librocprofiler-sdk-roctx.so.1"
[[ "$(readlink "$prefix/lib/librocprofiler-sdk-roctx.so.1")" == "librocprofiler-sdk-roctx.so.1.0.0" ]] ||
  fail "librocprofiler-sdk-roctx.so.1 does not link to librocprofiler-sdk-roctx.so.1.0.0"
roctx_sdk_dyn=$(readelf -d "$prefix/lib/librocprofiler-sdk-roctx.so.1")
grep -q "Library soname: \[librocprofiler-sdk-roctx.so.1\]" <<<"$roctx_sdk_dyn" ||
  fail "librocprofiler-sdk-roctx.so.1: wrong SONAME"
grep -q "Filter library: \[libroctx64.so.4\]" <<<"$roctx_sdk_dyn" ||
  fail "librocprofiler-sdk-roctx.so.1 is not a filter of libroctx64.so.4"
exported() {  # name@version of every defined global function
  readelf --dyn-syms -W "$1" | awk '$4 == "FUNC" && $7 != "UND" {print $8}' |
    sed 's/@@*/@/' | sort
}
missing=$(comm -23 <(exported "$prefix/lib/librocprofiler-sdk-roctx.so.1") \
  <(exported "$prefix/lib/libroctx64.so.4"))
[[ -z "$missing" ]] || fail "not in libroctx64.so.4: $missing"
[[ $(exported "$prefix/lib/librocprofiler-sdk-roctx.so.1" | wc -l) == 12 ]] ||
  fail "librocprofiler-sdk-roctx.so.1 does not export rocTX's 12 functions"
check_sdk_roctx_client() {
  readelf -d "$1" | grep -q "Shared library: \[librocprofiler-sdk-roctx.so.1\]" ||
    fail "$1 does not need librocprofiler-sdk-roctx.so.1"
  LD_LIBRARY_PATH="$prefix/lib" "$1" | tee "$tmp/out"
  grep -q "sdk_roctx_client: 0 failures" "$tmp/out" || fail "$1 failed"
}
# shellcheck disable=SC2046
gcc "$sdk_roctx_client" $(pkg-config --cflags --libs rocprofiler-sdk-roctx) -ldl \
  -o "$tmp/sdk_roctx_pkg_config_client"
check_sdk_roctx_client "$tmp/sdk_roctx_pkg_config_client"
mkdir "$tmp/sdk_roctx_src"
cp "$sdk_roctx_client" "$tmp/sdk_roctx_src/client.c"
cat >"$tmp/sdk_roctx_src/CMakeLists.txt" <<'CMAKE'
cmake_minimum_required(VERSION 3.16)
project(sdk_roctx_client C)
find_package(rocprofiler-sdk-roctx 1.0 REQUIRED)
# rocprofiler-sdk 1.0.0's target names.
if(NOT TARGET rocprofiler-sdk-roctx::rocprofiler-sdk-roctx-shared-library OR
   NOT rocprofiler-sdk-roctx_LIBRARIES STREQUAL
   "rocprofiler-sdk-roctx::rocprofiler-sdk-roctx-shared-library")
  message(FATAL_ERROR "not 1.0.0's targets: ${rocprofiler-sdk-roctx_LIBRARIES}")
endif()
add_executable(sdk_roctx_client client.c)
target_link_libraries(sdk_roctx_client
  rocprofiler-sdk-roctx::rocprofiler-sdk-roctx ${CMAKE_DL_LIBS})
CMAKE
cmake -S "$tmp/sdk_roctx_src" -B "$tmp/sdk_roctx_build" -DCMAKE_PREFIX_PATH="$prefix" \
  >"$tmp/sdk_roctx_cmake.log" 2>&1 ||
  { cat "$tmp/sdk_roctx_cmake.log"; fail "cmake configure (rocprofiler-sdk-roctx)"; }
cmake --build "$tmp/sdk_roctx_build" >>"$tmp/sdk_roctx_cmake.log" 2>&1 ||
  { cat "$tmp/sdk_roctx_cmake.log"; fail "cmake build (rocprofiler-sdk-roctx)"; }
check_sdk_roctx_client "$tmp/sdk_roctx_build/sdk_roctx_client"

# roctrace from the installed tree traces a plain HIP program (built with
# the system g++) into rocprofv3's CSV.
[[ -x "$prefix/bin/roctrace" && -f "$prefix/lib/libroctrace_tool.so" ]] ||
  fail "roctrace not installed"
cat >"$tmp/hip_calls.cc" <<'CC'
#include <hip/hip_runtime_api.h>
int main() {
  for (int i = 0; i < 25; ++i) hipGetErrorString(hipSuccess);
  return 0;
}
CC
g++ -D__HIP_PLATFORM_AMD__ "$tmp/hip_calls.cc" -lamdhip64 -o "$tmp/hip_calls"
"$prefix/bin/roctrace" --hip-trace --output-format csv -d "$tmp/trace" -o t \
  -- "$tmp/hip_calls" 2>"$tmp/roctrace.err" ||
  { cat "$tmp/roctrace.err"; fail "roctrace from the install tree"; }
rows=$(grep -c '"hipGetErrorString"' "$tmp/trace/t_hip_api_trace.csv") ||
  fail "no hipGetErrorString rows"
[[ "$rows" == 25 ]] || fail "roctrace: $rows hipGetErrorString rows, not 25"
echo "ok"
