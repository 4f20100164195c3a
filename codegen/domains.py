"""The generator's domain list: what each API domain parses, how its
functions are selected and numbered, and the few facts its generated code
needs (`DOMAINS`, at the end). Adding a runtime's API is an entry there (and
its header/library paths in domains.bzl, the same list for Bazel).

HSA: the four public headers through hsa_api_trace.h, which also gives the
dispatch tables; a function belongs to the domain when it has a table slot.
HIP: hip_runtime_api.h, extern "C" functions only.
KFD: libhsakmt's hsakmt.h, every function it declares.
"""

import dataclasses
import os
from typing import Callable, List, Optional

import clang.cindex as ci

from codegen import clang_parse as cp
from codegen import hip_prof
from codegen import model as m

# Seed order of the HSA IDs (ROCm 5.2.3's roctracer numbered the tables in
# this order); the HsaApiTable member order differs and is read from the header.
HSA_TABLES = ["CoreApiTable", "AmdExtTable", "ImageExtTable", "FinalizerExtTable"]
HSA_HEADERS = {"hsa.h", "hsa_ext_amd.h", "hsa_ext_image.h",
               "hsa_ext_finalize.h", "hsa_api_trace.h"}

HSA_ARGS = [
    "-x", "c++", "-std=c++17", "-DAMD_INTERNAL_BUILD",
    # HSA_DEPRECATED is an empty macro unless predefined; give it the real
    # attribute so libclang reports those functions as deprecated.
    "-DHSA_DEPRECATED=__attribute__((deprecated))",
    "-Wno-deprecated-declarations",
]
HIP_ARGS = ["-x", "c++", "-std=c++17", "-D__HIP_PLATFORM_AMD__",
            "-Wno-deprecated-declarations"]


def _field_function(field: ci.Cursor) -> str:
  # Slots are declared as `decltype(hsa_init)* hsa_init_fn`: the decltype
  # operand is a DECL_REF_EXPR child naming the function.
  for c in field.walk_preorder():
    if c.kind == ci.CursorKind.DECL_REF_EXPR and c.referenced is not None:
      return c.referenced.spelling
  name = field.spelling
  return name[:-3] if name.endswith("_fn") else name


# Sub-tables of newer releases that are not traced, and why (their slots are
# listed as skipped, so codegen/exclusions.txt must name them).
UNTRACED_TABLES = {
    "ToolsApiTable": "ToolsApiTable slot: an event hook ROCR calls into tools "
                     "(scratch, code-object events), not an API applications call",
    "PcSamplingExtTable": "PcSamplingExtTable slot: PC-sampling control used by "
                          "profilers; roctracer never numbered or traced it",
}


def _tables(tu: ci.TranslationUnit, untraced=None) -> List[m.Table]:
  structs = {}
  for c in tu.cursor.get_children():
    if c.kind == ci.CursorKind.STRUCT_DECL and c.is_definition():
      structs[c.spelling] = c
  members = {}
  if untraced is None:
    untraced = {}
  root = structs.get("HsaApiTable")
  if root is None:
    raise cp.ParseError("hsa_api_trace.h", ["HsaApiTable is not defined"])
  for f in root.get_children():
    if f.kind == ci.CursorKind.FIELD_DECL and f.type.kind == ci.TypeKind.POINTER:
      members[f.type.get_pointee().get_canonical().spelling] = f.spelling
  tables = []
  for name, member in sorted(members.items()):
    if name not in HSA_TABLES and name in structs:
      untraced[name] = [_field_function(f) for f in structs[name].get_children()
                        if f.kind == ci.CursorKind.FIELD_DECL and f.spelling != "version"]
  for name in HSA_TABLES:
    if name not in structs or name not in members:
      raise cp.ParseError("hsa_api_trace.h",
                          ["table %s missing from HsaApiTable" % name])
    slots = [_field_function(f) for f in structs[name].get_children()
             if f.kind == ci.CursorKind.FIELD_DECL and f.spelling != "version"]
    tables.append(m.Table(name=name, member=members[name], slots=slots))
  return tables


def parse_hsa(include_dir: str) -> m.Model:
  hsa_dir = os.path.join(include_dir, "hsa")
  tu = cp.parse(os.path.join(hsa_dir, "hsa_api_trace.h"),
                HSA_ARGS + ["-I", include_dir, "-I", hsa_dir])
  accept_dir = cp.in_directory(hsa_dir)
  declared, skipped = cp.collect_functions(
      tu, lambda p: accept_dir(p) and os.path.basename(p) in HSA_HEADERS,
      keep_cxx_linkage=True)
  by_name = {f.name: f for f in declared}
  untraced = {}
  tables = _tables(tu, untraced)
  functions = []
  slotted = set()
  for table in tables:
    for slot, fname in enumerate(table.slots):
      f = by_name.get(fname)
      if f is None:
        raise cp.ParseError("hsa_api_trace.h",
                            ["%s slot %d names undeclared %s" % (table.name, slot, fname)])
      f.table, f.slot, f.slot_field = table.name, slot, fname + "_fn"
      f.symbol = None  # reached through its slot, never by (mangled) symbol
      functions.append(f)
      slotted.add(fname)
  for table, names in untraced.items():
    reason = UNTRACED_TABLES.get(table, "%s slot: a table this generator does "
                                 "not know; not traced" % table)
    for n in names:
      skipped.append(m.Skipped(name=n, header="hsa_api_trace.h", reason=reason))
      slotted.add(n)
  for f in declared:
    if f.name not in slotted and f.c_linkage:
      skipped.append(m.Skipped(
          name=f.name, header=f.header,
          reason="no slot in any HsaApiTable: not dispatched through the "
          "tables roctracer intercepts"))
  skipped.sort(key=lambda s: s.name)
  typedefs = [m.Typedef(name=c.spelling, underlying=c.underlying_typedef_type.spelling,
                        header="hsa_api_trace.h")
              for c in tu.cursor.get_children()
              if c.kind == ci.CursorKind.TYPEDEF_DECL and c.location.file and
              os.path.basename(c.location.file.name) == "hsa_api_trace.h"]
  structs = cp.collect_structs(tu, functions)
  return m.Model(domain="hsa", functions=functions, skipped=skipped,
                 structs=structs, enums=cp.collect_enums(tu, functions, structs),
                 tables=tables, typedefs=typedefs)


# What HIP declares for host code, beside hip_runtime_api.h: hip_ext.h holds
# the extended launch APIs (hipExtModuleLaunchKernel, C++ linkage);
# hip_deprecated.h (HIP >= 6) the previous ABI of the APIs HIP 6 renamed
# (hipGetDevicePropertiesR0000), which HIP numbers and libamdhip64 exports.
HIP_HEADERS = ["hip_runtime_api.h", "hip_ext.h", "hip_deprecated.h"]


def _api_files(tu, hip_dir: str, headers: List[str]):
  """Accepts the files the API headers include from hip/, except through
  hip_runtime.h (device-side helpers that hip_ext.h pulls in)."""
  edges = {}
  for inc in tu.get_includes():
    edges.setdefault(os.path.abspath(inc.source.name), []).append(
        os.path.abspath(inc.include.name))
  in_hip = cp.in_directory(hip_dir)
  stop = os.path.abspath(os.path.join(hip_dir, "hip_runtime.h"))
  todo = [os.path.abspath(os.path.join(hip_dir, h)) for h in headers]
  seen = set()
  while todo:
    f = todo.pop()
    if f in seen or f == stop or not in_hip(f):
      continue
    seen.add(f)
    todo.extend(edges.get(f, []))
  return lambda p: os.path.abspath(p) in seen


def parse_hip(include_dir: str) -> m.Model:
  hip_dir = os.path.join(include_dir, "hip")
  if not os.path.exists(os.path.join(hip_dir, HIP_HEADERS[0])):
    raise cp.ParseError(os.path.join(hip_dir, HIP_HEADERS[0]), ["no such file"])
  headers = [h for h in HIP_HEADERS if os.path.exists(os.path.join(hip_dir, h))]
  main = os.path.join(hip_dir, "__roctracer_hip_api.cc")
  text = "".join("#include <hip/%s>\n" % h for h in headers)
  # Bodies of inline helpers are never read; skipping them saves a third.
  tu = cp.parse(main, HIP_ARGS + ["-I", include_dir], unsaved_text=text,
                macros=True, declarations_only=True)
  accept = _api_files(tu, hip_dir, headers)
  # C++-linkage functions are kept (c_linkage False, `symbol` mangled): the
  # library exports some of them (hipExtModuleLaunchKernel) and HIP numbers them.
  functions, skipped = cp.collect_functions(tu, accept, keep_cxx_linkage=True)
  for old, new in sorted(cp.function_renames(tu, accept, functions).items()):
    next(f for f in functions if f.name == new).aliases.append(old)
  prof = hip_prof.parse(include_dir, HIP_ARGS)
  # A C++-linkage function is an API when HIP numbers it or hip_ext.h
  # declares it; the others are C++ helpers the headers happen to declare.
  numbered = prof.ids if prof is not None else {}
  kept = []
  for f in functions:
    if f.c_linkage or f.name in numbered or f.header == "hip_ext.h":
      kept.append(f)
    else:
      skipped.append(m.Skipped(
          name=f.name, header=f.header,
          reason="C++ linkage: exported only as a mangled symbol"))
  functions = kept
  skipped.sort(key=lambda s: (s.name, s.reason))
  structs = cp.collect_structs(tu, functions)
  mdl = m.Model(domain="hip", functions=functions, skipped=skipped,
                structs=structs, enums=cp.collect_enums(tu, functions, structs))
  if prof is not None:
    mdl.abi_header = hip_prof.HEADER
    mdl.abi_ids, mdl.abi_last, mdl.abi_args = prof.ids, prof.last, prof.args
    mdl.includes = prof.includes
  return mdl


def parse_header(path: str, args: List[str], domain: str = "test") -> m.Model:
  """One synthetic header (golden tests): every free function it declares."""
  tu = cp.parse(path, args, macros=True)
  accept = lambda p: os.path.abspath(p) == os.path.abspath(path)
  functions, skipped = cp.collect_functions(tu, accept)
  for old, new in sorted(cp.function_renames(tu, accept, functions).items()):
    next(f for f in functions if f.name == new).aliases.append(old)
  structs = cp.collect_structs(tu, functions)
  return m.Model(domain=domain, functions=functions, skipped=skipped,
                 structs=structs, enums=cp.collect_enums(tu, functions, structs))


# Where libhsakmt's header is: hsakmt/hsakmt.h since ROCm 6, hsakmt.h (beside
# hsakmttypes.h) in Debian's 5.2.3 libhsakmt-dev.
KFD_HEADERS = ["hsakmt/hsakmt.h", "hsakmt.h"]
KFD_ARGS = ["-x", "c++", "-std=c++17", "-Wno-deprecated-declarations"]


def parse_kfd(include_dir: str) -> m.Model:
  """Every function hsakmt.h declares, in declaration order (roctracer's
  kfdap.py took the HSAKMTAPI declarations of hsakmt.h in file order). A
  ROCm without libhsakmt's header gives an empty domain."""
  found = [h for h in KFD_HEADERS if os.path.exists(os.path.join(include_dir, h))]
  if not found:
    return m.Model(domain="kfd", functions=[])
  header = os.path.join(include_dir, found[0])
  tu = cp.parse(header, KFD_ARGS + ["-I", include_dir,
                                    "-I", os.path.dirname(header)])
  accept = lambda p: os.path.abspath(p) == os.path.abspath(header)
  functions, skipped = cp.collect_functions(tu, accept)
  structs = cp.collect_structs(tu, functions)
  return m.Model(domain="kfd", functions=functions, skipped=skipped,
                 structs=structs, enums=cp.collect_enums(tu, functions, structs),
                 includes=[found[0]])


@dataclasses.dataclass(frozen=True)
class Domain:
  """One API domain of the generator. Every per-domain fact the generated
  code needs lives here; the templates and the runtime iterate over the list
  (the runtime through the generated api_domain_list.h)."""
  name: str  # file and identifier prefix: <name>_api_id.h, <NAME>_API_ID_*
  activity_domain: int  # roctracer 4.1's activity_domain_t value
  parse: Callable[[str], m.Model]
  # How IDs are derived (codegen/numbering.py): "tables" (HSA's table
  # order), "hip_prof" (HIP's own record, then names), "declaration"
  # (header declaration order).
  numbering: str
  first_id: int  # the first ID; IDs below it are reserved (HIP's NONE = 0)
  source: str  # what the generated files say they come from
  # What the public data header includes (a model may name its own:
  # Model.includes), and lines before those includes.
  includes: List[str]
  preamble: List[str] = dataclasses.field(default_factory=list)
  # Headers C cannot include whose typedefs the data header re-declares.
  private_headers: frozenset = frozenset()
  # `args` has a member (empty) for APIs without parameters, as roctracer's
  # HSA and KFD records; HIP's record has none.
  empty_args: bool = False
  # The runtime's status type, and the value of it a symbol stub returns when
  # the runtime cannot be loaded.
  status_type: Optional[str] = None
  not_initialized: Optional[str] = None
  # The handle type of the runtime's work queues (HIP's streams), whose
  # parameter the generated StreamArg finds in every API that has one.
  stream_type: Optional[str] = None


DOMAINS = [
    Domain(name="hsa", activity_domain=0, parse=parse_hsa, numbering="tables",
           first_id=0,
           source="hsa/hsa_api_trace.h (hsa.h, hsa_ext_amd.h, hsa_ext_image.h, "
           "hsa_ext_finalize.h)",
           includes=["hsa/hsa.h", "hsa/hsa_ext_amd.h", "hsa/hsa_ext_image.h",
                     "hsa/hsa_ext_finalize.h"],
           private_headers=frozenset({"hsa_api_trace.h"}), empty_args=True,
           status_type="hsa_status_t",
           not_initialized="HSA_STATUS_ERROR_NOT_INITIALIZED"),
    Domain(name="hip", activity_domain=3, parse=parse_hip, numbering="hip_prof",
           first_id=1,
           source="hip/hip_runtime_api.h, hip/hip_ext.h, "
           "hip/hip_deprecated.h and hip/amd_detail/hip_prof_str.h",
           includes=["hip/hip_runtime_api.h"],
           # hip_runtime_api.h refuses to parse unless a platform is chosen.
           preamble=["#if !defined(__HIP_PLATFORM_AMD__) && "
                     "!defined(__HIP_PLATFORM_NVIDIA__)",
                     "#define __HIP_PLATFORM_AMD__", "#endif"],
           status_type="hipError_t", not_initialized="hipErrorNotInitialized",
           stream_type="hipStream_t"),
    Domain(name="kfd", activity_domain=4, parse=parse_kfd,
           numbering="declaration", first_id=0, empty_args=True,
           source="hsakmt.h (libhsakmt, the KFD thunk)",
           includes=["hsakmt.h"],
           # libhsakmt's "the driver is not open" status.
           status_type="HSAKMT_STATUS", not_initialized="HSAKMT_STATUS_KERNEL_IO_CHANNEL_NOT_OPENED"),
]
BY_NAME = {d.name: d for d in DOMAINS}
PARSERS = {d.name: d.parse for d in DOMAINS}
