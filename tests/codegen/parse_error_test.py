"""A header that does not parse: exit 1, clang's diagnostics, nothing written."""

import os
import subprocess
import sys
import tempfile
import unittest

RUNFILES = os.path.join(os.environ.get("TEST_SRCDIR", ""), "roctracer")
TEMPLATES = os.path.join(RUNFILES, "templates")


class ParseErrorTest(unittest.TestCase):

  def run_generator(self, include_dir, out_dir, domain):
    env = dict(os.environ, PYTHONPATH=RUNFILES)
    return subprocess.run(
        [sys.executable, "-m", "codegen.generate", "--include-dir", include_dir,
         "--templates", TEMPLATES,
         "--out-dir", out_dir, "--domain", "hsa", "--domain", domain],
        capture_output=True, text=True, env=env, cwd=RUNFILES)

  def test_broken_header_fails_without_output(self):
    with tempfile.TemporaryDirectory() as d:
      inc = os.path.join(d, "include")
      os.makedirs(os.path.join(inc, "hip"))
      # A valid HSA tree (parsed first, so a later failure must still leave
      # no HSA output behind) next to a HIP header with a syntax error.
      os.symlink(os.path.join(os.environ["TEST_SRCDIR"], "rocm", "include", "hsa"),
                 os.path.join(inc, "hsa"))
      with open(os.path.join(inc, "hip", "hip_runtime_api.h"), "w") as f:
        f.write("extern \"C\" {\nint hipBroken(int x;\n}\n")
      out = os.path.join(d, "out")
      os.makedirs(out)
      r = self.run_generator(inc, out, "hip")
      self.assertEqual(1, r.returncode, r.stderr)
      self.assertIn("hip_runtime_api.h:2:", r.stderr)  # clang's location
      self.assertIn("error:", r.stderr)
      self.assertIn("nothing written", r.stderr)
      self.assertEqual([], os.listdir(out))

  def test_missing_header_fails(self):
    with tempfile.TemporaryDirectory() as d:
      out = os.path.join(d, "out")
      r = self.run_generator(os.path.join(d, "nowhere"), out, "hip")
      self.assertNotEqual(0, r.returncode)
      self.assertFalse(os.path.exists(out) and os.listdir(out))


if __name__ == "__main__":
  unittest.main()
