"""libclang front end: C/C++ header -> codegen.model.

Only the cursor and type APIs are used; no C text is ever matched with
regular expressions. Each libclang quirk we work around is named where it is
handled.
"""

import os
from typing import Callable, Dict, List, Optional, Tuple

import clang.cindex as ci

from codegen import model as m

DEFAULT_LIBCLANG = "/usr/lib/llvm-14/lib/libclang-14.so.1"
_loaded = False


class ParseError(Exception):
  """The header did not parse cleanly; carries clang's diagnostics."""

  def __init__(self, path: str, diagnostics: List[str]):
    super().__init__("%s: %d error(s)" % (path, len(diagnostics)))
    self.path = path
    self.diagnostics = diagnostics


def index() -> ci.Index:
  global _loaded
  if not _loaded:
    ci.Config.set_library_file(os.environ.get("LIBCLANG_PATH", DEFAULT_LIBCLANG))
    _loaded = True
  return ci.Index.create()


def parse(path: str, args: List[str], unsaved_text: Optional[str] = None,
          macros: bool = False, declarations_only: bool = False) -> ci.TranslationUnit:
  """Parses `path` (or `unsaved_text` under that name); raises ParseError
  when clang reports any error. macros: keep macro definitions as cursors.
  declarations_only: skip function bodies (then nothing is a definition)."""
  unsaved = [(path, unsaved_text)] if unsaved_text is not None else None
  options = 0
  if declarations_only:
    options |= ci.TranslationUnit.PARSE_SKIP_FUNCTION_BODIES
  if macros:
    options |= ci.TranslationUnit.PARSE_DETAILED_PROCESSING_RECORD
  try:
    tu = index().parse(path, args=args, unsaved_files=unsaved, options=options)
  except ci.TranslationUnitLoadError as e:
    raise ParseError(path, ["%s: cannot load translation unit: %s" % (path, e)])
  errors = [str(d) for d in tu.diagnostics if d.severity >= ci.Diagnostic.Error]
  if errors:
    raise ParseError(path, errors)
  return tu


_INT_KINDS = {
    ci.TypeKind.CHAR_S, ci.TypeKind.CHAR_U, ci.TypeKind.SCHAR,
    ci.TypeKind.UCHAR, ci.TypeKind.SHORT, ci.TypeKind.USHORT, ci.TypeKind.INT,
    ci.TypeKind.UINT, ci.TypeKind.LONG, ci.TypeKind.ULONG,
    ci.TypeKind.LONGLONG, ci.TypeKind.ULONGLONG, ci.TypeKind.INT128,
    ci.TypeKind.UINT128, ci.TypeKind.WCHAR, ci.TypeKind.CHAR16,
    ci.TypeKind.CHAR32
}
_FLOAT_KINDS = {
    ci.TypeKind.FLOAT, ci.TypeKind.DOUBLE, ci.TypeKind.LONGDOUBLE,
    ci.TypeKind.HALF, ci.TypeKind.FLOAT128
}
_CHAR_KINDS = {ci.TypeKind.CHAR_S, ci.TypeKind.CHAR_U}
_FUNCTION_KINDS = {ci.TypeKind.FUNCTIONPROTO, ci.TypeKind.FUNCTIONNOPROTO}


def _kind_of(canonical: ci.Type) -> str:
  k = canonical.kind
  if k == ci.TypeKind.VOID:
    return "void"
  if k == ci.TypeKind.BOOL:
    return "bool"
  if k in _INT_KINDS:
    return "int"
  if k in _FLOAT_KINDS:
    return "float"
  if k == ci.TypeKind.ENUM:
    return "enum"
  if k == ci.TypeKind.RECORD:
    return "record"
  if k == ci.TypeKind.POINTER:
    return "pointer"
  if k == ci.TypeKind.CONSTANTARRAY:
    return "array"
  if k in _FUNCTION_KINDS:
    return "function"
  return "other"


def _unqualified_spelling(t: ci.Type) -> str:
  # libclang 14's Python binding has no "unqualified type"; clang prints
  # qualifiers of a non-pointer type as a prefix, so drop that prefix.
  s = t.spelling
  for q in ("const ", "volatile "):
    while s.startswith(q):
      s = s[len(q):]
  return s


def record_key(t: ci.Type) -> Optional[str]:
  """A C++-valid name for a complete, non-union struct type, else None."""
  canonical = t.get_canonical()
  if canonical.kind != ci.TypeKind.RECORD:
    return None
  decl = canonical.get_declaration()
  if decl.kind != ci.CursorKind.STRUCT_DECL or canonical.get_size() <= 0:
    return None  # unions, classes, incomplete (opaque) structs
  name = _unqualified_spelling(canonical)
  if "(" in name:  # anonymous struct: clang prints "(unnamed struct at ...)"
    name = _unqualified_spelling(t)
  return name


def enum_key(t: ci.Type) -> Optional[str]:
  """A C++-valid name for an enum type, else None."""
  canonical = t.get_canonical()
  if canonical.kind != ci.TypeKind.ENUM:
    return None
  name = _unqualified_spelling(canonical)
  if "(" in name:  # anonymous enum: use the typedef name
    name = _unqualified_spelling(t)
  return name


def describe(t: ci.Type) -> m.CType:
  canonical = t.get_canonical()
  ct = m.CType(spelling=t.spelling, canonical=canonical.spelling,
               kind=_kind_of(canonical))
  if ct.kind == "record":
    ct.record = record_key(t)
  elif ct.kind == "enum":
    ct.enum = enum_key(t)
  elif ct.kind == "array":
    elem = canonical.get_array_element_type()
    ct.array_size = canonical.get_array_size()
    ct.element = "char" if elem.kind in _CHAR_KINDS else _kind_of(elem)
  elif ct.kind == "pointer":
    depth = 0
    cur = t
    while True:
      # A typedef'd pointer (hipStream_t) is not a POINTER itself: step
      # through its canonical type, but keep sugar for the pointee's name.
      ptr = cur if cur.kind == ci.TypeKind.POINTER else cur.get_canonical()
      if ptr.kind != ci.TypeKind.POINTER:
        break
      depth += 1
      pointee = ptr.get_pointee()
      if depth == 1:
        ct.pointee_const = pointee.is_const_qualified()
      if pointee.get_canonical().kind in _FUNCTION_KINDS:
        ct.function_pointer = True
        cur = pointee
        break
      cur = pointee
    ct.pointer_depth = depth
    ct.pointee = _unqualified_spelling(cur)
    ct.pointee_kind = "function" if ct.function_pointer else _kind_of(
        cur.get_canonical())
    if ct.pointee_kind == "record":
      ct.record = record_key(cur)
    elif ct.pointee_kind == "enum":
      ct.enum = enum_key(cur)
    ct.is_string = (depth == 1 and ct.pointee_const and
                    cur.get_canonical().kind in _CHAR_KINDS)
  return ct


def _is_out_param(ct: m.CType) -> bool:
  # Out-parameter rule (documented in codegen/README.md): a pointer whose
  # first-level pointee is writable and is something a printer could
  # dereference (not void, not a function, not an opaque struct).
  if ct.kind != "pointer" or ct.pointee_const or ct.function_pointer:
    return False
  if ct.pointer_depth >= 2:
    return True  # T** out: the callee stores a pointer
  if ct.pointee_kind == "void":
    return False
  if ct.pointee_kind == "record" and ct.record is None:
    return False  # opaque handle such as ihipStream_t*
  return True


_EXPR_KINDS_IGNORED = {ci.CursorKind.TYPE_REF, ci.CursorKind.TEMPLATE_REF,
                       ci.CursorKind.NAMESPACE_REF, ci.CursorKind.PARM_DECL,
                       ci.CursorKind.ANNOTATE_ATTR, ci.CursorKind.UNEXPOSED_ATTR,
                       ci.CursorKind.VISIBILITY_ATTR}


def _has_default(parm: ci.Cursor) -> bool:
  # HIP's defaults come from the __dparm(x) macro, whose token extent libclang
  # cuts short, so look at child expressions instead of tokens. An array
  # parameter also carries its size as a child expression: discount those.
  exprs = [c for c in parm.get_children()
           if c.kind.is_expression() and c.kind not in _EXPR_KINDS_IGNORED]
  array_dims = 0
  t = parm.type
  while t.kind in (ci.TypeKind.CONSTANTARRAY, ci.TypeKind.INCOMPLETEARRAY,
                   ci.TypeKind.VARIABLEARRAY, ci.TypeKind.DEPENDENTSIZEDARRAY):
    array_dims += 1
    t = t.get_array_element_type()
  return len(exprs) > array_dims


def _decayed(t: ci.Type) -> m.CType:
  """An array parameter is a pointer to its element (C's decay rule); libclang
  reports the type as declared, which a stored copy could not be assigned."""
  elem = describe(t.get_array_element_type())
  ct = m.CType(spelling=elem.spelling + " *", canonical=elem.canonical + " *",
               kind="pointer", pointer_depth=1 + elem.pointer_depth,
               pointee=elem.pointee or elem.spelling,
               pointee_kind=elem.pointee_kind or elem.kind,
               pointee_const=t.get_array_element_type().is_const_qualified(),
               record=elem.record)
  return ct


_ARRAY_KINDS = {ci.TypeKind.CONSTANTARRAY, ci.TypeKind.INCOMPLETEARRAY}


def function_from_cursor(c: ci.Cursor) -> m.Function:
  params = []
  for i, a in enumerate(c.get_arguments()):
    declared_as = None
    if a.type.kind in _ARRAY_KINDS:
      ct, declared_as = _decayed(a.type), a.type.spelling
    else:
      ct = describe(a.type)
    params.append(m.Param(index=i, name=a.spelling or "arg%d" % i, type=ct,
                          has_default=_has_default(a), out=_is_out_param(ct),
                          declared_as=declared_as))
  return m.Function(
      name=c.spelling, return_type=describe(c.result_type), params=params,
      header=os.path.basename(c.location.file.name),
      deprecated=c.availability == ci.AvailabilityKind.DEPRECATED)


def _skip_reason(c: ci.Cursor, keep_cxx_linkage: bool) -> Optional[str]:
  if c.kind == ci.CursorKind.FUNCTION_TEMPLATE:
    return "C++ template: no C symbol to intercept"
  if c.storage_class == ci.StorageClass.STATIC:
    return "static (inline) function: no exported symbol"
  if c.mangled_name and c.mangled_name != c.spelling and not keep_cxx_linkage:
    return "C++ linkage: exported only as a mangled symbol"
  if c.type.kind == ci.TypeKind.FUNCTIONPROTO and c.type.is_function_variadic():
    return "variadic: arguments cannot be forwarded"
  return None


def _namespace_scope(cursor: ci.Cursor):
  # walk_preorder() would also visit class members, template instantiations
  # and function bodies; only declarations at namespace scope can be APIs.
  for c in cursor.get_children():
    if c.kind in (ci.CursorKind.LINKAGE_SPEC, ci.CursorKind.NAMESPACE,
                  ci.CursorKind.UNEXPOSED_DECL):
      yield from _namespace_scope(c)
    else:
      yield c


def collect_functions(
    tu: ci.TranslationUnit, accept_file: Callable[[str], bool],
    keep_cxx_linkage: bool = False
) -> Tuple[List[m.Function], List[m.Skipped]]:
  """Free functions declared in accepted files, in declaration order.

  keep_cxx_linkage: keep C++-linkage functions (marked c_linkage=False) when
  they are reached another way than by symbol, e.g. through an HSA table slot.
  """
  functions: Dict[str, m.Function] = {}
  signatures: Dict[str, str] = {}
  skipped: List[m.Skipped] = []
  seen_skips = set()
  for c in _namespace_scope(tu.cursor):
    if c.kind not in (ci.CursorKind.FUNCTION_DECL,
                      ci.CursorKind.FUNCTION_TEMPLATE):
      continue
    if c.location.file is None or not accept_file(c.location.file.name):
      continue
    header = os.path.basename(c.location.file.name)
    reason = _skip_reason(c, keep_cxx_linkage)
    if reason is None and c.spelling in functions:
      if signatures[c.spelling] == c.type.spelling:
        continue  # a plain redeclaration
      reason = "overload of a C function: only the C declaration is traced"
    if reason is not None:
      if (c.spelling, reason) not in seen_skips:
        seen_skips.add((c.spelling, reason))
        skipped.append(m.Skipped(name=c.spelling, header=header, reason=reason))
      continue
    f = function_from_cursor(c)
    f.c_linkage = not c.mangled_name or c.mangled_name == c.spelling
    if not f.c_linkage:
      f.symbol = c.mangled_name
    functions[c.spelling] = f
    signatures[c.spelling] = c.type.spelling
  return list(functions.values()), skipped


def collect_structs(tu: ci.TranslationUnit,
                    functions: List[m.Function]) -> Dict[str, m.Struct]:
  """Every complete struct reachable from parameters, and their by-value fields."""
  by_name: Dict[str, ci.Type] = {}
  wanted = []
  for f in functions:
    for p in f.params:
      if p.type.record:
        wanted.append(p.type.record)
  # Resolve names back to libclang types by scanning struct declarations.
  decls: Dict[str, ci.Cursor] = {}
  for c in tu.cursor.walk_preorder():
    if c.kind in (ci.CursorKind.STRUCT_DECL, ci.CursorKind.TYPEDEF_DECL):
      key = record_key(c.type if c.kind == ci.CursorKind.STRUCT_DECL
                       else c.underlying_typedef_type)
      if key and key not in decls:
        decls[key] = c
  structs: Dict[str, m.Struct] = {}
  while wanted:
    key = wanted.pop()
    if key in structs or key not in decls:
      continue
    c = decls[key]
    t = c.type if c.kind == ci.CursorKind.STRUCT_DECL else c.underlying_typedef_type
    decl = t.get_canonical().get_declaration()
    fields = []
    for fc in decl.get_children():
      if fc.kind != ci.CursorKind.FIELD_DECL or not fc.spelling:
        continue  # anonymous struct/union members are not printed
      ft = describe(fc.type)
      fields.append(m.Field(name=fc.spelling, type=ft, bitfield=fc.is_bitfield()))
      if ft.kind == "record" and ft.record:
        wanted.append(ft.record)
    structs[key] = m.Struct(name=key, fields=fields)
    by_name[key] = t
  return dict(sorted(structs.items()))


def collect_enums(tu: ci.TranslationUnit, functions: List[m.Function],
                  structs: Dict[str, m.Struct]) -> Dict[str, m.Enum]:
  """Every enum type used by a parameter or a printed struct field."""
  wanted = {p.type.enum for f in functions for p in f.params if p.type.enum}
  wanted |= {fl.type.enum for s in structs.values() for fl in s.fields
             if fl.type.enum}
  enums: Dict[str, m.Enum] = {}
  for c in tu.cursor.walk_preorder():
    if c.kind == ci.CursorKind.ENUM_DECL:
      key = enum_key(c.type)
    elif c.kind == ci.CursorKind.TYPEDEF_DECL:
      key = enum_key(c.underlying_typedef_type)
    else:
      continue
    if key not in wanted or key in enums:
      continue
    decl = (c if c.kind == ci.CursorKind.ENUM_DECL else
            c.underlying_typedef_type.get_canonical().get_declaration())
    if not decl.is_definition():
      continue
    constants, seen = [], set()
    for e in decl.get_children():
      if e.kind == ci.CursorKind.ENUM_CONSTANT_DECL and e.enum_value not in seen:
        seen.add(e.enum_value)
        constants.append([e.spelling, e.enum_value])
    enums[key] = m.Enum(name=key, constants=constants)
  return dict(sorted(enums.items()))


def in_directory(directory: str) -> Callable[[str], bool]:
  # Compare the paths clang opened, not their targets: a Bazel sandbox
  # symlinks each header separately.
  root = os.path.abspath(directory) + os.sep

  def accept(path: str) -> bool:
    return os.path.abspath(path).startswith(root)

  return accept


def function_renames(tu: ci.TranslationUnit, accept_file: Callable[[str], bool],
                     functions: List[m.Function]) -> Dict[str, str]:
  """`#define old new` where `new` is a declared function and `old` is not:
  HIP 6 renames APIs this way (hipGetDeviceProperties ->
  hipGetDevicePropertiesR0600) while the library still exports `old` for
  binaries built against older headers. Returns old -> new."""
  names = {f.name for f in functions}
  out = {}
  for c in tu.cursor.get_children():
    if c.kind != ci.CursorKind.MACRO_DEFINITION or c.location.file is None:
      continue
    if not accept_file(c.location.file.name) or c.spelling in names:
      continue
    tokens = [t.spelling for t in c.get_tokens()]
    if len(tokens) == 2 and tokens[1] in names:
      out[c.spelling] = tokens[1]
  return out
