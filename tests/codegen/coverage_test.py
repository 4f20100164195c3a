"""Coverage of the real ROCm headers by the generated code.

Every slot of the four HSA tables has an ID and a table wrapper; every
extern "C" function hip_runtime_api.h declares and libamdhip64 exports (and
every exported HSA function with a slot, every function hsakmt.h declares
and libhsakmt exports) has an ID and a symbol wrapper.
Whatever is not covered must be listed, with a reason, in
codegen/exclusions.txt; the test fails on an unlisted gap and on a stale entry.
The generated files are read back through libclang, and the export lists come
from running nm here, independently of the build's own nm step.
"""

import os
import re
import subprocess
import unittest

import clang.cindex as ci

from codegen import clang_parse
from codegen import domains
from codegen import generate

RUNFILES = os.path.join(os.environ.get("TEST_SRCDIR", ""), "roctracer")
ROCM = os.path.join(os.environ.get("TEST_SRCDIR", ""), "rocm")
INCLUDE = os.path.join(ROCM, "include")
GEN = os.path.join(RUNFILES, "codegen")
CXX_ARGS = ["-x", "c++", "-std=c++17", "-I", GEN, "-I", RUNFILES, "-I", INCLUDE,
            "-DAMD_INTERNAL_BUILD", "-D__HIP_PLATFORM_AMD__"]


def exports(lib):
  out = subprocess.run(["nm", "-D", "--defined-only", os.path.join(ROCM, "lib", lib)],
                       check=True, capture_output=True, text=True).stdout
  names = set()
  for line in out.splitlines():
    parts = line.split()
    if len(parts) == 3 and parts[1] in ("T", "W", "i"):
      names.add(parts[2].split("@", 1)[0])
  return names


def enum_constants(header):
  tu = clang_parse.parse(os.path.join(GEN, header), ["-x", "c", "-std=c99"])
  return {c.spelling: c.enum_value for c in tu.cursor.walk_preorder()
          if c.kind == ci.CursorKind.ENUM_CONSTANT_DECL}


STUB_PREFIX = "roctracer_stub_"


def defined_functions(source, exported_only=False):
  """Symbols of the functions defined in a generated file (C++-linkage ones
  mangled, as the library exports them); exported_only: external linkage.
  A C symbol stub is defined as roctracer_stub_<name> and exported as
  <name>, an alias of it: it counts as <name>."""
  tu = clang_parse.parse(os.path.join(GEN, source), CXX_ARGS)
  gen_file = os.path.abspath(os.path.join(GEN, source))
  return {c.spelling[len(STUB_PREFIX):] if c.spelling.startswith(STUB_PREFIX)
          else (c.mangled_name if exported_only and c.mangled_name
                else c.spelling)
          for c in tu.cursor.walk_preorder()
          if c.kind == ci.CursorKind.FUNCTION_DECL and c.is_definition() and
          c.location.file and os.path.abspath(c.location.file.name) == gen_file
          and (not exported_only or c.linkage == ci.LinkageKind.EXTERNAL)}


def exclusions(release):
  """Entries of codegen/exclusions.txt that apply to `release` (e.g.
  hip-6.4.43484): `<domain> <name>: <reason>` applies to every release,
  `<domain> <name> [hip-6.4 hip-7.2]: <reason>` only to the releases whose
  name starts with one of the bracketed ones."""
  out = {}
  with open(os.path.join(RUNFILES, "codegen", "exclusions.txt")) as f:
    for line in f:
      line = line.strip()
      if not line or line.startswith("#"):
        continue
      head, _, reason = line.partition(":")
      assert reason.strip(), "exclusion without a reason: " + line
      m = re.fullmatch(r"(\w+) (\S+)(?: \[([^]]+)\])?", head.strip())
      assert m, "malformed exclusion: " + line
      domain, name, tags = m.group(1), m.group(2), (m.group(3) or "").split()
      for t in tags:
        assert re.fullmatch(r"hip-\d+\.\d+(\.\d+)?", t), (
            "release tag %r is not hip-MAJOR.MINOR[.PATCH]: %s" % (t, line))
      if tags and not any(release == t or release.startswith(t + ".")
                          for t in tags):
        continue
      out.setdefault(domain, set()).add(name)
  return out


class CoverageTest(unittest.TestCase):
  maxDiff = None

  @classmethod
  def setUpClass(cls):
    cls.release = generate.release(INCLUDE) or "unknown"
    cls.excluded = exclusions(cls.release)

  def check_gaps(self, domain, gaps):
    listed = self.excluded.get(domain, set())
    # Both lists at once: a new release usually brings both kinds.
    self.assertEqual(
        {"missing": [], "stale": []},
        {"missing": sorted(gaps - listed), "stale": sorted(listed - gaps)},
        "%s on %s: gaps missing from codegen/exclusions.txt, and entries there "
        "that are no gap here (stale, or tag them with the releases they "
        "apply to)" % (domain, self.release))

  def test_hsa(self):
    mdl = domains.parse_hsa(INCLUDE)
    ids = enum_constants("hsa_api_id.h")
    table_wrappers = defined_functions("hsa_table_wrappers.cc")
    symbol_wrappers = defined_functions("hsa_symbol_wrappers.cc", True)
    exported = exports("libhsa-runtime64.so")
    slots = [(t.name, n) for t in mdl.tables for n in t.slots]
    self.assertEqual({"CoreApiTable", "AmdExtTable", "ImageExtTable",
                      "FinalizerExtTable"}, {t for t, _ in slots})
    for table, name in slots:
      self.assertIn("HSA_API_ID_" + name, ids, (table, name))
      self.assertIn(name + "_wrapper", table_wrappers, (table, name))
    self.assertEqual(len(slots), len({n for _, n in slots}), "slot listed twice")
    model_names = {f.name for f in mdl.functions}
    for name in model_names & exported:
      self.assertIn(name, symbol_wrappers)
    self.assertEqual(set(), symbol_wrappers - exported,
                     "wrapper for a symbol the library does not export")
    gaps = {n for n in exported if n.startswith("hsa_") and n not in model_names}
    gaps |= {s.name for s in mdl.skipped}
    gaps |= model_names - exported
    self.check_gaps("hsa", gaps)
    print("HSA: %d slots, %d table wrappers, %d symbol wrappers, %d exclusions" %
          (len(slots), len([w for w in table_wrappers if w.endswith("_wrapper")]),
           len(symbol_wrappers), len(gaps)))

  def test_hip(self):
    mdl = domains.parse_hip(INCLUDE)
    ids = enum_constants("hip_api_id.h")
    symbol_wrappers = defined_functions("hip_symbol_wrappers.cc", True)
    exported = exports("libamdhip64.so")
    declared = {f.name for f in mdl.functions}
    # C++-linkage APIs (hip_ext.h's launches) are exported mangled.
    symbol = {f.name: f.symbol or f.name for f in mdl.functions}
    covered = {n for n in declared if symbol[n] in exported}
    self.assertGreater(len(covered), 300)
    for name in covered:
      self.assertIn("HIP_API_ID_" + name, ids, name)
      self.assertIn(symbol[name], symbol_wrappers, name)
    for name in ("hipExtModuleLaunchKernel", "hipHccModuleLaunchKernel"):
      self.assertIn(name, covered)
    aliases = {a for f in mdl.functions for a in f.aliases if a in exported}
    self.assertEqual(set(), symbol_wrappers - exported)
    self.assertEqual(aliases, aliases & symbol_wrappers)
    gaps = {n for n in exported
            if (n.startswith("hip") or n.startswith("__hip")) and
            n not in declared and n not in aliases}
    gaps |= {s.name for s in mdl.skipped}
    gaps |= {n for n in declared if symbol[n] not in exported}
    self.check_gaps("hip", gaps)
    print("HIP: %d declared, %d wrapped, %d exclusions" %
          (len(declared), len(symbol_wrappers), len(gaps)))

  def test_kfd(self):
    # Every function hsakmt.h declares has an ID (declaration order, from 0:
    # roctracer's kfdap.py rule); the ones libhsakmt exports have a stub.
    mdl = domains.parse_kfd(INCLUDE)
    ids = enum_constants("kfd_api_id.h")
    declared = [f.name for f in mdl.functions]
    if not declared:
      self.skipTest("this ROCm has no hsakmt.h")
    symbol_wrappers = defined_functions("kfd_symbol_wrappers.cc", True)
    exported = exports("libhsakmt.so")
    self.assertGreater(len(declared), 60)
    for i, name in enumerate(declared):
      self.assertEqual(i, ids.get("KFD_API_ID_" + name), name)
    self.assertEqual(len(declared), ids["KFD_API_ID_NUMBER"])
    for name in set(declared) & exported:
      self.assertIn(name, symbol_wrappers)
    self.assertEqual(set(), symbol_wrappers - exported,
                     "wrapper for a symbol the library does not export")
    gaps = {n for n in exported if n.startswith("hsaKmt") and n not in declared}
    gaps |= {s.name for s in mdl.skipped}
    gaps |= set(declared) - exported
    self.check_gaps("kfd", gaps)
    print("KFD: %d declared, %d wrapped, %d exclusions" %
          (len(declared), len(symbol_wrappers), len(gaps)))

  def test_ids_agree_with_hips_own_list(self):
    # Seeded from hip_prof_str.h: every name HIP numbers must keep its number.
    ours = enum_constants("hip_api_id.h")
    tu = clang_parse.parse(
        os.path.join(INCLUDE, "hip", "hip_runtime_api.h"),
        domains.HIP_ARGS + ["-I", INCLUDE, "-DUSE_PROF_API=1"])
    theirs = {c.spelling: c.enum_value for c in tu.cursor.walk_preorder()
              if c.kind == ci.CursorKind.ENUM_CONSTANT_DECL and
              c.spelling.startswith("HIP_API_ID_") and c.enum_value > 0 and
              not c.spelling.endswith(("_FIRST", "_LAST"))}
    self.assertGreater(len(theirs), 300)
    for name, value in theirs.items():
      if name.startswith("HIP_API_ID_RESERVED_"):
        self.assertEqual(value, ours.get(name), name)
      else:
        self.assertEqual(value, ours.get(name), name)


if __name__ == "__main__":
  unittest.main()
