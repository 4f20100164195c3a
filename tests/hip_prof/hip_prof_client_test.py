"""Clients compiled against HIP's own hip_prof_str.h read our callback data
and never see an ID above its HIP_API_ID_LAST from a domain-wide enable.

Builds hip_prof_client.cc with the system g++ and its default flags, against
the installed HIP's headers (hip/amd_detail/hip_prof_str.h, not our generated
hip_api_data.h) and our roctracer.h, and runs it with libroctracer64.so
preloaded in front of the real libamdhip64: the HIP calls fail without a GPU
but carry their arguments, which the client checks field by field, `__val`
copies included, through HIP's struct layout, IDs and inline helpers.
"""

import os
import subprocess
import sys
import tempfile
import unittest

(LIBRARY, CLIENT, ID_RANGE_CLIENT, DETAIL_CLIENT, ROCTRACER_H, OSTREAM_OPS_H,
 HIP_H, HIP_LIB) = sys.argv[1:9]
del sys.argv[1:9]

# On a ROCm release whose libraries need a newer C and C++ runtime than this
# machine's (tools/test_release.sh), the client runs through that release's
# loader, and is linked without resolving the libraries' own references
# (they resolve against the release's runtime, not this machine's).
RELEASE_RUN = os.environ.get("ROCTRACER_RELEASE_RUN")
RELEASE_LINK = ["-Wl,--allow-shlib-undefined"] if RELEASE_RUN else []
RELEASE_PREFIX = [RELEASE_RUN] if RELEASE_RUN else []


def include_dir(header, depth):
  d = os.path.abspath(header)
  for _ in range(depth):
    d = os.path.dirname(d)
  return d


def hip_prof_str():
  with open(os.path.join(os.path.dirname(HIP_H), "amd_detail",
                         "hip_prof_str.h")) as f:
    return f.read()


class HipProfClientTest(unittest.TestCase):

  def test_client_reads_hip_layout_from_real_calls(self):
    # From HIP 5.6 on, HIP's hipApiString streams every value through
    # roctracer::hip_support::detail::operator<< (our hip_ostream_ops.h).
    self.build_and_run(CLIENT)

  def test_domain_wide_enables_stay_within_hip_api_id_last(self):
    # The client's traced call; HIP 7's list no longer has an ID for it.
    if "HIP_API_ID_hipGetErrorString " not in hip_prof_str():
      self.skipTest("this HIP's hip_prof_str.h has no "
                    "HIP_API_ID_hipGetErrorString")
    self.build_and_run(ID_RANGE_CLIENT)

  def test_support_detail_printers(self):
    # Generated code calls these qualified, for values of any type.
    out = self.build_and_run(DETAIL_CLIENT, check_failures=False)
    self.assertEqual(out.splitlines(), [
        r'"say \"hi\"\\\n\t\x01"',
        "NULL",
        '"ab"',
        "65",
        "200",
        "{x=4, y=2, z=1}",
        "42",
        "2",
        "0x1234",
        "{x=7, y=8, z=9}",
        "65",
    ])

  def build_and_run(self, client, check_failures=True):
    tmp = tempfile.mkdtemp(dir=os.environ.get("TEST_TMPDIR"))
    lib = os.path.abspath(LIBRARY)
    for name in ("libroctracer64.so", "libroctracer64.so.4"):
      os.symlink(lib, os.path.join(tmp, name))
    hip_lib_dir = os.path.dirname(os.path.realpath(HIP_LIB))
    binary = os.path.join(tmp, "client")
    # hipExtModuleLaunchKernel references keep libamdhip64 (as a user's
    # program does); the preload puts our wrappers in front of it.
    p = subprocess.run(
        ["g++", "-D__HIP_PLATFORM_AMD__", client,
         "-I" + include_dir(ROCTRACER_H, 1),
         "-I" + include_dir(OSTREAM_OPS_H, 1), "-I" + include_dir(HIP_H, 2),
         "-L" + tmp, "-L" + hip_lib_dir, "-lamdhip64", "-lroctracer64",
         "-o", binary] + RELEASE_LINK,
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
        universal_newlines=True, timeout=300)
    self.assertEqual(p.returncode, 0, p.stdout)
    env = dict(os.environ, LD_PRELOAD=lib,
               LD_LIBRARY_PATH=tmp + ":" + hip_lib_dir)
    p = subprocess.run(RELEASE_PREFIX + [binary], env=env, stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT, universal_newlines=True,
                       timeout=120)
    self.assertEqual(p.returncode, 0, p.stdout)
    if check_failures:
      self.assertIn(" 0 failures", p.stdout)
    return p.stdout


if __name__ == "__main__":
  unittest.main()
