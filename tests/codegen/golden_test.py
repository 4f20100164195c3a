"""Golden pairs: tests/codegen/golden/<construct>.h -> <construct>.json.

Each JSON holds the parsed model and what the generator derives from it (the
stub signature, the stored argument members, the printer's dereference
limits). Regenerate after an intended change with
  UPDATE_GOLDEN=1 bazel run //tests/codegen:golden_test
and review the diff.
"""

import glob
import json
import os
import sys
import unittest

from codegen import domains
from codegen import model
from codegen import naming

HERE = os.path.dirname(os.path.abspath(__file__))
GOLDEN_DIR = os.path.join(HERE, "golden")
ARGS = ["-x", "c++", "-std=c++17"]


def derive(mdl: model.Model) -> dict:
  out = {}
  for f in mdl.functions:
    out[f.name] = {
        "signature": "%s %s(%s)" % (f.return_type.spelling, f.name,
                                    naming.param_list(f)),
        "members": [naming.member_decl(p) for p in f.params],
        "retval": None if naming.is_void(f.return_type) else naming.retval_member(f.return_type),
        "deref_limit_enter": [naming.deref_limit(p.type, True, p.out) for p in f.params],
        "deref_limit_exit": [naming.deref_limit(p.type, False, p.out) for p in f.params],
    }
  return out


def golden_json(header: str) -> str:
  mdl = domains.parse_header(header, ARGS)
  doc = {"model": json.loads(model.to_json(mdl)), "derived": derive(mdl)}
  return json.dumps(doc, indent=1, sort_keys=True) + "\n"


class GoldenTest(unittest.TestCase):

  def test_every_construct_matches_its_golden(self):
    headers = sorted(glob.glob(os.path.join(GOLDEN_DIR, "*.h")))
    self.assertGreaterEqual(len(headers), 10)
    update = os.environ.get("UPDATE_GOLDEN") == "1"
    src_dir = os.path.join(os.environ.get("BUILD_WORKSPACE_DIRECTORY", ""),
                           "tests", "codegen", "golden")
    for h in headers:
      name = os.path.splitext(os.path.basename(h))[0]
      with self.subTest(construct=name):
        actual = golden_json(h)
        # The header path differs between checkouts: keep only its name.
        if update:
          with open(os.path.join(src_dir, name + ".json"), "w") as f:
            f.write(actual)
          continue
        with open(os.path.join(GOLDEN_DIR, name + ".json")) as f:
          expected = f.read()
        self.assertEqual(expected, actual, "golden mismatch for %s" % name)


class ConstructFactsTest(unittest.TestCase):
  """The facts each golden pair exists for, stated directly."""

  def parse(self, name):
    return domains.parse_header(os.path.join(GOLDEN_DIR, name + ".h"), ARGS)

  def test_function_pointer_params(self):
    m = self.parse("function_pointer")
    cb = m.function("iterate_agents").params[0]
    self.assertTrue(cb.type.function_pointer)
    self.assertEqual(1, cb.type.pointer_depth)
    self.assertEqual("int (*callback)(agent_t, void *)", naming.param_decl(cb))
    typed = m.function("iterate_agents_typed").params[0]
    self.assertTrue(typed.type.function_pointer)
    self.assertEqual("agent_visitor_t", typed.type.spelling)
    self.assertEqual(0, naming.deref_limit(cb.type, False, cb.out))

  def test_struct_by_value(self):
    m = self.parse("struct_by_value")
    launch = m.function("queue_submit").params[1]
    self.assertEqual("record", launch.type.kind)
    self.assertEqual(0, launch.type.pointer_depth)
    fields = {f.name: f for f in m.structs[launch.type.record].fields}
    self.assertEqual(["grid", "block", "name", "flags"], list(fields))
    self.assertTrue(fields["flags"].bitfield)
    self.assertEqual(8, fields["name"].type.array_size)
    self.assertIn(fields["grid"].type.record, m.structs)  # nested struct known

  def test_void_return(self):
    f = self.parse("void_return").function("shut_down")
    self.assertEqual("void", f.return_type.kind)
    self.assertEqual([], f.params)

  def test_const_char(self):
    m = self.parse("const_char")
    path = m.function("module_load").params[0]
    self.assertTrue(path.type.is_string)
    self.assertFalse(path.out)
    self.assertEqual(1, naming.deref_limit(path.type, True, path.out))
    name = m.function("device_name").params[0]
    self.assertFalse(name.type.is_string)
    self.assertEqual(0, naming.deref_limit(name.type, False, name.out))
    self.assertEqual("const_char_ptr_retval",
                     naming.retval_member(m.function("status_string").return_type))

  def test_pointer_to_pointer(self):
    m = self.parse("pointer_to_pointer")
    ptr = m.function("mem_alloc").params[0]
    self.assertEqual(2, ptr.type.pointer_depth)
    self.assertTrue(ptr.out)
    self.assertEqual(0, naming.deref_limit(ptr.type, True, ptr.out))
    self.assertEqual(1, naming.deref_limit(ptr.type, False, ptr.out))  # void* stops
    agents = m.function("list_agents").params[0]
    self.assertEqual(2, naming.deref_limit(agents.type, False, agents.out))

  def test_out_params(self):
    m = self.parse("out_params")
    self.assertTrue(m.function("get_count").params[0].out)
    self.assertTrue(m.function("get_props").params[0].out)
    self.assertFalse(m.function("set_props").params[0].out)
    self.assertFalse(m.function("stream_sync").params[0].out)  # opaque handle
    self.assertTrue(m.function("stream_create").params[0].out)

  def test_default_args_behind_macro(self):
    m = self.parse("default_args")
    f = m.function("memcpy_async")
    self.assertEqual([False, False, False, True, True],
                     [p.has_default for p in f.params])
    self.assertEqual(["dst", "src", "n", "stream", "flags"], [p.name for p in f.params])
    self.assertEqual("stream_t", f.params[3].type.spelling)
    fill = m.function("fill")
    self.assertEqual([False, True], [p.has_default for p in fill.params])

  def test_deprecated(self):
    m = self.parse("deprecated")
    self.assertTrue(m.function("ctx_get").deprecated)
    self.assertFalse(m.function("ctx_current").deprecated)

  def test_anonymous_typedefs(self):
    m = self.parse("anonymous_typedefs")
    f = m.function("make_extent")
    self.assertEqual("extent_t", f.params[0].type.record)
    self.assertEqual("enum", f.params[1].type.kind)
    self.assertEqual("mode_t_", f.params[1].type.spelling)
    self.assertIn("extent_t", m.structs)
    self.assertEqual([["MODE_A", 0], ["MODE_B", 7]], m.enums["mode_t_"].constants)

  def test_cxx_constructs_are_skipped_with_reason(self):
    m = self.parse("cxx_skips")
    self.assertEqual(["plain"], [f.name for f in m.functions])
    reasons = {(s.name, s.reason.split(":")[0]) for s in m.skipped}
    self.assertEqual({
        ("plain_typed", "C++ template"),
        ("plain", "static (inline) function"),
        ("mangled_only", "C++ linkage"),
        ("in_namespace", "C++ linkage"),
        ("variadic", "variadic"),
    }, reasons)


if __name__ == "__main__":
  unittest.main()
