"""roctrace's .pftrace read by protoc --decode against Perfetto's trace
messages (perfetto_trace_subset.proto: Perfetto's field numbers and types):
every field of every packet is one the proto knows with the wire type it
declares (protoc prints any other as a bare number), and the decoded text
holds what was traced: the process's and threads' track descriptors, the
calls' and rocTX events' names, slices, and on the GPU program kernel and
copy slices with their flows and annotations."""

import os
import re
import shutil
import subprocess
import sys
import tempfile
import unittest

ROCTRACE, PROGRAM, GPU_PROGRAM, GPU_KERNELS, PROTO = [
    os.path.abspath(p) for p in sys.argv[1:6]
]
del sys.argv[1:6]

_SCRATCH = tempfile.TemporaryDirectory(prefix="pftrace_protoc_",
                                       dir=os.environ.get("TEST_TMPDIR"))


def trace(args, prefix):
  d = tempfile.mkdtemp(dir=_SCRATCH.name)
  p = subprocess.run([ROCTRACE, "--sys-trace", "--output-format", "pftrace",
                      "-d", d, "-o", prefix, "--"] + args, cwd=d,
                     stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                     universal_newlines=True, timeout=120)
  assert p.returncode == 0, p.stderr
  return os.path.join(d, prefix + "_results.pftrace")


def decode(path):
  """The trace as protoc prints it (text format), or the test fails with
  protoc's error."""
  protoc = shutil.which("protoc")
  if protoc is None:
    raise AssertionError("protoc not installed (tools/install_deps.sh "
                         "installs protobuf-compiler)")
  with open(path, "rb") as f:
    p = subprocess.run([protoc, "--proto_path=" + os.path.dirname(PROTO),
                        "--decode=perfetto.protos.Trace",
                        os.path.basename(PROTO)], stdin=f,
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       timeout=120)
  if p.returncode != 0:
    raise AssertionError("protoc --decode failed: " + p.stderr.decode())
  return p.stdout.decode("utf-8", "replace")


# A field protoc could not match to the proto: `87: 1`, `47: 0x...`, a
# group or a nested unknown message (`123 {`).
UNKNOWN = re.compile(r"^\s*\d+\s*[:{]", re.M)


class PftraceDecodes(unittest.TestCase):

  def check_known(self, text):
    unknown = UNKNOWN.findall(text)
    self.assertEqual(unknown, [], "fields Perfetto's proto does not have "
                     "(or has with another wire type)")

  def test_api_calls_and_roctx(self):
    text = decode(trace([PROGRAM, "sample"], "s"))
    self.check_known(text)
    self.assertGreater(text.count("packet {"), 10)
    # The process and its thread described, as Perfetto's UI reads them.
    self.assertRegex(text, r"process \{\s+pid: \d+")
    self.assertRegex(text, r"thread \{\s+pid: \d+\s+tid: \d+")
    # The calls' and rocTX events' names, interned.
    for name in ("hsa_init", "hipGetDeviceCount", "outer", "inner", "start"):
      self.assertRegex(text, r'event_names \{\s+iid: \d+\s+name: "%s"' % name)
    # Slices begin and end; the mark is an instant.
    self.assertIn("type: TYPE_SLICE_BEGIN", text)
    self.assertIn("type: TYPE_SLICE_END", text)
    self.assertIn("type: TYPE_INSTANT", text)
    # Sequence flags as Perfetto names them: a sequence's first packet
    # clears its state, the packets reading it say they need it.
    self.assertIn("sequence_flags: 1", text)
    self.assertIn("sequence_flags: 2", text)
    self.assertIn("clock_snapshot {", text)

  def test_kernels_and_copies(self):
    text = decode(trace([GPU_PROGRAM, GPU_KERNELS, "2", "2", "0"], "g"))
    self.check_known(text)
    self.assertRegex(text, r'event_names \{\s+iid: \d+\s+name: "stamp"')
    self.assertRegex(text, r'name: "MEMORY_COPY_[A-Z_]+"')
    # A dispatch's flow from its call, and its launch as annotations.
    self.assertRegex(text, r"flow_ids: 0x[0-9a-f]+|flow_ids: \d+")
    self.assertRegex(text, r'debug_annotation_names \{\s+iid: \d+\s+'
                     r'name: "dispatch_id"')
    self.assertRegex(text, r"debug_annotations \{\s+name_iid: \d+\s+"
                     r"uint_value: \d+")


if __name__ == "__main__":
  unittest.main()
