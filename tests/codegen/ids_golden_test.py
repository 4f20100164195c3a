"""The generated IDs equal the golden record of the release built against.

IDs follow the installed ROCm's headers (codegen/numbering.py), so they may
change with the release; for each supported release a record of them is
committed under tests/codegen/ids/<release>/ and a build against that release
must reproduce it exactly. A release without a record fails here: add its
record (copy bazel-bin/codegen/*_api_ids.txt) once its IDs are checked.
"""

import os
import unittest

RUNFILES = os.path.join(os.environ.get("TEST_SRCDIR", ""), "roctracer")
GOLDEN = os.path.join(RUNFILES, "tests", "codegen", "ids")


def read(path):
  with open(path) as f:
    return f.read()


def release(record):
  # First line: "# HSA API IDs of release <release> (from its headers, ...)"
  return record.splitlines()[0].split(" of release ", 1)[1].split()[0]


class IdsGoldenTest(unittest.TestCase):

  def check(self, domain, at_least=150):
    generated = read(os.path.join(RUNFILES, "codegen", "%s_api_ids.txt" % domain))
    rel = release(generated)
    golden = os.path.join(GOLDEN, rel, "%s_api_ids.txt" % domain)
    self.assertTrue(os.path.exists(golden),
                    "no golden record for release %s (have: %s)" %
                    (rel, ", ".join(sorted(os.listdir(GOLDEN)))))
    self.assertEqual(read(golden), generated)
    self.assertGreater(len(generated.splitlines()), at_least)

  def test_hsa(self):
    self.check("hsa")

  def test_hip(self):
    self.check("hip")

  def test_kfd(self):
    # hsakmt.h's functions in declaration order (68 on ROCm 5.2.3); a ROCm
    # without libhsakmt's header has an empty KFD domain.
    generated = read(os.path.join(RUNFILES, "codegen", "kfd_api_ids.txt"))
    if len(generated.splitlines()) == 1:
      self.skipTest("this ROCm has no hsakmt.h")
    self.check("kfd", at_least=60)


if __name__ == "__main__":
  unittest.main()
