"""runtime/'s folders are its layers. Each folder's README says, in a paragraph
starting "May use:", which other folders its files may include and its
libraries may depend on. This test holds the sources, the BUILD files and
those READMEs to one picture: every `#include "runtime/..."` and every
`//runtime` dependency stays inside its folder or goes to a folder the
README allows, every library's files are in one folder, a library depends
directly on the library of every header it includes, and the allowances
form no cycle."""

import os
import re
import unittest

RUNFILES = os.path.join(os.environ.get("TEST_SRCDIR", ""), "roctracer")
RUNTIME = os.path.join(RUNFILES, "runtime")
FOLDERS = sorted(d for d in os.listdir(RUNTIME)
                 if os.path.isdir(os.path.join(RUNTIME, d)))
SOURCE = re.compile(r"\.(cc|h|S)$")
INCLUDE = re.compile(r'^\s*#\s*include\s+"runtime/([^"]+)"', re.M)


def may_use(folder):
  """The folders runtime/<folder>/README.md's "May use:" line names."""
  with open(os.path.join(RUNTIME, folder, "README.md")) as f:
    text = f.read()
  found = re.search(r"^May use:(.*?)(?:\n\s*\n|\Z)", text, re.M | re.S)
  if found is None:
    raise AssertionError(f"runtime/{folder}/README.md has no 'May use:' line")
  return {w for w in re.findall(r"`(\w+)/?`", found.group(1)) if w in FOLDERS}


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
    state = {}

    def visit(folder, path):
      if state.get(folder) == "done":
        return
      self.assertNotEqual(state.get(folder), "open",
                          "cycle: " + " -> ".join(path + [folder]))
      state[folder] = "open"
      for used in sorted(self.allowed[folder]):
        visit(used, path + [folder])
      state[folder] = "done"

    for folder in FOLDERS:
      visit(folder, [])

  def test_includes_stay_in_the_allowed_folders(self):
    wrong = []
    for folder in FOLDERS:
      for name in sorted(os.listdir(os.path.join(RUNTIME, folder))):
        if not SOURCE.search(name):
          continue
        with open(os.path.join(RUNTIME, folder, name)) as f:
          for included in INCLUDE.findall(f.read()):
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
      for name in sorted(os.listdir(os.path.join(RUNTIME, folder))):
        if SOURCE.search(name) and f"{folder}/{name}" not in listed:
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


if __name__ == "__main__":
  unittest.main()
