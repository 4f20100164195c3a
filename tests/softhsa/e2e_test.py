"""softhsa as users meet it: a program built with the system g++ and default
flags against ROCm's -lhsa-runtime64 runs on softhsa's libhsa-runtime64.so.1
when its directory is first in LD_LIBRARY_PATH; with HSA_TOOLS_LIB naming
libroctracer64.so.4 the tracer is loaded as an HSA tool and sees the program's
HSA calls. Also: the library exports exactly what the ROCR of the headers it
is built from exports (installed 5.2.3, or a newer release's).
"""

import os
import subprocess
import sys
import tempfile
import unittest

SOFTHSA, TRACER, PROGRAM, KERNELS, UTIL, RELEASE_ROCR = (
    os.path.abspath(p) for p in sys.argv[1:7])
del sys.argv[1:7]


def exports(lib):
  out = subprocess.run(["nm", "-D", "--defined-only", "--with-symbol-versions",
                        lib], stdout=subprocess.PIPE, check=True,
                       universal_newlines=True).stdout
  # name@@version, with the symbol's kind folded into data/code
  return sorted((l.split()[2], "code" if l.split()[1] in "Tt" else "data")
                for l in out.splitlines() if len(l.split()) == 3)


class SoftHsaEndToEnd(unittest.TestCase):

  @classmethod
  def setUpClass(cls):
    cls.tmp = tempfile.TemporaryDirectory()
    d = cls.tmp.name
    os.symlink(UTIL, os.path.join(d, "hsa_test_util.h"))
    cls.program = os.path.join(d, "hsa_program")
    cls.kernels = os.path.join(d, "kernels.so")
    subprocess.run(["g++", PROGRAM, "-I", d, "-o", cls.program,
                    "-lhsa-runtime64", "-ldl", "-pthread"], check=True)
    subprocess.run(["g++", "-shared", "-fPIC", KERNELS, "-o", cls.kernels],
                   check=True)
    cls.libdir = os.path.join(d, "lib")
    os.mkdir(cls.libdir)
    os.symlink(SOFTHSA, os.path.join(cls.libdir, "libhsa-runtime64.so.1"))

  @classmethod
  def tearDownClass(cls):
    cls.tmp.cleanup()

  def run_program(self, **env):
    e = dict(os.environ)
    e.pop("LD_LIBRARY_PATH", None)
    e.pop("HSA_TOOLS_LIB", None)
    e.update(env)
    return subprocess.run([self.program, self.kernels], env=e,
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          universal_newlines=True, timeout=60)

  def test_program_linked_against_rocm_runs_on_softhsa(self):
    needed = subprocess.run(["readelf", "-d", self.program],
                            stdout=subprocess.PIPE, check=True,
                            universal_newlines=True).stdout
    self.assertIn("[libhsa-runtime64.so.1]", needed)
    p = self.run_program(LD_LIBRARY_PATH=self.libdir)
    self.assertEqual(p.returncode, 0, p.stdout + p.stderr)
    self.assertIn("OK dispatched 4096 work-items", p.stdout)

  def test_same_program_on_rocm_without_a_gpu_fails(self):
    # What made the difference is the library: ROCm's stops at hsa_init.
    p = self.run_program()
    self.assertNotEqual(p.returncode, 0)
    self.assertIn("FAIL hsa_init()", p.stdout)

  def test_roctracer_as_hsa_tool_traces_the_program(self):
    p = self.run_program(LD_LIBRARY_PATH=self.libdir, HSA_TOOLS_LIB=TRACER,
                         ROCTRACER_LIB=TRACER)
    self.assertEqual(p.returncode, 0, p.stdout + p.stderr)
    traced = {l.split()[1]: int(l.split()[2]) for l in p.stdout.splitlines()
              if l.startswith("TRACED ")}
    # Every call the program made after enabling, entry and exit.
    for name in ("hsa_iterate_agents", "hsa_queue_create", "hsa_signal_create",
                 "hsa_executable_load_agent_code_object",
                 "hsa_signal_wait_scacquire", "hsa_queue_destroy",
                 "hsa_amd_memory_pool_allocate"):
      self.assertIn(name, traced, p.stdout)
      self.assertEqual(traced[name] % 2, 0, name)
    self.assertEqual(traced["hsa_queue_create"], 2)
    self.assertEqual(traced["hsa_amd_memory_pool_allocate"], 4)

  def test_exports_match_rocm(self):
    # RELEASE_ROCR is @rocm's libhsa-runtime64: the installed one, or the
    # release's whose headers softhsa was built from (its newer functions
    # exported too).
    self.assertEqual(exports(SOFTHSA), exports(RELEASE_ROCR))
    soname = subprocess.run(["readelf", "-d", SOFTHSA], stdout=subprocess.PIPE,
                            check=True, universal_newlines=True).stdout
    self.assertIn("Library soname: [libhsa-runtime64.so.1]", soname)


if __name__ == "__main__":
  unittest.main()
