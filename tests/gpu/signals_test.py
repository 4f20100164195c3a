"""The application's signals see the same values and wake-ups with and
without the tracer: one scenario (cross-queue barrier-AND/OR chains, shared
signals with several waiters, copies with dependencies, and softhsa's fault
injection: late and out-of-order completions, a failing copy, a failing
dispatch) run untraced and with libroctracer64.so.4 as the HSA tool, its
observations compared line for line; and records of work still running when
the program returns from main are delivered at exit."""
import os
import re
import subprocess
import sys
import unittest

SCENARIO, TRACER, KERNELS = sys.argv[1:4]
FAULTS = "queue_delay=0:30000,copy_error=3,dispatch_error=8"


def run(mode, trace, faults=FAULTS):
  env = dict(os.environ, SOFTHSA_FAULTS=faults)
  env.pop("HSA_TOOLS_LIB", None)
  env.pop("TRACE", None)
  if trace:
    env["HSA_TOOLS_LIB"] = os.path.abspath(TRACER)
    env["TRACE"] = "1"
  p = subprocess.run([SCENARIO, KERNELS, os.path.abspath(TRACER), mode],
                     env=env, capture_output=True, text=True, timeout=120)
  return p


class SignalsTest(unittest.TestCase):

  def test_traced_and_untraced_signals_see_the_same(self):
    plain = run("scenario", False)
    self.assertEqual(plain.returncode, 0, plain.stderr)
    traced = run("scenario", True)
    self.assertEqual(traced.returncode, 0, traced.stderr)
    self.assertEqual(traced.stdout, plain.stdout)
    lines = plain.stdout.splitlines()
    # What the runtime itself does, so the comparison compares something.
    # Each waiter woke after what its barrier depended on.
    self.assertEqual(lines[1:4], ["woke kernel value=0",
                                  "woke and-barrier value=0 dep=0",
                                  "woke or-barrier value=0 dep=0 dep=1"])
    self.assertIn("woke q0-first-submitted value=0 #2", lines)
    self.assertIn("woke q1-second-submitted value=0 #1", lines)
    self.assertIn("failed copy: -1, copied 0", lines)
    self.assertIn("failed dispatch signal after 50 ms: 1", lines)
    self.assertIn("queue error 0x1016 on the application's queue: 1", lines)
    self.assertEqual(sum(l == "woke %s value=0" % w
                         for l in lines for w in ("many-a", "many-b",
                                                  "many-c")), 3)
    # One record per operation that completed: 7 dispatches (the failing one
    # never completes and is counted), 3 barriers, 3 copies (the failing one
    # is counted, not recorded).
    m = re.search(r"records dispatch=(\d+) barrier=(\d+) copy=(\d+) "
                  r"incomplete=(\d+) failed_copies=(\d+) untraced=(\d+)",
                  traced.stderr)
    self.assertIsNotNone(m, traced.stderr)
    self.assertEqual([int(x) for x in m.groups()], [7, 2, 3, 0, 1, 0])

  def test_running_work_is_recorded_at_exit(self):
    p = run("exit", True, faults="")
    self.assertEqual(p.returncode, 0, p.stderr)
    out = p.stdout.splitlines()
    self.assertEqual(out, ["returning from main",
                           "record op=0 name=stamp ordered=1"])
    self.assertEqual(p.stderr, "")


if __name__ == "__main__":
  unittest.main(argv=sys.argv[:1])
