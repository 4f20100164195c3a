"""The HIP runtime of the ROCm release under test runs the hipcc-built
programs on softhsa (built from that release's headers): results right, every
kernel (the programs' and the release's own blit kernels) run by a twin; and
roctrace (built from the same headers) traces the matrix transpose's kernels
and copies on it.

In a release run (tools/test_release.sh) the programs start through the
release's loader ($ROCTRACER_RELEASE_RUN), which finds the release's
libamdhip64 under the soname they were linked with; otherwise they run on
the installed HIP. Either way softhsa comes first on the library path, and
the test checks which libamdhip64 and libhsa-runtime64 the loader
initialised (LD_DEBUG=libs)."""

import collections
import csv
import glob
import os
import re
import subprocess
import sys
import unittest

from tests.realhip import softhsa_case

(SOFTHSA, TRANSPOSE, MODULE, COPIES2D, PEER, EVENTS, KERNELS, ROCTRACE,
 VMEM, HIP_RECORDER) = (os.path.abspath(p) for p in sys.argv[1:11])
del sys.argv[1:11]

# HIP's command kinds (hipGetCmdName) and ops.
KERNEL_EXECUTION, COPY_DEVICE_TO_HOST, COPY_HOST_TO_DEVICE = 0x11F0, 0x11F3, 0x11F4
COPY_DEVICE_TO_DEVICE, FILL_BUFFER, MARKER = 0x11F5, 0x1207, 0x11FE

# hipError_t values.
HIP_SUCCESS, HIP_INVALID_VALUE, HIP_OUT_OF_MEMORY, HIP_NOT_SUPPORTED = (0, 1,
                                                                        2, 801)

RELEASE_RUN = os.environ.get("ROCTRACER_RELEASE_RUN")
RELEASE_PREFIX = os.environ.get("ROCTRACER_RELEASE_PREFIX")
INSTALLED_LIB = "/usr/lib/x86_64-linux-gnu"


class ReleaseHip(softhsa_case.SoftHsaCase):

  softhsa = SOFTHSA

  def run_program(self, args, **extra):
    env = dict(os.environ)
    for k in ("LD_PRELOAD", "HSA_TOOLS_LIB"):
      env.pop(k, None)
    env["LD_LIBRARY_PATH"] = self.libdir
    env["SOFTHSA_GPU_NAME"] = "gfx90a"
    env["SOFTHSA_SYSTEM_CLOCK"] = "monotonic"  # HIP's event times
    env["LD_DEBUG"] = "libs"
    env.update(extra)
    command = ([RELEASE_RUN] if RELEASE_RUN else []) + args
    return subprocess.run(command, env=env, stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, universal_newlines=True,
                          timeout=180)

  def initialised(self, stderr, stem):
    """The real path of the library `stem` the loader initialised."""
    found = re.findall(r"calling init: (\S*/%s\.so[.0-9]*)$" % re.escape(stem),
                       stderr, re.M)
    self.assertEqual(len(found), 1, "%s initialised %d times" %
                     (stem, len(found)))
    return os.path.realpath(found[0])

  def check(self, args, ok, **extra):
    p = self.run_program(args, **extra)
    out = p.stdout + "\n".join(l for l in p.stderr.splitlines()
                               if "calling init" not in l and
                               not l.lstrip().startswith(tuple("0123456789")))
    self.assertEqual(p.returncode, 0, out)
    self.assertIn(ok, p.stdout)
    self.assertNotIn("has no host twin", p.stderr, out)
    hip = self.initialised(p.stderr, "libamdhip64")
    hsa = self.initialised(p.stderr, "libhsa-runtime64")
    self.assertEqual(hsa, os.path.realpath(SOFTHSA))
    if RELEASE_PREFIX:
      self.assertTrue(hip.startswith(os.path.realpath(RELEASE_PREFIX) + "/"),
                      hip)
    else:
      self.assertEqual(os.path.dirname(hip), INSTALLED_LIB)

  def test_matrix_transpose(self):
    self.check([TRANSPOSE], "transpose: OK")

  def test_module_loaded_at_run_time(self):
    self.check([MODULE, KERNELS], "module: OK")

  def test_2d_copies_and_fills(self):
    self.check([COPIES2D], "copies2d: OK")

  def test_event_times(self):
    self.check([EVENTS], "events: OK")

  def test_two_devices_and_a_peer_copy(self):
    self.check([PEER], "peer: OK", SOFTHSA_GPU_COUNT="2")

  def test_roctrace_traces_the_transpose(self):
    # roctrace starts the program (through the release's loader in a
    # release run: LD_PRELOAD, which roctrace sets, reaches it there too).
    out = os.path.join(self.tmp.name, "roctrace")
    p = self.run_program(
        [ROCTRACE, "--kernel-trace", "--memory-copy-trace", "--output-format",
         "csv", "-d", out, "--"] + ([RELEASE_RUN] if RELEASE_RUN else []) +
        [TRANSPOSE], LD_DEBUG="")
    self.assertEqual(p.returncode, 0, p.stdout + p.stderr)
    self.assertIn("transpose: OK", p.stdout)
    self.assertNotIn("has no host twin", p.stderr)

    def rows(kind):
      files = glob.glob(os.path.join(out, "*", "*_%s.csv" % kind))
      self.assertEqual(len(files), 1, files)
      with open(files[0]) as f:
        return list(csv.DictReader(f))

    kernels = collections.Counter(r["Kernel_Name"] for r in rows("kernel_trace"))
    # The program's three launches, by name; HIP's own blit kernels (their
    # names and number are the release's) beside them.
    self.assertEqual(kernels["transpose(float*, float const*, int, int)"], 3)
    self.assertTrue(all(k.startswith("__amd_rocclr_") for k in kernels
                        if not k.startswith("transpose")), kernels)
    copies = collections.Counter(r["Direction"] for r in rows("memory_copy_trace"))
    # Three host-to-device and four device-to-host copies (the program's
    # hipMemcpy/hipMemcpyAsync calls), and a device-to-device one that HIP
    # runs as its copyBuffer blit kernel. A copy the runtime refuses HIP
    # runs as that kernel too (HIP 7.2 asks copy engine 0 for one
    # device-to-host copy, which gfx90a reserves for host-to-device): a
    # kernel row then, not a copy row.
    self.assertEqual(copies["MEMORY_COPY_HOST_TO_DEVICE"], 3, copies)
    self.assertEqual(copies["MEMORY_COPY_DEVICE_TO_HOST"] +
                     kernels["__amd_rocclr_copyBuffer"], 4 + 1,
                     (copies, kernels))

  def test_roctrace_rows_equal_hips_own_records(self):
    # The same run recorded twice: by roctrace (kernel, copy and HIP API
    # rows) and by HIP itself: its HIP_OPS records (and HIP_API calls, where
    # its build reports them) through hipRegisterTracerCallback (HIP 5.3 on;
    # installed 5.2.3 has no such callback: realhip_test compares with its
    # hipInitActivityCallback records instead), and its log
    # (AMD_LOG_LEVEL=3: a "NAME: Returned ..." line per API call it logs).
    out = os.path.join(self.tmp.name, "own_records")
    recorded = os.path.join(self.tmp.name, "hip_own_records.txt")
    p = self.run_program(
        [ROCTRACE, "--kernel-trace", "--memory-copy-trace", "--hip-trace",
         "--output-format", "csv", "-d", out, "--"] +
        ([RELEASE_RUN] if RELEASE_RUN else []) +
        [TRANSPOSE], LD_DEBUG="", LD_PRELOAD=HIP_RECORDER,
        RECORDER_OUT=recorded, AMD_LOG_LEVEL="3")
    self.assertEqual(p.returncode, 0, p.stdout + p.stderr)
    self.assertIn("transpose: OK", p.stdout)
    if not os.path.exists(recorded):
      self.skipTest("HIP has no hipRegisterTracerCallback")
    with open(recorded) as f:
      lines = f.read().split("\n")
    if lines[0] != "registered":
      self.skipTest("HIP's tracer callback: " + lines[0])
    hip = collections.Counter()
    hip_calls = collections.Counter()
    for line in lines[1:]:
      words = line.split()
      if words and words[0] == "hip":
        hip[int(words[2], 16)] += int(words[3])
      elif words and words[0] == "api":
        hip_calls[words[1]] += int(words[2])

    def rows(kind):
      files = glob.glob(os.path.join(out, "*", "*_%s.csv" % kind))
      self.assertEqual(len(files), 1, files)
      with open(files[0]) as f:
        return list(csv.DictReader(f))

    kernels = collections.Counter(r["Kernel_Name"] for r in rows("kernel_trace"))
    copies = collections.Counter(r["Direction"] for r in rows("memory_copy_trace"))
    # Copies in and out: one row per HIP copy command; the device-to-device
    # copy HIP runs as its copyBuffer blit kernel (a kernel row), and so
    # HIP 7.2 one copy out (the copy engine it asked refused it); each fill
    # one or more fillBuffer kernel rows.
    self.assertEqual(copies["MEMORY_COPY_HOST_TO_DEVICE"],
                     hip[COPY_HOST_TO_DEVICE], (copies, hip))
    self.assertEqual(
        copies["MEMORY_COPY_DEVICE_TO_HOST"] +
        kernels["__amd_rocclr_copyBuffer"],
        hip[COPY_DEVICE_TO_HOST] + hip[COPY_DEVICE_TO_DEVICE], (copies, kernels,
                                                                hip))
    self.assertEqual(hip[COPY_DEVICE_TO_DEVICE], 1, hip)
    fills = sum(n for k, n in kernels.items() if "fillBuffer" in k)
    self.assertGreaterEqual(fills, hip[FILL_BUFFER], (kernels, hip))
    self.assertEqual(hip[FILL_BUFFER], 5, hip)
    launches = kernels["transpose(float*, float const*, int, int)"]
    self.assertEqual(launches, 3, kernels)
    # HIP 5.7 reports no kernel executions through this callback (its
    # markers instead); 6.4 and 7.2 report each launch (and no markers).
    self.assertIn(hip[KERNEL_EXECUTION], (0, launches), hip)
    calls = collections.Counter(r["Function"] for r in rows("hip_api_trace"))
    # HIP's markers are the barriers of some of its hipEventRecord calls
    # (realhip_test: 2 of 4 on 5.2.3); roctrace has a row per call.
    self.assertIn(hip[MARKER], (0, 2), hip)
    self.assertLessEqual(hip[MARKER], calls["hipEventRecord"], calls)
    self.assertEqual(calls["hipEventRecord"], 4, calls)
    # Every API call HIP logs ("[tid] NAME: Returned" up to 6.x, "...us:
    # NAME: Returned" in 7.x; its internal ihip* functions are not APIs),
    # roctrace has as many rows of; its only extra is hipGetLastError, which
    # HIP does not log (as realhip_test finds on 5.2.3).
    logged = collections.Counter(
        n for n in re.findall(r"[\s\]](\w+): Returned", p.stderr)
        if not n.startswith("ihip"))
    print("HIP's own records: %s; its API callbacks: %s; its log: %s; "
          "roctrace's API rows: %s" %
          (dict(hip), dict(hip_calls), dict(logged), dict(calls)),
          file=sys.stderr)
    self.assertGreater(sum(logged.values()), 50, logged)
    differ = {n: (logged[n], calls[n])
              for n in set(logged) | set(calls)
              if logged[n] != calls[n]}
    self.assertEqual(differ, {"hipGetLastError": (0, 1)},
                     "name: (HIP's log, roctrace's rows)")
    # Debian's builds of HIP report no API calls through the callback; a
    # build that does must report those roctrace has rows of.
    if hip_calls:
      self.assertEqual(hip_calls, calls, "HIP's callbacks, roctrace's rows")

  def test_virtual_memory_and_dma_buf_errors_are_documented_and_traced(self):
    # On a runtime without a virtual memory API or dma-buf export, what
    # HIP's VMM and dma-buf functions answer (each release differs: HIP 5.2
    # creates and reserves without the runtime, HIP 6 and 7 ask it) is an
    # error its header documents for the function: hipErrorInvalidValue or
    # hipErrorNotSupported. hipMemAddressReserve is the exception: HIP
    # answers hipErrorOutOfMemory for any reservation the runtime refuses
    # (its own choice, as on a GPU without the API). roctrace has one HIP
    # API row per call.
    out = os.path.join(self.tmp.name, "vmem")
    p = self.run_program(
        [ROCTRACE, "--hip-runtime-trace", "--output-format", "csv", "-d", out,
         "--"] + ([RELEASE_RUN] if RELEASE_RUN else []) + [VMEM], LD_DEBUG="")
    self.assertEqual(p.returncode, 0, p.stdout + p.stderr)
    self.assertIn("vmem: OK", p.stdout)
    calls = [(name, int(code)) for name, code in
             re.findall(r"^vmem (\w+) (-?\d+)$", p.stdout, re.M)]
    self.assertGreaterEqual(len(calls), 9, p.stdout)
    documented = {HIP_SUCCESS, HIP_INVALID_VALUE, HIP_NOT_SUPPORTED}
    for name, code in calls:
      allowed = documented | ({HIP_OUT_OF_MEMORY}
                              if name == "hipMemAddressReserve" else set())
      self.assertIn(code, allowed, "%s answered %d" % (name, code))
    # Mapping memory the runtime cannot map fails, whichever HIP.
    self.assertNotEqual(dict(calls)["hipMemMap"], HIP_SUCCESS)
    files = glob.glob(os.path.join(out, "*", "*_hip_api_trace.csv"))
    self.assertEqual(len(files), 1, files)
    with open(files[0]) as f:
      traced = collections.Counter(r["Function"] for r in csv.DictReader(f))
    for name, _ in calls:
      self.assertEqual(traced[name], 1, (name, traced))


if __name__ == "__main__":
  unittest.main()
