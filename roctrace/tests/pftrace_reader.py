"""A reader of Perfetto's protobuf trace for the fields roctrace writes.

Decodes the wire format directly (no protobuf package is needed): the
Trace's packets, their track descriptors, per-sequence interned names,
packet defaults (default track, timestamp clock) and incremental clocks,
flow IDs, and rebuilds each track's slices from its begin/end events in timestamp
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


Slice = collections.namedtuple("Slice",
                               "track name start end correlation_id args",
                               defaults=({},))


class _Sequence:
  """A packet sequence's incremental state, as the trace processor keeps it:
  interned names, packet defaults and sequence-scoped clocks."""

  def __init__(self):
    self.names = {}
    self.categories = {}
    self.annotation_names = {}
    self.default_clock = None
    self.default_track = None
    self.clocks = {}  # clock id -> [value, incremental, offset to BOOTTIME]


BOOTTIME = 6


class Trace:

  def __init__(self, data, allow_truncated=False):
    self.tracks = {}  # uuid -> dict(name, parent, pid, tid, thread_name)
    self.process = {}
    self.events = []  # (ts, order, track, type, name, (corr, other args))
    self.flows = collections.defaultdict(list)  # flow id -> [(track, ts)]
    # Packets that read their sequence's incremental state (interned iids,
    # the defaults' track or incremental clock) without setting
    # SEQ_NEEDS_INCREMENTAL_STATE (sequence_flags bit 2), which Perfetto's
    # readers need to skip packets whose state they did not see.
    self.unflagged = 0
    sequences = {}
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
      top = {}
      for f, _, v in fields(packet):
        top[f] = v
      seq_id = top.get(10, 0)
      if top.get(13, 0) & 1 or seq_id not in sequences:
        sequences[seq_id] = _Sequence()  # incremental state cleared
      seq = sequences[seq_id]
      if 12 in top:
        for ff, _, entry in fields(top[12]):
          kv = {a: b for a, _, b in fields(entry)}
          if ff == 2:
            seq.names[kv[1]] = kv[2].decode()
          elif ff == 1:
            seq.categories[kv[1]] = kv[2].decode()
          elif ff == 3:
            seq.annotation_names[kv[1]] = kv[2].decode()
      if 59 in top:
        d = {a: b for a, _, b in fields(top[59])}
        seq.default_clock = d.get(58, seq.default_clock)
        if 11 in d:
          ted = {a: b for a, _, b in fields(d[11])}
          seq.default_track = ted.get(11, seq.default_track)
      if 6 in top:
        clocks = []
        for ff, _, c in fields(top[6]):
          if ff == 1:
            clocks.append({a: b for a, _, b in fields(c)})
        boot = [c.get(2, 0) for c in clocks if c.get(1) == BOOTTIME]
        for c in clocks:
          if c.get(1, 0) >= 64:
            offset = boot[0] - c.get(2, 0) if boot else 0
            seq.clocks[c[1]] = [c.get(2, 0), bool(c.get(3)), offset]
      flags = top.get(13, 0)
      reads_state = 11 in top or (
          8 in top and top.get(58, seq.default_clock or BOOTTIME) >= 64)
      if reads_state and not flags & 2:
        self.unflagged += 1
      ts = None
      if 8 in top:
        clock = top.get(58, seq.default_clock or BOOTTIME)
        if clock >= 64:
          state = seq.clocks[clock]
          if state[1]:
            state[0] += top[8]
            ts = state[0] + state[2]
          else:
            ts = top[8] + state[2]
        else:
          ts = top[8]
      if 60 in top:
        desc = {}
        for ff, _, vv in fields(top[60]):
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
      if 11 in top:
        ev = {}
        args = {}
        flows = []
        for ff, _, vv in fields(top[11]):
          if ff == 4:
            ann = {a: b for a, _, b in fields(vv)}
            args[seq.annotation_names.get(ann.get(1))] = ann.get(3)
          elif ff == 47:
            flows.append(vv)
          else:
            ev[ff] = vv
        name = seq.names.get(ev.get(10))
        track = ev.get(11, seq.default_track)
        for flow in flows:
          self.flows[flow].append((track, ts, name))
        corr = args.pop("correlation_id", None)
        self.events.append((ts, order, track, ev.get(9), name, (corr, args)))
        order += 1

  def slices(self):
    """Slices per track, nesting checked: an end closes the innermost open
    slice of its track."""
    out = []
    stacks = collections.defaultdict(list)
    # Ends sort before begins at equal timestamps, as a zero-gap sequence
    # of calls must not nest; an end with nothing open at its time closes a
    # zero-length slice that begins at that same time (deferred past it).
    deferred = collections.Counter()  # (ts, track) -> ends waiting
    for ts, _, track, typ, name, (corr, args) in sorted(
        self.events, key=lambda e: (e[0], 0 if e[3] == 2 else 1, e[1])):
      if typ == 1:
        stacks[track].append((name, ts, corr, args))
        if deferred[(ts, track)]:
          deferred[(ts, track)] -= 1
          name, start, corr, args = stacks[track].pop()
          out.append(Slice(track, name, start, ts, corr, args))
      elif typ == 2:
        if not stacks[track]:
          deferred[(ts, track)] += 1
          continue
        name, start, corr, args = stacks[track].pop()
        out.append(Slice(track, name, start, ts, corr, args))
      elif typ == 3:
        out.append(Slice(track, name, ts, ts, corr, args))
    self.unclosed = sum(len(s) for s in stacks.values()) + sum(deferred.values())
    return out
