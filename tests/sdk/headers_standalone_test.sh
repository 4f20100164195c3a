#!/bin/bash
# Every rocprofiler-sdk header of the installed tree (`bazel run //:install`)
# compiles on its own with the system compilers, default flags and
# -I<prefix>/include alone, without a diagnostic: each C header as C99 and
# C++17, each C++ helper (.hpp) as C++17. A header that needs another it does
# not include, or a library the install tree lacks, fails here (the
# cxx/codeobj/ headers need comgr's and libdw's headers, and cereal's
# serialization.hpp: tools/install_deps.sh installs them). And every header
# rocprofiler-sdk 1.0.0 installs is installed, but those the missing list
# names with a reason. cxx/perfetto.hpp is compiled against a stand-in for
# the Perfetto SDK's perfetto.h, and alone must stop with an #error.
set -euo pipefail
install="$1"
reference="$2" # rocprofiler-sdk 1.0.0's installed headers
missing="$3"   # those not installed here, with the reason
perfetto_stub="$4" # a stand-in for the Perfetto SDK's perfetto.h

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
    rocprofiler-sdk/cxx/perfetto.hpp)
      # Needs the Perfetto SDK: with a perfetto.h on the include path it
      # compiles cleanly; without one it stops with an #error naming it.
      check "C++17 with perfetto.h" "$header" g++ -std=c++17 -x c++ \
        -I"$(dirname "$perfetto_stub")" "$tmp/client.c"
      if g++ -std=c++17 -x c++ -fsyntax-only -I"$inc" "$tmp/client.c" \
        2>"$tmp/err" || ! grep -q "#error.*needs the Perfetto SDK" "$tmp/err"; then
        echo "FAIL: $header without perfetto.h: no #error naming the Perfetto SDK" >&2
        head -5 "$tmp/err" >&2
        failures=$((failures + 1))
      fi
      checked=$((checked + 1))
      ;;
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

# Every header rocprofiler-sdk 1.0.0 installs is installed here, but those
# the missing list names (with its reason); and a header listed missing
# that is installed after all must leave the list.
while IFS= read -r header; do
  [[ -z "$header" || "$header" == \#* ]] && continue
  if grep -q "^$header " "$missing"; then
    if [[ -f "$inc/$header" ]]; then
      echo "FAIL: $header is installed: take it off $(basename "$missing")" >&2
      failures=$((failures + 1))
    fi
  elif [[ ! -f "$inc/$header" ]]; then
    echo "FAIL: $header (rocprofiler-sdk 1.0.0) not installed" >&2
    failures=$((failures + 1))
  fi
done <"$reference"

echo "$checked compilations, $failures failures"
[[ $failures -eq 0 ]]
