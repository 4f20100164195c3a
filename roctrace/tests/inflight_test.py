"""Kernels still in flight when the program exits, destroys their queue or
shuts the runtime down (tests/gpu/inflight_program.cc on softhsa): every
dispatch the program submitted is written, or counted as lost in the
outputs; none disappears silently. Traced by roctrace (its database's
kernel rows and roctrace.lost.* metadata) and through a plain roctracer
pool (HSA_OPS records and the tracer's GPU activity stats)."""

import os
import re
import sqlite3
import subprocess
import sys
import tempfile
import unittest

ROCTRACE, PROGRAM, KERNELS, TRACER = [os.path.abspath(p)
                                      for p in sys.argv[1:5]]
# "roctrace" or "pool": which of the two ways this target traces.
PART = sys.argv[5]
del sys.argv[1:6]

# tempfile's directories go in one directory under $TEST_TMPDIR (Bazel's
# folder for the test; /tmp when run by hand), removed at exit.
_SCRATCH = tempfile.TemporaryDirectory(prefix="inflight_test_",
                                       dir=os.environ.get("TEST_TMPDIR"))
tempfile.tempdir = _SCRATCH.name

# Each kernel spins this long: the work is still running when the program
# moves on, and all of it fits the tracer's drain at exit (500 ms).
SPIN_NS = "20000"
# Kernels that outlast that wait: about five of ten complete within it.
LONG_SPIN_NS = "100000000"
# More kernels than the runtime's queue below the interceptor holds (256
# packets, two a traced kernel), each long enough that the wait ends with
# some never handed to the interceptor.
BACKLOG_KERNELS = 200
BACKLOG_SPIN_NS = "10000000"


def run(args, env=None):
  return subprocess.run(args, env=env, stdout=subprocess.PIPE,
                        stderr=subprocess.PIPE, universal_newlines=True,
                        timeout=300)


class InFlight:
  """The checks both parts make; each part says how it traces (trace) and
  where the lost count is reported besides (REPORTS, on stderr)."""

  REPORTS = ()

  def trace(self, mode, n, spin_ns):
    """Runs the program; returns (process, ops written, ops counted as lost),
    the counts None where the output is missing."""
    raise NotImplementedError

  def run_program(self, mode, n, spin_ns):
    p, written, lost = self.trace(mode, n, spin_ns)
    log = p.stdout + p.stderr
    self.assertEqual(p.returncode, 0, log)
    self.assertIsNotNone(written, log)
    self.assertIsNotNone(lost, log)
    return p, written, lost, log

  def check(self, mode, n):
    p, written, lost, log = self.run_program(mode, n, SPIN_NS)
    self.assertIn("submitted %d" % n, p.stdout)
    # Never silent: what is not written is counted...
    self.assertEqual(written + lost, n, log)
    # ... and with work this short the drain waits for all of it.
    self.assertEqual(written, n, log)

  def test_exit_with_300_kernels_in_flight(self):
    self.check("exit", 300)

  def test_exit_with_2000_kernels_in_flight(self):
    self.check("exit", 2000)

  def test_queue_destroyed_with_1000_kernels_in_flight(self):
    self.check("destroy", 1000)

  def test_shut_down_with_1000_kernels_in_flight(self):
    self.check("shutdown", 1000)

  def check_outlasting(self, mode, n, spin_ns):
    p, written, lost, log = self.run_program(mode, n, spin_ns)
    self.assertGreater(lost, 0, log)
    self.assertEqual(written + lost, n, log)
    for report in self.REPORTS:
      self.assertIn(report % lost, p.stderr)

  def test_work_outlasting_the_wait_is_counted(self):
    self.check_outlasting("exit", 10, LONG_SPIN_NS)

  # Packets still waiting for the interceptor when the wait ends are
  # counted too: the queue is destroyed, or the program ends, with them.
  def test_packets_never_intercepted_are_counted_at_destroy(self):
    self.check_outlasting("destroy", BACKLOG_KERNELS, BACKLOG_SPIN_NS)

  def test_packets_never_intercepted_are_counted_at_exit(self):
    self.check_outlasting("exit", BACKLOG_KERNELS, BACKLOG_SPIN_NS)


@unittest.skipUnless(PART == "roctrace", "roctrace's part")
class Roctrace(InFlight, unittest.TestCase):
  """The database's kernel rows and its roctrace.lost.* metadata."""

  # The run's summary line, and the tracer's own report.
  REPORTS = ("incomplete_device_ops: %d", "%d operation(s) never completed")

  def trace(self, mode, n, spin_ns):
    d = tempfile.mkdtemp()
    p = run([ROCTRACE, "--kernel-trace", "--output-format", "rocpd", "-d", d,
             "-o", "t", "--", PROGRAM, KERNELS, mode, str(n), spin_ns])
    db = os.path.join(d, "t_results.db")
    if not os.path.exists(db):
      return p, None, None
    con = sqlite3.connect(db)
    try:
      rows = con.execute(
          "SELECT COUNT(*) FROM rocpd_kernel_dispatch").fetchone()[0]
      lost = con.execute(
          "SELECT value FROM rocpd_metadata "
          "WHERE tag = 'roctrace.lost.incomplete_device_ops'").fetchone()
    finally:
      con.close()
    return p, rows, None if lost is None else int(lost[0])


@unittest.skipUnless(PART == "pool", "the plain pool's part")
class PlainPool(InFlight, unittest.TestCase):
  """The HSA_OPS records the program's pool delivered, and the tracer's GPU
  activity stats (the program prints both)."""

  REPORTS = ("%d operation(s) never completed",)

  def trace(self, mode, n, spin_ns):
    env = dict(os.environ, HSA_TOOLS_LIB=TRACER, TRACE=TRACER)
    p = run([PROGRAM, KERNELS, mode, str(n), spin_ns], env=env)
    m = re.search(r"records (\d+) lost (\d+)", p.stdout)
    if m is None:
      return p, None, None
    return p, int(m.group(1)), int(m.group(2))


if __name__ == "__main__":
  unittest.main(argv=sys.argv[:1])
