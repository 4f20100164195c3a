"""Operation numbers of the SDK front end's HIP and HSA kinds.

rocprofiler-sdk numbers HIP_RUNTIME_API / HIP_COMPILER_API operations by
slot in HIP's dispatch tables (hip/amd_detail/hip_api_trace.hpp, HIP >= 6.1)
and the HSA kinds by slot in hsa_api_trace.h's tables. The oracle here reads
those slots with a plain text scan of the headers, independently of the
generator's libclang path, and compares them with what sdk_generate.py emits.

Releases checked:
* the one built against (@rocm; ROCm 5.2.3 on bookworm): it ships no
  hip_api_trace.hpp, so the documented fallback applies (HIP operations
  numbered 0..n-1 in roctracer-ID order, the compiler kind holding the
  `__hip*` APIs);
* every Debian suite whose headers are in the release cache
  ($ROCTRACER_ROCM_CACHE, else ~/.cache/roctracer-rocm: <suite>/root/usr),
  filled by tools/rocm_release.sh (tools/test.sh fetches every suite).
  None there: those cases are skipped, saying how to fetch them.
"""

import os
import pwd
import re
import tempfile
import unittest

from codegen import sdk_generate
from codegen import sdk_kinds

RUNFILES = os.path.join(os.environ.get("TEST_SRCDIR", ""), "roctracer")
ROCM_INCLUDE = os.path.join(os.environ.get("TEST_SRCDIR", ""), "rocm", "include")
TEMPLATES = os.path.join(RUNFILES, "templates")
SUITES = ["trixie", "sid", "experimental"]


def cache_dir() -> str:
  if os.environ.get("ROCTRACER_ROCM_CACHE"):
    return os.environ["ROCTRACER_ROCM_CACHE"]
  # Bazel gives tests a HOME of their own: the user's comes from passwd.
  home = pwd.getpwuid(os.getuid()).pw_dir
  return os.path.join(os.environ.get("XDG_CACHE_HOME") or
                      os.path.join(home, ".cache"), "roctracer-rocm")


def struct_slots(text: str, struct: str):
  """`<name>_fn` members of `struct <struct> {...};`, in order."""
  m = re.search(r"^struct %s\s*\{(.*?)^\};" % struct, text, re.S | re.M)
  assert m, struct
  body = re.sub(r"//[^\n]*", "", m.group(1))
  return re.findall(r"(\w+)_fn\s*;", body)


def generated_enum(text: str, enum_type: str):
  """(name, value) of `typedef enum <enum_type> {...}` in emission order."""
  m = re.search(r"typedef enum %s \{(.*?)\}" % enum_type, text, re.S)
  assert m, enum_type
  return [(n, int(v)) for n, v in
          re.findall(r"ROCPROFILER_\w+?_API_ID_(\w+) = (-?\d+)", m.group(1))]


def generated_ids(tables_cc: str, kind: str):
  """The roctracer API ID enumerators (or kUntraced) of a kind's ops."""
  m = re.search(r"const uint32_t k%sIds\[\] = \{(.*?)\};" % kind, tables_cc,
                re.S)
  return re.findall(r"\b(\w+),", m.group(1)) if m else []


class Generated:

  def __init__(self, include_dir: str):
    self.out = tempfile.mkdtemp(dir=os.environ.get("TEST_TMPDIR"))
    rc = sdk_generate.main(["--include-dir", include_dir, "--templates",
                            TEMPLATES, "--out-dir", self.out])
    assert rc == 0, include_dir

  def read(self, rel: str) -> str:
    with open(os.path.join(self.out, rel)) as f:
      return f.read()

  def ops(self, domain: str, enum_type: str):
    enum = generated_enum(self.read("rocprofiler-sdk/%s/api_id.h" % domain),
                          enum_type)
    assert enum[0] == ("NONE", -1) and enum[-1][0] == "LAST", enum_type
    return enum[1:-1], enum[-1][1]


def missing_sdk_ops(names):
  """rocprofiler-sdk 1.0.0's HIP runtime operations not in `names`, in its
  order."""
  have = set(names)
  return [n for n in sdk_kinds.sdk_1_0_0_hip_runtime_ops() if n not in have]


def check_table_numbering(case, include_dir: str):
  gen = Generated(include_dir)
  with open(os.path.join(include_dir, "hip", "amd_detail",
                         "hip_api_trace.hpp")) as f:
    hip = f.read()
  with open(os.path.join(include_dir, "hsa", "hsa_api_trace.h")) as f:
    hsa = f.read()
  tables_cc = gen.read("sdk_op_tables.cc")
  for enum_type, kind, text, struct in [
      ("rocprofiler_hip_runtime_api_id_t", "HIP_RUNTIME_API", hip,
       "HipDispatchTable"),
      ("rocprofiler_hip_compiler_api_id_t", "HIP_COMPILER_API", hip,
       "HipCompilerDispatchTable"),
      ("rocprofiler_hsa_core_api_id_t", "HSA_CORE_API", hsa, "CoreApiTable"),
      ("rocprofiler_hsa_amd_ext_api_id_t", "HSA_AMD_EXT_API", hsa,
       "AmdExtTable"),
      ("rocprofiler_hsa_image_ext_api_id_t", "HSA_IMAGE_EXT_API", hsa,
       "ImageExtTable"),
      ("rocprofiler_hsa_finalize_ext_api_id_t", "HSA_FINALIZE_EXT_API", hsa,
       "FinalizerExtTable"),
  ]:
    with case.subTest(include_dir=include_dir, kind=kind):
      domain = "hip" if kind.startswith("HIP") else "hsa"
      ops, last = gen.ops(domain, enum_type)
      slots = struct_slots(text, struct)
      if kind == "HIP_RUNTIME_API":
        # Then rocprofiler-sdk 1.0.0's operations the table lacks, in 1.0.0's
        # order, untraced (the same numbers as 1.0.0's: HIP only appends).
        extra = missing_sdk_ops(slots)
        slots = slots + extra
        case.assertEqual(generated_ids(tables_cc, kind)[-len(extra) or
                                                       len(slots):],
                         ["kUntraced"] * len(extra))
      # Operation N is slot N, named after it; LAST is the slot count.
      case.assertEqual(ops, list(zip(slots, range(len(slots)))))
      case.assertEqual(last, len(slots))
      ids = generated_ids(tables_cc, kind)
      case.assertEqual(len(ids), len(slots))
      untraced = [s for s, i in zip(slots, ids) if i == "kUntraced"]
      if kind == "HIP_COMPILER_API":
        # The host headers declare only the launch-configuration calls; the
        # __hipRegister* calls the compiler emits are not declared there.
        case.assertNotIn("__hipPushCallConfiguration", untraced)
        case.assertNotIn("__hipPopCallConfiguration", untraced)
      elif domain == "hsa":
        case.assertEqual(untraced, [])  # the HSA APIs are the tables' slots
      else:
        # Slots without a declared function are few (GL interop, R0000
        # compatibility entry points).
        case.assertLess(len(untraced), len(slots) // 20, untraced)
  ids = dict(zip(struct_slots(hip, "HipDispatchTable"),
                 generated_ids(tables_cc, "HIP_RUNTIME_API")))
  # hipChooseDevice's slot is the API HIP 6 renames by macro: traced as the
  # renamed function, under the slot's name.
  for api, traced_as in [("hipMalloc", "hipMalloc"),
                         ("hipLaunchKernel", "hipLaunchKernel"),
                         ("hipChooseDevice", "hipChooseDeviceR0600"),
                         ("hipGetDevicePropertiesR0600",
                          "hipGetDevicePropertiesR0600")]:
    case.assertEqual(ids.get(api), "HIP_API_ID_" + traced_as, api)


class InstalledRelease(unittest.TestCase):

  def test_numbering(self):
    trace_header = os.path.join(ROCM_INCLUDE, "hip", "amd_detail",
                                "hip_api_trace.hpp")
    if os.path.exists(trace_header):
      check_table_numbering(self, ROCM_INCLUDE)
      return
    # No dispatch tables (HIP < 6.1): the HIP kinds number the traced APIs
    # 0..n-1 in roctracer-ID order.
    gen = Generated(ROCM_INCLUDE)
    with open(os.path.join(RUNFILES, "codegen", "hip_api_id.h")) as f:
      roctracer_ids = dict(re.findall(r"HIP_API_ID_(\w+) = (\d+),", f.read()))
    tables_cc = gen.read("sdk_op_tables.cc")
    seen = set()
    for enum_type, kind in [
        ("rocprofiler_hip_runtime_api_id_t", "HIP_RUNTIME_API"),
        ("rocprofiler_hip_compiler_api_id_t", "HIP_COMPILER_API")]:
      ops, last = gen.ops("hip", enum_type)
      self.assertEqual([v for _, v in ops], list(range(last)))
      generated = generated_ids(tables_cc, kind)
      self.assertEqual(len(generated), last)
      traced = [e for e in generated if e != "kUntraced"]
      n = len(traced)
      ids = [int(roctracer_ids[e[len("HIP_API_ID_"):]]) for e in traced]
      self.assertEqual(ids, sorted(set(ids)), kind)
      # The traced APIs, then (runtime kind) the untraced rest of
      # rocprofiler-sdk 1.0.0's operations, in its order.
      self.assertEqual(generated[:n], traced)
      names = [name for name, _ in ops]
      self.assertEqual(names[n:], missing_sdk_ops(names[:n])
                       if kind == "HIP_RUNTIME_API" else [])
      ops = ops[:n]
      for name, _ in ops:
        self.assertEqual(name.startswith("__hip"), kind == "HIP_COMPILER_API",
                         name)
      seen.update(name for name, _ in ops)
    self.assertIn("hipMalloc", seen)
    # 1.0.0's operations HIP 5.2.3 lacks are named (Kineto's RocprofLogger
    # names these two).
    rt, _ = gen.ops("hip", "rocprofiler_hip_runtime_api_id_t")
    rt_names = [name for name, _ in rt]
    for name in sdk_kinds.sdk_1_0_0_hip_runtime_ops():
      self.assertIn(name, rt_names)
    self.assertIn("__hipPushCallConfiguration", seen)


class CachedReleases(unittest.TestCase):

  def test_numbering_follows_the_dispatch_tables(self):
    cache = cache_dir()
    found = [s for s in SUITES
             if os.path.exists(os.path.join(cache, s, "root", "usr", "include",
                                             "hip", "amd_detail",
                                             "hip_api_trace.hpp"))]
    if not found:
      self.skipTest("no release with hip_api_trace.hpp under %s: run "
                    "tools/rocm_release.sh sid" % cache)
    for suite in found:
      check_table_numbering(self, os.path.join(cache, suite, "root", "usr",
                                               "include"))


if __name__ == "__main__":
  unittest.main()
