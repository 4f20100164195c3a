"""Generates the rocprofiler-sdk view of the HSA and HIP API model.

  sdk_generate.py --include-dir /usr/include --templates templates --out-dir OUT

Same parse and numbering as generate.py, plus HIP's dispatch tables where
the release ships them (hip_tables.py); the kind split and operation
numbering are codegen/sdk_kinds.py's. Writes nothing unless every domain
parsed (exit status 1 with clang's diagnostics otherwise).
"""

import argparse
import os
import sys

from codegen import clang_parse
from codegen import domains
from codegen import generate
from codegen import hip_tables
from codegen import render
from codegen import sdk_kinds
from codegen import sdk_retvals


def sdk_args_members(plan, mdl):
  """The SDK's args union: roctracer's members (same layout), then, where
  roctracer's has none (HIP's record leaves parameterless APIs out), a
  member for each API without parameters, holding `no_args` as
  rocprofiler-sdk's does. Those are 1 byte: the union's size is unchanged."""
  members = list(plan.common["args_members_list"])
  names = {a["name"] for a in members}
  for f in mdl.functions:
    if not f.params and f.name not in names:
      members.append(dict(name=f.name, fields=[]))
      names.add(f.name)
  return members


def main(argv=None) -> int:
  ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
  ap.add_argument("--include-dir", default="/usr/include")
  ap.add_argument("--templates", required=True)
  ap.add_argument("--out-dir", required=True)
  args = ap.parse_args(argv)

  env = render.environment(args.templates)
  ctx_domains = []
  files = {}
  for d, kinds_of in (("hsa", sdk_kinds.hsa_kinds), ("hip", sdk_kinds.hip_kinds)):
    try:
      mdl = domains.PARSERS[d](args.include_dir)
      # HIP's dispatch tables number the SDK's HIP operations (HIP >= 6.1).
      tables = (hip_tables.parse(args.include_dir, domains.HIP_ARGS)
                if d == "hip" else None)
    except clang_parse.ParseError as e:
      print("sdk_generate: cannot parse %s headers (%s); nothing written:" %
            (d, e), file=sys.stderr)
      for diag in e.diagnostics:
        print("  " + diag, file=sys.stderr)
      return 1
    plan = generate.plan_domain(d, mdl, None, generate.SOURCES[d])
    kinds = kinds_of(plan, mdl, tables)
    ctx = dict(plan.common, kinds=kinds, Cap=d.capitalize(),
               sdk_retvals=sdk_retvals.retvals(d, mdl),
               sdk_args_members=sdk_args_members(plan, mdl))
    ctx_domains.append(ctx)
    files["rocprofiler-sdk/%s/api_id.h" % d] = env.get_template(
        "sdk_api_id.h.j2").render(**ctx)
    files["rocprofiler-sdk/%s/api_args.h" % d] = env.get_template(
        "sdk_api_args.h.j2").render(**ctx)
  for name, template in (("sdk_op_tables.h", "sdk_op_tables.h.j2"),
                         ("sdk_op_tables.cc", "sdk_op_tables.cc.j2"),
                         ("sdk_arg_expectations.txt",
                          "sdk_arg_expectations.txt.j2")):
    files[name] = env.get_template(template).render(domains=ctx_domains)
  for sub in sorted({os.path.dirname(n) for n in files}):
    generate.write_all(os.path.join(args.out_dir, sub),
                       {os.path.basename(n): t for n, t in files.items()
                        if os.path.dirname(n) == sub})
  return 0


if __name__ == "__main__":
  sys.exit(main())
