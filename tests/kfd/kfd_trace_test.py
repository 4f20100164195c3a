"""The KFD_API domain against the real libhsakmt.

hsa_init makes real hsaKmt* calls, which fail here (no /dev/kfd). kfd_probe
traces them with libroctracer64.so linked ahead of the runtimes and, built
without the tracer, under LD_PRELOAD; its own checks (return codes equal to
the real library's, nesting inside hsa_init) must pass on both paths, with
the same calls traced. A client including roctracer_kfd.h compiles as C99 and
C++ with the system compiler, warning-free, and runs against the library.
"""

import os
import re
import subprocess
import sys
import tempfile
import unittest

LINKED, PLAIN, LIBRARY, INCLUDE_H, GENERATED_H, CLIENT = sys.argv[1:7]
del sys.argv[1:7]

# On a ROCm release whose libraries need a newer C and C++ runtime than this
# machine's (tools/test_release.sh), the programs run through that release's
# loader, with the release's libhsa-runtime64 and libhsakmt ahead of the
# installed ones.
RELEASE_PREFIX = ([os.environ["ROCTRACER_RELEASE_RUN"]]
                  if os.environ.get("ROCTRACER_RELEASE_RUN") else [])
RELEASE = os.environ.get("ROCTRACER_RELEASE_PREFIX")
RELEASE_LIBS = RELEASE and os.path.join(RELEASE, "lib", "x86_64-linux-gnu")
# The generated headers include the release's hsakmt headers.
RELEASE_INCLUDE = ["-I", os.path.join(RELEASE, "include")] if RELEASE else []

KFD_LINE = re.compile(r"^KFD (hsaKmt\w+) (-?\d+)$", re.M)


def run(binary, preload=None):
  env = dict(os.environ)
  if RELEASE_LIBS:
    env["LD_LIBRARY_PATH"] = RELEASE_LIBS
  if preload:
    env["LD_PRELOAD"] = os.path.abspath(preload)
  return subprocess.run(RELEASE_PREFIX + [binary], env=env, stdout=subprocess.PIPE,
                        stderr=subprocess.PIPE, universal_newlines=True,
                        timeout=120)


class KfdTraceTest(unittest.TestCase):

  def traced(self, p):
    self.assertEqual(p.returncode, 0, p.stdout + p.stderr)
    calls = KFD_LINE.findall(p.stdout)
    self.assertIn("hsaKmtOpenKFD", [n for n, _ in calls])
    # Without /dev/kfd libhsakmt fails with a real, non-zero status.
    for name, status in calls:
      if name == "hsaKmtOpenKFD":
        self.assertNotEqual("0", status)
    return calls

  def test_linked_and_preloaded_see_the_same_calls(self):
    linked = self.traced(run(LINKED))
    preloaded = self.traced(run(PLAIN, preload=LIBRARY))
    self.assertEqual(linked, preloaded)

  def test_without_tracer_the_probe_finds_none(self):
    p = run(PLAIN)
    self.assertEqual(p.returncode, 2, p.stdout + p.stderr)

  def test_client_compiles_as_c_and_cxx_and_runs(self):
    include = os.path.dirname(os.path.abspath(INCLUDE_H))
    generated = os.path.dirname(os.path.abspath(GENERATED_H))
    lib_dir = os.path.dirname(os.path.abspath(LIBRARY))
    with tempfile.TemporaryDirectory() as tmp:
      for compiler, flags in (("gcc", ["-x", "c", "-std=c99"]),
                              ("g++", ["-x", "c++"])):
        # trixie's hsakmt.h (6.2.4) declares a struct in a parameter list,
        # which C warns about: on a release the client is built as C++ only.
        if RELEASE and compiler == "gcc":
          continue
        out = os.path.join(tmp, "client_" + compiler)
        cmd = ([compiler] + flags +
               ["-Wall", "-Wextra", "-Werror", "-I", include, "-I", generated] +
               RELEASE_INCLUDE +
               [CLIENT, "-x", "none", os.path.abspath(LIBRARY),
                "-Wl,-rpath," + lib_dir, "-o", out])
        c = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           universal_newlines=True)
        self.assertEqual(c.returncode, 0, " ".join(cmd) + "\n" + c.stderr)
        self.assertEqual("", c.stderr)
        p = subprocess.run(RELEASE_PREFIX + [out], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           universal_newlines=True, timeout=60)
        self.assertEqual(p.returncode, 0, p.stdout + p.stderr)
        number, size, args_offset = p.stdout.split()
        self.assertGreater(int(number), 60)
        self.assertEqual("16", args_offset)  # correlation_id, phase, retval union


if __name__ == "__main__":
  unittest.main()
