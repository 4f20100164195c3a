"""The return-value unions of the rocprofiler-sdk view (rocprofiler-sdk's
rocprofiler_{hsa,hip}_api_retval_t).

Unlike the argument unions, these are not per release in rocprofiler-sdk:
1.0.0 declares a fixed set of members, named after the type with `*` spelled
`p` (`const char*` -> `const_charp_retval`). A tool reads the member of the
function's return type, so those members, in 1.0.0's order, come first and
always (the union's size and the names a tool uses do not depend on the HIP or
HSA release built against). A return type of the installed headers that set
lacks gets a member after them, named by the same rule.

The roctracer data structs keep their own retval unions (our naming,
`const_char_ptr_retval`): the SDK's callback copies the roctracer union's
bytes, every member at offset 0, so a value reads back the same through the
member of the same type here.
"""

import re
from typing import Dict, List

from codegen import model as m
from codegen import naming

# rocprofiler-sdk 1.0.0's members, in its order: (C type, member name).
FIXED = {
    "hsa": [
        ("uint64_t", "uint64_t_retval"),
        ("uint32_t", "uint32_t_retval"),
        ("hsa_signal_value_t", "hsa_signal_value_t_retval"),
        ("hsa_status_t", "hsa_status_t_retval"),
    ],
    "hip": [
        ("uint64_t", "uint64_t_retval"),
        ("int", "int_retval"),
        ("const char *", "const_charp_retval"),
        ("hipError_t", "hipError_t_retval"),
        ("hipChannelFormatDesc", "hipChannelFormatDesc_retval"),
        ("void **", "voidpp_retval"),
    ],
}


def _key(spelling: str) -> str:
  """Type spellings compared without blanks (`const char *` = `const char*`)."""
  return re.sub(r"\s+", "", spelling)


def member_name(spelling: str) -> str:
  """rocprofiler-sdk's rule: `const char*` -> `const_charp_retval`."""
  s = re.sub(r"\s*\*", "p", spelling.strip())
  s = re.sub(r"[^A-Za-z0-9_]+", "_", s)
  return s.strip("_") + "_retval"


def retvals(domain: str, mdl: m.Model) -> List[Dict]:
  """[{member, decl}]: 1.0.0's members, then one per other return type."""
  out = [dict(member=name, decl=naming.declarator(t, name))
         for t, name in FIXED.get(domain, [])]
  seen = {_key(t) for t, _ in FIXED.get(domain, [])}
  for f in mdl.functions:
    t = f.return_type
    if t.kind == "void":
      continue
    spelling = naming.strip_top_const(t.spelling)
    if _key(spelling) in seen:
      continue
    seen.add(_key(spelling))
    name = member_name(spelling)
    out.append(dict(member=name, decl=naming.declarator(spelling, name)))
  return out
