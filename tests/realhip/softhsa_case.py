"""A unittest base class for tests that start programs on softhsa: a scratch
directory (under $TEST_TMPDIR when Bazel runs the test) for the whole class,
holding lib/ with softhsa as libhsa-runtime64.so.1, to put first on
LD_LIBRARY_PATH so that HIP and the tracer load it by its soname."""

import os
import tempfile
import unittest


class SoftHsaCase(unittest.TestCase):
  """Subclasses set `softhsa` to the path of softhsa's library; they get
  `tmp` (a TemporaryDirectory, removed after the class) and `libdir`."""

  softhsa = None

  @classmethod
  def setUpClass(cls):
    cls.tmp = tempfile.TemporaryDirectory(dir=os.environ.get("TEST_TMPDIR"))
    cls.libdir = os.path.join(cls.tmp.name, "lib")
    os.mkdir(cls.libdir)
    os.symlink(cls.softhsa, os.path.join(cls.libdir, "libhsa-runtime64.so.1"))

  @classmethod
  def tearDownClass(cls):
    cls.tmp.cleanup()
