#!/usr/bin/python3
"""One header-guard rule: the header's path from the repository root,
upper-cased, every character that is not a letter or digit as `_`, and a
trailing `_` (runtime/pool/pool.h -> RUNTIME_POOL_POOL_H_).

  tools/header_guards.py [--check] DIR_OR_HEADER...

rewrites each header's `#ifndef`/`#define`/closing `#endif  // ...` to the
rule (with --check: only lists the headers that break it and exits 1).
Paths are taken relative to the repository root (this script's parent)."""

import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OPEN = re.compile(r"^#ifndef (\w+)\n#define \1\n", re.M)


def guard_for(relative_path):
  return re.sub(r"[^A-Za-z0-9]", "_", relative_path).upper() + "_"


def fixed(text, guard):
  """`text` with its guard renamed to `guard`, or None without a guard."""
  found = OPEN.search(text)
  if found is None:
    return None
  old = found.group(1)
  text = text[:found.start()] + f"#ifndef {guard}\n#define {guard}\n" + text[
      found.end():]
  name = re.escape(old)
  closing = re.compile(r"^#endif(\s*//\s*" + name + r"|\s*/\*\s*" + name +
                       r"\s*\*/)?\s*\Z")
  last = list(re.finditer(r"^#endif.*\n?\Z", text, re.M))
  if not last or not closing.match(last[-1].group(0)):
    return None
  # A header C includes too keeps its C comment.
  if "/*" in last[-1].group(0):
    return text[:last[-1].start()] + f"#endif /* {guard} */\n"
  return text[:last[-1].start()] + f"#endif  // {guard}\n"


def headers(paths):
  for path in paths:
    if os.path.isdir(path):
      for parent, _, names in sorted(os.walk(path)):
        for name in sorted(names):
          if name.endswith(".h"):
            yield os.path.join(parent, name)
    else:
      yield path


def main(argv):
  check = "--check" in argv
  wrong = 0
  for path in headers(a for a in argv if a != "--check"):
    relative = os.path.relpath(os.path.abspath(path), ROOT)
    with open(path) as f:
      text = f.read()
    new = fixed(text, guard_for(relative))
    if new is None:
      print(f"{relative}: no #ifndef/#define/#endif guard", file=sys.stderr)
      wrong += 1
    elif new != text:
      wrong += 1
      if check:
        print(f"{relative}: guard is not {guard_for(relative)}")
      else:
        with open(path, "w") as f:
          f.write(new)
  return 1 if check and wrong else 0


if __name__ == "__main__":
  sys.exit(main(sys.argv[1:]))
