"""Our generated records have ROCm's layouts and numbers.

HIP: the installed hip/amd_detail/hip_prof_str.h and our generated
hip_api_data.h are compiled (by libclang, in separate translation units) and
their hip_api_data_t compared field by field: every field HIP's has, ours has
at the same offset, with the same size and type, in the same order, and every
HIP_API_ID_* HIP numbers has the same value in ours.
HSA: roctracer's hsa_api_data_t (its generator's rules, as of ROCm 5.2).
"""

import os
import unittest

import clang.cindex as ci

from codegen import clang_parse
from codegen import domains

RUNFILES = os.path.join(os.environ.get("TEST_SRCDIR", ""), "roctracer")
INCLUDE = os.path.join(os.environ.get("TEST_SRCDIR", ""), "rocm", "include")
GEN = os.path.join(RUNFILES, "codegen")
HIP_PROF = os.path.join(INCLUDE, "hip", "amd_detail", "hip_prof_str.h")


def parse(text, extra=()):
  main = os.path.join(GEN, "__layout_test.cc")
  return clang_parse.parse(main, domains.HIP_ARGS + ["-DAMD_INTERNAL_BUILD",
                                                     "-I", INCLUDE, "-I", GEN]
                           + list(extra), unsaved_text=text)


def record(tu, name):
  for c in tu.cursor.walk_preorder():
    if c.kind == ci.CursorKind.STRUCT_DECL and c.spelling == name and c.is_definition():
      return c
  raise AssertionError("%s not defined" % name)


def fields(decl):
  return [f for f in decl.get_children() if f.kind == ci.CursorKind.FIELD_DECL]


def layout(tu, struct):
  """{member: [(field, byte offset in the record, size, canonical type)]},
  the members in union order, and the top-level fields' offsets."""
  top = record(tu, struct)
  top_type = top.type
  offsets = {f.spelling: top_type.get_offset(f.spelling) // 8 for f in fields(top)}
  args = next(f for f in fields(top) if f.spelling == "args")
  members = {}
  for member in fields(args.type.get_canonical().get_declaration()):
    t = member.type.get_canonical()
    members[member.spelling] = [
        (f.spelling, offsets["args"] + t.get_offset(f.spelling) // 8,
         f.type.get_size(), f.type.get_canonical().spelling)
        for f in fields(t.get_declaration())]
  return offsets, members


def enum(tu, name):
  for c in tu.cursor.walk_preorder():
    if c.kind == ci.CursorKind.ENUM_DECL and c.spelling == name and c.is_definition():
      return {e.spelling: e.enum_value for e in c.get_children()}
  raise AssertionError("enum %s not defined" % name)


@unittest.skipUnless(os.path.exists(HIP_PROF), "this HIP ships no hip_prof_str.h")
class HipLayoutTest(unittest.TestCase):

  @classmethod
  def setUpClass(cls):
    cls.hip = parse("#include <hip/hip_runtime_api.h>\n"
                    "#include <hip/amd_detail/hip_prof_str.h>\n")
    cls.ours = parse("#include <hip_api_data.h>\n")

  def test_every_field_of_hips_record_is_ours_at_the_same_offset(self):
    hip_top, hip = layout(self.hip, "hip_api_data_s")
    our_top, ours = layout(self.ours, "hip_api_data_s")
    for name in ("correlation_id", "phase", "args"):
      self.assertEqual(hip_top[name], our_top[name], name)
    self.assertEqual(16, our_top["args"])
    # Our extensions come after HIP's record; phase_data where HIP >= 6 has
    # it, right after `args`.
    self.assertGreater(our_top["phase_data"], our_top["args"])
    if "phase_data" in hip_top:
      self.assertEqual(hip_top["phase_data"], our_top["phase_data"])
    retval = record(self.ours, "hip_api_data_s").type.get_offset("hipError_t_retval")
    self.assertGreater(retval // 8, our_top["args"])
    self.assertGreater(len(hip), 300)
    vals = 0
    for member, hip_fields in hip.items():
      self.assertIn(member, ours)
      self.assertEqual(hip_fields, ours[member], member)
      vals += sum(1 for f in hip_fields if f[0].endswith("__val"))
    self.assertGreater(vals, 250)
    # HIP's members first, in HIP's order; ours for the APIs it lacks after.
    self.assertEqual(list(hip), list(ours)[:len(hip)])

  def test_every_hip_api_id_is_ours(self):
    hip = enum(self.hip, "hip_api_id_t")
    ours = enum(self.ours, "hip_api_id_t")
    checked = 0
    for name, value in hip.items():
      if name in ("HIP_API_ID_LAST", "HIP_API_ID_NUMBER", "HIP_API_ID_ANY"):
        continue
      if value == 0 and name != "HIP_API_ID_NONE":
        continue  # left unnumbered by HIP: ours follow its last ID
      self.assertEqual(value, ours.get(name), name)
      checked += 1
    self.assertGreater(checked, 300)
    unnumbered = sorted(n for n, v in ours.items()
                        if v > hip["HIP_API_ID_LAST"] and
                        n not in ("HIP_API_ID_LAST", "HIP_API_ID_NUMBER",
                                  "HIP_API_ID_ANY"))
    by_id = sorted(unnumbered, key=lambda n: ours[n])
    self.assertEqual(by_id, sorted(unnumbered, key=lambda n: n.encode()))
    self.assertEqual(hip["HIP_API_ID_LAST"] + 1, ours[by_id[0]])


class HsaLayoutTest(unittest.TestCase):

  @classmethod
  def setUpClass(cls):
    cls.ours = parse("#include <hsa_api_data.h>\n")

  def test_roctracer_layout(self):
    top, members = layout(self.ours, "hsa_api_data_s")
    # correlation_id, phase, the retval union, then args.
    retval = record(self.ours, "hsa_api_data_s").type.get_offset("hsa_status_t_retval")
    self.assertEqual(16, retval // 8)
    self.assertEqual(24, top["args"])
    self.assertEqual([], members["hsa_init"])  # empty member, as roctracer's
    self.assertEqual(
        ["dst", "dst_offset", "src", "src_offset", "range", "range__val",
         "copy_agent", "dir", "num_dep_signals", "dep_signals",
         "completion_signal"],
        [f[0] for f in members["hsa_amd_memory_async_copy_rect"]])

  def test_ids_follow_table_order(self):
    # roctracer numbers CoreApiTable, AmdExtTable, ImageExtTable slot by slot
    # from 0; the finalizer table, which it does not number, follows.
    ids = enum(self.ours, "hsa_api_id_t")
    tables = {t.name: t.slots for t in domains.parse_hsa(INCLUDE).tables}
    order = [n for t in ("CoreApiTable", "AmdExtTable", "ImageExtTable",
                         "FinalizerExtTable") for n in tables[t]]
    self.assertEqual(0, ids["HSA_API_ID_hsa_init"])
    self.assertEqual(list(range(len(order))),
                     [ids["HSA_API_ID_" + n] for n in order])


if __name__ == "__main__":
  unittest.main()
