"""IDs follow the headers of the release built against (codegen/numbering.py),
and renamed APIs keep their older exported names wrapped."""

import os
import tempfile
import unittest

from codegen import domains
from codegen import generate
from codegen import model as m
from codegen import numbering
from codegen import render

HERE = os.path.dirname(os.path.abspath(__file__))
TEMPLATES = os.path.join(HERE, "..", "..", "templates")
ARGS = ["-x", "c++", "-std=c++17"]


def parse(version):
  return domains.parse_header(os.path.join(HERE, "version", version, "api.h"),
                              ARGS, domain="hip")


def ids(entries):
  return {e.name: (e.id, e.reserved) for e in entries}


class NumberingTest(unittest.TestCase):

  def setUp(self):
    self.v1, self.v2 = parse("v1"), parse("v2")

  def test_without_a_record_apis_are_numbered_by_name_from_the_first_id(self):
    self.assertEqual({"a_init": (1, False), "b_open": (2, False),
                      "c_read": (3, False), "d_close": (4, False),
                      "e_legacy": (5, False)}, ids(numbering.hip(self.v1)))

  def test_the_records_numbers_win_and_the_rest_follow_its_last_by_name(self):
    self.v2.abi_ids = {"g_newer": 1, "RESERVED_2": 2, "c_read": 3, "gone": 4}
    self.v2.abi_last = 6
    got = ids(numbering.hip(self.v2))
    self.assertEqual((1, False), got["g_newer"])
    self.assertEqual((2, True), got["RESERVED_2"])
    self.assertEqual((3, False), got["c_read"])
    self.assertEqual((4, True), got["gone"])  # numbered, not declared: not traced
    # Unnumbered: after HIP_API_ID_LAST (6), in byte order of their names.
    self.assertEqual((7, False), got["a_init"])
    self.assertEqual((8, False), got["b_open"])
    self.assertEqual((9, False), got["d_close"])
    self.assertEqual((10, False), got["f_new"])

  def test_a_release_that_renumbers_renumbers_ours(self):
    self.v1.abi_ids, self.v1.abi_last = {"a_init": 1, "b_open": 2}, 2
    self.v2.abi_ids, self.v2.abi_last = {"b_open": 1, "a_init": 2}, 2
    self.assertEqual((1, False), ids(numbering.hip(self.v1))["a_init"])
    self.assertEqual((2, False), ids(numbering.hip(self.v2))["a_init"])

  def test_rendered_header_marks_numbered_but_untraced(self):
    self.v2.abi_ids, self.v2.abi_last = {"gone": 1, "RESERVED_2": 2}, 2
    plan = generate.plan_domain("hip", self.v2, None, "test")
    id_header = render.render(render.environment(TEMPLATES), plan)["hip_api_id.h"]
    self.assertIn("HIP_API_ID_gone = 1, /* numbered by the headers; not traced", id_header)
    self.assertIn("HIP_API_ID_RESERVED_2 = 2,", id_header)
    self.assertIn("HIP_API_ID_a_init = 3,", id_header)
    self.assertIn("HIP_API_ID_NUMBER = 9,", id_header)

  def test_hsa_numbering_is_table_order_roctracer_tables_first(self):
    mdl = m.Model(domain="hsa", functions=[], tables=[
        m.Table("FinalizerExtTable", "finalizer_ext_", ["fin"]),
        m.Table("CoreApiTable", "core_", ["init", "shut_down"]),
        m.Table("ImageExtTable", "image_ext_", ["img"]),
        m.Table("AmdExtTable", "amd_ext_", ["amd"])])
    self.assertEqual({"init": (0, False), "shut_down": (1, False),
                      "amd": (2, False), "img": (3, False), "fin": (4, False)},
                     ids(numbering.hsa(mdl)))


class RenameTest(unittest.TestCase):
  """A fake release with HIP 6-style renames and its dynamic symbol table."""

  def setUp(self):
    header = os.path.join(HERE, "renames", "api.h")
    self.mdl = domains.parse_header(header, ARGS, domain="hip")
    exports_txt = os.path.join(HERE, "renames", "exports.txt")
    plan = generate.plan_domain(
        "hip", self.mdl, generate.read_exports(exports_txt), "test",
        generate.read_export_versions(exports_txt))
    self.files = render.render(render.environment(TEMPLATES), plan)

  def test_renames_are_read_from_the_header(self):
    self.assertEqual(["getProps"], self.mdl.function("getPropsR0600").aliases)
    self.assertEqual(["launch"], self.mdl.function("launchR0600").aliases)
    self.assertEqual([], self.mdl.function("getCount").aliases)

  def test_exported_old_names_are_wrapped_under_their_own_version(self):
    wrappers = self.files["hip_symbol_wrappers.cc"]
    self.assertIn("int getPropsR0600(prop_t *props, int device)\n"
                  "    __attribute__((alias(\"roctracer_stub_getPropsR0600\")));",
                  wrappers)
    # The old name: same ID, traced without __val copies of newer structs;
    # exported through an asm label, since the header #defines it to the new.
    self.assertIn("int roctracer_alias_getProps(prop_t *props, int device) "
                  "__asm__(\"getProps\");", wrappers)
    self.assertIn('"getProps"', wrappers)
    self.assertIn("getPropsR0600_traced_getProps(", wrappers)
    # `launch` is not exported: nothing to wrap.
    self.assertNotIn("int launch(", wrappers)
    self.assertNotIn('__asm__("launch")', wrappers)
    versions = self.files["hip_symbol_versions.map"]
    self.assertIn("hip_4.2 {\n  global:\n    getCount;\n    getProps;\n", versions)
    self.assertIn("hip_6.0 {\n  global:\n    getPropsR0600;\n    launchR0600;\n",
                  versions)


if __name__ == "__main__":
  unittest.main()
