"""Symbol interposition against the real runtimes.

Runs trace_probe linked with libroctracer64.so ahead of libamdhip64 and
libhsa-runtime64, and the same program built without the tracer under
LD_PRELOAD=libroctracer64.so. In both, the probe's own checks must pass, and
the HIP calls it traced (names, order, return codes) must match the calls
libamdhip64 logged itself with AMD_LOG_LEVEL=3.
"""

import os
import re
import subprocess
import sys
import unittest

LINKED, PLAIN, LIBRARY = sys.argv[1:4]
del sys.argv[1:4]

# hip_memory.cpp :493 : ... hipMalloc: Returned hipErrorInvalidDevice :
HIP_LOG = re.compile(r"\] (hip\w+): Returned (hip\w+)")


def run(binary, preload=None):
  env = dict(os.environ, AMD_LOG_LEVEL="3")
  if preload:
    env["LD_PRELOAD"] = os.path.abspath(preload)
  p = subprocess.run([binary], env=env, stdout=subprocess.PIPE,
                     stderr=subprocess.PIPE, universal_newlines=True,
                     timeout=120)
  return p


class InterpositionTest(unittest.TestCase):

  def check_against_hip_log(self, p):
    self.assertEqual(p.returncode, 0, p.stdout + p.stderr)
    traced = [tuple(l.split()[1:3]) for l in p.stdout.splitlines()
              if l.startswith("TRACE ")]
    logged = HIP_LOG.findall(p.stderr)
    self.assertTrue(logged, "libamdhip64 logged nothing:\n" + p.stderr)
    logged_names = {n for n, _ in logged}
    # HIP logs only some entry points (hipGetErrorString, for one, is not
    # logged); compare the traced calls of the names it does log.
    comparable = [t for t in traced if t[0] in logged_names]
    self.assertEqual(comparable, logged)
    for name in ("hipGetDeviceCount", "hipMalloc", "hipMemcpy", "hipFree"):
      self.assertIn(name, [n for n, _ in traced])

  def test_linked_ahead(self):
    self.check_against_hip_log(run(LINKED))

  def test_preloaded(self):
    self.check_against_hip_log(run(PLAIN, preload=LIBRARY))

  def test_without_tracer_the_probe_finds_none(self):
    p = run(PLAIN)
    self.assertEqual(p.returncode, 2, p.stdout + p.stderr)
    self.assertIn("NO_TRACER", p.stdout)


if __name__ == "__main__":
  unittest.main()
