"""Model + registry -> template contexts -> generated files.

All decisions live here and in naming.py; templates only lay out text.
"""

import os
from typing import Dict, List, Optional, Set

import jinja2

from codegen import domains
from codegen import hip_prof
from codegen import model as m
from codegen import naming
from codegen import numbering

# Per-domain facts come from the domain list (codegen/domains.py).
INCLUDES = {d.name: d.includes for d in domains.DOMAINS}
UNINCLUDED_HEADERS = {"hip_ext.h"}
PREAMBLE = {d.name: d.preamble for d in domains.DOMAINS}
# Typedefs from headers the public data header cannot include are re-declared.
PRIVATE_HEADERS = {d.name: d.private_headers for d in domains.DOMAINS}
DOMAIN_CONST = {d.name: naming.domain_const(d.name) for d in domains.DOMAINS}
# Per HsaApiTable member: the HsaApiTableContainer member holding the table
# and the prefix of its version macros in hsa_api_trace.h.
HSA_TABLE_INFO = {
    "core_": ("core", "HSA_CORE_API_TABLE"),
    "amd_ext_": ("amd_ext", "HSA_AMD_EXT_API_TABLE"),
    "image_ext_": ("image_ext", "HSA_IMAGE_API_TABLE"),
    "finalizer_ext_": ("finalizer_ext", "HSA_FINALIZER_API_TABLE"),
}


def environment(template_dir: str) -> jinja2.Environment:
  return jinja2.Environment(
      loader=jinja2.FileSystemLoader(template_dir), trim_blocks=True,
      lstrip_blocks=True, keep_trailing_newline=True,
      undefined=jinja2.StrictUndefined, autoescape=False)


def c_string(s: str) -> str:
  return s.replace("\\", "\\\\").replace('"', '\\"')


class Plan:
  """Everything the templates of one domain need, computed once."""

  def __init__(self, mdl: m.Model, entries: List[numbering.Entry],
               exports: Optional[Set[str]], source: str,
               export_versions: Optional[Dict[str, str]] = None,
               release: Optional[str] = None,
               soname: Optional[str] = None):
    d = mdl.domain
    self.domain = d
    self.source = source
    ids = {e.name: e.id for e in entries}
    self._members = {t.name: t.member for t in mdl.tables}
    self._enums = mdl.enums
    self._abi_args = mdl.abi_args
    # roctracer's HSA and KFD records have an (empty) member for APIs without
    # parameters; HIP's has none.
    self._empty_args = d in domains.BY_NAME and domains.BY_NAME[d].empty_args
    funcs = {f.name: f for f in mdl.functions}
    self._id_of = ids
    self._stream_type = (domains.BY_NAME[d].stream_type
                         if d in domains.BY_NAME else None)
    self.functions = [self._function(f, ids[f.name]) for f in mdl.functions]
    self.functions.sort(key=lambda v: v["id"])
    by_name = {v["name"]: v for v in self.functions}
    self.entries = []
    for e in entries:
      former = e.name if e.reserved and not e.name.startswith("RESERVED_") else None
      self.entries.append(dict(
          id=e.id, name=e.name, reserved=e.reserved, former=former,
          enum=naming.enum_name(d, e.name),
          reserved_enum=naming.reserved_enum_name(d, e.id)))
    first = naming.FIRST_ID[d]
    last = max([e.id for e in entries] + [first])
    self.number = last + 1
    # The last ID the ROCm record numbers (HIP's HIP_API_ID_LAST); the IDs
    # after it are ours, for the APIs the record leaves unnumbered.
    numbered_last = (max([mdl.abi_last] + list(mdl.abi_ids.values()))
                     if mdl.abi_header else last)
    dense = []
    live = {e.id: e for e in entries if not e.reserved}
    status_type = (domains.BY_NAME[d].status_type
                   if d in domains.BY_NAME else None)
    for i in range(self.number):
      e = live.get(i)
      dense.append(dict(id=i, live=e is not None, name=e.name if e else "",
                        arg_count=len(funcs[e.name].params) if e else 0,
                        returns_status=bool(
                            e and status_type and
                            funcs[e.name].return_type.spelling == status_type),
                        ret_type=(funcs[e.name].return_type.spelling
                                  if e and not naming.is_void(
                                      funcs[e.name].return_type) else None)))
    local_typedefs = [naming.declarator(t.underlying, t.name)
                      for t in mdl.typedefs
                      if t.header in PRIVATE_HEADERS.get(d, set())]
    self.common = dict(
        domain=d, D=d.upper(), prefix=naming.prefix(d), source=source,
        has_none=first > 0, first=first, last=last, number=self.number,
        numbered_last=numbered_last,
        entries=self.entries, functions=self.functions, dense=dense,
        by_name=sorted((dict(name=e.name, id=e.id) for e in live.values()),
                       key=lambda x: x["name"].encode()),
        live_count=len(live),
        status_member=(status_type + "_retval"
                       if any(x["returns_status"] for x in dense) else None),
        includes=mdl.includes or INCLUDES.get(d, []),
        preamble=PREAMBLE.get(d, []), domain_const=DOMAIN_CONST.get(d, ""),
        domain_const_value=naming.DOMAIN_VALUES.get(d, 0),
        not_initialized=(domains.BY_NAME[d].not_initialized
                         if d in domains.BY_NAME else ""),
        numbering_doc=numbering.DESCRIPTIONS[
            domains.BY_NAME[d].numbering if d in domains.BY_NAME else "hip_prof"],
        retvals=self._retvals(mdl), structs=self._structs(mdl),
        abi_header=mdl.abi_header, args_members_list=self._args_members(mdl),
        abi_guard=hip_prof.INCLUDE_GUARD if mdl.abi_header else None,
        enums=[dict(name=e.name,
                    constants=[(n, naming.long_long_literal(v))
                               for n, v in e.constants])
               for e in mdl.enums.values()],
        local_typedefs=local_typedefs,
        local_tags=naming.struct_tags(local_typedefs))
    self.tables = []
    for t in mdl.tables:
      container_member, version_prefix = HSA_TABLE_INFO.get(
          t.member, (t.member.rstrip("_"), ""))
      self.tables.append(dict(name=t.name, member=t.member,
                              container_member=container_member,
                              version_prefix=version_prefix,
                              functions=[by_name[n] for n in t.slots]))
    # A wrapper per exported symbol: C functions by name, C++-linkage ones by
    # their mangled name, and the older names of renamed APIs (HIP 6's
    # `#define hipGetDeviceProperties hipGetDevicePropertiesR0600`) for as
    # long as the library exports them.
    self.exported = [v for v in self.functions
                     if exports is not None and v["symbol"] in exports]
    self.aliases = [dict(v, alias=a) for v in self.functions
                    for a in v["aliases"]
                    if exports is not None and a in exports]
    versions = export_versions or {}
    for v in self.functions:
      version = versions.get(v["symbol"])
      v["version_literal"] = '"%s"' % c_string(version) if version else "nullptr"
    for v in self.aliases:
      version = versions.get(v["alias"])
      v["version_literal"] = '"%s"' % c_string(version) if version else "nullptr"
    self.common["soname_literal"] = ('"%s"' % c_string(soname) if soname
                                     else "nullptr")
    # The APIs whose string arguments a tracer copies (StringArgs).
    self.common["string_arg_functions"] = [
        v for v in self.functions if v["string_params"]]
    self.common["max_string_args"] = max(
        [len(v["string_params"]) for v in self.functions] + [1])
    self.common["version_nodes"] = self._version_nodes(export_versions or {})
    self.common["release"] = release

  def _fields(self, f: m.Function) -> List[m.AbiField]:
    """The `args` member of `f`: the ROCm record's where it has one that
    matches the prototype (argument for argument), else one of our own."""
    abi = self._abi_args.get(f.name)
    if abi is not None and len([x for x in abi if x.val_of is None]) == len(f.params):
      return abi
    fields = [m.AbiField(p.name, naming.strip_top_const(p.type.spelling))
              for p in f.params]
    extra = naming.EXTRA_VAL_FIELDS.get((self.domain, f.name), {})
    out = []
    for fl in fields:
      out.append(fl)
      if fl.name in extra:
        out.append(m.AbiField(fl.name + "__val", extra[fl.name], fl.name))
    return out

  def _args_members(self, mdl: m.Model) -> List[Dict]:
    """`args` union members in layout order: the ROCm record's (all of them,
    in its order), then ours for the traced APIs it lacks. HSA, like
    roctracer, has a member (empty) for every API; HIP only for APIs with
    parameters, like HIP (domains.Domain.empty_args)."""
    out, seen = [], set()
    for name, fields in mdl.abi_args.items():
      out.append(dict(name=name, fields=[naming.declarator(fl.type, fl.name)
                                         for fl in fields]))
      seen.add(name)
    for f in sorted(mdl.functions, key=lambda f: self._id_of.get(f.name, 0)):
      if f.name in seen or (not f.params and not self._empty_args):
        continue
      out.append(dict(name=f.name, fields=[naming.declarator(fl.type, fl.name)
                                           for fl in self._fields(f)]))
    return out

  def _function(self, f: m.Function, id_: int) -> Dict:
    d = naming
    fields = self._fields(f)
    arg_fields = [fl for fl in fields if fl.val_of is None]
    val_of = {fl.val_of: fl.name for fl in fields if fl.val_of}
    params = []
    vals_enter, vals_exit = [], []
    for p, fl in zip(f.params, arg_fields):
      params.append(dict(
          index=p.index, name=p.name, field=fl.name,
          val=val_of.get(fl.name),
          spelling=c_string(p.type.spelling),
          member_decl=d.member_decl(p),
          limit_enter=d.deref_limit(p.type, True, p.out),
          limit_exit=d.deref_limit(p.type, False, p.out)))
      if fl.name in val_of:
        v = dict(field=fl.name, val=val_of[fl.name], field_arg=p.name)
        (vals_exit if d.val_at_exit(f.name, p) else vals_enter).append(v)
    ret_void = d.is_void(f.return_type)
    return dict(
        name=f.name, id=id_, enum=d.enum_name(self.domain, f.name),
        params=params, param_list=d.param_list(f), arg_list=d.arg_list(f),
        fn_type=d.fn_pointer_type(f), ret_void=ret_void,
        traced_param_list=", ".join(
            [d.declarator(d.fn_pointer_type(f), "rt_next_")] +
            [d.param_decl(p) for p in f.params]),
        traced_arg_list=", ".join(["rt_next_"] + [p.name for p in f.params]),
        ret_spelling=f.return_type.spelling,
        ret_decl=d.declarator(d.strip_top_const(f.return_type.spelling), "rt_result_"),
        ret_member=None if ret_void else d.retval_member(f.return_type),
        missing_value=None if ret_void else d.missing_next_value(f.return_type),
        table_member=self._member_of(f), slot_field=f.slot_field,
        container_member=HSA_TABLE_INFO.get(self._member_of(f), (None, None))[0],
        c_linkage=f.c_linkage, symbol=f.symbol or f.name,
        cxx_symbol=f.symbol is not None and f.symbol != f.name,
        # Declared by a header the generated tests do not include (hip_ext.h
        # pulls in device headers); C linkage there since HIP 6.
        undeclared_c=f.c_linkage and f.header in UNINCLUDED_HEADERS,
        aliases=list(f.aliases), vals_enter=vals_enter, vals_exit=vals_exit,
        string_params=[fl.name for p, fl in zip(f.params, arg_fields)
                       if p.type.is_string],
        stream_param=self._stream_param(f, arg_fields),
        test_params=[dict(
            decl=d.declarator(d.strip_top_const(p.type.spelling), "a%d" % p.index),
            value=self._test_value(p.type, id_ * 16 + p.index,
                                   fl.name in val_of))
            for p, fl in zip(f.params, arg_fields)],
        test_ret=None if ret_void else dict(
            decl=d.declarator(d.strip_top_const(f.return_type.spelling), "expected"),
            value=self._test_value(f.return_type, id_ * 16 + 15)))

  def _stream_param(self, f: m.Function,
                    arg_fields: List[m.AbiField]) -> Optional[Dict]:
    """The parameter of `f` that names the stream its work goes to (the
    domain's stream type by value), else the one through which it creates a
    stream (a pointer to it, read at EXIT); None when neither. The first
    such parameter decides: HIP has no API with two."""
    if self._stream_type is None:
      return None
    by_value, created = None, None
    for p, fl in zip(f.params, arg_fields):
      spelling = naming.strip_top_const(p.type.spelling).replace(" ", "")
      if by_value is None and spelling == self._stream_type:
        by_value = dict(field=fl.name, created=False)
      elif created is None and spelling == self._stream_type + "*":
        created = dict(field=fl.name, created=True)
    return by_value or created

  def _test_value(self, t: m.CType, seed: int, copied: bool = False) -> str:
    """A C++ expression of type `t`, distinct per seed and valid for the type
    (enums take a declared value, bools 0/1, strings a literal), for the
    generated forwarding test."""
    spelling = naming.strip_top_const(t.spelling)
    if t.kind == "pointer" and t.is_string:
      return '"s%d"' % seed
    if t.kind == "pointer" and copied:
      # The stub copies the pointee (`__val`): point at readable memory.
      return "reinterpret_cast<%s>(Pointee(%d))" % (spelling, seed)
    if t.kind == "pointer":
      return "reinterpret_cast<%s>(static_cast<uintptr_t>(0x%x))" % (
          spelling, 0x100000 + seed * 0x40)
    if t.kind == "bool":
      return "true" if seed % 2 else "false"
    if t.kind == "float":
      return "static_cast<%s>(%d.5)" % (spelling, seed)
    if t.kind == "enum" and t.enum in self._enums and self._enums[t.enum].constants:
      consts = self._enums[t.enum].constants
      value = consts[seed % len(consts)][1]
      return "static_cast<%s>(%s)" % (spelling, naming.long_long_literal(value))
    if t.kind == "int":
      return "static_cast<%s>(0x%xULL)" % (spelling,
                                           (0x1122334455667700 + seed) % 2**64)
    return "Pattern<%s>(%d)" % (spelling, seed)

  def _version_nodes(self, versions: Dict[str, str]) -> List[Dict]:
    """Symbol wrappers grouped by the version node the runtime exports them
    under (`hip_4.2`, `ROCR_1`), so an application's versioned reference
    binds to the wrapper; unversioned exports get a node of our own."""
    nodes: Dict[str, List[str]] = {}
    for name in ([v["symbol"] for v in self.exported] +
                 [a["alias"] for a in self.aliases]):
      node = versions.get(name) or "ROCTRACER_INTERCEPT_%s" % self.domain.upper()
      nodes.setdefault(node, []).append(name)
    return [dict(name=k, symbols=sorted(nodes[k])) for k in sorted(nodes)]

  def _member_of(self, f: m.Function) -> Optional[str]:
    return self._members.get(f.table) if f.table else None

  @staticmethod
  def _retvals(mdl: m.Model) -> List[Dict]:
    seen = {}
    for f in mdl.functions:
      t = f.return_type
      if t.kind == "void":
        continue
      member = naming.retval_member(t)
      seen.setdefault(member, naming.declarator(
          naming.strip_top_const(t.spelling), member))
    return [dict(member=k, decl=v) for k, v in seen.items()]

  @staticmethod
  def _structs(mdl: m.Model) -> List[Dict]:
    out = []
    for s in mdl.structs.values():
      out.append(dict(name=s.name, fields=[
          dict(name=f.name, array=f.type.kind == "array", bitfield=f.bitfield)
          for f in s.fields]))
    return out


def files_for(domain: str) -> Dict[str, str]:
  """Output file name -> template name."""
  out = {
      "%s_api_id.h" % domain: "api_id.h.j2",
      "%s_api_data.h" % domain: "api_data.h.j2",
      "%s_ostream_ops.h" % domain: "ostream_ops.h.j2",
      "%s_api_helpers.h" % domain: "api_helpers.h.j2",
      "%s_api_tables.h" % domain: "api_tables.h.j2",
      "%s_api_names.cc" % domain: "api_names.cc.j2",
      "%s_api_args.cc" % domain: "api_args.cc.j2",
      "%s_symbol_wrappers.cc" % domain: "symbol_wrappers.cc.j2",
      "%s_symbol_versions.map" % domain: "symbol_versions.map.j2",
      "%s_fake_runtime.cc" % domain: "fake_runtime.cc.j2",
      "%s_forwarding_test.cc" % domain: "forwarding_test.cc.j2",
  }
  if domain == "hsa":
    out["hsa_table_wrappers.h"] = "hsa_table_wrappers.h.j2"
    out["hsa_table_wrappers.cc"] = "hsa_table_wrappers.cc.j2"
    out["hsa_table_fill.h"] = "hsa_table_fill.h.j2"
  return out


def render(env: jinja2.Environment, plan: Plan) -> Dict[str, str]:
  result = {}
  for out_name, template in files_for(plan.domain).items():
    ctx = dict(plan.common)
    if template == "symbol_wrappers.cc.j2":
      ctx["functions"] = plan.exported
    ctx["exported"] = plan.exported
    ctx["aliases"] = plan.aliases
    # The forwarding test's fake runtime defines every HSA table function
    # (three are not exported by ROCR but have slots) and every exported HIP
    # function.
    ctx["fakes"] = plan.functions if plan.domain == "hsa" else plan.exported
    ctx["exported_names"] = [v["name"] for v in plan.exported]
    ctx["tables"] = plan.tables
    result[out_name] = env.get_template(template).render(**ctx)
  return result
