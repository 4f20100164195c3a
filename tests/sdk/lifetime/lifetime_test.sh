#!/bin/bash
# Runs lifetime_program (a tool with C++ globals in the program itself) for
# each way a process ends and checks what the tool's finalize printed and how
# the process ended.
set -u
program="$1"
# configure and initialize ran after the globals were constructed (their
# entries survive), the first HSA call started the tool and was traced, as
# the second, and finalize read everything before the destructors ran.
expected="finalize lifetime tool with a name on the heap: configure initialize hsa_system_get_info hsa_status_string"
failures=0

check() {
  local how="$1" want_rc="$2" want_finalize="$3"
  local out rc
  out="$("$program" "$how" 2>/tmp/lifetime_err.$$)"
  rc=$?
  local lines
  lines="$(printf '%s\n' "$out" | grep -c '^finalize' || true)"
  if [ "$rc" != "$want_rc" ]; then
    echo "FAIL $how: exit status $rc, want $want_rc"; failures=$((failures + 1))
  fi
  if [ "$want_finalize" = yes ]; then
    if [ "$lines" != 1 ] || ! printf '%s\n' "$out" | grep -qxF "$expected"; then
      echo "FAIL $how: finalize printed:"; printf '%s\n' "$out"
      cat /tmp/lifetime_err.$$; failures=$((failures + 1))
    fi
  elif [ "$lines" != 0 ]; then
    echo "FAIL $how: finalize ran:"; printf '%s\n' "$out"; failures=$((failures + 1))
  fi
  if ! printf '%s\n' "$out" | grep -qx 'main done'; then
    echo "FAIL $how: main did not run to its end"; failures=$((failures + 1))
  fi
  rm -f /tmp/lifetime_err.$$
  echo "$how: exit status $rc"
}

check return 0 yes
check worker 0 yes
check _exit 0 no
check segv 139 yes
exit $((failures > 0))
