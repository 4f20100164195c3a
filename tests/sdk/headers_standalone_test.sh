#!/bin/bash
# Every rocprofiler-sdk header of the installed tree (`bazel run //:install`)
# compiles on its own with the system compilers, default flags and
# -I<prefix>/include alone, without a diagnostic: each C header as C99 and
# C++17, each C++ helper (.hpp) as C++17. A header that needs another it does
# not include, or a library the install tree lacks, fails here (the
# cxx/codeobj/ headers need comgr's and libdw's headers, and cereal's
# serialization.hpp: tools/install_deps.sh installs them).
set -euo pipefail
install="$1"

tmp=$(mktemp -d "${TEST_TMPDIR:-/tmp}/headers.XXXXXX")
"$install" --prefix "$tmp/prefix" >/dev/null
inc="$tmp/prefix/include"

failures=0
checked=0
# Compiles $3 (a one-line client of header $2) with compiler command $1; any
# error or warning counts as a failure.
check() {
  local what="$1" header="$2"
  shift 2
  if ! "$@" -Wall -Wextra -fsyntax-only -I"$inc" 2>"$tmp/err" ||
    [[ -s "$tmp/err" ]]; then
    echo "FAIL: $header as $what:" >&2
    head -5 "$tmp/err" >&2
    failures=$((failures + 1))
  fi
  checked=$((checked + 1))
}

while IFS= read -r header; do
  printf '#include <%s>\nint main(void) { return 0; }\n' "$header" >"$tmp/client.c"
  case "$header" in
    *.hpp)
      check "C++17" "$header" g++ -std=c++17 -x c++ "$tmp/client.c"
      ;;
    *.h)
      check "C99" "$header" gcc -std=c99 -x c "$tmp/client.c"
      check "C++17" "$header" g++ -std=c++17 -x c++ "$tmp/client.c"
      ;;
  esac
done < <(cd "$inc" && find rocprofiler-sdk rocprofiler-sdk-roctx -type f \
  \( -name '*.h' -o -name '*.hpp' \) | sort)

# The headers named in rocprofiler-sdk 1.0.0 that this tree must have.
for header in rocprofiler-sdk/ompt.h rocprofiler-sdk/ompt/omp-tools.h \
  rocprofiler-sdk/ompt/api_args.h rocprofiler-sdk/ompt/api_id.h \
  rocprofiler-sdk/rocdecode.h rocprofiler-sdk/rocdecode/api_args.h \
  rocprofiler-sdk/rocdecode/api_id.h rocprofiler-sdk/rocdecode/table_id.h \
  rocprofiler-sdk/rocdecode/api_trace.h \
  rocprofiler-sdk/rocdecode/details/rocdecode.h \
  rocprofiler-sdk/rocdecode/details/rocparser.h \
  rocprofiler-sdk/rocdecode/details/roc_bitstream_reader.h \
  rocprofiler-sdk/rocdecode/details/rocdecode_api_trace.h \
  rocprofiler-sdk/hsa/api_trace_version.h \
  rocprofiler-sdk/cxx/enum_string.hpp rocprofiler-sdk/cxx/utility.hpp \
  rocprofiler-sdk/cxx/details/mpl.hpp rocprofiler-sdk/cxx/details/tokenize.hpp \
  rocprofiler-sdk/cxx/details/join.hpp rocprofiler-sdk/cxx/details/name_info.hpp \
  rocprofiler-sdk/cxx/serialization.hpp \
  rocprofiler-sdk/cxx/serialization/save.hpp \
  rocprofiler-sdk/cxx/serialization/load.hpp \
  rocprofiler-sdk/rocjpeg/details/rocjpeg_headers.h \
  rocprofiler-sdk-roctx/defines.h rocprofiler-sdk-roctx/version.h \
  rocprofiler-sdk/cxx/codeobj/segment.hpp \
  rocprofiler-sdk/cxx/codeobj/disassembly.hpp \
  rocprofiler-sdk/cxx/codeobj/code_printing.hpp; do
  if [[ ! -f "$inc/$header" ]]; then
    echo "FAIL: $header not installed" >&2
    failures=$((failures + 1))
  fi
done

echo "$checked compilations, $failures failures"
[[ $failures -eq 0 ]]
