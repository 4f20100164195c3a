"""runtime/'s folders are its layers. Each folder's README says, in a paragraph
starting "May use:", which other folders its files may include and its
libraries may depend on. This test holds the sources, the BUILD files and
those READMEs to one picture: every `#include "runtime/..."` and every
`//runtime` dependency stays inside its folder or goes to a folder the
README allows, every library's files are in one folder, a library depends
directly on the library of every header it includes, and the allowances
form no cycle.

The units around runtime/ (the SDK front end, roctrace's three folders,
softhsa, rocTX) are held to the same rule by OuterUnitsTest: their READMEs
name what they may use by path (`runtime/private`, `roctrace/writers`), and
nothing in runtime/ uses them."""

import os
import re
import unittest

RUNFILES = os.path.join(os.environ.get("TEST_SRCDIR", ""), "roctracer")
RUNTIME = os.path.join(RUNFILES, "runtime")
FOLDERS = sorted(d for d in os.listdir(RUNTIME)
                 if os.path.isdir(os.path.join(RUNTIME, d)))
SOURCE = re.compile(r"\.(cc|h|S)$")
# The build units outside runtime/, each a folder with its own README.
OUTER_UNITS = [
    "roctrace/cli", "roctrace/tool", "roctrace/writers", "roctx", "sdk",
    "softhsa"
]
OUTER_INCLUDE = re.compile(
    r'^\s*#\s*include\s+"((?:roctrace|roctx|sdk|softhsa|runtime)/[^"]+)"',
    re.M)
INCLUDE = re.compile(r'^\s*#\s*include\s+"runtime/([^"]+)"', re.M)


def sources(folder):
  """(file name, text) of each source file of a folder of the repository."""
  for name in sorted(os.listdir(os.path.join(RUNFILES, folder))):
    if SOURCE.search(name):
      with open(os.path.join(RUNFILES, folder, name)) as f:
        yield name, f.read()


def may_use_names(readme):
  """The `quoted` names of a README's "May use:" paragraph."""
  with open(os.path.join(RUNFILES, readme)) as f:
    text = f.read()
  found = re.search(r"^May use:(.*?)(?:\n\s*\n|\Z)", text, re.M | re.S)
  if found is None:
    raise AssertionError(f"{readme} has no 'May use:' line")
  return set(re.findall(r"`([\w/-]+?)/?`", found.group(1)))


def may_use(folder):
  """The folders runtime/<folder>/README.md's "May use:" line names."""
  return may_use_names(f"runtime/{folder}/README.md") & set(FOLDERS)


class Library:

  def __init__(self, package, name, files, deps, actual=None):
    self.label = f"//{package}:{name}"
    self.files = files  # paths relative to runtime/
    self.deps = deps  # absolute labels
    self.actual = actual


def absolute(package, label):
  if label.startswith(":"):
    return f"//{package}{label}"
  if label.startswith("//") and ":" not in label:
    return f"{label}:{label.rsplit('/', 1)[-1]}"
  return label


def read_build(package):
  """The cc_library and alias rules of a BUILD file, evaluated as Python
  (the runtime's BUILD files are plain Starlark lists and calls)."""
  libraries = []
  prefix = package[len("runtime"):].lstrip("/")

  def cc_library(name, srcs=(), hdrs=(), textual_hdrs=(), deps=(), **_):
    files = [os.path.join(prefix, f) for f in [*srcs, *hdrs, *textual_hdrs]]
    libraries.append(
        Library(package, name, files, [absolute(package, d) for d in deps]))

  def alias(name, actual, **_):
    libraries.append(
        Library(package, name, [], [], actual=absolute(package, actual)))

  scope = {
      "cc_library": cc_library,
      "alias": alias,
      "package": lambda **_: None,
      "exports_files": lambda *a, **_: None,
      "filegroup": lambda **_: None,
      "glob": lambda *a, **_: [],
  }
  with open(os.path.join(RUNFILES, package, "BUILD.bazel")) as f:
    exec(compile(f.read(), package + "/BUILD.bazel", "exec"), scope)
  return libraries


def libraries():
  packages = ["runtime"] + [
      "runtime/" + d for d in FOLDERS
      if os.path.exists(os.path.join(RUNTIME, d, "BUILD.bazel"))
  ]
  return {lib.label: lib for p in packages for lib in read_build(p)}


def folder_of_library(lib, all_libs):
  while lib.actual is not None:
    lib = all_libs[lib.actual]
  folders = {f.split("/")[0] for f in lib.files}
  if not folders:  # a library of libraries: its name is its folder
    name = lib.label.rsplit(":", 1)[1]
    return name if name in FOLDERS else None
  assert len(folders) == 1, f"{lib.label} spans folders {sorted(folders)}"
  return folders.pop()


def first_cycle(allowed):
  """A cycle of the "may use" graph as "a -> b -> a", or None. Names that
  have no entry of their own (runtime's folders seen from outside) end a
  path."""
  state = {}

  def visit(unit, path):
    if unit not in allowed or state.get(unit) == "done":
      return None
    if state.get(unit) == "open":
      return " -> ".join(path + [unit])
    state[unit] = "open"
    for used in sorted(allowed[unit]):
      cycle = visit(used, path + [unit])
      if cycle is not None:
        return cycle
    state[unit] = "done"
    return None

  for unit in sorted(allowed):
    cycle = visit(unit, [])
    if cycle is not None:
      return cycle
  return None


class LayeringTest(unittest.TestCase):

  @classmethod
  def setUpClass(cls):
    cls.allowed = {f: may_use(f) for f in FOLDERS}
    cls.libs = libraries()

  def provided(self, label):
    """The files a dependency on `label` gives: an alias its target's, a
    library of libraries those of its dependencies."""
    lib = self.libs.get(label)
    if lib is None:
      return set()
    if lib.actual is not None:
      return self.provided(lib.actual)
    if lib.files:
      return set(lib.files)
    return set().union(*(self.provided(d) for d in lib.deps))

  def test_every_folder_has_a_may_use_line(self):
    self.assertGreater(len(FOLDERS), 5)
    for folder in FOLDERS:
      self.assertIsInstance(self.allowed[folder], set)

  def test_allowances_form_no_cycle(self):
    self.assertIsNone(first_cycle(self.allowed))

  def test_includes_stay_in_the_allowed_folders(self):
    wrong = []
    for folder in FOLDERS:
      for name, text in sources(f"runtime/{folder}"):
        for included in INCLUDE.findall(text):
          target = included.split("/")[0]
          if target != folder and target not in self.allowed[folder]:
            wrong.append(f"runtime/{folder}/{name} includes "
                         f"runtime/{included}")
    self.assertEqual(wrong, [])

  def test_every_library_is_in_one_folder(self):
    for lib in self.libs.values():
      self.assertIsNotNone(
          folder_of_library(lib, self.libs),
          f"{lib.label}: no files and not named after a folder")

  def test_every_folder_is_a_library_named_after_it(self):
    named = {l.label.rsplit(":", 1)[1] for l in self.libs.values()}
    self.assertEqual([f for f in FOLDERS if f not in named], [])

  def test_dependencies_stay_in_the_allowed_folders(self):
    wrong = []
    for lib in self.libs.values():
      folder = folder_of_library(lib, self.libs)
      for dep in lib.deps:
        if not dep.startswith("//runtime"):
          continue
        target = folder_of_library(self.libs[dep], self.libs)
        if target != folder and target not in self.allowed[folder]:
          wrong.append(f"{lib.label} ({folder}/) depends on {dep} ({target}/)")
    self.assertEqual(wrong, [])

  def test_every_source_is_in_a_library(self):
    listed = {f for lib in self.libs.values() for f in lib.files}
    missing = []
    for folder in FOLDERS:
      for name, _ in sources(f"runtime/{folder}"):
        if f"{folder}/{name}" not in listed:
          missing.append(f"runtime/{folder}/{name}")
    self.assertEqual(missing, [])

  def test_a_library_depends_on_the_library_of_each_header_it_includes(self):
    owner = {}
    for lib in self.libs.values():
      for f in lib.files:
        if f.endswith(".h"):
          owner.setdefault(f, lib.label)
    wrong = []
    for lib in self.libs.values():
      provided = set()
      for dep in lib.deps:
        provided |= self.provided(dep)
      own_headers = {f for f in lib.files if f.endswith(".h")}
      for f in lib.files:
        with open(os.path.join(RUNTIME, f)) as src:
          for included in INCLUDE.findall(src.read()):
            if included in own_headers or included not in owner:
              continue
            if included not in provided:
              wrong.append(f"{lib.label}: runtime/{f} includes "
                           f"runtime/{included} ({owner[included]}) "
                           "without depending on it")
    self.assertEqual(wrong, [])


def read_outer_build(package):
  """cc_library and cc_binary rules of a BUILD file outside runtime/, as
  (name, files relative to the repository, absolute deps); other rules are
  read and ignored."""
  rules = []

  def rule(name, srcs=(), hdrs=(), textual_hdrs=(), deps=(), **_):
    files = [f"{package}/{f}" for f in [*srcs, *hdrs, *textual_hdrs]]
    rules.append((f"//{package}:{name}", files,
                  [absolute(package, d) for d in deps]))

  ignore = lambda *a, **_: None
  scope = {
      "cc_library": rule,
      "cc_binary": rule,
      "cc_test": ignore,
      "py_test": ignore,
      "py_binary": ignore,
      "sh_test": ignore,
      "genrule": ignore,
      "alias": ignore,
      "package": ignore,
      "exports_files": ignore,
      "filegroup": ignore,
      "load": ignore,
      "layering_files": ignore,
      "glob": lambda *a, **_: [],
      "select": lambda d, **_: next(iter(d.values())),
  }
  with open(os.path.join(RUNFILES, package, "BUILD.bazel")) as f:
    exec(compile(f.read(), package + "/BUILD.bazel", "exec"), scope)
  return rules


def outer_unit_of(path):
  """The outer unit a repository path lies in, or None."""
  for unit in OUTER_UNITS:
    if path.startswith(unit + "/"):
      return unit
  return None


class OuterUnitsTest(unittest.TestCase):
  maxDiff = None

  @classmethod
  def setUpClass(cls):
    cls.allowed = {u: may_use_names(f"{u}/README.md") for u in OUTER_UNITS}
    cls.runtime_libs = libraries()

  def unit_of_included(self, included):
    """`runtime/<folder>` for a runtime header, else the outer unit."""
    if included.startswith("runtime/"):
      return "/".join(included.split("/")[:2])
    return outer_unit_of(included)

  def unit_of_dep(self, label):
    if label.startswith("//runtime"):
      lib = self.runtime_libs.get(label)
      if lib is None:
        return None
      folder = folder_of_library(lib, self.runtime_libs)
      return f"runtime/{folder}" if folder else None
    package, name = label[2:].split(":")
    for rule, files, _ in read_outer_build(package):
      if rule == label:
        units = {outer_unit_of(f) for f in files} - {None}
        return units.pop() if len(units) == 1 else None
    return None

  def test_readmes_name_only_units_that_exist(self):
    known = set(OUTER_UNITS) | {f"runtime/{f}" for f in FOLDERS}
    for unit, allowed in self.allowed.items():
      self.assertEqual(sorted(allowed - known), [], f"{unit}/README.md")

  def test_includes_stay_in_the_allowed_units(self):
    wrong = []
    for unit in OUTER_UNITS:
      for name, text in sources(unit):
        for included in OUTER_INCLUDE.findall(text):
          target = self.unit_of_included(included)
          if target not in (unit, None) and target not in self.allowed[unit]:
            wrong.append(f"{unit}/{name} includes {included}")
    self.assertEqual(wrong, [])

  def test_dependencies_stay_in_the_allowed_units(self):
    wrong = []
    packages = sorted({u.split("/")[0] for u in OUTER_UNITS})
    for package in packages:
      for label, files, deps in read_outer_build(package):
        units = {outer_unit_of(f) for f in files}
        if len(units) != 1 or None in units:
          continue  # test programs and benchmarks may use anything
        unit = units.pop()
        for dep in deps:
          if not dep.startswith(("//runtime", "//roctrace", "//roctx",
                                 "//sdk", "//softhsa")):
            continue
          target = self.unit_of_dep(dep)
          if target not in (unit, None) and target not in self.allowed[unit]:
            wrong.append(f"{label} ({unit}/) depends on {dep} ({target}/)")
    self.assertEqual(wrong, [])

  def test_every_unit_source_is_in_a_rule(self):
    missing = []
    for unit in OUTER_UNITS:
      listed = {
          f for _, files, _ in read_outer_build(unit.split("/")[0])
          for f in files
      }
      for name, _ in sources(unit):
        if f"{unit}/{name}" not in listed:
          missing.append(f"{unit}/{name}")
    self.assertEqual(missing, [])

  def test_runtime_uses_no_outer_unit(self):
    wrong = []
    for folder in FOLDERS:
      for name, text in sources(f"runtime/{folder}"):
        for included in OUTER_INCLUDE.findall(text):
          if outer_unit_of(included) is not None:
            wrong.append(f"runtime/{folder}/{name} includes {included}")
    self.assertEqual(wrong, [])

  def test_allowances_form_no_cycle(self):
    self.assertIsNone(first_cycle(self.allowed))


if __name__ == "__main__":
  unittest.main()
