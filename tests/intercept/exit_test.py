"""A traced program that exits without closing its pool.

joined: its threads are done before main returns; every traced call still
reaches the buffer callback (no record lost at exit).
running: main returns while threads are inside traced calls; the program
exits cleanly (no crash, no hang) and never delivers more records than calls.
Each mode runs several times: exit races differ from run to run.
"""

import re
import subprocess
import sys
import unittest

PROBE = sys.argv.pop(1)
DLCLOSE_PROBE = sys.argv.pop(1)
TRACER = sys.argv.pop(1)
ROCTX = sys.argv.pop(1)
LINE = re.compile(r"CALLS (\d+) RECORDS (\d+)")


def run(mode):
  p = subprocess.run([PROBE, mode], stdout=subprocess.PIPE,
                     stderr=subprocess.PIPE, universal_newlines=True,
                     timeout=60)
  m = LINE.search(p.stdout)
  return p, m


class ExitTest(unittest.TestCase):

  def test_joined_threads_lose_nothing(self):
    for _ in range(5):
      p, m = run("joined")
      self.assertEqual(p.returncode, 0, p.stdout + p.stderr)
      self.assertIsNotNone(m, p.stdout + p.stderr)
      calls, records = int(m.group(1)), int(m.group(2))
      self.assertGreater(calls, 0)
      self.assertEqual(records, calls)

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


if __name__ == "__main__":
  unittest.main()
