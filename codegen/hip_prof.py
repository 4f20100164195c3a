"""HIP's own API record: hip/amd_detail/hip_prof_str.h, read with libclang.

HIP generates that header for its release: the HIP_API_ID_* values and the
layout of hip_api_data_t (per-API `args` members, with a `name__val` copy
after each pointer argument). Clients compiled against it read our callback
data, so where it exists it decides our IDs and our `args` layout; the
prototypes (hip_runtime_api.h) only supply what it leaves out.
"""

import dataclasses
import os
from typing import Dict, List, Optional

import clang.cindex as ci

from codegen import clang_parse as cp
from codegen import model as m

HEADER = os.path.join("hip", "amd_detail", "hip_prof_str.h")
# Its include guard (the same in every release that ships it): our generated
# headers test it to stand aside when HIP's was included first, and define it
# so that HIP's, included after ours, adds nothing.
INCLUDE_GUARD = "_HIP_PROF_STR_H"
VAL_SUFFIX = "__val"


@dataclasses.dataclass
class HipProf:
  ids: Dict[str, int]  # numbered APIs (HIP_API_ID_<name> = n > 0)
  last: int  # HIP_API_ID_LAST
  unnumbered: List[str]  # names HIP maps to HIP_API_ID_NONE
  # args members in HIP's union order: API name -> fields in order
  args: Dict[str, List[m.AbiField]]
  # HIP's headers it includes (hip/..., from the include directory), which
  # declare the types of its fields (HIP 6: hip_deprecated.h's
  # hipDeviceProp_tR0000, amd_hip_gl_interop.h's hipGLDeviceList).
  includes: List[str] = dataclasses.field(default_factory=list)

  def params(self, api: str) -> List[m.AbiField]:
    """The fields holding arguments (not the __val copies), in order."""
    return [f for f in self.args.get(api, []) if f.val_of is None]


def path(include_dir: str) -> str:
  return os.path.join(include_dir, HEADER)


def _ids(tu: ci.TranslationUnit):
  ids, unnumbered, last = {}, [], 0
  for c in tu.cursor.walk_preorder():
    if c.kind == ci.CursorKind.ENUM_DECL and c.spelling == "hip_api_id_t":
      for e in c.get_children():
        if e.kind != ci.CursorKind.ENUM_CONSTANT_DECL:
          continue
        name = e.spelling[len("HIP_API_ID_"):]
        if name == "LAST":
          last = e.enum_value
        elif name in ("NONE", "FIRST", "NUMBER", "ANY"):
          continue
        elif e.enum_value == 0:
          unnumbered.append(name)
        else:
          ids[name] = e.enum_value
      break
  return ids, sorted(unnumbered), last


def _args(tu: ci.TranslationUnit) -> Dict[str, List[m.AbiField]]:
  data = None
  for c in tu.cursor.get_children():
    if c.kind == ci.CursorKind.STRUCT_DECL and c.spelling == "hip_api_data_s" \
        and c.is_definition():
      data = c
  if data is None:
    raise cp.ParseError(HEADER, ["struct hip_api_data_s is not defined"])
  union = None
  for f in data.get_children():
    if f.kind == ci.CursorKind.FIELD_DECL and f.spelling == "args":
      union = f.type.get_canonical().get_declaration()
  if union is None:
    raise cp.ParseError(HEADER, ["hip_api_data_t has no `args` member"])
  out: Dict[str, List[m.AbiField]] = {}
  for member in union.get_children():
    if member.kind != ci.CursorKind.FIELD_DECL:
      continue
    fields = []
    for fc in member.type.get_canonical().get_declaration().get_children():
      if fc.kind != ci.CursorKind.FIELD_DECL:
        continue
      val_of = None
      if fc.spelling.endswith(VAL_SUFFIX):
        base = fc.spelling[:-len(VAL_SUFFIX)]
        if fields and fields[-1].name == base:
          val_of = base
      fields.append(m.AbiField(fc.spelling, fc.type.spelling, val_of))
    out[member.spelling] = fields
  return out


def parse(include_dir: str, args: List[str]) -> Optional[HipProf]:
  """None when the installed HIP ships no hip_prof_str.h."""
  header = path(include_dir)
  if not os.path.exists(header):
    return None
  # The header is not self-contained: it uses the runtime API's types.
  main = os.path.join(include_dir, "hip", "__hip_prof_str_main.cc")
  text = "#include <hip/hip_runtime_api.h>\n#include <%s>\n" % HEADER
  tu = cp.parse(main, args + ["-I", include_dir], unsaved_text=text,
                declarations_only=True)
  ids, unnumbered, last = _ids(tu)
  return HipProf(ids=ids, last=last, unnumbered=unnumbered, args=_args(tu),
                 includes=_includes(tu, include_dir, header))


def _includes(tu: ci.TranslationUnit, include_dir: str, header: str) -> List[str]:
  hip_dir = os.path.join(os.path.abspath(include_dir), "hip")
  out = ["hip/hip_runtime_api.h"]
  for inc in tu.get_includes():
    if os.path.abspath(inc.source.name) != os.path.abspath(header):
      continue
    target = os.path.abspath(inc.include.name)
    if target.startswith(hip_dir + os.sep):
      rel = os.path.relpath(target, os.path.abspath(include_dir))
      if rel not in out:
        out.append(rel)
  return out
