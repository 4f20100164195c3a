"""Naming rules of the rocprofiler-sdk view of the generated API model.

The SDK splits our two API domains into callback-tracing kinds, and numbers
each kind's operations from 0. Every rule of that split lives here:

* HSA: one kind per HsaApiTable sub-table; an operation's number is its slot
  in that table (the order ROCR's dispatch tables, and the SDK, use).
* HIP: the compiler kind holds the `__hip*` entry points, the runtime kind
  every other live API; both in roctracer-ID order, so an API keeps its
  number as long as the registry only grows at the end.
"""

import re
from typing import Dict, List

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


def kind_dict(enum_type: str, prefix: str, kind: str, functions: List[Dict],
              depths: Dict[str, List[int]]):
  """`depths`: API name -> pointer depth of each parameter (from the model)."""
  return dict(enum_type=enum_type, prefix=prefix, kind=kind,
              ident=kind.lower(),
              ops=[dict(name=f["name"], id_enum=f["enum"], params=[
                  dict(name=p["name"], type=c_type(p["spelling"]),
                       indirection=depths[f["name"]][i])
                  for i, p in enumerate(f["params"])]) for f in functions])


def pointer_depths(mdl) -> Dict[str, List[int]]:
  return {f.name: [p.type.pointer_depth for p in f.params]
          for f in mdl.functions}


def hsa_kinds(plan, mdl) -> List[Dict]:
  depths = pointer_depths(mdl)
  by_table = {t["name"]: t for t in plan.tables}
  out = []
  for table, (enum_type, prefix, kind) in HSA_TABLE_KINDS.items():
    fns = by_table[table]["functions"] if table in by_table else []
    out.append(kind_dict(enum_type, prefix, kind, fns, depths))
  return out


def hip_kinds(plan, mdl) -> List[Dict]:
  depths = pointer_depths(mdl)
  live = plan.functions
  return [
      kind_dict(*HIP_RUNTIME,
                [f for f in live if not is_hip_compiler_api(f["name"])], depths),
      kind_dict(*HIP_COMPILER,
                [f for f in live if is_hip_compiler_api(f["name"])], depths),
  ]
