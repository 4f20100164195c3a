"""Every naming and spelling rule of the generated code, in one place."""

import re

from codegen import domains
from codegen import model as m

# Domain values of roctracer 4.1's activity_domain_t, and each domain's first
# ID (HIP keeps 0 for HIP_API_ID_NONE): from the domain list.
DOMAIN_VALUES = {d.name: d.activity_domain for d in domains.DOMAINS}
FIRST_ID = {d.name: d.first_id for d in domains.DOMAINS}


def domain_const(domain: str) -> str:
  """The runtime's name of a domain's activity_domain_t value
  (api_domain_list.h): kDomainHsaApi, kDomainKfdApi."""
  return "kDomain%sApi" % domain.capitalize()


def prefix(domain: str) -> str:
  return domain.upper() + "_API_ID_"


def enum_name(domain: str, api: str) -> str:
  return prefix(domain) + api


def reserved_enum_name(domain: str, id_: int) -> str:
  return "%sRESERVED_%d" % (prefix(domain), id_)


def retval_member(t: m.CType) -> str:
  """Retval union member: `hsa_status_t_retval`, `const_char_ptr_retval`."""
  s = t.spelling.replace("*", " ptr ")
  s = re.sub(r"[^A-Za-z0-9_]+", "_", s.strip())
  return s.strip("_") + "_retval"


def declarator(spelling: str, name: str) -> str:
  """`int` + x -> `int x`; `void (*)(int)` + cb -> `void (*cb)(int)`."""
  i = spelling.find("(*)")
  if i >= 0:
    return spelling[:i] + "(*" + name + ")" + spelling[i + 3:]
  j = spelling.find("[")
  if j >= 0:
    return spelling[:j].rstrip() + " " + name + spelling[j:]
  sep = "" if spelling.endswith("*") else " "
  return spelling + sep + name


def struct_tags(declarations: list) -> list:
  """The struct/union tags the declarations name, in first-use order. C
  scopes a tag first seen in a parameter list to that list (newer HSA's
  `amd_intercept_marker_handler` takes `const struct
  amd_aql_intercept_marker_s*`), so they are declared ahead."""
  tags = []
  for decl in declarations:
    for kind, tag in re.findall(r"\b(struct|union)\s+([A-Za-z_]\w*)", decl):
      if (kind, tag) not in tags:
        tags.append((kind, tag))
  return ["%s %s" % t for t in tags]


def strip_top_const(spelling: str) -> str:
  """A stored copy must be assignable: drop top-level const/volatile."""
  s = spelling
  changed = True
  while changed:
    changed = False
    for q in (" const", " volatile"):
      if s.endswith(q):
        s, changed = s[:-len(q)], True
    if "*" not in s and "(" not in s:
      for q in ("const ", "volatile "):
        if s.startswith(q):
          s, changed = s[len(q):], True
  return s


def member_decl(p: m.Param) -> str:
  return declarator(strip_top_const(p.type.spelling), p.name) + ";"


def param_decl(p: m.Param) -> str:
  return declarator(p.type.spelling, p.name)


def param_list(f: m.Function) -> str:
  return ", ".join(param_decl(p) for p in f.params) or "void"


def type_list(f: m.Function) -> str:
  return ", ".join(p.type.spelling for p in f.params)


def arg_list(f: m.Function) -> str:
  return ", ".join(p.name for p in f.params)


def fn_pointer_type(f: m.Function) -> str:
  return "%s (*)(%s)" % (f.return_type.spelling, type_list(f))


def is_void(t: m.CType) -> bool:
  return t.kind == "void"


def missing_next_value(t: m.CType) -> str:
  """What a symbol wrapper returns when its runtime cannot be loaded: the
  runtime's "not initialized" status, a printable text for strings
  (hipGetErrorString must never give NULL to a printf), else zero."""
  for d in domains.DOMAINS:
    if d.status_type and t.spelling == d.status_type:
      return d.not_initialized
  if t.kind == "pointer" and t.is_string:
    return "roctracer::linking::kRuntimeMissingText"
  if t.kind == "pointer":
    return "nullptr"
  s = strip_top_const(t.spelling)
  if re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", s):
    return s + "{}"
  return "static_cast<%s>(0)" % s


# `__val` copies that roctracer's generated hsa_api_data_t has and the
# prototypes do not imply: (domain, api) -> {pointer field: pointee type}.
EXTRA_VAL_FIELDS = {
    ("hsa", "hsa_amd_memory_async_copy_rect"): {"range": "hsa_dim3_t"},
}

# APIs that end the life of what their pointer arguments point to: their
# `__val` copies are taken at ENTER, never after the call.
_ENDS_LIFETIME = re.compile(r"Destroy|Free|Release|Unregister|Unmap|Detach|Close")


def val_at_exit(api: str, p: m.Param) -> bool:
  """A `__val` copy holds the pointee as HIP fills it: inputs at ENTER,
  out-parameters (naming's out rule) at EXIT, after the callee wrote them."""
  return p.out and not _ENDS_LIFETIME.search(api)


def deref_limit(t: m.CType, enter: bool, out: bool) -> int:
  """How many pointer levels a printer may follow for this type.

  Never through void, functions, opaque structs or writable char buffers;
  never at ENTER through an out-parameter (it is not written yet).
  """
  if t.kind != "pointer" or t.function_pointer:
    return 0
  if enter and out:
    return 0
  depth = t.pointer_depth
  if t.pointee_kind == "void":
    return depth - 1
  if t.pointee_kind == "record" and t.record is None:
    return depth - 1  # opaque struct at the bottom
  if t.pointee_kind == "int" and t.pointee in ("char", "signed char",
                                               "unsigned char") and depth == 1:
    return 1 if t.is_string else 0
  if t.pointee_kind not in ("bool", "int", "float", "enum", "record"):
    return depth - 1
  return depth


def long_long_literal(v: int) -> str:
  """A `long long` case label for any enumerator value (64-bit unsigned too)."""
  if v >= 2**63:
    return "static_cast<long long>(%dULL)" % v
  if v == -2**63:
    return "(-9223372036854775807LL - 1)"
  return "%dLL" % v
