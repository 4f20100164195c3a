#!/usr/bin/env python3
"""Writes a C source (also valid C++) that checks the project's
rocprofiler-sdk headers against a reference ABI listing.

The listing has one entity per line: `struct NAME size=S align=A file=F:
field@offset ...`, `enum NAME file=F: ENUMERATOR=value ...` or
`function NAME`. Every struct's size, alignment and field offsets and every
enum's enumerator values become one row of a table the program compares at
run time, so one run reports every difference, not just the first. An entity
the headers lack is a compile error, which fails the test as well.

The exclusions file names what is not compared, one per line, each with its
reason: `file PATH reason...` (every entity declared in that header) or
`entity NAME reason...`. A line `bitfields NAME reason...` says the struct's
fields are bit-fields, which offsetof cannot take: each field's byte offset
is found instead by setting the field to 1 in a zeroed struct and finding
the byte that changed; `bitfield NAME.FIELD reason...` says it of one field
of a struct that mixes bit-fields with ordinary fields. A line
`tag NAME reason...` says NAME is a struct or enum tag without a typedef of
that name (as in the libraries' own headers): C spells it `struct NAME` or
`enum NAME`. An exclusion that
matches nothing is an error, so
the list cannot go stale. Inner anonymous structs and unions, and fields
the listing shows as `<anon>@-1`, cannot be named from C and are counted,
not compared.
"""

import argparse
import re
import sys


def parse_reference(path):
  entities = []
  functions = []
  with open(path) as f:
    for line in f:
      line = line.rstrip("\n")
      if not line or line.startswith("#"):
        continue
      kind, rest = line.split(" ", 1)
      if kind == "function":
        functions.append(rest.strip())
        continue
      head, _, body = rest.partition(": ")
      tokens = head.split(" ")
      name = tokens[0]
      attrs = dict(t.split("=", 1) for t in tokens[1:] if "=" in t)
      # Names of inner anonymous records contain spaces:
      # "outer::(anonymous union at file:line:col)".
      if "::(" in rest.split(" file=")[0]:
        name = rest.split(" size=")[0]
        attrs = dict(
            t.split("=", 1) for t in rest[len(name):].split(": ")[0].split()
            if "=" in t)
      entities.append({
          "kind": kind,
          "name": name,
          "file": attrs.get("file", ""),
          "size": attrs.get("size"),
          "align": attrs.get("align"),
          "members": body.split() if body else [],
      })
  return entities, functions


def parse_exclusions(path):
  files, names, bitfields, fields, tags = {}, {}, {}, {}, {}
  with open(path) as f:
    for number, line in enumerate(f, 1):
      line = line.strip()
      if not line or line.startswith("#"):
        continue
      parts = line.split(None, 2)
      if len(parts) < 3 or parts[0] not in ("file", "entity", "bitfields",
                                            "bitfield", "tag"):
        sys.exit("%s:%d: expected 'file PATH reason', 'entity NAME reason', "
                 "'bitfields NAME reason', 'bitfield NAME.FIELD reason' or "
                 "'tag NAME reason'" % (path, number))
      {"file": files, "entity": names, "bitfields": bitfields,
       "bitfield": fields, "tag": tags}[parts[0]][parts[1]] = parts[2]
  return files, names, bitfields, fields, tags


def c_string(s):
  return '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'


def main():
  parser = argparse.ArgumentParser()
  parser.add_argument("--reference", required=True)
  parser.add_argument("--exclusions", required=True)
  parser.add_argument("--out", required=True)
  args = parser.parse_args()

  entities, functions = parse_reference(args.reference)
  excluded_files, excluded_names, bitfields, bitfield_fields, tags = (
      parse_exclusions(args.exclusions))
  seen_files = {e["file"] for e in entities}
  seen_names = {e["name"] for e in entities}
  stale = [f for f in excluded_files if f not in seen_files]
  stale += [n for n in excluded_names if n not in seen_names]
  stale += [n for n in bitfields if n not in seen_names]
  stale += [n for n in tags if n not in seen_names]
  seen_fields = {
      e["name"] + "." + m.rpartition("@")[0] for e in entities
      for m in e["members"]
  }
  stale += [f for f in bitfield_fields if f not in seen_fields]
  if stale:
    sys.exit("exclusions matching nothing in the reference: " +
             ", ".join(stale))

  rows = []
  headers = set()
  skipped = []  # (name, reason) printed by the program
  anonymous = 0
  probes = []  # (struct, bit-field, expected byte offset)
  for e in entities:
    name = e["name"]
    if e["file"] in excluded_files:
      skipped.append((name, excluded_files[e["file"]]))
      continue
    if name in excluded_names:
      skipped.append((name, excluded_names[name]))
      continue
    if "::(" in name:
      anonymous += 1
      continue
    headers.add(e["file"])
    if e["kind"] == "struct":
      ctype = "ABI_TAG(%s)" % name if name in tags else name
      rows.append(("sizeof(%s)" % name, e["size"], "sizeof(%s)" % ctype))
      rows.append(("alignof(%s)" % name, e["align"], "ABI_ALIGNOF(%s)" % ctype))
      for member in e["members"]:
        field, _, offset = member.rpartition("@")
        if offset == "-1":
          anonymous += 1
          continue
        if name in bitfields or name + "." + field in bitfield_fields:
          probes.append((name, ctype, field, offset))
          continue
        rows.append(("offsetof(%s, %s)" % (name, field), offset,
                     "offsetof(%s, %s)" % (ctype, field)))
    else:
      # The enum's type must exist (sizeof fails otherwise); its values are
      # compared one by one.
      etype = "ABI_ENUM_TAG(%s)" % name if name in tags else name
      rows.append(("enum %s declared" % name, "1",
                   "sizeof(%s) > 0" % etype))
      for member in e["members"]:
        enumerator, _, value = member.rpartition("=")
        rows.append((enumerator, value, enumerator))

  out = []
  out.append("/* Generated by tests/sdk/abi/gen_abi_check.py from %s. */" %
             args.reference.split("/")[-1])
  out.append("#include <stddef.h>")
  out.append("#include <stdio.h>")
  out.append("#include <string.h>")
  out.append("")
  for h in sorted(headers):
    out.append("#include <%s>" % h)
  out.append("")
  out.append("#ifdef __cplusplus")
  out.append("#define ABI_ALIGNOF(T) alignof(T)")
  out.append("#define ABI_TAG(T) T")
  out.append("#define ABI_ENUM_TAG(T) T")
  out.append("#else")
  out.append("#define ABI_ALIGNOF(T) _Alignof(T)")
  out.append("#define ABI_TAG(T) struct T")
  out.append("#define ABI_ENUM_TAG(T) enum T")
  out.append("#endif")
  out.append("")
  out.append("struct abi_row {")
  out.append("  const char* what;")
  out.append("  long long expected;")
  out.append("  long long actual;")
  out.append("};")
  out.append("")
  out.append("static const struct abi_row kRows[] = {")
  for what, expected, actual in rows:
    out.append("    {%s, %sLL, (long long)(%s)}," % (c_string(what), expected,
                                                     actual))
  out.append("};")
  out.append("")
  out.append("static const char* const kSkipped[][2] = {")
  for name, reason in skipped:
    out.append("    {%s, %s}," % (c_string(name), c_string(reason)))
  out.append("    {NULL, NULL}};")
  out.append("")
  out.append("/* The byte holding a bit-field's lowest bit; -1 if none. */")
  out.append("static long long first_set_byte(const void* p, size_t n) {")
  out.append("  const unsigned char* b = (const unsigned char*)p;")
  out.append("  size_t i;")
  out.append("  for (i = 0; i < n; ++i) {")
  out.append("    if (b[i] != 0) return (long long)i;")
  out.append("  }")
  out.append("  return -1;")
  out.append("}")
  out.append("")
  out.append("int main(void) {")
  out.append("  size_t i, mismatches = 0, skipped = 0;")
  for struct, ctype, field, offset in probes:
    out.append("  {")
    out.append("    %s probe;" % ctype)
    out.append("    long long at;")
    out.append("    memset(&probe, 0, sizeof(probe));")
    out.append("    probe.%s = 1;" % field)
    out.append("    at = first_set_byte(&probe, sizeof(probe));")
    out.append("    if (at != %sLL) {" % offset)
    out.append('      printf("MISMATCH byte of bit-field %s.%s: reference %s, '
               'headers %%lld\\n", at);' % (struct, field, offset))
    out.append("      ++mismatches;")
    out.append("    }")
    out.append("  }")
  out.append("  for (i = 0; i < sizeof(kRows) / sizeof(kRows[0]); ++i) {")
  out.append("    if (kRows[i].expected != kRows[i].actual) {")
  out.append('      printf("MISMATCH %s: reference %lld, headers %lld\\n",')
  out.append("             kRows[i].what, kRows[i].expected, kRows[i].actual);")
  out.append("      ++mismatches;")
  out.append("    }")
  out.append("  }")
  out.append("  for (i = 0; kSkipped[i][0] != NULL; ++i) {")
  out.append('    printf("not compared: %s (%s)\\n", kSkipped[i][0],'
             " kSkipped[i][1]);")
  out.append("    ++skipped;")
  out.append("  }")
  out.append('  printf("%zu checks, %zu mismatches; %zu entities not compared, '
             '%d anonymous members not nameable from C\\n",')
  out.append("         sizeof(kRows) / sizeof(kRows[0]) + %d, mismatches, skipped,"
             " %d);" % (len(probes), anonymous))
  out.append("  return mismatches == 0 ? 0 : 1;")
  out.append("}")
  with open(args.out, "w") as f:
    f.write("\n".join(out) + "\n")


if __name__ == "__main__":
  main()
