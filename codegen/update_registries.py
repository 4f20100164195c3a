"""Rewrites the committed ID registries after a ROCm upgrade.

  bazel run //codegen:update_registries [-- --include-dir /opt/rocm/include]

New APIs get the next free IDs (in header/table order), vanished ones keep
their ID and are marked reserved; nothing is ever renumbered. With --seed, a
missing registry is first seeded: HIP from HIP's own HIP_API_ID_* values in
hip/amd_detail/hip_prof_str.h, HSA from the dispatch-table slot order.
"""

import argparse
import os
import sys
from typing import List

import clang.cindex as ci

from codegen import clang_parse
from codegen import domains
from codegen import naming
from codegen import registry


def seed_hip(include_dir: str) -> List[registry.Entry]:
  """HIP_API_ID_<name> = N from hip_prof_str.h (read through libclang)."""
  # hip_prof_str.h only parses inside hip_runtime_api.h, which includes it
  # when USE_PROF_API is set.
  path = os.path.join(include_dir, "hip", "hip_runtime_api.h")
  tu = clang_parse.parse(path, domains.HIP_ARGS + ["-I", include_dir,
                                                   "-DUSE_PROF_API=1"])
  entries = []
  for c in tu.cursor.walk_preorder():
    if c.kind == ci.CursorKind.ENUM_DECL and c.spelling == "hip_api_id_t":
      for e in c.get_children():
        name = e.spelling[len("HIP_API_ID_"):]
        if e.enum_value <= 0 or name in ("FIRST", "LAST", "NONE"):
          continue  # markers, and names HIP maps to NONE (untraced)
        entries.append(registry.Entry(e.enum_value, name,
                                      name.startswith("RESERVED_")))
      break
  return entries


def seed_hsa(include_dir: str) -> List[registry.Entry]:
  mdl = domains.parse_hsa(include_dir)
  return [registry.Entry(i, f.name) for i, f in enumerate(mdl.functions)]


SEEDERS = {"hip": seed_hip, "hsa": seed_hsa}


def update(domain: str, include_dir: str, path: str, seed: bool) -> registry.MergeResult:
  if os.path.exists(path):
    entries = registry.load(path)
  elif seed:
    entries = SEEDERS[domain](include_dir)
  else:
    raise registry.RegistryError("%s does not exist (use --seed)" % path)
  mdl = domains.PARSERS[domain](include_dir)
  result = registry.merge(entries, [f.name for f in mdl.functions],
                          naming.FIRST_ID[domain])
  text = registry.dump(result.entries, domain)
  tmp = path + ".tmp"
  with open(tmp, "w") as f:
    f.write(text)
  os.replace(tmp, path)
  return result


def main(argv=None) -> int:
  ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
  ap.add_argument("--include-dir", default=os.environ.get("ROCM_INCLUDE_DIR",
                                                          "/usr/include"))
  ap.add_argument("--registry-dir", default=None,
                  help="default: codegen/registry of the workspace")
  ap.add_argument("--domain", action="append", choices=sorted(domains.PARSERS))
  ap.add_argument("--seed", action="store_true")
  args = ap.parse_args(argv)
  reg_dir = args.registry_dir or os.path.join(
      os.environ.get("BUILD_WORKSPACE_DIRECTORY", "."), "codegen", "registry")
  for d in args.domain or sorted(domains.PARSERS):
    path = os.path.join(reg_dir, "%s_api.txt" % d)
    try:
      r = update(d, args.include_dir, path, args.seed)
    except (clang_parse.ParseError, registry.RegistryError) as e:
      print("update_registries: %s: %s" % (d, e), file=sys.stderr)
      for diag in getattr(e, "diagnostics", []):
        print("  " + diag, file=sys.stderr)
      return 1
    print("%s: %d added, %d newly reserved, %d revived -> %s" %
          (path, len(r.added), len(r.reserved), len(r.revived),
           ", ".join(e.name for e in r.added[:10]) or "-"))
  return 0


if __name__ == "__main__":
  sys.exit(main())
