"""Naming rules of the rocprofiler-sdk view of the generated API model.

The SDK splits our two API domains into callback-tracing kinds, and numbers
each kind's operations from 0. Every rule of that split lives here:

* HSA: one kind per HsaApiTable sub-table; an operation's number is its slot
  in that table (the order ROCR's dispatch tables, and the SDK, use).
* HIP, where the installed HIP ships hip/amd_detail/hip_api_trace.hpp
  (HIP >= 6.1): rocprofiler-sdk's rule, an operation's number is its slot in
  HipDispatchTable (runtime kind) or HipCompilerDispatchTable (compiler
  kind), named after the slot. Every slot is an operation, traced or not (a
  slot whose function the headers do not declare, e.g. the compiler's
  __hipRegister*, never fires); a traced API without a slot (__hipGetPCH) is
  not an operation of either kind, as in rocprofiler-sdk. HIP only appends
  slots, so numbers never change when the table grows.
* HIP without that header (ROCm 5.2.3): our rule, no SDK release supports
  it. The compiler kind holds the `__hip*` entry points, the runtime kind
  every other traced API; both numbered 0..n-1 in roctracer-ID order (the
  installed hip_prof_str.h's, see codegen/numbering.py).
* Either way, rocprofiler-sdk 1.0.0's HIP runtime operations the installed
  HIP lacks (rocprofiler_sdk_1_0_0_hip_runtime_ops.txt: e.g.
  hipModuleLaunchCooperativeKernel before HIP 5.5) follow the installed
  ones, in 1.0.0's order, named and never firing like an undeclared slot,
  so that a tool naming any of 1.0.0's enumerators compiles. With the
  dispatch table they take the numbers 1.0.0 gives them (HIP only appends
  slots); without it, numbers of our own.
"""

import os

import re
from typing import Dict, List, Optional

from codegen import hip_tables

# HsaApiTable sub-table -> (enum type, enumerator prefix, kind constant).
HSA_TABLE_KINDS = {
    "CoreApiTable": ("rocprofiler_hsa_core_api_id_t", "ROCPROFILER_HSA_CORE_API_ID_",
                     "HSA_CORE_API"),
    "AmdExtTable": ("rocprofiler_hsa_amd_ext_api_id_t",
                    "ROCPROFILER_HSA_AMD_EXT_API_ID_", "HSA_AMD_EXT_API"),
    "ImageExtTable": ("rocprofiler_hsa_image_ext_api_id_t",
                      "ROCPROFILER_HSA_IMAGE_EXT_API_ID_", "HSA_IMAGE_EXT_API"),
    "FinalizerExtTable": ("rocprofiler_hsa_finalize_ext_api_id_t",
                          "ROCPROFILER_HSA_FINALIZE_EXT_API_ID_",
                          "HSA_FINALIZE_EXT_API"),
}
HIP_RUNTIME = ("rocprofiler_hip_runtime_api_id_t", "ROCPROFILER_HIP_RUNTIME_API_ID_",
               "HIP_RUNTIME_API")
HIP_COMPILER = ("rocprofiler_hip_compiler_api_id_t",
                "ROCPROFILER_HIP_COMPILER_API_ID_", "HIP_COMPILER_API")


def is_hip_compiler_api(name: str) -> bool:
  return name.startswith("__hip")


def c_type(spelling: str) -> str:
  """clang's `hsa_agent_t **` -> the header's `hsa_agent_t**`."""
  s = re.sub(r"\s+\*", "*", spelling)
  s = re.sub(r"\*\s+(?=[\*\)])", "*", s)
  return s


def op_dict(name: str, f: Optional[Dict], depths: Dict[str, List[int]]):
  """Operation `name`, traced as generator function `f` (None: untraced).
  `depths`: API name -> pointer depth of each parameter (from the model)."""
  if f is None:
    return dict(name=name, id_enum=None, params=[])
  return dict(name=name, id_enum=f["enum"], params=[
      dict(name=p["name"], type=c_type(p["spelling"]),
           indirection=depths[f["name"]][i])
      for i, p in enumerate(f["params"])])


def kind_dict(enum_type: str, prefix: str, kind: str, ops: List[Dict]):
  return dict(enum_type=enum_type, prefix=prefix, kind=kind,
              ident=kind.lower(), ops=ops)


def pointer_depths(mdl) -> Dict[str, List[int]]:
  return {f.name: [p.type.pointer_depth for p in f.params]
          for f in mdl.functions}


def hsa_kinds(plan, mdl, _tables=None) -> List[Dict]:
  depths = pointer_depths(mdl)
  by_table = {t["name"]: t for t in plan.tables}
  out = []
  for table, (enum_type, prefix, kind) in HSA_TABLE_KINDS.items():
    fns = by_table[table]["functions"] if table in by_table else []
    out.append(kind_dict(enum_type, prefix, kind,
                         [op_dict(f["name"], f, depths) for f in fns]))
  return out


SDK_1_0_0_HIP_RUNTIME_OPS = os.path.join(
    os.path.dirname(os.path.abspath(__file__)),
    "rocprofiler_sdk_1_0_0_hip_runtime_ops.txt")


def sdk_1_0_0_hip_runtime_ops(path: str = SDK_1_0_0_HIP_RUNTIME_OPS) -> List[str]:
  with open(path) as f:
    return [l.strip() for l in f if l.strip() and not l.startswith("#")]


def with_missing_ops(ops: List[Dict], known: List[str]) -> List[Dict]:
  """`ops` followed by an untraced operation for each name of `known` that
  neither an operation nor an alias of one's function already names."""
  have = {op["name"] for op in ops}
  return ops + [op_dict(n, None, {}) for n in known if n not in have]


def hip_kinds(plan, mdl, tables: Optional[Dict[str, List[str]]]) -> List[Dict]:
  """`tables`: hip_tables.parse's (None without hip_api_trace.hpp)."""
  depths = pointer_depths(mdl)
  live = plan.functions
  sdk_ops = sdk_1_0_0_hip_runtime_ops()
  aliases = {a for f in live for a in f["aliases"]}
  # A 1.0.0 name the installed HIP traces under its renamed function
  # (hipChooseDevice as hipChooseDeviceR0600) is not missing.
  sdk_ops = [n for n in sdk_ops if n not in aliases or tables]
  if tables:
    # A slot names the API as the header spells it before HIP 6's renames
    # (hipChooseDevice), our function the renamed one (hipChooseDeviceR0600,
    # with the old name as alias).
    by_name = {f["name"]: f for f in live}
    for f in live:
      for a in f["aliases"]:
        by_name.setdefault(a, f)
    return [
        kind_dict(*HIP_RUNTIME, with_missing_ops(
            [op_dict(n, by_name.get(n), depths)
             for n in tables[hip_tables.RUNTIME_TABLE]], sdk_ops)),
        kind_dict(*HIP_COMPILER, [op_dict(n, by_name.get(n), depths)
                                  for n in tables[hip_tables.COMPILER_TABLE]]),
    ]
  return [
      kind_dict(*HIP_RUNTIME, with_missing_ops(
          [op_dict(f["name"], f, depths) for f in live
           if not is_hip_compiler_api(f["name"])], sdk_ops)),
      kind_dict(*HIP_COMPILER, [op_dict(f["name"], f, depths) for f in live
                                if is_hip_compiler_api(f["name"])]),
  ]
