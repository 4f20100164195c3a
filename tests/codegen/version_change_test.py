"""IDs survive header changes: APIs added, removed, reordered, retyped."""

import contextlib
import io
import os
import tempfile
import unittest

from codegen import domains
from codegen import generate
from codegen import registry
from codegen import render
from codegen import update_registries

HERE = os.path.dirname(os.path.abspath(__file__))
TEMPLATES = os.path.join(HERE, "..", "..", "templates")
ARGS = ["-x", "c++", "-std=c++17"]


def parse(version):
  return domains.parse_header(os.path.join(HERE, "version", version, "api.h"),
                              ARGS, domain="hip")


def ids(entries):
  return {e.name: (e.id, e.reserved) for e in entries}


class VersionChangeTest(unittest.TestCase):

  def setUp(self):
    self.v1, self.v2 = parse("v1"), parse("v2")
    self.seed = registry.merge([], [f.name for f in self.v1.functions], 1).entries

  def test_seed_numbers_in_declaration_order_from_first_id(self):
    self.assertEqual({"a_init": (1, False), "b_open": (2, False),
                      "c_read": (3, False), "d_close": (4, False),
                      "e_legacy": (5, False)}, ids(self.seed))

  def test_upgrade_keeps_ids_reserves_removed_appends_new(self):
    r = registry.merge(self.seed, [f.name for f in self.v2.functions], 1)
    got = ids(r.entries)
    for name in ("a_init", "b_open", "c_read", "d_close"):
      self.assertEqual(ids(self.seed)[name], got[name], name)  # reordered, retyped
    self.assertEqual((5, True), got["e_legacy"])
    # New APIs take the next free IDs, in the new header's order.
    self.assertEqual((6, False), got["f_new"])
    self.assertEqual((7, False), got["g_newer"])
    self.assertEqual(["f_new", "g_newer"], [e.name for e in r.added])
    self.assertEqual(["e_legacy"], [e.name for e in r.reserved])
    # The parameter type change is visible in the model, not in the ID.
    self.assertEqual("long", self.v2.function("d_close").params[0].type.spelling)

  def test_downgrade_revives_and_never_reuses(self):
    up = registry.merge(self.seed, [f.name for f in self.v2.functions], 1)
    down = registry.merge(up.entries, [f.name for f in self.v1.functions], 1)
    got = ids(down.entries)
    self.assertEqual((5, False), got["e_legacy"])
    self.assertEqual((6, True), got["f_new"])
    self.assertEqual((7, True), got["g_newer"])
    self.assertEqual(["e_legacy"], [e.name for e in down.revived])
    again = registry.merge(down.entries, ["h_later"], 1)
    self.assertEqual((8, False), ids(again.entries)["h_later"])

  def test_registry_text_round_trips(self):
    r = registry.merge(self.seed, [f.name for f in self.v2.functions], 1)
    text = registry.dump(r.entries, "hip")
    self.assertIn("\n5 e_legacy reserved\n", text)
    self.assertIn("\n7 g_newer\n", text)
    self.assertEqual(ids(r.entries), ids(registry.parse(text)))

  def test_registry_rejects_duplicates_and_garbage(self):
    with self.assertRaises(registry.RegistryError):
      registry.parse("1 a\n1 b\n")
    with self.assertRaises(registry.RegistryError):
      registry.parse("1 a\n2 a\n")
    with self.assertRaises(registry.RegistryError):
      registry.parse("x a\n")
    with self.assertRaises(registry.RegistryError):
      registry.parse("1 a retired\n")

  def test_update_registries_rewrites_the_file(self):
    with tempfile.TemporaryDirectory() as d:
      path = os.path.join(d, "hip_api.txt")
      with open(path, "w") as f:
        f.write(registry.dump(self.seed, "hip"))
      saved = dict(domains.PARSERS)
      try:
        domains.PARSERS["hip"] = lambda _include_dir: self.v2
        r = update_registries.update("hip", "/nonexistent", path, seed=False)
      finally:
        domains.PARSERS.clear()
        domains.PARSERS.update(saved)
      self.assertEqual(["f_new", "g_newer"], [e.name for e in r.added])
      on_disk = registry.load(path)
      self.assertEqual(ids(r.entries), ids(on_disk))
      self.assertEqual((5, True), ids(on_disk)["e_legacy"])

  def test_build_with_stale_registry_appends_and_says_so(self):
    with tempfile.TemporaryDirectory() as d:
      path = os.path.join(d, "hip_api.txt")
      with open(path, "w") as f:
        f.write(registry.dump(self.seed, "hip"))
      err = io.StringIO()
      with contextlib.redirect_stderr(err):
        plan = generate.plan_domain("hip", self.v2, path, None, "test")
      self.assertIn("f_new is not in", err.getvalue())
      self.assertIn("g_newer is not in", err.getvalue())
      env = render.environment(TEMPLATES)
      id_header = render.render(env, plan)["hip_api_id.h"]
      self.assertIn("HIP_API_ID_f_new = 6, /* not yet in the registry", id_header)
      self.assertIn("HIP_API_ID_RESERVED_5 = 5,", id_header)
      self.assertIn("HIP_API_ID_NUMBER = 8,", id_header)
      # The committed registry itself is untouched by a build.
      self.assertEqual(ids(self.seed), ids(registry.load(path)))


if __name__ == "__main__":
  unittest.main()
