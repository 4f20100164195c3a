"""roctrace under Open MPI: a 4-rank job, launched as `mpirun ... roctrace
-- app` and as `roctrace -- mpirun ... app`, writes every rank's database,
each rank records its clock's offset against rank 0's (measured at MPI_Init
and MPI_Finalize), and `roctrace merge` puts the ranks on rank 0's clock.
The ranks' clocks are made to differ by seconds with the tool's test hook
(ROCTRACE_TEST_CLOCK_OFFSET_NS, one shift per rank); on one machine the
true offsets are then exactly the negated shifts."""

import os
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import unittest

ROCTRACE, ROCTX, SOURCE = [os.path.abspath(p) for p in sys.argv[1:4]]
del sys.argv[1:4]

# tempfile's directories go in one directory under $TEST_TMPDIR (Bazel's
# folder for the test; /tmp when run by hand), removed at exit.
_SCRATCH = tempfile.TemporaryDirectory(prefix="mpi_test_",
                                       dir=os.environ.get("TEST_TMPDIR"))
tempfile.tempdir = _SCRATCH.name

RANKS = 4
SHIFTS = [0, 5000000000, -3000000000, 700000000]
MPIRUN = shutil.which("mpirun")


def mpirun_args():
  # By name: Debian's Open MPI run by an absolute path takes its directory's
  # parent as --prefix, and refuses "/".
  args = ["mpirun", "--oversubscribe"]
  if os.geteuid() == 0:
    args.append("--allow-run-as-root")
  return args


def mpirun_problem():
  """Why mpirun cannot start a job here; empty when it can."""
  if MPIRUN is None:
    return "no mpirun on PATH"
  try:
    p = subprocess.run(mpirun_args() + ["-np", "1", "true"],
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                       universal_newlines=True, timeout=60)
  except (OSError, subprocess.TimeoutExpired) as e:
    return str(e)
  return "" if p.returncode == 0 else p.stdout[-2000:]


def run(args, cwd, env=None):
  return subprocess.run(args, cwd=cwd, env=env, stdout=subprocess.PIPE,
                        stderr=subprocess.PIPE, universal_newlines=True,
                        timeout=300)


def query(db, sql):
  con = sqlite3.connect(db)
  try:
    return con.execute(sql).fetchall()
  finally:
    con.close()


MPIRUN_PROBLEM = mpirun_problem()


@unittest.skipIf(MPIRUN_PROBLEM, "mpirun cannot start a job: " + MPIRUN_PROBLEM)
class MpiJob(unittest.TestCase):

  @classmethod
  def setUpClass(cls):
    cls.build = tempfile.mkdtemp()
    cls.program = os.path.join(cls.build, "mpi_program")
    roctx_dir = os.path.dirname(ROCTX)
    p = run(["mpicc", SOURCE, "-o", cls.program, "-L" + roctx_dir,
             "-l:" + os.path.basename(ROCTX), "-Wl,-rpath," + roctx_dir],
            cls.build)
    assert p.returncode == 0, p.stderr

  def env(self):
    return dict(os.environ,
                ROCTRACE_TEST_CLOCK_OFFSET_NS=",".join(map(str, SHIFTS)))

  def check_job(self, d, p):
    self.assertEqual(p.returncode, 0, p.stderr)
    for r in range(RANKS):
      self.assertIn("rank %d of %d done" % (r, RANKS), p.stdout)
    dbs = [os.path.join(d, "out", "r%d_results.db" % r) for r in range(RANKS)]
    raw = {}
    for r, db in enumerate(dbs):
      self.assertTrue(os.path.exists(db), os.listdir(os.path.join(d, "out")))
      meta = dict(query(db, "SELECT tag, value FROM rocpd_metadata"))
      self.assertEqual(meta["roctrace.mpi.rank"], str(r))
      self.assertEqual(meta["roctrace.mpi.size"], str(RANKS))
      # On one machine the true offset is the shifts' difference: each
      # measurement must hold it within its own uncertainty.
      for when in ("init", "finalize"):
        offset = int(meta["roctrace.clock.%s_offset_ns" % when])
        uncertainty = int(meta["roctrace.clock.%s_uncertainty_ns" % when])
        self.assertLessEqual(abs(offset - (SHIFTS[0] - SHIFTS[r])),
                             uncertainty, (r, when, meta))
        if r != 0:
          self.assertGreater(uncertainty, 0)
      raw[r] = dict(query(db, "SELECT name, start FROM regions WHERE "
                          "category LIKE 'MARKER%'"))
    # The hook shifted the raw timestamps: rank 1 (+5 s) "receives" rank
    # 0's message seconds after it was sent, and rank 0 gets its reply
    # seconds before it was sent.
    self.assertGreater(raw[1]["recv"] - raw[0]["send 1"], 4000000000)
    self.assertLess(raw[0]["got 1"] - raw[1]["reply"], -4000000000)

    merged = os.path.join(d, "merged.db")
    p = run([ROCTRACE, "merge", "-o", merged] + dbs, d)
    self.assertEqual(p.returncode, 0, p.stderr)
    self.assertIn("4 MPI ranks put on rank 0's clock", p.stderr)
    pids = {}
    for r, db in enumerate(dbs):
      pids[query(db, "SELECT pid FROM rocpd_info_process")[0][0]] = r
    marks = {}
    for pid, name, start in query(
        merged, "SELECT pid, name, start FROM regions WHERE category LIKE "
        "'MARKER%'"):
      marks[(pids[pid], name)] = start
    unc = {}
    for value in query(merged, "SELECT value FROM rocpd_metadata WHERE tag = "
                       "'roctrace.merge.clock_uncertainty_ns'"):
      unc[len(unc)] = int(value[0])
    self.assertEqual(len(unc), RANKS)
    # Each message's send before its receipt, on the merged clock, to within
    # the two ranks' uncertainty (rank 0's is 0).
    for r in range(1, RANKS):
      u = max(unc.values())
      self.assertGreaterEqual(marks[(r, "recv")] + u,
                              marks[(0, "send %d" % r)], r)
      self.assertGreaterEqual(marks[(0, "got %d" % r)] + u,
                              marks[(r, "reply")], r)
    # The ranks leave each barrier together: seconds apart before the merge,
    # within the barrier's own skew after it. Four ranks on a loaded 2-core
    # host can be descheduled for tens of milliseconds between the barrier
    # and the mark; 200 ms still fails any rank left off rank 0's clock (the
    # smallest simulated offset is 700 ms).
    for i in range(3):
      name = "barrier %d" % i
      starts = [marks[(r, name)] for r in range(RANKS)]
      raw_starts = [raw[r][name] for r in range(RANKS)]
      self.assertGreater(max(raw_starts) - min(raw_starts), 1000000000)
      self.assertLess(max(starts) - min(starts), 200000000, (name, starts))

  def test_mpirun_runs_roctrace_in_each_rank(self):
    d = tempfile.mkdtemp()
    p = run(mpirun_args() + ["-np", str(RANKS), ROCTRACE, "--marker-trace",
                             "-d", "out", "-o", "r%rank%", "--",
                             self.program], d, env=self.env())
    self.check_job(d, p)

  def test_roctrace_runs_mpirun(self):
    d = tempfile.mkdtemp()
    p = run([ROCTRACE, "--marker-trace", "-d", "out", "-o", "r%rank%", "--"] +
            mpirun_args() + ["-np", str(RANKS), self.program], d,
            env=self.env())
    self.check_job(d, p)
    # mpirun itself makes no traced call: no file of its own.
    self.assertEqual(sorted(os.listdir(os.path.join(d, "out"))),
                     ["r%d_results.db" % r for r in range(RANKS)])


# A program that is not part of an MPI job must not find an MPI_Init of
# roctrace's: programs and libraries probe for MPI that way.
PROBE = r"""
#include <dlfcn.h>
#include <stdio.h>
int main(void) {
  puts(dlsym(RTLD_DEFAULT, "MPI_Init") ? "MPI_Init found" : "no MPI_Init");
  return 0;
}
"""


class NotAnMpiJob(unittest.TestCase):

  def test_mpi_entry_points_only_in_mpi_jobs(self):
    d = tempfile.mkdtemp()
    with open(os.path.join(d, "probe.c"), "w") as f:
      f.write(PROBE)
    p = run(["cc", "probe.c", "-o", "probe", "-ldl"], d)
    self.assertEqual(p.returncode, 0, p.stderr)
    clean = {k: v for k, v in os.environ.items()
             if not k.startswith(("OMPI_", "PMIX_", "PMI_", "MPI_"))}
    p = run([ROCTRACE, "--hip-trace", "-d", "out", "--", "./probe"], d,
            env=clean)
    self.assertEqual(p.returncode, 0, p.stderr)
    self.assertIn("no MPI_Init", p.stdout)
    # A rank of a launcher (its environment says so) gets them.
    p = run([ROCTRACE, "--hip-trace", "-d", "out", "--", "./probe"], d,
            env=dict(clean, OMPI_COMM_WORLD_SIZE="1"))
    self.assertEqual(p.returncode, 0, p.stderr)
    self.assertIn("MPI_Init found", p.stdout)


if __name__ == "__main__":
  unittest.main()
