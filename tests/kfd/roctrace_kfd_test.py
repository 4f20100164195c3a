"""`roctrace --kfd-trace`: the real command traces a plain HSA/HIP program
(no tracing code) and its libhsakmt calls come out as KFD_API rows, each
inside the hsa_init that made it, in a file of roctrace's own
(<prefix>_kfd_api_trace.csv), never in rocprofv3's HSA trace; without the
option there are none."""

import csv
import os
import subprocess
import sys
import tempfile
import unittest

ROCTRACE, PROGRAM = [os.path.abspath(p) for p in sys.argv[1:3]]
del sys.argv[1:3]


def trace(options):
  with tempfile.TemporaryDirectory() as d:
    p = subprocess.run([ROCTRACE] + options + ["--output-format", "csv", "-d",
                                               d, "-o", "run", "--", PROGRAM,
                                               "sample"],
                       cwd=d, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       universal_newlines=True, timeout=120)
    assert p.returncode == 0, p.stdout + p.stderr
    rows = []
    for name in ("run_hsa_api_trace.csv", "run_kfd_api_trace.csv"):
      path = os.path.join(d, name)
      if os.path.exists(path):
        with open(path, newline="") as f:
          for row in csv.DictReader(f):
            row["file"] = name
            rows.append(row)
    return rows


class RoctraceKfdTest(unittest.TestCase):

  def test_kfd_calls_nest_in_hsa_init(self):
    rows = trace(["--kfd-trace", "--hsa-trace"])
    kfd = [r for r in rows if r["Domain"] == "KFD_API"]
    inits = [r for r in rows if r["Function"] == "hsa_init"]
    self.assertTrue(kfd, rows)
    self.assertTrue(inits, rows)
    self.assertIn("hsaKmtOpenKFD", {r["Function"] for r in kfd})
    # rocprofv3's HSA trace holds HSA calls only.
    self.assertEqual({r["file"] for r in kfd}, {"run_kfd_api_trace.csv"})
    self.assertEqual({r["file"] for r in rows if r not in kfd},
                     {"run_hsa_api_trace.csv"})
    for r in kfd:
      self.assertTrue(r["Function"].startswith("hsaKmt"), r)
      inside = [i for i in inits if i["Thread_Id"] == r["Thread_Id"] and
                int(i["Start_Timestamp"]) <= int(r["Start_Timestamp"]) and
                int(r["End_Timestamp"]) <= int(i["End_Timestamp"]) and
                int(i["Correlation_Id"]) < int(r["Correlation_Id"])]
      self.assertEqual(1, len(inside), r)

  def test_kfd_alone(self):
    rows = trace(["--kfd-trace"])
    self.assertTrue(rows)
    self.assertEqual({"KFD_API"}, {r["Domain"] for r in rows})
    self.assertEqual({"run_kfd_api_trace.csv"}, {r["file"] for r in rows})

  def test_not_traced_unless_asked(self):
    for options in (["--hsa-trace"], ["--sys-trace"], []):
      rows = trace(options)
      self.assertTrue(rows, options)
      self.assertNotIn("KFD_API", {r["Domain"] for r in rows}, options)


if __name__ == "__main__":
  unittest.main()
