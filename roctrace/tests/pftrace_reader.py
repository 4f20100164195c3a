"""A reader of Perfetto's protobuf trace for the fields roctrace writes.

Decodes the wire format directly (no protobuf package is needed): the
Trace's packets, their track descriptors, interned names and track events,
and rebuilds each track's slices from its begin/end events in timestamp
order, as Perfetto's trace processor does.
"""

import collections


def _varint(buf, i):
  shift = value = 0
  while True:
    b = buf[i]
    i += 1
    value |= (b & 0x7F) << shift
    if not b & 0x80:
      return value, i
    shift += 7


def fields(buf):
  """Yields (field number, wire type, value) of one message."""
  i = 0
  while i < len(buf):
    key, i = _varint(buf, i)
    field, wire = key >> 3, key & 7
    if wire == 0:
      value, i = _varint(buf, i)
    elif wire == 2:
      n, i = _varint(buf, i)
      value = bytes(buf[i:i + n])
      if len(value) != n:
        raise ValueError("truncated field %d" % field)
      i += n
    elif wire == 1:
      value = int.from_bytes(buf[i:i + 8], "little")
      i += 8
    elif wire == 5:
      value = int.from_bytes(buf[i:i + 4], "little")
      i += 4
    else:
      raise ValueError("wire type %d" % wire)
    yield field, wire, value


Slice = collections.namedtuple("Slice", "track name start end correlation_id")


class Trace:

  def __init__(self, data, allow_truncated=False):
    self.tracks = {}  # uuid -> dict(name, parent, pid, tid, thread_name)
    self.process = {}
    self.events = []  # (ts, order, track, type, name, corr)
    names = {}
    categories = {}
    order = 0
    try:
      packets = [v for f, _, v in fields(data) if f == 1]
    except (ValueError, IndexError):
      if not allow_truncated:
        raise
      packets = []
      i = 0
      while i < len(data):
        try:
          key, j = _varint(data, i)
          n, j = _varint(data, j)
        except IndexError:
          break
        if key != (1 << 3 | 2) or j + n > len(data):
          break
        packets.append(data[j:j + n])
        i = j + n
    for packet in packets:
      ts = None
      flags = 0
      for f, _, v in fields(packet):
        if f == 8:
          ts = v
        elif f == 13:
          flags = v
        elif f == 12:
          for ff, _, entry in fields(v):
            kv = {a: b for a, _, b in fields(entry)}
            if ff == 2:
              names[kv[1]] = kv[2].decode()
            elif ff == 1:
              categories[kv[1]] = kv[2].decode()
      if flags & 1:
        pass  # incremental state cleared: fresh interning follows
      for f, _, v in fields(packet):
        if f == 60:
          desc = {}
          for ff, _, vv in fields(v):
            if ff == 1:
              desc["uuid"] = vv
            elif ff == 2:
              desc["name"] = vv.decode()
            elif ff == 5:
              desc["parent"] = vv
            elif ff == 3:
              p = {a: b for a, _, b in fields(vv)}
              desc["pid"] = p.get(1)
              self.process = {"pid": p.get(1),
                              "name": p.get(6, b"").decode()}
            elif ff == 4:
              t = {a: b for a, _, b in fields(vv)}
              desc["pid"], desc["tid"] = t.get(1), t.get(2)
              desc["thread_name"] = t.get(5, b"").decode()
          self.tracks[desc["uuid"]] = desc
        elif f == 11:
          ev = {}
          corr = None
          for ff, _, vv in fields(v):
            if ff == 4:
              ann = {a: b for a, _, b in fields(vv)}
              corr = ann.get(3)
            else:
              ev[ff] = vv
          name = names.get(ev.get(10))
          self.events.append((ts, order, ev.get(11), ev.get(9), name, corr))
          order += 1

  def slices(self):
    """Slices per track, nesting checked: an end closes the innermost open
    slice of its track."""
    out = []
    stacks = collections.defaultdict(list)
    # Ends sort before begins at equal timestamps, as a zero-gap sequence
    # of calls must not nest.
    for ts, _, track, typ, name, corr in sorted(
        self.events, key=lambda e: (e[0], 0 if e[3] == 2 else 1, e[1])):
      if typ == 1:
        stacks[track].append((name, ts, corr))
      elif typ == 2:
        name, start, corr = stacks[track].pop()
        out.append(Slice(track, name, start, ts, corr))
      elif typ == 3:
        out.append(Slice(track, name, ts, ts, corr))
    self.unclosed = sum(len(s) for s in stacks.values())
    return out
