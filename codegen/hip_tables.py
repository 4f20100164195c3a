"""HIP's dispatch tables: hip/amd_detail/hip_api_trace.hpp, read with libclang.

HIP >= 6.1 ships this header: the structs through which libamdhip64 hands
its entry points to a profiler, one function pointer per API, appended at the
end of a struct whenever HIP adds an API (never reordered). rocprofiler-sdk
numbers its HIP_RUNTIME_API and HIP_COMPILER_API operations by slot in
HipDispatchTable and HipCompilerDispatchTable, so the SDK front end reads the
same slots to give the same numbers (codegen/sdk_kinds.py).
"""

import os
from typing import Dict, List, Optional

import clang.cindex as ci

from codegen import clang_parse as cp

HEADER = os.path.join("hip", "amd_detail", "hip_api_trace.hpp")
RUNTIME_TABLE = "HipDispatchTable"
COMPILER_TABLE = "HipCompilerDispatchTable"
SLOT_SUFFIX = "_fn"

# The header is not self-contained: it names types of hip_deprecated.h
# (hipDeviceProp_tR0000) and of the OpenGL interop header, which needs GL's
# GLuint/GLenum (not installed here; both are `unsigned int` in GL/gl.h).
PRELUDE = [
    "typedef unsigned int GLuint;",
    "typedef unsigned int GLenum;",
]
NEEDED = ["hip/hip_runtime_api.h", "hip/hip_deprecated.h",
          "hip/hip_gl_interop.h"]


def path(include_dir: str) -> str:
  return os.path.join(include_dir, HEADER)


def _slots(struct: ci.Cursor) -> List[str]:
  # Slot names from the member names, not their types: HIP 6 renames some
  # APIs by macro (`#define hipChooseDevice hipChooseDeviceR0600`) and the
  # macro reaches the typedef names but not the `hipChooseDevice_fn` token,
  # which is also the name rocprofiler-sdk gives the operation.
  out = []
  for f in struct.get_children():
    if f.kind != ci.CursorKind.FIELD_DECL or f.spelling == "size":
      continue
    name = f.spelling
    if not name.endswith(SLOT_SUFFIX):
      raise cp.ParseError(HEADER, ["%s member %s is not a <api>_fn slot" %
                                   (struct.spelling, name)])
    out.append(name[:-len(SLOT_SUFFIX)])
  return out


def parse(include_dir: str, args: List[str]) -> Optional[Dict[str, List[str]]]:
  """Table name -> API names in slot order; None when the installed HIP
  ships no hip_api_trace.hpp (HIP < 6.1)."""
  if not os.path.exists(path(include_dir)):
    return None
  lines = list(PRELUDE)
  lines += ["#include <%s>" % h for h in NEEDED
            if os.path.exists(os.path.join(include_dir, h))]
  lines.append("#include <%s>" % HEADER)
  main = os.path.join(include_dir, "hip", "__hip_api_trace_main.cc")
  tu = cp.parse(main, args + ["-I", include_dir],
                unsaved_text="\n".join(lines) + "\n", declarations_only=True)
  structs = {c.spelling: c for c in tu.cursor.get_children()
             if c.kind == ci.CursorKind.STRUCT_DECL and c.is_definition()}
  tables = {}
  for name in (RUNTIME_TABLE, COMPILER_TABLE):
    if name not in structs:
      raise cp.ParseError(HEADER, ["struct %s is not defined" % name])
    tables[name] = _slots(structs[name])
  return tables
