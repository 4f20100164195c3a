"""The plain data model the parser produces and the templates consume.

Everything here is a dataclass of strings, ints, bools and lists, so a model
can be dumped to JSON, diffed between ROCm releases and compared in golden
tests. Nothing here knows about libclang or Jinja2.
"""

import dataclasses
import json
from dataclasses import dataclass, field
from typing import Dict, List, Optional


@dataclass
class CType:
  """A C type as the header spells it, plus what the generator needs to know."""
  spelling: str  # as written in the header (clang's type spelling), qualifiers kept
  canonical: str  # typedefs resolved
  # void | bool | int | float | enum | record | pointer | array | other
  kind: str
  pointer_depth: int = 0  # int -> 0, int* -> 1, int** -> 2, fn pointer -> 1
  # For pointers: the type at the bottom of the pointer chain.
  pointee: Optional[str] = None
  # void | bool | int | float | enum | record | function | pointer | other
  pointee_kind: Optional[str] = None
  pointee_const: bool = False  # the first-level pointee is const-qualified
  function_pointer: bool = False
  is_string: bool = False  # const char*
  # Name of a complete struct (key into Model.structs) reached by value or
  # through the pointer chain; None when opaque/incomplete/not a struct.
  record: Optional[str] = None
  # Name of the enum type (key into Model.enums) for enums, by value or at
  # the bottom of a pointer chain.
  enum: Optional[str] = None
  array_size: Optional[int] = None  # for constant arrays (struct fields)
  element: Optional[str] = None  # element kind for arrays


@dataclass
class Param:
  index: int
  name: str
  type: CType
  has_default: bool = False
  # A pointer the callee writes through: printers never dereference it at ENTER.
  out: bool = False
  # Set when the header declares an array parameter (`int v[4]`): `type` is
  # then the pointer it decays to, this is the type as written.
  declared_as: Optional[str] = None


@dataclass
class AbiField:
  """A field of a per-API `args` member in the ROCm-generated record."""
  name: str
  type: str  # as the record's header spells it
  val_of: Optional[str] = None  # `x__val`: the copy of what pointer `x` points to


@dataclass
class Function:
  name: str
  return_type: CType
  params: List[Param]
  header: str  # file name, e.g. hsa.h
  deprecated: bool = False
  c_linkage: bool = True  # False: C++ linkage, no C symbol to interpose
  table: Optional[str] = None  # HSA only: CoreApiTable, AmdExtTable, ...
  slot: Optional[int] = None  # index of the slot within its table
  slot_field: Optional[str] = None  # field name of the slot, e.g. hsa_init_fn
  # The exported symbol when it is not the name (C++ linkage: mangled).
  symbol: Optional[str] = None
  # Exported names that are older spellings of this function (HIP 6's
  # `#define hipGetDeviceProperties hipGetDevicePropertiesR0600`).
  aliases: List[str] = field(default_factory=list)


@dataclass
class Skipped:
  name: str
  header: str
  reason: str


@dataclass
class Field:
  name: str
  type: CType
  bitfield: bool = False


@dataclass
class Struct:
  name: str  # the spelling used to name the type in C, e.g. hsa_agent_t
  fields: List[Field]


@dataclass
class Enum:
  name: str
  # (enumerator, value) in declaration order; a value appears once (aliases
  # dropped), so printers can map values back to names.
  constants: List[List]


@dataclass
class Table:
  name: str  # struct name in hsa_api_trace.h, e.g. CoreApiTable
  member: str  # HsaApiTable member pointing at it, e.g. core_
  slots: List[str]  # function names in slot order


@dataclass
class Typedef:
  name: str
  underlying: str  # as written, e.g. void (*)(const void *, uint64_t)
  header: str


@dataclass
class Model:
  domain: str  # a domains.DOMAINS name: hsa | hip | kfd
  functions: List[Function]
  skipped: List[Skipped] = field(default_factory=list)
  structs: Dict[str, Struct] = field(default_factory=dict)
  enums: Dict[str, Enum] = field(default_factory=dict)
  tables: List[Table] = field(default_factory=list)
  # Typedefs declared by private (C++-only) headers, in declaration order.
  typedefs: List[Typedef] = field(default_factory=list)
  # The ROCm-generated record of this domain, where the release ships one
  # (HIP: hip/amd_detail/hip_prof_str.h): its IDs and its `args` layout.
  abi_header: Optional[str] = None
  abi_ids: Dict[str, int] = field(default_factory=dict)
  abi_last: int = 0
  abi_args: Dict[str, List[AbiField]] = field(default_factory=dict)
  # What the public data header includes for this domain, when the parser
  # found the headers somewhere the domain list does not say (hsakmt.h moved
  # into hsakmt/ in ROCm 6); empty: the domain list's.
  includes: List[str] = field(default_factory=list)

  def function(self, name: str) -> Optional[Function]:
    for f in self.functions:
      if f.name == name:
        return f
    return None


def to_json(model: Model) -> str:
  return json.dumps(dataclasses.asdict(model), indent=1, sort_keys=True) + "\n"
