"""API IDs, derived from the installed ROCm's headers on every build.

Binary compatibility with the installed ROCm decides: tools are compiled
against its headers, so its numbers are ours, even where a release renumbers.

* HIP: HIP_API_ID_* of the installed hip/amd_detail/hip_prof_str.h, HIP's own
  generated list (IDs 1..HIP_API_ID_LAST, RESERVED_n kept). APIs it leaves
  unnumbered (or all APIs, when the header is absent) get the IDs after its
  last, in byte order of their names, so a rebuild against the same headers
  always gives the same numbers.
* HSA: roctracer's rule, the slot order of the HsaApiTable sub-tables from
  hsa_api_trace.h: CoreApiTable, AmdExtTable, ImageExtTable (what roctracer
  numbers), then the tables roctracer does not number (FinalizerExtTable), from 0.
* KFD: roctracer's rule (its kfdap.py), the declaration order of the
  functions of hsakmt.h, from 0. Functions the library does not export keep
  their number (no stub).
"""

import dataclasses
from typing import Dict, List, Optional

from codegen import model as m

# Tables in numbering order (roctracer's three, then ours).
HSA_TABLE_ORDER = ["CoreApiTable", "AmdExtTable", "ImageExtTable",
                   "FinalizerExtTable"]


@dataclasses.dataclass
class Entry:
  id: int
  name: str
  reserved: bool = False  # numbered by the headers, but not traced here


def hsa(mdl: m.Model) -> List[Entry]:
  order = {t: i for i, t in enumerate(HSA_TABLE_ORDER)}
  tables = sorted(mdl.tables, key=lambda t: order.get(t.name, len(order)))
  names = [n for t in tables for n in t.slots]
  return [Entry(i, n) for i, n in enumerate(names)]


def hip(mdl: m.Model, first: int = 1) -> List[Entry]:
  """Entries of every numbered name and every traced function, by ID."""
  traced = [f.name for f in mdl.functions]
  numbered: Dict[str, int] = dict(mdl.abi_ids)
  last = max([mdl.abi_last] + list(numbered.values()) + [first - 1])
  entries = [Entry(i, n, reserved=n not in traced or n.startswith("RESERVED_"))
             for n, i in numbered.items()]
  rest = sorted((n for n in traced if n not in numbered), key=lambda n: n.encode())
  entries += [Entry(last + 1 + k, n) for k, n in enumerate(rest)]
  entries.sort(key=lambda e: e.id)
  return entries


def declaration(mdl: m.Model, first: int = 0) -> List[Entry]:
  return [Entry(first + i, f.name) for i, f in enumerate(mdl.functions)]


# How each rule reads, for the generated ID header.
DESCRIPTIONS = {
    "hip_prof": [
        "The installed ROCm's numbers (codegen/numbering.py): HIP_API_ID_* as its",
        "hip/amd_detail/hip_prof_str.h has them; the APIs that header leaves",
        "unnumbered follow its last ID, in byte order of their names.",
    ],
    "tables": [
        "The installed ROCm's numbers (codegen/numbering.py): roctracer's rule, the",
        "slot order of CoreApiTable, AmdExtTable and ImageExtTable in",
        "hsa_api_trace.h, then the tables roctracer does not number.",
    ],
    "declaration": [
        "The installed ROCm's numbers (codegen/numbering.py): roctracer's rule, the",
        "declaration order of the functions of the header, from 0.",
    ],
}

RULES = {"tables": lambda mdl, first: hsa(mdl), "hip_prof": hip,
         "declaration": declaration}


def for_domain(mdl: m.Model, first: int) -> List[Entry]:
  from codegen import domains  # domains imports the parsers; keep this leaf light
  return RULES[domains.BY_NAME[mdl.domain].numbering](mdl, first)


def record(entries: List[Entry], domain: str, release: Optional[str]) -> str:
  """The golden record of a release: one `<id> <name> [reserved]` a line."""
  lines = ["# %s API IDs of release %s (from its headers, by codegen/numbering.py)\n"
           % (domain.upper(), release or "unknown")]
  for e in entries:
    lines.append("%d %s%s\n" % (e.id, e.name, " reserved" if e.reserved else ""))
  return "".join(lines)
