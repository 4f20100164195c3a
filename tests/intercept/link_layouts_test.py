"""Every link layout a user builds reaches the real runtimes and is traced.

Client programs are built here with the system g++ and its default flags
(Debian's gcc links with --as-needed), as users build them, against the
libroctracer64.so under test (copied into a temporary directory):

* `g++ app.cc -lroctracer64 -lamdhip64 -lhsa-runtime64`: --as-needed drops
  the runtimes from DT_NEEDED; the runtimes must still answer exactly as in
  the same program built without the tracer, and the calls are traced;
* the program links HIP and uses it, then dlopens the tracer (RTLD_LOCAL and
  RTLD_GLOBAL) and enables callbacks: its later HIP calls are traced, so are
  those of a library it dlopens afterwards, and unloading that library (and
  then the tracer) leaves the process working;
* the runtimes cannot be loaded: one line on stderr per runtime, and the
  runtimes' "not initialized" statuses.
"""

import os
import shutil
import subprocess
import sys
import tempfile
import unittest

LIBRARY = sys.argv[1]
SOURCES = os.path.dirname(os.path.abspath(sys.argv[2]))
del sys.argv[1:3]

CXX = "/usr/bin/g++"


def build(tmp, out, sources, flags=(), shared=False):
  cmd = [CXX]
  if shared:
    cmd += ["-shared", "-fPIC"]
  cmd += ["-D__HIP_PLATFORM_AMD__", "-I", SOURCES, "-o",
          os.path.join(tmp, out)]
  cmd += [os.path.join(SOURCES, s) for s in sources]
  cmd += ["-L", tmp] + list(flags)
  subprocess.run(cmd, check=True, cwd=tmp, timeout=300)
  return os.path.join(tmp, out)


def run(binary, args=(), env=None):
  e = dict(os.environ)
  e.pop("LD_PRELOAD", None)
  e.update(env or {})
  return subprocess.run([binary] + list(args), env=e, stdout=subprocess.PIPE,
                        stderr=subprocess.PIPE, universal_newlines=True,
                        timeout=120)


def needed(binary):
  out = subprocess.run(["readelf", "-d", binary], stdout=subprocess.PIPE,
                       universal_newlines=True, check=True).stdout
  return [l.split("[")[1].rstrip("]") for l in out.splitlines()
          if "(NEEDED)" in l]


class LinkLayoutsTest(unittest.TestCase):

  @classmethod
  def setUpClass(cls):
    cls.tmp = tempfile.mkdtemp(prefix="link_layouts",
                               dir=os.environ.get("TEST_TMPDIR"))
    # Laid out as installed: the SONAME file and the development link.
    cls.lib = os.path.join(cls.tmp, "libroctracer64.so.4")
    shutil.copy(LIBRARY, cls.lib)
    os.symlink("libroctracer64.so.4", os.path.join(cls.tmp, "libroctracer64.so"))
    cls.env = {"LD_LIBRARY_PATH": cls.tmp}
    cls.plain = build(cls.tmp, "plain_app", ["linked_app.cc"],
                      ["-lamdhip64", "-lhsa-runtime64"])
    cls.linked = build(cls.tmp, "linked_app", ["linked_app.cc"],
                       ["-lroctracer64", "-lamdhip64", "-lhsa-runtime64"])

  @classmethod
  def tearDownClass(cls):
    shutil.rmtree(cls.tmp, ignore_errors=True)

  def answers(self, p):
    return [l for l in p.stdout.splitlines()
            if l.startswith(("before ", "after "))]

  def traced(self, p):
    return {l.split()[1]: int(l.split()[2]) for l in p.stdout.splitlines()
            if l.startswith("TRACED ")}

  def test_default_flags_link_answers_as_without_tracer_and_traces(self):
    # What makes this layout hard: the runtimes are not in DT_NEEDED.
    self.assertEqual(needed(self.linked)[0], "libroctracer64.so.4")
    self.assertNotIn("libamdhip64.so.5", needed(self.linked))
    plain = run(self.plain, env=self.env)
    linked = run(self.linked, env=self.env)
    self.assertEqual(plain.returncode, 0, plain.stdout + plain.stderr)
    self.assertEqual(linked.returncode, 0, linked.stdout + linked.stderr)
    self.assertEqual(self.answers(linked), self.answers(plain))
    self.assertIn("before hipGetDeviceCount 100 count 0", plain.stdout)
    self.assertNotIn("(null)", linked.stdout)
    self.assertEqual(linked.stderr, "")
    self.assertEqual(self.traced(linked), {"hipGetDeviceCount": 1,
                                           "hipGetErrorString": 1,
                                           "hsa_status_string": 1})

  def dlopen_layout(self, mode, flags=()):
    app = build(self.tmp, "dlopen_app", ["dlopen_app.cc"],
                list(flags) + ["-lamdhip64", "-ldl"])
    user = build(self.tmp, "libhip_user.so", ["hip_user.cc"], ["-lamdhip64"],
                 shared=True)
    self.assertNotIn("libroctracer64.so", needed(app))
    p = run(app, [self.lib, mode, user], env=self.env)
    self.assertEqual(p.returncode, 0, p.stdout + p.stderr)
    self.assertNotIn("FAIL", p.stdout)

  def test_tracer_dlopened_local_after_hip(self):
    self.dlopen_layout("local")

  def test_tracer_dlopened_global_after_hip(self):
    self.dlopen_layout("global")

  def test_tracer_dlopened_after_hip_hardened_build(self):
    # Distribution hardening: every slot read-only after start-up (full
    # RELRO), calls through GLOB_DAT slots instead of the PLT.
    self.dlopen_layout("local", ["-Wl,-z,relro,-z,now", "-fno-plt"])

  def test_runtime_not_found_prints_one_line_and_returns_not_initialized(self):
    hide = build(self.tmp, "libhide_runtimes.so", ["hide_runtimes.cc"],
                 ["-ldl"], shared=True)
    env = dict(self.env, LD_PRELOAD=hide,
               HIDE_LIBRARIES="libamdhip64,libhsa-runtime64")
    p = run(self.linked, env=env)
    self.assertEqual(p.returncode, 0, p.stdout + p.stderr)
    # hipErrorNotInitialized, HSA_STATUS_ERROR_NOT_INITIALIZED, and a text
    # for the string function; each call made twice, reported once.
    self.assertIn("before hipGetDeviceCount 3 count -1", p.stdout)
    self.assertIn("after hipGetDeviceCount 3 count -1", p.stdout)
    self.assertIn("after hsa_status_string 0x100b", p.stdout)
    self.assertNotIn("hipGetErrorString (null)", p.stdout)
    lines = p.stderr.splitlines()
    self.assertEqual(len(lines), 2, p.stderr)
    self.assertEqual(sum("HIP runtime libamdhip64.so.5" in l for l in lines),
                     1, p.stderr)
    self.assertEqual(sum("HSA runtime libhsa-runtime64.so.1" in l
                         for l in lines), 1, p.stderr)


if __name__ == "__main__":
  unittest.main()
