"""Append-only API ID registries (codegen/registry/<domain>_api.txt).

Format, one entry per line, sorted by ID, '#' starts a comment:
    <id> <name>             an API present in the parsed headers
    <id> <name> reserved    an ID whose API vanished (or a placeholder): never reused
IDs are the ABI users compile against, so an ID is never renumbered or reused.
"""

import dataclasses
from typing import Iterable, List, Tuple

HEADER = """\
# Stable {domain} API IDs: the ABI of {upper}_API_ID_* (append-only, never renumber).
# Format: <id> <name> [reserved]. Rewritten by `bazel run //codegen:update_registries`.
"""


@dataclasses.dataclass
class Entry:
  id: int
  name: str
  reserved: bool = False


class RegistryError(Exception):
  pass


def parse(text: str, origin: str = "<registry>") -> List[Entry]:
  entries = []
  ids, names = set(), set()
  for lineno, raw in enumerate(text.splitlines(), 1):
    line = raw.split("#", 1)[0].strip()
    if not line:
      continue
    parts = line.split()
    if len(parts) not in (2, 3) or not parts[0].isdigit() or (
        len(parts) == 3 and parts[2] != "reserved"):
      raise RegistryError("%s:%d: expected '<id> <name> [reserved]', got %r" %
                          (origin, lineno, raw))
    e = Entry(int(parts[0]), parts[1], len(parts) == 3)
    if e.id in ids or e.name in names:
      raise RegistryError("%s:%d: duplicate id or name in %r" % (origin, lineno, raw))
    ids.add(e.id)
    names.add(e.name)
    entries.append(e)
  entries.sort(key=lambda e: e.id)
  return entries


def load(path: str) -> List[Entry]:
  with open(path) as f:
    return parse(f.read(), path)


def dump(entries: Iterable[Entry], domain: str) -> str:
  lines = [HEADER.format(domain=domain.upper(), upper=domain.upper())]
  for e in sorted(entries, key=lambda e: e.id):
    lines.append("%d %s%s\n" % (e.id, e.name, " reserved" if e.reserved else ""))
  return "".join(lines)


@dataclasses.dataclass
class MergeResult:
  entries: List[Entry]
  added: List[Entry]  # new APIs, appended with fresh IDs
  reserved: List[Entry]  # APIs that vanished from the headers in this merge
  revived: List[Entry]  # reserved entries whose API is back


def merge(entries: List[Entry], names: List[str], first_id: int = 0) -> MergeResult:
  """Assigns IDs to `names` (in the given, deterministic order) without
  renumbering anything already in `entries`."""
  wanted = set(names)
  out, reserved, revived = [], [], []
  by_name = {}
  for e in entries:
    n = Entry(e.id, e.name, e.reserved)
    if n.name in wanted and n.reserved:
      n.reserved = False
      revived.append(n)
    elif n.name not in wanted and not n.reserved:
      n.reserved = True
      reserved.append(n)
    out.append(n)
    by_name[n.name] = n
  next_id = max([e.id + 1 for e in out] + [first_id])
  added = []
  for name in names:
    if name not in by_name:
      n = Entry(next_id, name)
      next_id += 1
      out.append(n)
      added.append(n)
      by_name[name] = n
  return MergeResult(out, added, reserved, revived)


def live(entries: List[Entry]) -> List[Entry]:
  return [e for e in entries if not e.reserved]
