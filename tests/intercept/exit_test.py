"""A traced program that exits without closing its pool (exit_probe.cc).

Every way out that runs exit handlers delivers one record per traced call
made before the tracer's own exit handler (it flushes open pools):
joined: main returns after its threads are done;
exit_worker: a worker thread calls exit();
atexit: main returns and an exit handler that runs before the tracer's
traces more calls.
running: main returns while threads are inside traced calls; the program
exits cleanly (no crash, no hang) and never delivers more records than calls.
_exit: no exit handler runs, so records not yet handed to the buffer callback
are lost (at least the part-filled buffer of each live thread); the process
must still end at once, without hanging.
execl, execve: the program execs itself; every record reaches the buffer
callback before the image is replaced. exec_fail: an exec that fails leaves
the process running, its records delivered, tracing off.
dlclose: the libraries are dlclosed under a live traced thread, which exits
afterwards (dlclose_probe.cc; dlclose_client.cc, built by the system g++ with
its default flags, as a user builds a tool).
Each mode runs several times: exit races differ from run to run.
"""

import os
import re
import subprocess
import sys
import unittest

PROBE = sys.argv.pop(1)
DLCLOSE_PROBE = sys.argv.pop(1)
TRACER = sys.argv.pop(1)
ROCTX = sys.argv.pop(1)
CLIENT_SOURCE = sys.argv.pop(1)
INCLUDE_DIR = os.path.dirname(sys.argv.pop(1))
LINE = re.compile(r"CALLS (\d+) RECORDS (\d+)")


def run(mode):
  p = subprocess.run([PROBE, mode], stdout=subprocess.PIPE,
                     stderr=subprocess.PIPE, universal_newlines=True,
                     timeout=60)
  m = LINE.search(p.stdout)
  return p, m


class ExitTest(unittest.TestCase):

  def assert_lossless(self, mode, expected_calls):
    for _ in range(5):
      p, m = run(mode)
      self.assertEqual(p.returncode, 0, p.stdout + p.stderr)
      self.assertIsNotNone(m, p.stdout + p.stderr)
      calls, records = int(m.group(1)), int(m.group(2))
      self.assertEqual(calls, expected_calls)
      self.assertEqual(records, calls)

  def test_return_from_main_loses_nothing(self):
    self.assert_lossless("joined", 4000)

  def test_exit_from_a_worker_loses_nothing(self):
    self.assert_lossless("exit_worker", 5000)

  def test_calls_from_an_earlier_exit_handler_are_delivered(self):
    self.assert_lossless("atexit", 5000)

  def test_underscore_exit_ends_at_once(self):
    for _ in range(5):
      p, m = run("_exit")  # run() times out (and fails) on a hang
      self.assertEqual(p.returncode, 0, p.stdout + p.stderr)
      self.assertIsNotNone(m, p.stdout + p.stderr)
      calls, records = int(m.group(1)), int(m.group(2))
      self.assertEqual(calls, 5000)
      self.assertLessEqual(records, calls)

  def assert_delivered_before_exec(self, mode):
    p, _ = run(mode)
    self.assertEqual(p.returncode, 0, p.stdout + p.stderr)
    before, after, rest = p.stdout.partition("AFTER EXEC\n")
    self.assertEqual(after, "AFTER EXEC\n", p.stdout + p.stderr)
    self.assertEqual(rest, "")
    lines = LINE.findall(before)
    self.assertTrue(lines, p.stdout + p.stderr)
    self.assertEqual(lines[-1], ("5000", "5000"))

  def test_exec_through_execl_delivers_everything_first(self):
    # The image is replaced: what the pool held would be lost with it.
    self.assert_delivered_before_exec("execl")

  def test_exec_through_execve_delivers_everything_first(self):
    self.assert_delivered_before_exec("execve")

  def test_a_failed_exec_leaves_the_process_running_untraced(self):
    p, _ = run("exec_fail")
    self.assertEqual(p.returncode, 0, p.stdout + p.stderr)
    self.assertIn("exec failed", p.stderr)
    lines = LINE.findall(p.stdout)
    self.assertTrue(lines, p.stdout + p.stderr)
    # Delivered before the exec; the 1000 calls after it are not recorded
    # (the pool is closed).
    self.assertEqual(lines[-1], ("6000", "5000"))

  def test_exit_while_threads_trace(self):
    for _ in range(10):
      p, m = run("running")
      self.assertEqual(p.returncode, 0, p.stdout + p.stderr)
      self.assertIsNotNone(m, p.stdout + p.stderr)
      calls, records = int(m.group(1)), int(m.group(2))
      self.assertGreater(records, 0)
      # Calls still running at exit may have written their record before
      # their EXIT callback was counted; one per worker at most.
      self.assertLessEqual(records, calls + 4)

  def test_thread_exits_after_dlclose(self):
    # The thread's tracer state is released by key destructors in the
    # tracer: the libraries must still be mapped when it exits.
    p = subprocess.run([DLCLOSE_PROBE, TRACER, ROCTX], stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, universal_newlines=True,
                       timeout=60)
    self.assertEqual(p.returncode, 0, p.stdout + p.stderr)
    self.assertIn("WORKER EXITED", p.stdout)
    m = LINE.search(p.stdout)
    self.assertIsNotNone(m, p.stdout + p.stderr)
    calls, records = int(m.group(1)), int(m.group(2))
    self.assertEqual(calls, 200)  # 100 x (hsa_status_string, get_symbol)
    self.assertEqual(records, calls)

  def test_thread_exits_after_dlclose_in_a_user_built_tool(self):
    with open(TRACER, "rb") as f:
      image = f.read()
    if b"libtsan" in image or b"libasan" in image:
      self.skipTest("a sanitized library needs its runtime preloaded")
    tmp = os.environ.get("TEST_TMPDIR", "/tmp")
    client = os.path.join(tmp, "dlclose_client")
    subprocess.run(["g++", "-I", INCLUDE_DIR, CLIENT_SOURCE, "-o", client,
                    "-ldl", "-pthread"], check=True)
    p = subprocess.run([client, os.path.abspath(TRACER),
                        os.path.abspath(ROCTX)], stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, universal_newlines=True,
                       timeout=60)
    self.assertEqual(p.returncode, 0, p.stdout + p.stderr)
    self.assertIn("MARKS 100 RECORDS 100", p.stdout)
    self.assertIn("WORKER EXITED", p.stdout)


if __name__ == "__main__":
  unittest.main()
