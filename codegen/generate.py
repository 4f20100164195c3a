"""Generates the per-API code of one or more domains.

  generate.py --include-dir /usr/include --templates templates --out-dir OUT \
      --domain hsa --exports hsa=nm.txt

IDs follow the headers (codegen/numbering.py); <domain>_api_ids.txt records
them for the golden test of each supported release.

Every output is rendered in memory first and written only when all domains
parsed and rendered, so a header that fails to parse leaves nothing behind
(exit status 1, clang's diagnostics on stderr).
"""

import argparse
import os
import sys
import tempfile
from typing import Dict, Optional, Set

from codegen import clang_parse
from codegen import domains
from codegen import model as m
from codegen import naming
from codegen import numbering
from codegen import render


SOURCES = {d.name: d.source for d in domains.DOMAINS}


def release(include_dir: str) -> Optional[str]:
  """`hip-5.2.21153`: the installed HIP's version (hip/hip_version.h), which
  names the ROCm release whose headers are read; None without that header."""
  parts = {}
  try:
    with open(os.path.join(include_dir, "hip", "hip_version.h")) as f:
      for line in f:
        words = line.split()
        if len(words) == 3 and words[0] == "#define" and words[1] in (
            "HIP_VERSION_MAJOR", "HIP_VERSION_MINOR", "HIP_VERSION_PATCH"):
          parts[words[1]] = words[2]
  except OSError:
    return None
  if len(parts) != 3:
    return None
  return "hip-%s.%s.%s" % (parts["HIP_VERSION_MAJOR"], parts["HIP_VERSION_MINOR"],
                           parts["HIP_VERSION_PATCH"])


def read_exports(path: str) -> Set[str]:
  """Defined dynamic symbols from `nm -D --defined-only` output."""
  names = set()
  with open(path) as f:
    for line in f:
      parts = line.split()
      if len(parts) == 3 and parts[1] in ("T", "W", "i"):
        names.add(parts[2].split("@", 1)[0])
  return names


def read_export_versions(path: str) -> Dict[str, str]:
  """Symbol -> version node (`hipMalloc@@hip_4.2` -> hip_4.2) of the
  defined dynamic symbols; unversioned symbols are absent."""
  versions = {}
  with open(path) as f:
    for line in f:
      parts = line.split()
      if len(parts) == 3 and parts[1] in ("T", "W", "i") and "@" in parts[2]:
        name, _, version = parts[2].partition("@")
        versions[name] = version.lstrip("@")
  return versions


def read_soname(path: str) -> Optional[str]:
  """The SONAME in a file holding it alone (objdump -p, see codegen/BUILD)."""
  with open(path) as f:
    text = f.read().strip()
  return text or None


def plan_domain(domain: str, mdl: m.Model, exports: Optional[Set[str]],
                source: str, export_versions: Optional[Dict[str, str]] = None,
                release_name: Optional[str] = None,
                soname: Optional[str] = None) -> render.Plan:
  entries = numbering.for_domain(mdl, naming.FIRST_ID[domain])
  return render.Plan(mdl, entries, exports, source, export_versions,
                     release_name, soname)


def write_all(out_dir: str, files: Dict[str, str]) -> None:
  os.makedirs(out_dir, exist_ok=True)
  staged = []
  for name, text in files.items():
    fd, tmp = tempfile.mkstemp(prefix="." + name, dir=out_dir)
    with os.fdopen(fd, "w") as f:
      f.write(text)
    staged.append((tmp, os.path.join(out_dir, name)))
  for tmp, final in staged:
    os.chmod(tmp, 0o644)
    os.replace(tmp, final)


def main(argv=None) -> int:
  ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
  ap.add_argument("--include-dir", default="/usr/include")
  ap.add_argument("--templates", required=True)
  ap.add_argument("--out-dir", required=True)
  ap.add_argument("--domain", action="append", choices=sorted(domains.PARSERS),
                  help="repeatable; default: all domains")
  ap.add_argument("--exports", action="append", default=[],
                  help="domain=FILE with `nm -D --defined-only` output of the "
                  "domain's library; symbol wrappers are emitted only for those")
  ap.add_argument("--soname", action="append", default=[],
                  help="domain=FILE holding the SONAME of the domain's "
                  "library; the symbol stubs load it when no other "
                  "definition is in the process")
  ap.add_argument("--dump-model", action="store_true",
                  help="also write <domain>_model.json")
  args = ap.parse_args(argv)

  exports = {}
  export_versions = {}
  for spec in args.exports:
    d, _, path = spec.partition("=")
    exports[d] = read_exports(path)
    export_versions[d] = read_export_versions(path)
  sonames = {}
  for spec in args.soname:
    d, _, path = spec.partition("=")
    sonames[d] = read_soname(path)
  env = render.environment(args.templates)
  files = {}
  generated = [d.name for d in domains.DOMAINS
               if not args.domain or d.name in args.domain]
  for d in generated:
    try:
      mdl = domains.PARSERS[d](args.include_dir)
    except clang_parse.ParseError as e:
      print("generate: cannot parse %s headers (%s); nothing written:" % (d, e),
            file=sys.stderr)
      for diag in e.diagnostics:
        print("  " + diag, file=sys.stderr)
      return 1
    source = SOURCES[d]
    rel = release(args.include_dir)
    plan = plan_domain(d, mdl, exports.get(d), source, export_versions.get(d),
                       rel, sonames.get(d))
    files.update(render.render(env, plan))
    files["%s_api_ids.txt" % d] = numbering.record(
        numbering.for_domain(mdl, naming.FIRST_ID[d]), d, rel)
    if args.dump_model:
      files["%s_model.json" % d] = m.to_json(mdl)
  listed = [dict(name=d, D=d.upper(), const=naming.domain_const(d),
                 value=naming.DOMAIN_VALUES[d]) for d in generated]
  for name in ("api_domain_list.h", "api_domain_tables.h"):
    files[name] = env.get_template(name + ".j2").render(domains=listed)
  write_all(args.out_dir, files)
  return 0


if __name__ == "__main__":
  sys.exit(main())
