"""roctrace end to end: the real command traces a plain program (no tracing
code in it) and the outputs are read back with sqlite3, a protobuf wire
reader and the csv module."""

import collections
import csv
import glob
import json
import os
import pty
import re
import signal
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
import unittest

import pftrace_reader

ROCTRACE, PROGRAM, GPU_PROGRAM, GPU_KERNELS, CLIENT_PROGRAM, \
    HIP_STREAMS_PROGRAM = [os.path.abspath(p) for p in sys.argv[1:7]]
# "gpu": only GpuProgram and HipStreams, which drive the tracer through
# softhsa (built with the installed ROCm's table layout); "host": everything
# else.
PART = sys.argv[7]
del sys.argv[1:8]

# tempfile's directories go in one directory under $TEST_TMPDIR (Bazel's
# folder for the test; /tmp when run by hand), removed at exit.
_SCRATCH = tempfile.TemporaryDirectory(prefix="roctrace_test_",
                                       dir=os.environ.get("TEST_TMPDIR"))
tempfile.tempdir = _SCRATCH.name

API_CATEGORIES = ("HIP_RUNTIME_API_EXT", "HSA_CORE_API")


def run(args, cwd, env=None, timeout=120):
  return subprocess.run(args, cwd=cwd, env=env, stdout=subprocess.PIPE,
                        stderr=subprocess.PIPE, universal_newlines=True,
                        timeout=timeout)


def regions(db):
  con = sqlite3.connect(db)
  try:
    return con.execute(
        "SELECT category, name, pid, tid, start, \"end\", corr_id "
        "FROM regions").fetchall()
  finally:
    con.close()


def metadata(db):
  con = sqlite3.connect(db)
  try:
    return dict(con.execute("SELECT tag, value FROM rocpd_metadata"))
  finally:
    con.close()


def query_db(db, sql):
  con = sqlite3.connect(db)
  try:
    return con.execute(sql).fetchall()
  finally:
    con.close()


def json_op_name(tool, record):
  """A JSON record's operation name, as rocprofv3's readers look it up:
  strings.buffer_records indexed by the record's kind, then its operation."""
  kind = tool["strings"]["buffer_records"][record["kind"]]
  return kind["operations"][record["operation"]]


def read_csv(path):
  with open(path, newline="") as f:
    return list(csv.DictReader(f))


def assert_nested(test, intervals):
  """Intervals of one track: each pair is disjoint or one contains the
  other."""
  stack = []
  for start, end, name in sorted(intervals, key=lambda x: (x[0], -x[1])):
    while stack and stack[-1][1] <= start:
      stack.pop()
    if stack:
      test.assertLessEqual(end, stack[-1][1],
                           "%s overlaps %s" % (name, stack[-1][2]))
    stack.append((start, end, name))


class TraceSample(unittest.TestCase):
  """The sample mode with every output format: the outputs agree."""

  @classmethod
  def setUpClass(cls):
    cls.dir = tempfile.mkdtemp()
    cls.p = run([ROCTRACE, "--sys-trace", "--stats", "--summary",
                 "--output-format", "rocpd", "pftrace", "csv",
                 "-d", "out", "-o", "run", "--", PROGRAM, "sample"], cls.dir)
    cls.out = os.path.join(cls.dir, "out")
    cls.db = os.path.join(cls.out, "run_results.db")

  def test_runs_and_names_the_files_as_rocprofv3(self):
    self.assertEqual(self.p.returncode, 0, self.p.stderr)
    for suffix in ("_results.db", "_results.pftrace", "_hip_api_trace.csv",
                   "_hsa_api_trace.csv", "_marker_api_trace.csv",
                   "_hip_api_stats.csv", "_hsa_api_stats.csv",
                   "_marker_api_stats.csv", "_domain_stats.csv"):
      self.assertTrue(os.path.exists(os.path.join(self.out, "run" + suffix)),
                      suffix)

  def test_files_keep_no_blocks_past_their_end(self):
    # Blocks are reserved ahead of the writes (a megabyte and more); the
    # program exits without the tracer closing its files: what was reserved
    # past their ends is given back all the same.
    for suffix in ("_results.db", "_results.pftrace", "_hip_api_trace.csv"):
      st = os.stat(os.path.join(self.out, "run" + suffix))
      self.assertLessEqual(st.st_blocks * 512, (st.st_size + 4095) // 4096 *
                           4096, suffix)

  def test_every_event_has_start_end_process_thread(self):
    rows = regions(self.db)
    self.assertTrue(rows)
    pids = {r[2] for r in rows}
    self.assertEqual(len(pids), 1)
    for cat, name, pid, tid, start, end, corr in rows:
      self.assertLessEqual(start, end, name)
      self.assertGreater(tid, 0)
      self.assertGreater(corr, 0)

  def test_counts_equal_the_programs_calls(self):
    counts = collections.Counter((r[0], r[1]) for r in regions(self.db))
    self.assertEqual(counts[("HIP_RUNTIME_API_EXT", "hipGetDeviceCount")], 1)
    self.assertEqual(counts[("HIP_RUNTIME_API_EXT", "hipGetErrorString")], 1)
    self.assertEqual(counts[("HSA_CORE_API", "hsa_system_get_info")], 1)
    # One hsa_init of the program's own, more made by libamdhip64.
    self.assertGreaterEqual(counts[("HSA_CORE_API", "hsa_init")], 1)
    # rocprofv3's kind of marks and ranges alike.
    self.assertEqual(counts[("MARKER_CORE_RANGE_API", "start")], 1)
    for marker in ("outer", "inner"):
      self.assertEqual(counts[("MARKER_CORE_RANGE_API", marker)], 1, marker)

  def test_marker_events_carry_their_message(self):
    # rocprofv3's extdata of marker events, read as the rocpd package reads
    # it.
    con = sqlite3.connect(self.db)
    rows = con.execute(
        "SELECT name, json_extract(extdata, '$.message') FROM regions "
        "WHERE category LIKE 'MARKER%'").fetchall()
    others = con.execute(
        "SELECT COUNT(*) FROM regions WHERE category NOT LIKE 'MARKER%' AND "
        "extdata != '{}'").fetchone()[0]
    con.close()
    self.assertEqual(sorted(rows), [("inner", "inner"), ("outer", "outer"),
                                    ("start", "start")])
    self.assertEqual(others, 0)

  def test_slices_nest_per_thread(self):
    by_track = collections.defaultdict(list)
    for cat, name, pid, tid, start, end, corr in regions(self.db):
      track = (tid, cat.startswith("MARKER_"))
      by_track[track].append((start, end, name))
    for intervals in by_track.values():
      assert_nested(self, intervals)
    # The ranges nest as pushed, and hsa_system_get_info ran inside "inner".
    rows = {r[1]: r for r in regions(self.db)}
    self.assertLessEqual(rows["outer"][4], rows["inner"][4])
    self.assertGreaterEqual(rows["outer"][5], rows["inner"][5])
    self.assertLessEqual(rows["inner"][4], rows["hsa_system_get_info"][4])
    self.assertGreaterEqual(rows["inner"][5], rows["hsa_system_get_info"][5])

  def test_csv_equals_the_database(self):
    from_csv = set()
    for suffix in ("_hip_api_trace.csv", "_hsa_api_trace.csv",
                   "_marker_api_trace.csv"):
      for row in read_csv(os.path.join(self.out, "run" + suffix)):
        self.assertEqual(list(row)[:7], [
            "Domain", "Function", "Process_Id", "Thread_Id",
            "Correlation_Id", "Start_Timestamp", "End_Timestamp"])
        from_csv.add((row["Domain"], row["Function"], int(row["Process_Id"]),
                      int(row["Thread_Id"]), int(row["Start_Timestamp"]),
                      int(row["End_Timestamp"]), int(row["Correlation_Id"])))
    self.assertEqual(from_csv, set(regions(self.db)))

  def test_stats_agree_with_the_csv(self):
    rows = read_csv(os.path.join(self.out, "run_hsa_api_trace.csv"))
    durations = collections.defaultdict(list)
    for r in rows:
      durations[r["Function"]].append(
          int(r["End_Timestamp"]) - int(r["Start_Timestamp"]))
    stats = read_csv(os.path.join(self.out, "run_hsa_api_stats.csv"))
    self.assertEqual(list(stats[0]), [
        "Name", "Calls", "TotalDurationNs", "AverageNs", "Percentage",
        "MinNs", "MaxNs", "StdDev"])  # exactly rocprofv3's
    total = sum(sum(d) for d in durations.values())
    self.assertEqual({s["Name"] for s in stats}, set(durations))
    for s in stats:
      d = durations[s["Name"]]
      self.assertEqual(int(s["Calls"]), len(d))
      self.assertEqual(int(s["TotalDurationNs"]), sum(d))
      self.assertEqual(int(s["MinNs"]), min(d))
      self.assertEqual(int(s["MaxNs"]), max(d))
      self.assertAlmostEqual(float(s["Percentage"]), 100.0 * sum(d) / total,
                             places=3)
      # rocprofv3's StdDev is the sample's (n - 1), 0 for one call.
      expected = statistics.stdev(d) if len(d) > 1 else 0.0
      self.assertAlmostEqual(float(s["StdDev"]), expected,
                             delta=max(1e-5 * expected, 1e-3))
    # On the standard output, as rocprofv3 1.0.0 prints it by default.
    self.assertIn("ROCPROFV3 SUMMARY:", self.p.stdout)
    self.assertIn("    | hsa_system_get_info", self.p.stdout)
    self.assertNotIn("SUMMARY", self.p.stderr)

  def test_failed_calls_are_counted(self):
    # Without a GPU, hipGetDeviceCount returns hipErrorNoDevice (the program
    # prints it); hipGetErrorString returns a string, never a failure.
    self.assertIn("hipGetDeviceCount 100,", self.p.stdout)
    # In roctrace's own file, every API operation called: rocprofv3's stats
    # tables keep exactly its columns.
    failures = read_csv(os.path.join(self.out, "run_api_failures.csv"))
    self.assertEqual(list(failures[0]),
                     ["Domain", "Name", "Calls", "FailedCalls"])
    hip = {r["Name"]: r for r in failures if r["Domain"] == "HIP_API"}
    self.assertEqual((hip["hipGetDeviceCount"]["Calls"],
                      hip["hipGetDeviceCount"]["FailedCalls"]), ("1", "1"))
    self.assertEqual(hip["hipGetErrorString"]["FailedCalls"], "0")
    self.assertEqual(
        {r["Name"] for r in failures if r["Domain"] == "HSA_API"},
        {r["Name"] for r in read_csv(
            os.path.join(self.out, "run_hsa_api_stats.csv"))})
    for name in ("hip_api", "hsa_api", "domain"):
      with open(os.path.join(self.out, "run_%s_stats.csv" % name)) as f:
        self.assertEqual(
            f.readline(), '"Name","Calls","TotalDurationNs","AverageNs",'
            '"Percentage","MinNs","MaxNs","StdDev"\n')

  def test_timeline_agrees_with_the_database(self):
    with open(os.path.join(self.out, "run_results.pftrace"), "rb") as f:
      trace = pftrace_reader.Trace(f.read())
    slices = trace.slices()
    self.assertEqual(trace.unclosed, 0)
    # Every event packet says it needs its sequence's interned state.
    self.assertEqual(trace.unflagged, 0)
    from_trace = {(s.name, s.start, s.end, s.correlation_id) for s in slices}
    from_db = {(r[1], r[4], r[5], r[6]) for r in regions(self.db)}
    self.assertEqual(from_trace, from_db)
    # API slices sit on their thread's track, markers on a child of it.
    pid = regions(self.db)[0][2]
    self.assertEqual(trace.process["pid"], pid)
    for s in slices:
      track = trace.tracks[s.track]
      if s.name in ("start", "outer", "inner"):
        self.assertIn(track["parent"], trace.tracks)
        self.assertIn("tid", trace.tracks[track["parent"]])
      else:
        self.assertEqual(track["pid"], pid)
        self.assertIn("tid", track)

  def test_database_has_rocpd_schema_and_no_losses(self):
    con = sqlite3.connect(self.db)
    names = {r[0] for r in con.execute(
        "SELECT name FROM sqlite_master WHERE type IN ('table', 'view')")}
    for t in ("rocpd_metadata", "rocpd_string", "rocpd_info_node",
              "rocpd_info_process", "rocpd_info_thread", "rocpd_info_agent",
              "rocpd_info_queue", "rocpd_info_stream",
              "rocpd_info_kernel_symbol", "rocpd_track", "rocpd_event",
              "rocpd_arg", "rocpd_region", "rocpd_sample",
              "rocpd_kernel_dispatch", "rocpd_memory_copy",
              "rocpd_memory_allocate", "regions", "kernels", "memory_copies",
              "top_kernels", "processes", "threads"):
      self.assertIn(t, names)
    # The views that have no rows yet still run.
    for view in ("kernels", "memory_copies", "top_kernels", "threads"):
      con.execute("SELECT * FROM %s" % view).fetchall()
    con.close()
    meta = metadata(self.db)
    self.assertEqual(meta["schema_version"], "3")
    self.assertEqual(meta["roctrace.finished"], "1")
    losses = {k: v for k, v in meta.items() if k.startswith("roctrace.lost.")}
    self.assertIn("roctrace.lost.dropped_records", losses)
    self.assertEqual(set(losses.values()), {"0"})


class ApiArguments(unittest.TestCase):
  """rocpd_arg: every argument of the program's calls, as rocprofv3 records
  them (position, type, name, value), read through upstream's views."""

  ARGS_SQL = ("SELECT R.name, EA.arg_position, EA.arg_type, EA.arg_name, "
              "EA.arg_value FROM regions R "
              "JOIN events_args EA ON EA.event_id = R.event_id "
              "WHERE R.name IN ('hipSetDevice', 'hipMalloc', 'hipMemcpy', "
              "'hipFree', 'hsa_system_get_info') "
              "ORDER BY R.start, EA.arg_position")

  def trace(self, *options, env=None):
    d = tempfile.mkdtemp()
    p = run([ROCTRACE] + list(options) +
            ["-d", "out", "-o", "run", "--", PROGRAM, "args"], d, env=env)
    self.assertEqual(p.returncode, 0, p.stderr)
    return p, os.path.join(d, "out", "run_results.db")

  def test_every_argument_of_every_call(self):
    p, db = self.trace("--sys-trace")
    p_addr, dst, src, major = p.stdout.split()
    self.assertEqual(query_db(db, self.ARGS_SQL), [
        ("hipSetDevice", 0, "int", "deviceId", "3"),
        ("hipMalloc", 0, "void**", "ptr", p_addr),
        ("hipMalloc", 1, "unsigned long", "size", "4096"),
        ("hipMemcpy", 0, "void*", "dst", dst),
        ("hipMemcpy", 1, "void const*", "src", src),
        ("hipMemcpy", 2, "unsigned long", "sizeBytes", "64"),
        ("hipMemcpy", 3, "hipMemcpyKind", "kind", "hipMemcpyHostToDevice"),
        ("hipFree", 0, "void*", "ptr", "NULL"),
        ("hsa_system_get_info", 0, "hsa_system_info_t", "attribute",
         "HSA_SYSTEM_INFO_VERSION_MAJOR"),
        ("hsa_system_get_info", 1, "void*", "value", major),
    ])
    # upstream's region_args view (region, process, type, name, value).
    self.assertEqual(
        query_db(db, "SELECT count(*) FROM region_args RA "
                 "JOIN regions R ON R.id = RA.id AND R.guid = RA.guid "
                 "WHERE R.name = 'hipMemcpy' AND RA.pid = R.pid"), [(4,)])
    # Every call with parameters has a row per parameter, positions 0..n-1
    # (hsa_init, without any, has none).
    counts = query_db(
        db, "SELECT R.name, count(A.id), "
        "coalesce(max(A.position), -1) + 1 FROM regions R "
        "LEFT JOIN rocpd_arg A ON A.event_id = R.event_id "
        "GROUP BY R.id")
    for name, rows, positions in counts:
      self.assertEqual(rows, positions, name)
      if name != "hsa_init":
        self.assertGreater(rows, 0, name)
    self.assertEqual(metadata(db)["roctrace.lost.api_args"], "0")

  def test_json_records_carry_their_arguments(self):
    """rocprofv3's JSON: each HIP call's record has `args`, a list of
    {type, name, value}, the type as rocprofiler-sdk names it (typeid)."""
    d = tempfile.mkdtemp()
    p = run([ROCTRACE, "--sys-trace", "--output-format", "json", "-d", "out",
             "-o", "run", "--", PROGRAM, "args"], d)
    self.assertEqual(p.returncode, 0, p.stderr)
    p_addr, dst, src, _ = p.stdout.split()
    with open(os.path.join(d, "out", "run_results.json")) as f:
      tool = json.load(f)["rocprofiler-sdk-tool"][0]
    calls = {}
    for section in ("hip_api", "hsa_api"):
      for r in tool["buffer_records"][section]:
        calls.setdefault(json_op_name(tool, r), []).append(r)
    self.assertEqual([r["args"] for r in calls["hipMemcpy"]], [[
        {"type": "Pv", "name": "dst", "value": dst},
        {"type": "PKv", "name": "src", "value": src},
        {"type": "m", "name": "sizeBytes", "value": "64"},
        {"type": "13hipMemcpyKind", "name": "kind",
         "value": "hipMemcpyHostToDevice"}]])
    self.assertEqual([r["args"] for r in calls["hipMalloc"]], [[
        {"type": "PPv", "name": "ptr", "value": p_addr},
        {"type": "m", "name": "size", "value": "4096"}]])
    # HSA records have none, as rocprofv3's (its HSA record is the SDK's
    # plain API record); the HSA calls' arguments are in rocpd_arg.
    self.assertNotIn("args", calls["hsa_system_get_info"][0])
    self.assertNotIn("args", calls["hsa_init"][0])

  def test_hip_compiler_calls_are_rocprofv3s_compiler_kind(self):
    """A `__hip*` call of the real libamdhip64 (the launch configuration's
    push and pop) is HIP's compiler API in every output, read back by its
    reader, named as rocprofv3 1.0.0 names its HIP records' kinds: the
    CSV's Domain and rocpd's category HIP_COMPILER_API_EXT, the JSON
    record's kind HIP_COMPILER_API_EXT (22), the runtime call beside them
    HIP_RUNTIME_API_EXT (21); the database holds no other HIP kind name,
    so rocpd readers that test for the _EXT names see every HIP call."""
    d = tempfile.mkdtemp()
    p = run([ROCTRACE, "--hip-trace", "--output-format", "csv", "rocpd",
             "json", "-d", "out", "-o", "c", "--", PROGRAM, "compiler_calls"],
            d)
    self.assertEqual(p.returncode, 0, p.stderr)
    out = os.path.join(d, "out")
    compiler = {"__hipPushCallConfiguration", "__hipPopCallConfiguration"}
    csv_kinds = {r["Function"]: r["Domain"]
                 for r in read_csv(os.path.join(out, "c_hip_api_trace.csv"))}
    self.assertEqual({f: csv_kinds.get(f) for f in compiler},
                     {f: "HIP_COMPILER_API_EXT" for f in compiler})
    self.assertEqual(csv_kinds["hipGetErrorString"], "HIP_RUNTIME_API_EXT")
    db_kinds = {r[1]: r[0] for r in regions(os.path.join(out, "c_results.db"))}
    self.assertEqual({f: db_kinds.get(f) for f in compiler},
                     {f: "HIP_COMPILER_API_EXT" for f in compiler})
    self.assertEqual(db_kinds["hipGetErrorString"], "HIP_RUNTIME_API_EXT")
    db_strings = {s for (s,) in query_db(os.path.join(out, "c_results.db"),
                                         "SELECT string FROM rocpd_string")}
    self.assertEqual({s for s in db_strings if s.startswith("HIP_")},
                     {"HIP_RUNTIME_API_EXT", "HIP_COMPILER_API_EXT"})
    with open(os.path.join(out, "c_results.json")) as f:
      tool = json.load(f)["rocprofiler-sdk-tool"][0]
    strings = tool["strings"]["buffer_records"]
    json_kinds = {json_op_name(tool, r): (r["kind"], strings[r["kind"]]["kind"])
                  for r in tool["buffer_records"]["hip_api"]}
    self.assertEqual({f: json_kinds.get(f) for f in compiler},
                     {f: (22, "HIP_COMPILER_API_EXT") for f in compiler})
    self.assertEqual(json_kinds["hipGetErrorString"],
                     (21, "HIP_RUNTIME_API_EXT"))

  def test_json_records_carry_the_returned_status(self):
    """rocprofv3's JSON: a HIP call's record has `retval`, the union's
    `uint64_t_retval`: here what the program itself saw returned, a status
    zero-extended, and for hipGetErrorString, which returns a string, the
    string's address; HSA records, the SDK's plain API record, have none."""
    d = tempfile.mkdtemp()
    p = run([ROCTRACE, "--sys-trace", "--output-format", "json", "-d", "out",
             "-o", "run", "--", PROGRAM, "statuses"], d)
    self.assertEqual(p.returncode, 0, p.stderr)
    seen = {name: int(value) for name, value in
            (line.split() for line in p.stdout.splitlines())}
    with open(os.path.join(d, "out", "run_results.json")) as f:
      tool = json.load(f)["rocprofiler-sdk-tool"][0]
    first = {}  # the program's own call: the first of its name
    for section in ("hip_api", "hsa_api"):
      for r in sorted(tool["buffer_records"][section],
                      key=lambda r: r["start_timestamp"]):
        first.setdefault(json_op_name(tool, r), r)
    for name, value in seen.items():
      if name == "hipGetErrorString":
        want = {"uint64_t_retval": value}
      elif name.startswith("hip"):
        want = {"uint64_t_retval": value & 0xFFFFFFFF}
      else:
        want = None
      self.assertEqual(first[name].get("retval"), want, name)
    self.assertTrue(any(n.startswith("hsa") for n in seen), seen)
    # Not every status is success: the comparison can tell them apart.
    self.assertGreater(len({v for n, v in seen.items()
                            if n != "hipGetErrorString"}), 1, seen)
    self.assertNotEqual(seen["hipGetLastError"], 0)
    self.assertGreater(seen["hipGetErrorString"], 0xFFFFFFFF)  # all 64 bits
    # Its argument is still written as rocprofv3 does, the result apart.
    self.assertEqual([a["name"] for a in first["hipGetErrorString"]["args"]],
                     ["hipError"])

  def test_hip_calls_only_as_rocprofv3(self):
    env = dict(os.environ, ROCTRACE_API_ARGS="hip")
    _, db = self.trace("--sys-trace", env=env)
    self.assertEqual(
        query_db(db, "SELECT DISTINCT R.category FROM regions R "
                 "JOIN rocpd_arg A ON A.event_id = R.event_id"),
        [("HIP_RUNTIME_API_EXT",)])
    self.assertEqual(
        query_db(db, "SELECT count(*) FROM regions R "
                 "JOIN rocpd_arg A ON A.event_id = R.event_id "
                 "WHERE R.name = 'hipMemcpy'"), [(4,)])

  def test_not_recorded_when_turned_off(self):
    env = dict(os.environ, ROCTRACE_API_ARGS="0")
    _, db = self.trace("--hip-trace", env=env)
    self.assertEqual(query_db(db, "SELECT count(*) FROM rocpd_arg"), [(0,)])
    self.assertEqual(
        query_db(db, "SELECT count(*) FROM regions WHERE name = 'hipMalloc'"),
        [(1,)])


class MultiThreaded(unittest.TestCase):

  def test_threads(self):
    d = tempfile.mkdtemp()
    p = run([ROCTRACE, "--hip-trace", "--marker-trace", "--output-format",
             "rocpd", "pftrace", "--perfetto-max-size", "64K", "-d", d,
             "-o", "mt", "--", PROGRAM, "threads", "4", "5000"], d)
    self.assertEqual(p.returncode, 0, p.stderr)
    rows = regions(os.path.join(d, "mt_results.db"))
    counts = collections.Counter(r[1] for r in rows)
    self.assertEqual(counts["hipGetErrorString"], 20000)
    self.assertEqual(counts["worker"], 4)
    by_tid = collections.defaultdict(list)
    for r in rows:
      by_tid[r[3]].append(r)
    workers = [t for t, rs in by_tid.items()
               if any(r[1] == "worker" for r in rs)]
    self.assertEqual(len(workers), 4)
    for tid in workers:
      calls = [r for r in by_tid[tid] if r[1] == "hipGetErrorString"]
      rng = [r for r in by_tid[tid] if r[1] == "worker"][0]
      self.assertEqual(len(calls), 5000)
      for c in calls:
        self.assertTrue(rng[4] <= c[4] <= c[5] <= rng[5])
      assert_nested(self, [(c[4], c[5], c[1]) for c in calls])
    # Split timelines: each file opens on its own, together they hold every
    # slice of the database.
    files = sorted(glob.glob(os.path.join(d, "mt_results*.pftrace")))
    self.assertGreater(len(files), 2)
    slices = []
    for path in files:
      self.assertLess(os.path.getsize(path), 64 * 1024 + 4096)
      with open(path, "rb") as f:
        trace = pftrace_reader.Trace(f.read())
      slices += trace.slices()
      self.assertEqual(trace.unclosed, 0)
      self.assertTrue(trace.process)
    self.assertEqual(
        sorted((s.name, s.start, s.end) for s in slices),
        sorted((r[1], r[4], r[5]) for r in rows))


class TracerClient(unittest.TestCase):
  """A program that is a roctracer client itself (as one with a profiler
  linked in is) under roctrace: neither loses a record to the other."""

  def test_program_and_roctrace_both_get_every_record(self):
    d = tempfile.mkdtemp()
    n = 300
    seen = os.path.join(d, "seen.txt")
    p = run([ROCTRACE, "--hip-trace", "--marker-trace", "--output-format",
             "csv", "rocpd", "-d", d, "-o", "c", "--", CLIENT_PROGRAM, str(n),
             seen], d)
    self.assertEqual(p.returncode, 0, p.stderr)
    with open(seen) as f:
      head = f.readline().split()
      program_ids = [int(line) for line in f]
    # The program's own tracing: phases A and C (stopped during B, its pool
    # closed before D), callbacks and records alike.
    self.assertEqual(head, ["records", str(2 * n), "callbacks", str(2 * n)])
    rows = [r for r in read_csv(os.path.join(d, "c_hip_api_trace.csv"))
            if r["Function"] == "hipGetErrorString"]
    # roctrace's: all four phases, whatever the program enabled, stopped,
    # disabled or closed; the same correlation IDs for the calls both saw.
    self.assertEqual(len(rows), 4 * n)
    ids = {int(r["Correlation_Id"]) for r in rows}
    self.assertEqual(len(ids), 4 * n)
    self.assertTrue(set(program_ids) <= ids)
    markers = [r["Function"] for r in
               read_csv(os.path.join(d, "c_marker_api_trace.csv"))]
    # "callback" is marked from inside the program's HIP callback.
    self.assertEqual(sorted(markers), ["a", "callback", "d"])
    db_names = collections.Counter(
        r[1] for r in regions(os.path.join(d, "c_results.db")))
    self.assertEqual(db_names["hipGetErrorString"], 4 * n)
    self.assertEqual(metadata(os.path.join(d, "c_results.db"))[
        "roctrace.lost.dropped_records"], "0")


  def test_roctx_profiler_pause_pauses_roctrace_too(self):
    # A request to any profiling tool (rocprofiler-sdk-roctx): honoured,
    # unlike the program's own roctracer_stop above.
    d = tempfile.mkdtemp()
    p = run([ROCTRACE, "--hip-trace", "--output-format", "csv", "-d", d,
             "-o", "p", "--", PROGRAM, "pause", "100"], d)
    self.assertEqual(p.returncode, 0, p.stderr)
    rows = read_csv(os.path.join(d, "p_hip_api_trace.csv"))
    self.assertEqual(
        sum(r["Function"] == "hipGetErrorString" for r in rows), 200)

  def test_selected_regions_trace_only_between_resume_and_pause(self):
    # rocprofv3's --selected-regions: collection starts paused; the program
    # makes 100 calls, pauses, 100 more, resumes, 100 more.
    d = tempfile.mkdtemp()
    p = run([ROCTRACE, "--hip-trace", "--selected-regions", "--output-format",
             "csv", "-d", d, "-o", "p", "--", PROGRAM, "pause", "100"], d)
    self.assertEqual(p.returncode, 0, p.stderr)
    rows = read_csv(os.path.join(d, "p_hip_api_trace.csv"))
    self.assertEqual(
        sum(r["Function"] == "hipGetErrorString" for r in rows), 100)


# gpu_program's work: N dispatches of each kernel, M copies, F failed
# symbol look-ups.
N, M, F = 6, 4, 3
STAMP = "stamp"
SCALE = ("gputest::scale(void const*, hsa_kernel_dispatch_packet_s const*, "
         "unsigned int, unsigned int, unsigned int)")


# The register counts of stamp and scale (VGPR, accumulation VGPR, SGPR)
# as a GPU allocates them for what tests/gpu/gpu_kernels.cc declares (37,
# 10, 20 and 104, 0, 50), from the granules of LLVM's AMDGPUUsage: on gfx90a
# VGPRs in blocks of 8 for both kinds with the architected ones rounded to
# 4, SGPRs in blocks of 16; on gfx1100 (wave32) VGPRs in blocks of 8 and
# always 128 SGPRs.
REGISTERS = {
    "gfx90a": {STAMP: (40, 16, 32), SCALE: (104, 0, 64)},
    "gfx1100": {STAMP: (40, 0, 128), SCALE: (104, 0, 128)},
}


def scratch_allocations():
  """The sizes of the scratch allocations softhsa makes for gpu_program's
  dispatches, in order (softhsa/scratch.h: a dispatch needing more than its
  queue holds gets private bytes x 64 lanes x waves, waves = the workgroup's
  64-lane waves x its resident workgroups, at most 32)."""
  sizes, held, k = [], 0, 0
  for _ in range(N):
    for workgroups in (1, 4):  # stamp: one workgroup; scale: 2 x 2 x 1
      x = k % 128 + 1
      k += 1
      slots = -(-6 * x // 64) * min(workgroups, 32)
      size = 16 * x * 64 * slots
      if size > held:
        sizes.append(size)
        held = size
  return sizes


# rocprofv3's views (rocprofiler-sdk 1.0.0's data and summary views) and
# their columns, in order: what rocpd's readers select by name.
UPSTREAM_VIEWS = {
    "code_objects": "id guid nid pid agent_abs_index uri load_base load_size "
                    "load_delta storage_type_str code_object_size "
                    "storage_type memory_base memory_size",
    "kernel_symbols": "id guid nid pid code_object_id kernel_name "
                      "display_name kernel_object kernarg_segment_size "
                      "kernarg_segment_alignment group_segment_size "
                      "private_segment_size sgpr_count arch_vgpr_count "
                      "accum_vgpr_count kernel_symbol_size kernel_id "
                      "kernel_code_entry_byte_offset formatted_kernel_name "
                      "demangled_kernel_name truncated_kernel_name "
                      "kernel_address",
    "processes": "nid machine_id system_name hostname system_release "
                 "system_version guid ppid pid init start end fini command",
    "threads": "nid machine_id system_name hostname system_release "
               "system_version guid ppid pid tid start end name",
    "regions": "id guid category name nid pid tid start end duration "
               "event_id stack_id parent_stack_id corr_id extdata "
               "call_stack line_info",
    "region_args": "id guid nid pid type name value",
    "samples": "id guid category name nid pid tid timestamp event_id "
               "stack_id parent_stack_id corr_id extdata call_stack "
               "line_info",
    "sample_regions": "id guid category name nid pid tid start end "
                      "duration event_id stack_id parent_stack_id corr_id "
                      "extdata call_stack line_info",
    "regions_and_samples": "id guid category name nid pid tid start end "
                           "duration event_id stack_id parent_stack_id "
                           "corr_id extdata call_stack line_info",
    "kernels": "id guid tid category region name nid pid agent_abs_index "
               "agent_log_index agent_type_index agent_type code_object_id "
               "kernel_id dispatch_id stream_id queue_id queue stream start "
               "end duration grid_x grid_y grid_z workgroup_x workgroup_y "
               "workgroup_z lds_size scratch_size vgpr_count "
               "accum_vgpr_count sgpr_count static_lds_size "
               "static_scratch_size stack_id parent_stack_id corr_id",
    "pmc_info": "id guid nid pid agent_abs_index is_constant is_derived "
                "name description block expression",
    "pmc_events": "id guid pmc_id event_id category name nid pid "
                  "dispatch_id start end duration counter_name "
                  "counter_value",
    "events_args": "event_id category stack_id parent_stack_id "
                   "correlation_id arg_position arg_type arg_name arg_value "
                   "call_stack line_info extdata",
    "stream_args": "argument_id event_id arg_position arg_type arg_value "
                   "stream_id nid pid stream_name extdata",
    "memory_copies": "id guid category nid pid tid start end duration name "
                     "region_name stream_id queue_id stream_name queue_name "
                     "size dst_device dst_agent_abs_index "
                     "dst_agent_log_index dst_agent_type_index "
                     "dst_agent_type dst_address src_device "
                     "src_agent_abs_index src_agent_log_index "
                     "src_agent_type_index src_agent_type src_address "
                     "stack_id parent_stack_id corr_id",
    "memory_allocations": "id guid category nid pid tid start end duration "
                          "type level agent_name agent_abs_index "
                          "agent_log_index agent_type_index agent_type "
                          "address size queue_id queue_name stream_id "
                          "stream_name stack_id parent_stack_id corr_id",
    "scratch_memory": "id guid nid pid operation agent_name agent_abs_index "
                      "agent_log_index agent_type_index agent_type queue_id "
                      "tid alloc_flags start end duration size address "
                      "correlation_id stack_id parent_stack_id corr_id "
                      "category event_extdata",
    "counters_collection": "id guid dispatch_id kernel_id event_id "
                           "correlation_id stack_id parent_stack_id pid tid "
                           "agent_id agent_abs_index agent_log_index "
                           "agent_type_index agent_type queue_id "
                           "grid_size_x grid_size_y grid_size_z grid_size "
                           "kernel_name kernel_region workgroup_size_x "
                           "workgroup_size_y workgroup_size_z "
                           "workgroup_size lds_block_size scratch_size "
                           "vgpr_count accum_vgpr_count sgpr_count "
                           "counter_name counter_symbol component "
                           "description block expression value_type "
                           "counter_id value start end is_constant "
                           "is_derived duration category nid extdata "
                           "code_object_id",
    "top_kernels": "name total_calls total_duration average percentage",
    "busy": "agent_id type GpuTime WallTime Busy",
    "top": "name total_calls total_duration average percentage",
}


def check_upstream_views(test, db):
  """Every upstream view exists with upstream's columns, in order, and
  the summary views agree with the tables they summarise."""
  con = sqlite3.connect(db)
  try:
    for view, columns in UPSTREAM_VIEWS.items():
      cur = con.execute("SELECT * FROM %s" % view)
      test.assertEqual([c[0] for c in cur.description], columns.split(),
                       view)
      cur.fetchall()
    one = lambda sql: con.execute(sql).fetchone()[0]
    test.assertEqual(
        one("SELECT SUM(total_calls) FROM top"),
        one("SELECT COUNT(*) FROM rocpd_kernel_dispatch") +
        one("SELECT COUNT(*) FROM rocpd_memory_copy") +
        one("SELECT COUNT(*) FROM rocpd_region"))
    test.assertEqual(one("SELECT COUNT(*) FROM regions_and_samples"),
                     one("SELECT COUNT(*) FROM regions"))
    test.assertEqual(one("SELECT COUNT(*) FROM kernel_symbols"),
                     one("SELECT COUNT(*) FROM rocpd_info_kernel_symbol"))
    # The names and Kernel_Id the view reads from extdata.
    test.assertEqual(
        one("SELECT COUNT(*) FROM kernel_symbols WHERE kernel_id = id AND "
            "formatted_kernel_name = display_name AND demangled_kernel_name "
            "= display_name AND truncated_kernel_name IS NOT NULL"),
        one("SELECT COUNT(*) FROM rocpd_info_kernel_symbol"))
    test.assertEqual(
        one("SELECT COUNT(*) FROM scratch_memory"),
        one("SELECT COUNT(*) FROM rocpd_memory_allocate WHERE level = "
            "'SCRATCH'"))
    test.assertEqual(one("SELECT COUNT(*) FROM memory_allocations"),
                     one("SELECT COUNT(*) FROM rocpd_memory_allocate"))
    # busy: each GPU's kernel and copy time (a copy on its destination)
    # over the span of all device work.
    # One row per agent of each process (agent ids are per process).
    busy = con.execute("SELECT agent_id, type, GpuTime, WallTime, Busy "
                       "FROM busy").fetchall()
    # (Agent row ids are each process's own: keyed with the guid.)
    spans = con.execute(
        "SELECT guid || ':' || agent_id, \"end\" - start, start, \"end\" "
        "FROM rocpd_kernel_dispatch UNION ALL SELECT guid || ':' || "
        "dst_agent_id, \"end\" - start, start, \"end\" FROM "
        "rocpd_memory_copy").fetchall()
    expected = collections.Counter()
    for agent, duration, _, _ in spans:
      expected[agent] += duration
    test.assertEqual(len(busy), len(expected))
    test.assertEqual(sum(b[2] for b in busy), sum(expected.values()))
    test.assertEqual({b[1] for b in busy}, {"GPU"} if spans else set())
    if spans:
      wall = max(s[3] for s in spans) - min(s[2] for s in spans)
      for b in busy:
        test.assertEqual(b[3], wall)
        test.assertAlmostEqual(b[4], b[2] / wall)
    return one("SELECT COUNT(*) FROM kernels")
  finally:
    con.close()


def cpu_model_name():
  """/proc/cpuinfo's model name of the processor with apicid 0."""
  model, found = "", ""
  with open("/proc/cpuinfo") as f:
    for line in f.read().split("\n") + [""]:
      key, _, value = line.partition(":")
      key, value = key.strip(), value.strip()
      if key == "model name":
        model = value
      elif key == "apicid" and value == "0" and not found:
        found = model
  return found


def trace_gpu_program(args, d, prefix, env=None):
  p = run([ROCTRACE] + args + ["-d", d, "-o", prefix, "--", GPU_PROGRAM,
                               GPU_KERNELS, str(N), str(M), str(F)], d,
          env=env)
  return p


class GpuProgram(unittest.TestCase):
  """An HSA program on the software runtime: kernels and copies in every
  format, agreeing with each other and with the API calls that submitted
  them."""

  @classmethod
  def setUpClass(cls):
    cls.dir = tempfile.mkdtemp()
    cls.p = trace_gpu_program(
        ["--sys-trace", "--stats", "--output-format", "rocpd", "pftrace",
         "csv", "json"], cls.dir, "gpu")
    cls.db = os.path.join(cls.dir, "gpu_results.db")

  def path(self, suffix):
    return os.path.join(self.dir, "gpu" + suffix)

  def db_rows(self, sql):
    con = sqlite3.connect(self.db)
    try:
      return con.execute(sql).fetchall()
    finally:
      con.close()

  def kernels(self):
    return self.db_rows(
        "SELECT name, start, \"end\", corr_id, tid, agent_type, "
        "agent_type_index, queue_id, dispatch_id, kernel_id FROM kernels")

  def copies(self):
    return self.db_rows(
        "SELECT name, start, \"end\", corr_id, tid, size, src_agent_type, "
        "dst_agent_type FROM memory_copies")

  def test_api_calls_have_rocprofv3s_categories(self):
    # The database's categories are the CSV's Domain column: rocprofv3's
    # kinds, hsa_amd_* calls in HSA_AMD_EXT_API.
    rows = self.db_rows("SELECT category, name FROM regions")
    amd = [c for c, n in rows if n.startswith("hsa_amd_")]
    self.assertTrue(amd)
    self.assertEqual(set(amd), {"HSA_AMD_EXT_API"})
    core = {c for c, n in rows if n.startswith("hsa_") and
            not n.startswith("hsa_amd_") and not n.startswith("hsa_ext_")}
    self.assertEqual(core, {"HSA_CORE_API"})
    domains = {(r["Domain"], r["Function"])
               for r in read_csv(self.path("_hsa_api_trace.csv"))}
    self.assertEqual(domains, {(c, n) for c, n in rows
                               if not c.startswith("MARKER_")})

  def test_every_upstream_view_in_single_and_merged_databases(self):
    self.assertEqual(self.p.returncode, 0, self.p.stderr)
    kernels = check_upstream_views(self, self.db)
    self.assertEqual(kernels, len(self.kernels()))
    self.assertGreater(kernels, 0)
    con = sqlite3.connect(self.db)
    self.assertGreater(con.execute("SELECT COUNT(*) FROM busy").fetchone()[0],
                       0)
    con.close()
    d = tempfile.mkdtemp()
    p = trace_gpu_program(["--kernel-trace", "--memory-copy-trace"], d, "b")
    self.assertEqual(p.returncode, 0, p.stderr)
    merged = os.path.join(d, "merged.db")
    p = run([ROCTRACE, "merge", "-o", merged, self.db,
             os.path.join(d, "b_results.db")], d)
    self.assertEqual(p.returncode, 0, p.stderr)
    self.assertEqual(check_upstream_views(self, merged), 2 * kernels)

  def test_program_ran_and_files_are_named_as_rocprofv3(self):
    self.assertEqual(self.p.returncode, 0, self.p.stderr)
    for suffix in ("_results.db", "_results.pftrace", "_results.json",
                   "_kernel_trace.csv", "_memory_copy_trace.csv",
                   "_kernel_stats.csv", "_memory_copy_stats.csv",
                   "_hsa_api_trace.csv", "_domain_stats.csv"):
      self.assertTrue(os.path.exists(self.path(suffix)), suffix)

  def test_exact_counts_in_every_format(self):
    by_name = collections.Counter(k[0] for k in self.kernels())
    self.assertEqual(by_name, {STAMP: N, SCALE: N})
    self.assertEqual(len(self.copies()), M)
    self.assertEqual(
        self.db_rows("SELECT COUNT(*) FROM rocpd_kernel_dispatch")[0][0], 2 * N)
    top = dict(self.db_rows("SELECT name, total_calls FROM top_kernels"))
    self.assertEqual(top, {STAMP: N, SCALE: N})
    ktrace = read_csv(self.path("_kernel_trace.csv"))
    self.assertEqual(collections.Counter(r["Kernel_Name"] for r in ktrace),
                     {STAMP: N, SCALE: N})
    self.assertEqual(len(read_csv(self.path("_memory_copy_trace.csv"))), M)
    kstats = {r["Name"]: int(r["Calls"])
              for r in read_csv(self.path("_kernel_stats.csv"))}
    self.assertEqual(kstats, {STAMP: N, SCALE: N})
    cstats = {r["Name"]: int(r["Calls"])
              for r in read_csv(self.path("_memory_copy_stats.csv"))}
    self.assertEqual(cstats, {"MEMORY_COPY_HOST_TO_DEVICE": M})
    domains = {r["Name"]: int(r["Calls"])
               for r in read_csv(self.path("_domain_stats.csv"))}
    self.assertEqual(domains["KERNEL_DISPATCH"], 2 * N)
    self.assertEqual(domains["MEMORY_COPY"], M)

  def test_csv_columns_and_values_equal_the_database(self):
    rows = read_csv(self.path("_kernel_trace.csv"))
    self.assertEqual(list(rows[0])[:11], [
        "Kind", "Agent_Id", "Queue_Id", "Stream_Id", "Thread_Id",
        "Dispatch_Id", "Kernel_Id", "Kernel_Name", "Correlation_Id",
        "Start_Timestamp", "End_Timestamp"])
    self.assertEqual(list(rows[0])[-3:],
                     ["Grid_Size_X", "Grid_Size_Y", "Grid_Size_Z"])
    self.assertEqual({r["Kind"] for r in rows}, {"KERNEL_DISPATCH"})
    # rocprofv3's default naming: by position among all agents, the CPU
    # agent first (no KFD topology here: one CPU agent assumed).
    self.assertEqual({r["Agent_Id"] for r in rows}, {"Agent 1"})
    self.assertEqual(
        {(r["Kernel_Name"], int(r["Start_Timestamp"]), int(r["End_Timestamp"]),
          int(r["Correlation_Id"]), int(r["Thread_Id"]), int(r["Dispatch_Id"]),
          int(r["Kernel_Id"])) for r in rows},
        {(k[0], k[1], k[2], k[3], k[4], k[8], k[9]) for k in self.kernels()})
    self.assertEqual(sorted(int(r["Dispatch_Id"]) for r in rows),
                     list(range(1, 2 * N + 1)))
    copies = read_csv(self.path("_memory_copy_trace.csv"))
    self.assertEqual(list(copies[0]), [
        "Kind", "Direction", "Stream_Id", "Source_Agent_Id",
        "Destination_Agent_Id", "Correlation_Id", "Start_Timestamp",
        "End_Timestamp"])
    for r in copies:
      self.assertEqual((r["Kind"], r["Direction"], r["Source_Agent_Id"],
                        r["Destination_Agent_Id"]),
                       ("MEMORY_COPY", "MEMORY_COPY_HOST_TO_DEVICE",
                        "Agent 0", "Agent 1"))
    self.assertEqual(
        {(int(r["Start_Timestamp"]), int(r["End_Timestamp"]),
          int(r["Correlation_Id"])) for r in copies},
        {(c[1], c[2], c[3]) for c in self.copies()})
    self.assertEqual(sorted(c[5] for c in self.copies()),
                     sorted(1024 * (i % 4 + 1) for i in range(M)))
    self.assertEqual({(c[6], c[7]) for c in self.copies()}, {("CPU", "GPU")})

  def test_launch_sizes_and_dispatch_ids_in_every_format(self):
    # gpu_program's sizes for the dispatch submitted k-th (k from 0):
    # stamp and scale alternate; Dispatch_Id = k + 1 if IDs follow
    # submission.
    def expected(dispatch_id):
      k = dispatch_id - 1
      x, f = k % 128 + 1, 1 + k % 2
      return {"name": (STAMP, SCALE)[k % 2], "workgroup": (x, 2, 3),
              "grid": (x * f, 2 * f, 3), "group": 64 * x, "private": 16 * x,
              # The symbol's static LDS (scale's 1000, stamp's 0) rounded
              # up to the 512-byte block, as rocprofv3's CSV.
              "lds_block": (0, 1024)[k % 2]}

    ids = list(range(1, 2 * N + 1))
    db = self.db_rows(
        "SELECT K.dispatch_id, S.display_name, K.workgroup_size_x, "
        "K.workgroup_size_y, K.workgroup_size_z, K.grid_size_x, "
        "K.grid_size_y, K.grid_size_z, K.group_segment_size, "
        "K.private_segment_size FROM rocpd_kernel_dispatch K "
        "JOIN rocpd_info_kernel_symbol S ON S.id = K.kernel_id")
    self.assertEqual(sorted(r[0] for r in db), ids)
    for r in db:
      e = expected(r[0])
      self.assertEqual((r[1], r[2:5], r[5:8], r[8], r[9]),
                       (e["name"], e["workgroup"], e["grid"], e["group"],
                        e["private"]), r)
    for r in read_csv(self.path("_kernel_trace.csv")):
      e = expected(int(r["Dispatch_Id"]))
      self.assertEqual(r["Kernel_Name"], e["name"])
      self.assertEqual(
          tuple(int(r["Workgroup_Size_" + a]) for a in "XYZ"), e["workgroup"])
      self.assertEqual(tuple(int(r["Grid_Size_" + a]) for a in "XYZ"),
                       e["grid"])
      self.assertEqual(int(r["LDS_Block_Size"]), e["lds_block"])
      self.assertEqual(int(r["Scratch_Size"]), e["private"])
      self.assertEqual(
          tuple(int(r[c]) for c in ("VGPR_Count", "Accum_VGPR_Count",
                                    "SGPR_Count")),
          REGISTERS["gfx90a"][e["name"]])
    with open(self.path("_results.json")) as f:
      tool = json.load(f)["rocprofiler-sdk-tool"][0]
    symbols = {k["kernel_id"]: k["formatted_kernel_name"]
               for k in tool["kernel_symbols"]}
    self.assertEqual(
        {k["formatted_kernel_name"]:
         (k["arch_vgpr_count"], k["accum_vgpr_count"], k["sgpr_count"])
         for k in tool["kernel_symbols"]}, REGISTERS["gfx90a"])
    dispatches = tool["buffer_records"]["kernel_dispatch"]
    self.assertEqual(sorted(r["dispatch_info"]["dispatch_id"]
                            for r in dispatches), ids)
    for r in dispatches:
      d = r["dispatch_info"]
      e = expected(d["dispatch_id"])
      self.assertEqual(symbols[d["kernel_id"]], e["name"])
      self.assertEqual(
          tuple(d["workgroup_size"][a] for a in "xyz"), e["workgroup"])
      self.assertEqual(tuple(d["grid_size"][a] for a in "xyz"), e["grid"])
      self.assertEqual((d["group_segment_size"], d["private_segment_size"]),
                       (e["group"], e["private"]))
    with open(self.path("_results.pftrace"), "rb") as f:
      trace = pftrace_reader.Trace(f.read())
    kernel_slices = [s for s in trace.slices() if s.name in (STAMP, SCALE)]
    self.assertEqual(sorted(s.args["dispatch_id"] for s in kernel_slices), ids)
    for s in kernel_slices:
      e = expected(s.args["dispatch_id"])
      self.assertEqual(s.name, e["name"])
      self.assertEqual(
          (tuple(s.args["workgroup_size_" + a] for a in "xyz"),
           tuple(s.args["grid_size_" + a] for a in "xyz"),
           s.args["group_segment_size"], s.args["private_segment_size"]),
          (e["workgroup"], e["grid"], e["group"], e["private"]))
      self.assertEqual(
          tuple(s.args[c] for c in ("arch_vgpr_count", "accum_vgpr_count",
                                    "sgpr_count")),
          REGISTERS["gfx90a"][e["name"]])
    # API slices carry the correlation ID only.
    self.assertEqual({len(s.args) for s in trace.slices()
                      if "tid" in trace.tracks[s.track]}, {0})
    # Submission order: the doorbell stores (one thread, one queue) that
    # submitted the dispatches, in call order, carry IDs 1, 2, ...
    by_call = self.db_rows(
        "SELECT dispatch_id FROM kernels ORDER BY corr_id")
    self.assertEqual([r[0] for r in by_call], ids)

  def test_device_work_names_the_api_call_that_submitted_it(self):
    calls = {r[6]: r for r in regions(self.db)}
    for k in self.kernels():
      call = calls[k[3]]
      # The doorbell store that published the packet, on the same thread,
      # before the kernel started.
      self.assertEqual(call[1], "hsa_signal_store_screlease")
      self.assertEqual(call[3], k[4])
      self.assertLessEqual(call[4], k[1])
      self.assertLessEqual(k[1], k[2])
      self.assertEqual((k[5], k[6]), ("GPU", 0))
    for c in self.copies():
      call = calls[c[3]]
      self.assertEqual(call[1], "hsa_amd_memory_async_copy")
      self.assertEqual(call[3], c[4])
      self.assertLessEqual(call[4], c[1])
    self.assertEqual(len({k[3] for k in self.kernels()}), 2 * N)

  def test_timeline_agrees_with_the_database(self):
    with open(self.path("_results.pftrace"), "rb") as f:
      trace = pftrace_reader.Trace(f.read())
    slices = trace.slices()
    self.assertEqual(trace.unclosed, 0)
    # Every event packet says it needs its sequence's interned state.
    self.assertEqual(trace.unflagged, 0)
    device = [s for s in slices if "tid" not in trace.tracks[s.track] and
              not s.name.startswith(("SCRATCH_MEMORY", "MEMORY_ALLOCATION"))]
    self.assertEqual(
        collections.Counter((s.name, s.start, s.end, s.correlation_id)
                            for s in device),
        collections.Counter([(k[0], k[1], k[2], k[3]) for k in self.kernels()] +
                            [(c[0], c[1], c[2], c[3]) for c in self.copies()]))
    # One track per GPU queue for kernels, one for the GPU's copies.
    kernel_tracks = {trace.tracks[s.track]["name"] for s in device
                     if s.name in (STAMP, SCALE)}
    self.assertEqual(len(kernel_tracks), 1)
    # The agent named as -A names it (here rocprofv3's default, Agent N).
    self.assertTrue(next(iter(kernel_tracks)).startswith("Agent 1, queue "))
    copy_tracks = {trace.tracks[s.track]["name"] for s in device
                   if s.name.startswith("MEMORY_COPY")}
    self.assertEqual(copy_tracks, {"Agent 1 copies"})
    # Flows: each device slice shares its correlation ID with the API slice
    # of the call that submitted it, and with nothing else.
    api = {s.correlation_id: s for s in slices
           if "tid" in trace.tracks[s.track]}
    for s in device:
      ends = trace.flows[s.correlation_id]
      self.assertEqual(len(ends), 2, s)
      names = {e[2] for e in ends}
      self.assertEqual(names, {s.name, api[s.correlation_id].name})
    # Only the calls that submit work carry a flow: every flow has both ends.
    self.assertEqual(len(trace.flows), 2 * N + M)
    self.assertEqual(
        {e[2] for ends in trace.flows.values() for e in ends} -
        {STAMP, SCALE, "MEMORY_COPY_HOST_TO_DEVICE"},
        {"hsa_signal_store_screlease", "hsa_amd_memory_async_copy"})

  def scratch_reported(self):
    # gpu_program says whether the headers it was built from (the same as
    # the tracer's) give the runtime scratch events to report.
    return "scratch events reported" in self.p.stdout

  def test_scratch_memory_in_every_format(self):
    self.assertEqual(self.p.returncode, 0, self.p.stderr)
    meta = metadata(self.db)
    allocs = self.db_rows(
        "SELECT type, level, size, extdata, agent_id, queue_id, tid, start, "
        "\"end\" FROM rocpd_memory_allocate WHERE level = 'SCRATCH' "
        "ORDER BY start")
    if not self.scratch_reported():
      # Implied by --sys-trace: said in the database, not on stderr.
      self.assertTrue(meta["roctrace.scratch_memory"].startswith(
          "not available"))
      self.assertNotIn("--scratch-memory-trace", self.p.stderr)
      self.assertEqual(allocs, [])
      self.assertFalse(os.path.exists(self.path("_scratch_memory_trace.csv")))
      return
    self.assertNotIn("roctrace.scratch_memory", meta)
    sizes = scratch_allocations()
    # Every allocation, then the queue's scratch freed when it is destroyed.
    want = [("ALLOC", size) for size in sizes] + [("FREE", 0)]
    self.assertEqual([(a[0], a[2]) for a in allocs], want)
    self.assertEqual({a[1] for a in allocs}, {"SCRATCH"})
    self.assertEqual({json.loads(a[3])["flags"] for a in allocs}, {0})
    queue = {k[7] for k in self.kernels()}
    self.assertEqual({a[5] for a in allocs}, queue)
    self.assertEqual(
        {r[0] for r in self.db_rows(
            "SELECT type FROM rocpd_info_agent WHERE id IN "
            "(SELECT agent_id FROM rocpd_memory_allocate "
            "WHERE level = 'SCRATCH')")}, {"GPU"})
    for a in allocs:
      self.assertLessEqual(a[7], a[8])
      self.assertIsNotNone(a[6])
    rows = read_csv(self.path("_scratch_memory_trace.csv"))
    self.assertEqual(list(rows[0]), [
        "Kind", "Operation", "Agent_Id", "Queue_Id", "Thread_Id",
        "Alloc_Flags", "Start_Timestamp", "End_Timestamp"])  # 1.0.0's
    self.assertEqual([r["Operation"] for r in rows],
                     ["SCRATCH_MEMORY_" + op for op, _ in want])
    self.assertEqual({r["Kind"] for r in rows}, {"SCRATCH_MEMORY"})
    self.assertEqual({r["Agent_Id"] for r in rows}, {"Agent 1"})
    self.assertEqual({int(r["Alloc_Flags"]) for r in rows}, {0})
    ktrace = read_csv(self.path("_kernel_trace.csv"))
    self.assertEqual({r["Queue_Id"] for r in rows},
                     {r["Queue_Id"] for r in ktrace})
    self.assertEqual([(int(r["Start_Timestamp"]), int(r["End_Timestamp"]))
                      for r in rows], [(a[7], a[8]) for a in allocs])
    # Allocations on the queue's packet processor, never the program's own
    # thread; the free in hsa_queue_destroy, on the program's main thread.
    main_tid = regions(self.db)[0][2]
    self.assertNotIn(main_tid, {int(r["Thread_Id"]) for r in rows[:-1]})
    self.assertEqual(int(rows[-1]["Thread_Id"]), main_tid)
    stats = {r["Name"]: int(r["Calls"])
             for r in read_csv(self.path("_scratch_memory_stats.csv"))}
    self.assertEqual(stats, {"SCRATCH_MEMORY_ALLOC": len(sizes),
                             "SCRATCH_MEMORY_FREE": 1})
    with open(self.path("_results.json")) as f:
      tool = json.load(f)["rocprofiler-sdk-tool"][0]
    records = tool["buffer_records"]["scratch_memory"]
    # rocprofiler-sdk 1.0.0's scratch record has no size (the CSV has it).
    self.assertEqual(len(records), len(want))
    for r in records:
      self.assertNotIn("allocation_size", r)
    with open(self.path("_results.pftrace"), "rb") as f:
      trace = pftrace_reader.Trace(f.read())
    scratch = [s for s in trace.slices()
               if s.name.startswith("SCRATCH_MEMORY")]
    self.assertEqual(sorted((s.name, s.start, s.end) for s in scratch),
                     sorted(("SCRATCH_MEMORY_" + w[0], a[7], a[8])
                            for w, a in zip(want, allocs)))
    self.assertEqual({trace.tracks[s.track]["name"] for s in scratch},
                     {"Agent 1 scratch memory"})

  def test_scratch_memory_option_alone(self):
    d = tempfile.mkdtemp()
    p = trace_gpu_program(["--scratch-memory-trace", "--output-format",
                           "rocpd", "csv"], d, "s")
    self.assertEqual(p.returncode, 0, p.stderr)
    meta = metadata(os.path.join(d, "s_results.db"))
    csv_path = os.path.join(d, "s_scratch_memory_trace.csv")
    if "scratch events reported" not in p.stdout:
      # Asked for and impossible: said once on stderr, and in the database.
      self.assertEqual(p.stderr.count("--scratch-memory-trace: not available"),
                       1, p.stderr)
      self.assertTrue(meta["roctrace.scratch_memory"].startswith(
          "not available"))
      self.assertFalse(os.path.exists(csv_path))
      return
    self.assertNotIn("not available", p.stderr)
    self.assertNotIn("roctrace.scratch_memory", meta)
    self.assertEqual(len(read_csv(csv_path)), len(scratch_allocations()) + 1)
    con = sqlite3.connect(os.path.join(d, "s_results.db"))
    sizes = [r[0] for r in con.execute(
        "SELECT size FROM rocpd_memory_allocate ORDER BY start")]
    con.close()
    self.assertEqual(sizes, scratch_allocations() + [0])

  def test_failed_calls_are_counted(self):
    hsa = {r["Name"]: r for r in read_csv(self.path("_api_failures.csv"))
           if r["Domain"] == "HSA_API"}
    lookups = hsa["hsa_executable_get_symbol_by_name"]
    self.assertEqual(int(lookups["Calls"]), F + 2)
    self.assertEqual(int(lookups["FailedCalls"]), F)
    self.assertEqual(int(hsa["hsa_queue_create"]["FailedCalls"]), 0)

  def test_json_parses_with_rocprofv3s_layout_and_counts(self):
    with open(self.path("_results.json")) as f:
      data = json.load(f)
    tool = data["rocprofiler-sdk-tool"][0]
    records = tool["buffer_records"]
    kinds = [k["kind"] for k in tool["strings"]["buffer_records"]]
    symbols = {k["kernel_id"]: k["formatted_kernel_name"]
               for k in tool["kernel_symbols"]}
    names = collections.Counter(
        symbols[r["dispatch_info"]["kernel_id"]]
        for r in records["kernel_dispatch"])
    self.assertEqual(names, {STAMP: N, SCALE: N})
    self.assertEqual(len(records["memory_copy"]), M)
    self.assertEqual(sorted(r["bytes"] for r in records["memory_copy"]),
                     sorted(1024 * (i % 4 + 1) for i in range(M)))
    for r in records["kernel_dispatch"] + records["memory_copy"]:
      self.assertEqual(kinds[r["kind"]] in ("KERNEL_DISPATCH", "MEMORY_COPY"),
                       True)
    hsa = collections.Counter(json_op_name(tool, r)
                              for r in records["hsa_api"])
    from_db = collections.Counter(
        r[1] for r in regions(self.db) if not r[0].startswith("MARKER_"))
    self.assertEqual(hsa, from_db)
    # rocprofv3's HSA records are the SDK's plain API record: no arguments,
    # returned value or failure flag (failed calls are in the stats).
    for r in records["hsa_api"]:
      self.assertEqual(set(r), {"size", "kind", "operation", "correlation_id",
                                "start_timestamp", "end_timestamp",
                                "thread_id"})
    # Operations are numbered as the tracer's rocprofiler-sdk numbers them,
    # every operation of a kind listed (rocprofv3's strings): HSA core's
    # table starts with hsa_init and hsa_shut_down, copies and dispatches
    # are the SDK's enums (from 1), a dispatch record its completion.
    ops = [k["operations"] for k in tool["strings"]["buffer_records"]]
    self.assertEqual(ops[1][:2], ["hsa_init", "hsa_shut_down"])
    self.assertGreater(len(set(ops[1]) - set(hsa)), 0)
    self.assertEqual(ops[10], ["", "MEMORY_COPY_HOST_TO_HOST",
                               "MEMORY_COPY_HOST_TO_DEVICE",
                               "MEMORY_COPY_DEVICE_TO_HOST",
                               "MEMORY_COPY_DEVICE_TO_DEVICE"])
    self.assertEqual({r["operation"] for r in records["memory_copy"]}, {2})
    self.assertEqual(ops[11], ["", "KERNEL_DISPATCH_ENQUEUE",
                               "KERNEL_DISPATCH_COMPLETE"])
    self.assertEqual({r["operation"] for r in records["kernel_dispatch"]},
                     {2})
    self.assertEqual(tool["metadata"]["pid"], regions(self.db)[0][2])
    # rocprofiler_agent_type_t: 1 CPU, 2 GPU.
    self.assertEqual({1, 2} - {a["type"] for a in tool["agents"]}, set())
    dispatch_corr = {r["correlation_id"]["internal"]
                     for r in records["kernel_dispatch"]}
    self.assertEqual(dispatch_corr, {k[3] for k in self.kernels()})
    # rocprofv3's layout: every section, those roctrace has nothing for
    # empty.
    self.assertEqual(
        set(tool), {"metadata", "agents", "counters", "strings",
                    "code_objects", "kernel_symbols", "host_functions",
                    "summary", "callback_records", "buffer_records"})
    self.assertEqual(
        set(records), {"kernel_dispatch", "hip_api", "hsa_api", "marker_api",
                       "rccl_api", "memory_copy", "memory_allocation",
                       "scratch_memory", "rocdecode_api", "rocjpeg_api",
                       "pc_sample_host_trap", "pc_sample_stochastic"})
    self.assertEqual(tool["callback_records"], {"counter_collection": []})
    # Record fields as rocprofv3 writes them: the rocprofiler-sdk record's
    # size first, the three-part correlation ID.
    sizes = {"hsa_api": 64, "kernel_dispatch": 184, "memory_copy": 96,
             "scratch_memory": 88}
    for section, size in sizes.items():
      for r in records[section]:
        self.assertEqual(list(r)[:3], ["size", "kind", "operation"])
        self.assertEqual(r["size"], size)
        self.assertEqual(set(r["correlation_id"]),
                         {"internal", "external", "ancestor"})
    for r in records["kernel_dispatch"]:
      self.assertEqual(r["dispatch_info"]["size"], 128)
    self.assertTrue({"callback_records", "buffer_records", "marker_api",
                     "correlation_id", "counters", "pc_sample_instructions",
                     "pc_sample_comments", "att_filenames",
                     "code_object_snapshot_filenames"} <=
                    set(tool["strings"]))
    for empty in ("counters", "host_functions"):
      self.assertEqual(tool[empty], [], empty)
    # The summary: per domain, rocprofv3's statistics of the records'
    # durations, per operation name (cereal's map: key/value pairs).
    summary = {d["domain"]: d["stats"] for d in tool["summary"]}
    # (--sys-trace includes the memory allocation trace, as rocprofv3's.)
    self.assertEqual(set(summary), {"HSA_API", "KERNEL_DISPATCH",
                                    "MEMORY_COPY", "MEMORY_ALLOCATION"} |
                     ({"SCRATCH_MEMORY"} if records["scratch_memory"]
                      else set()))
    kernel_durations = collections.defaultdict(list)
    for r in records["kernel_dispatch"]:
      kernel_durations[symbols[r["dispatch_info"]["kernel_id"]]].append(
          r["end_timestamp"] - r["start_timestamp"])
    stats = summary["KERNEL_DISPATCH"]
    self.assertEqual(stats["count"], 2 * N)
    self.assertEqual(stats["sum"],
                     sum(sum(v) for v in kernel_durations.values()))
    for op in stats["operations"]:
      d = kernel_durations[op["key"]]
      v = op["value"]
      self.assertEqual((v["count"], v["sum"], v["min"], v["max"]),
                       (len(d), sum(d), min(d), max(d)))
      self.assertAlmostEqual(v["mean"], statistics.mean(d))
      self.assertAlmostEqual(v["stddev"], statistics.stdev(d), delta=1e-6 *
                             max(1.0, statistics.stdev(d)))
    self.assertEqual(summary["HSA_API"]["count"], len(records["hsa_api"]))

  def test_kernel_filters(self):
    d = tempfile.mkdtemp()
    for args, expected in (
        (["--kernel-include-regex", "^gputest::"], {SCALE: N}),
        (["--kernel-exclude-regex", "scale"], {STAMP: N}),
        (["--kernel-include-regex", "a", "--kernel-exclude-regex", "^s"],
         {SCALE: N})):
      p = trace_gpu_program(["--kernel-trace", "--output-format", "csv",
                             "rocpd"] + args, d, "f")
      self.assertEqual(p.returncode, 0, p.stderr)
      rows = read_csv(os.path.join(d, "f_kernel_trace.csv"))
      self.assertEqual(collections.Counter(r["Kernel_Name"] for r in rows),
                       expected, args)
      con = sqlite3.connect(os.path.join(d, "f_results.db"))
      n = con.execute("SELECT COUNT(*) FROM kernels").fetchone()[0]
      con.close()
      self.assertEqual(n, sum(expected.values()))

  def hsa_calls(self, args, prefix):
    """The HSA calls' names written with args (CSV and database agree)."""
    d = tempfile.mkdtemp()
    # Small buffers: the calls come in several, most once the files are
    # open.
    p = trace_gpu_program(args + ["--buffer-size", "4K", "--output-format",
                                  "csv", "rocpd"], d, prefix)
    self.assertEqual(p.returncode, 0, p.stderr)
    path = os.path.join(d, prefix + "_hsa_api_trace.csv")
    names = collections.Counter(
        r["Function"] for r in (read_csv(path) if os.path.exists(path) else []))
    db = collections.Counter(
        r[1] for r in regions(os.path.join(d, prefix + "_results.db"))
        if r[0].startswith("HSA_"))
    self.assertEqual(names, db)
    return names, d

  def test_hsa_core_and_amd_parts_split_the_calls(self):
    every, _ = self.hsa_calls(["--hsa-trace"], "all")
    amd = collections.Counter(
        {n: c for n, c in every.items() if n.startswith("hsa_amd_")})
    core = collections.Counter(
        {n: c for n, c in every.items() if not n.startswith("hsa_amd_") and
         not n.startswith("hsa_ext_")})
    self.assertTrue(amd)
    self.assertTrue(core)
    self.assertEqual(self.hsa_calls(["--hsa-core-trace"], "core")[0], core)
    self.assertEqual(self.hsa_calls(["--hsa-amd-trace"], "amd")[0], amd)
    self.assertEqual(
        self.hsa_calls(["--hsa-core-trace", "--hsa-amd-trace"], "both")[0],
        core + amd)

  def test_kernel_filters_keep_every_api_call(self):
    # The kernel regexes choose dispatches, not the calls that made them.
    every, _ = self.hsa_calls(["--hsa-trace", "--kernel-trace"], "k")
    for args in (["--kernel-include-regex", "^gputest::"],
                 ["--kernel-exclude-regex", "."]):
      names, d = self.hsa_calls(["--hsa-trace", "--kernel-trace"] + args, "r")
      self.assertEqual(names, every, args)
      path = os.path.join(d, "r_kernel_trace.csv")
      kernels = read_csv(path) if os.path.exists(path) else []
      self.assertEqual(len(kernels), N if args[0].endswith("include-regex")
                       else 0, args)

  def test_memory_allocation_trace_keeps_every_hsa_call(self):
    every, _ = self.hsa_calls(["--hsa-trace"], "plain")
    names, d = self.hsa_calls(["--hsa-trace", "--memory-allocation-trace"],
                              "alloc")
    self.assertEqual(names, every)
    self.assertEqual(
        len(read_csv(os.path.join(d, "alloc_memory_allocation_trace.csv"))), 2)

  def test_agent_index_choices(self):
    # -A: type-relative (GPU 0, CPU 0) and absolute (the KFD node; here the
    # assumed layout, CPU node 0, GPU 0 on node 1); the database has every
    # index whatever the names.
    d = tempfile.mkdtemp()
    for choice, gpu, cpu in (("type-relative", "GPU 0", "CPU 0"),
                             ("absolute", "Agent 1", "Agent 0"),
                             ("relative", "Agent 1", "Agent 0")):
      p = trace_gpu_program(["--kernel-trace", "--memory-copy-trace", "-A",
                             choice, "--output-format", "csv", "rocpd",
                             "pftrace"], d, choice)
      self.assertEqual(p.returncode, 0, p.stderr)
      # The timeline's device tracks name the agent the same way.
      with open(os.path.join(d, choice + "_results.pftrace"), "rb") as f:
        trace = pftrace_reader.Trace(f.read())
      device_tracks = {trace.tracks[s.track]["name"] for s in trace.slices()
                       if "tid" not in trace.tracks[s.track]}
      self.assertEqual({t.split(",")[0].replace(" copies", "")
                        for t in device_tracks}, {gpu}, device_tracks)
      kernels = read_csv(os.path.join(d, choice + "_kernel_trace.csv"))
      self.assertEqual({r["Agent_Id"] for r in kernels}, {gpu}, choice)
      copies = read_csv(os.path.join(d, choice + "_memory_copy_trace.csv"))
      self.assertEqual({(r["Source_Agent_Id"], r["Destination_Agent_Id"])
                        for r in copies}, {(cpu, gpu)}, choice)
      con = sqlite3.connect(os.path.join(d, choice + "_results.db"))
      agents = set(con.execute(
          "SELECT type, absolute_index, logical_index, type_index, name, "
          "vendor_name FROM rocpd_info_agent"))
      con.close()
      # Names as rocprofv3's: the CPU's model (no KFD topology here: the
      # processor with apicid 0); a GPU the topology does not describe has
      # only its -A name.
      cpu_model = cpu_model_name() or cpu
      self.assertEqual(agents, {("CPU", 0, 0, 0, cpu_model, "CPU"),
                                ("GPU", 1, 1, 0, gpu, None)})
      info = read_csv(os.path.join(d, choice + "_agent_info.csv"))
      self.assertEqual(len(info[0]), 53)
      self.assertEqual([(r["Node_Id"], r["Agent_Type"], r["Name"],
                         r["Vendor_Name"]) for r in info],
                       [("0", "CPU", cpu_model_name(), "CPU")])
    p = trace_gpu_program(["-A", "bogus"], d, "bad")
    self.assertEqual(p.returncode, 2)

  def test_truncated_kernel_names(self):
    # -T: rocprofv3's truncated names; the filter still sees the whole name.
    d = tempfile.mkdtemp()
    p = trace_gpu_program(["--kernel-trace", "-T", "--output-format", "csv",
                           "rocpd", "--kernel-include-regex", "^gputest::"],
                          d, "t")
    self.assertEqual(p.returncode, 0, p.stderr)
    rows = read_csv(os.path.join(d, "t_kernel_trace.csv"))
    self.assertEqual(collections.Counter(r["Kernel_Name"] for r in rows),
                     {"scale": N})
    con = sqlite3.connect(os.path.join(d, "t_results.db"))
    names = {r[0] for r in con.execute("SELECT name FROM kernels")}
    con.close()
    self.assertEqual(names, {"scale"})

  def test_code_objects_and_kernel_symbols(self):
    # rocpd_info_code_object: the kernels' code object as the loader
    # describes it, on its agent; each kernel symbol names it, and its kernel
    # object lies in the object's loaded range. Read through upstream's
    # views (code_objects, kernel_symbols).
    objects = self.db_rows(
        "SELECT id, agent_abs_index, uri, load_base, load_size, "
        "storage_type_str, storage_type, code_object_size FROM code_objects")
    self.assertEqual(len(objects), 1, objects)
    co_id, agent, uri, base, size, storage, storage_enum, record = objects[0]
    self.assertEqual(agent, 1)  # GPU 0 on node 1 (the assumed layout)
    self.assertTrue(uri.startswith("file://" + os.path.realpath(GPU_KERNELS)),
                    uri)
    self.assertEqual((storage, storage_enum), ("FILE", 1))
    self.assertGreater(size, 0)
    self.assertEqual(record, 88)  # the SDK 1.0.0 load record's size
    symbols = self.db_rows(
        "SELECT code_object_id, kernel_name, display_name, kernel_object, "
        "kernarg_segment_alignment FROM kernel_symbols")
    self.assertEqual(len(symbols), 2)
    for code_object, name, display, kernel_object, align in symbols:
      self.assertEqual(code_object, co_id)
      self.assertTrue(base <= kernel_object < base + size)
      self.assertEqual(align, 16)
      filt = subprocess.run(["c++filt", name.removesuffix(".kd")],
                            capture_output=True, text=True, check=True)
      self.assertEqual(filt.stdout.strip(), display)
    self.assertEqual({s[2] for s in symbols}, {STAMP, SCALE})
    # The JSON's code_objects and kernel_symbols say the same.
    with open(self.path("_results.json")) as f:
      tool = json.load(f)["rocprofiler-sdk-tool"][0]
    self.assertEqual([(c["code_object_id"], c["uri"], c["load_base"],
                       c["load_size"], c["storage_type"])
                      for c in tool["code_objects"]],
                     [(co_id, uri, base, size, 1)])
    self.assertEqual(
        sorted((k["code_object_id"], k["kernel_name"], k["kernel_object"])
               for k in tool["kernel_symbols"]),
        sorted((s[0], s[1], s[3]) for s in symbols))

  def test_memory_allocation_trace(self):
    # rocprofv3's --memory-allocation-trace: the program's kernarg
    # allocation (64 bytes from the CPU agent's pool) and its free, each
    # with its HSA call's correlation ID, times and thread; in every format.
    d = tempfile.mkdtemp()
    p = trace_gpu_program(["--memory-allocation-trace", "--hsa-trace",
                           "--output-format", "csv", "rocpd", "json",
                           "pftrace"], d, "a")
    self.assertEqual(p.returncode, 0, p.stderr)
    with open(os.path.join(d, "a_memory_allocation_trace.csv")) as f:
      self.assertEqual(f.readline().strip(),
                       '"Kind","Operation","Agent_Id","Allocation_Size",'
                       '"Address","Correlation_Id","Start_Timestamp",'
                       '"End_Timestamp"')
    rows = read_csv(os.path.join(d, "a_memory_allocation_trace.csv"))
    calls = {r["Correlation_Id"]: r
             for r in read_csv(os.path.join(d, "a_hsa_api_trace.csv"))}
    self.assertEqual([(r["Kind"], r["Operation"], r["Agent_Id"],
                       r["Allocation_Size"]) for r in rows],
                     [("MEMORY_ALLOCATION", "MEMORY_ALLOCATION_ALLOCATE",
                       "Agent 0", "64"),
                      ("MEMORY_ALLOCATION", "MEMORY_ALLOCATION_FREE", "",
                       "0")])
    self.assertEqual(rows[0]["Address"], rows[1]["Address"])
    self.assertRegex(rows[0]["Address"], r"^0x[0-9a-f]{16}$")
    self.assertNotEqual(int(rows[0]["Address"], 16), 0)
    for r, function in zip(rows, ("hsa_amd_memory_pool_allocate",
                                  "hsa_amd_memory_pool_free")):
      call = calls[r["Correlation_Id"]]
      self.assertEqual(call["Function"], function)
      self.assertEqual((r["Start_Timestamp"], r["End_Timestamp"]),
                       (call["Start_Timestamp"], call["End_Timestamp"]))
    # rocpd, through upstream's memory_allocations view.
    con = sqlite3.connect(os.path.join(d, "a_results.db"))
    db = con.execute(
        "SELECT category, type, level, agent_type, agent_abs_index, size, "
        "address, corr_id, start, \"end\" FROM memory_allocations "
        "ORDER BY start").fetchall()
    con.close()
    self.assertEqual(
        db, [("MEMORY_ALLOCATION", t, "REAL", agent, index, size,
              int(r["Address"], 16), int(r["Correlation_Id"]),
              int(r["Start_Timestamp"]), int(r["End_Timestamp"]))
             for r, t, agent, index, size in zip(
                 rows, ("ALLOC", "FREE"), ("CPU", None), (0, None), (64, 0))])
    with open(os.path.join(d, "a_results.json")) as f:
      tool = json.load(f)["rocprofiler-sdk-tool"][0]
    records = tool["buffer_records"]["memory_allocation"]
    self.assertEqual([(r["allocation_size"], r["address"],
                       r["correlation_id"]["internal"]) for r in records],
                     [(size, r["Address"], int(r["Correlation_Id"]))
                      for r, size in zip(rows, (64, 0))])
    with open(os.path.join(d, "a_results.pftrace"), "rb") as f:
      trace = pftrace_reader.Trace(f.read())
    self.assertEqual(
        sorted((trace.tracks[s.track]["name"], s.name, s.start)
               for s in trace.slices()
               if s.name.startswith("MEMORY_ALLOCATION")),
        sorted([("Agent 0 memory allocations", "MEMORY_ALLOCATION_ALLOCATE",
                 int(rows[0]["Start_Timestamp"])),
                ("memory frees", "MEMORY_ALLOCATION_FREE",
                 int(rows[1]["Start_Timestamp"]))]))
    # The allocation calls' arguments are recorded as every HSA call's: the
    # allocation's callback and the arguments' capture share the call.
    self.assertEqual(
        query_db(os.path.join(d, "a_results.db"),
                 "SELECT EA.arg_name, EA.arg_value FROM regions R "
                 "JOIN events_args EA ON EA.event_id = R.event_id "
                 "WHERE R.name = 'hsa_amd_memory_pool_allocate' "
                 "AND EA.arg_name = 'size'"), [("size", "64")])
    # Alone, the calls are not written as HSA calls.
    p = trace_gpu_program(["--memory-allocation-trace", "--output-format",
                           "csv"], d, "alone")
    self.assertEqual(p.returncode, 0, p.stderr)
    self.assertFalse(os.path.exists(os.path.join(d, "alone_hsa_api_trace.csv")))
    self.assertEqual(
        len(read_csv(os.path.join(d, "alone_memory_allocation_trace.csv"))), 2)

  def test_mangled_kernel_names(self):
    # -M: the kernels' symbols as the code object names them, which
    # demangle (c++filt) to the names written without it.
    d = tempfile.mkdtemp()
    p = trace_gpu_program(["--kernel-trace", "-M", "--output-format", "csv",
                           "rocpd"], d, "m")
    self.assertEqual(p.returncode, 0, p.stderr)
    mangled = collections.Counter(
        r["Kernel_Name"] for r in read_csv(os.path.join(d, "m_kernel_trace.csv")))
    demangled = collections.Counter(
        r["Kernel_Name"] for r in read_csv(self.path("_kernel_trace.csv")))
    # One C++ kernel, one extern "C" (the same either way).
    self.assertEqual(len([n for n in mangled if n.startswith("_Z")]), 1,
                     mangled)
    filt = subprocess.run(["c++filt"] + list(mangled), capture_output=True,
                          text=True, check=True).stdout.splitlines()
    self.assertEqual(
        collections.Counter(dict(zip(filt, mangled.values()))), demangled)
    con = sqlite3.connect(os.path.join(d, "m_results.db"))
    names = {r[0] for r in con.execute("SELECT name FROM kernels")}
    # The symbols' demangled names are still the demangled ones.
    symbols = set(con.execute(
        "SELECT display_name, demangled_kernel_name FROM kernel_symbols"))
    con.close()
    self.assertEqual(names, set(mangled))
    self.assertEqual(symbols, set(zip(mangled, filt)))

  def test_register_counts_in_the_database(self):
    self.assertEqual(
        set(self.db_rows("SELECT name, vgpr_count, accum_vgpr_count, "
                         "sgpr_count FROM kernels")),
        {(name, *counts) for name, counts in REGISTERS["gfx90a"].items()})
    self.assertEqual(
        dict((r[0], r[1:]) for r in self.db_rows(
            "SELECT display_name, arch_vgpr_count, accum_vgpr_count, "
            "sgpr_count FROM rocpd_info_kernel_symbol")),
        REGISTERS["gfx90a"])

  def test_register_counts_of_a_wave32_target(self):
    d = tempfile.mkdtemp()
    p = trace_gpu_program(["--kernel-trace", "--output-format", "csv",
                           "rocpd"], d, "w",
                          env=dict(os.environ, SOFTHSA_GPU_NAME="gfx1100"))
    self.assertEqual(p.returncode, 0, p.stderr)
    rows = read_csv(os.path.join(d, "w_kernel_trace.csv"))
    self.assertEqual(len(rows), 2 * N)
    self.assertEqual(
        {(r["Kernel_Name"], int(r["VGPR_Count"]), int(r["Accum_VGPR_Count"]),
          int(r["SGPR_Count"])) for r in rows},
        {(name, *counts) for name, counts in REGISTERS["gfx1100"].items()})
    con = sqlite3.connect(os.path.join(d, "w_results.db"))
    db = set(con.execute("SELECT name, vgpr_count, accum_vgpr_count, "
                         "sgpr_count FROM kernels").fetchall())
    con.close()
    self.assertEqual(
        db, {(name, *counts) for name, counts in REGISTERS["gfx1100"].items()})

  def test_unreadable_descriptors_leave_the_counts_unknown(self):
    # The runtime maps no kernel object to host memory (softhsa's fault; its
    # descriptors' device addresses are not readable by the host): the
    # counts are empty and NULL, not 0, and the program runs as before.
    d = tempfile.mkdtemp()
    p = trace_gpu_program(["--kernel-trace", "--output-format", "csv",
                           "rocpd", "json", "pftrace"], d, "u",
                          env=dict(os.environ,
                                   SOFTHSA_FAULTS="host_address_error=1"))
    self.assertEqual(p.returncode, 0, p.stderr)
    rows = read_csv(os.path.join(d, "u_kernel_trace.csv"))
    self.assertEqual(len(rows), 2 * N)
    self.assertEqual(
        {(r["VGPR_Count"], r["Accum_VGPR_Count"], r["SGPR_Count"])
         for r in rows}, {("", "", "")})
    con = sqlite3.connect(os.path.join(d, "u_results.db"))
    db = set(con.execute("SELECT vgpr_count, accum_vgpr_count, "
                         "sgpr_count FROM kernels").fetchall())
    con.close()
    self.assertEqual(db, {(None, None, None)})
    with open(os.path.join(d, "u_results.json")) as f:
      symbols = json.load(f)["rocprofiler-sdk-tool"][0]["kernel_symbols"]
    self.assertEqual(
        {(k["arch_vgpr_count"], k["accum_vgpr_count"], k["sgpr_count"])
         for k in symbols}, {(None, None, None)})
    # The timeline's kernel slices leave them out.
    with open(os.path.join(d, "u_results.pftrace"), "rb") as f:
      trace = pftrace_reader.Trace(f.read())
    kernel_slices = [s for s in trace.slices() if s.name in (STAMP, SCALE)]
    self.assertEqual(len(kernel_slices), 2 * N)
    for s in kernel_slices:
      self.assertIn("dispatch_id", s.args)
      self.assertNotIn("sgpr_count", s.args)

  def test_kernels_without_api_tracing(self):
    # No API call is traced around the dispatches: correlation ID 0, thread
    # unknown (tid 0, as in the CSV), and the views still show every
    # dispatch, also rocprofv3's, which join the thread (an inner join).
    d = tempfile.mkdtemp()
    p = trace_gpu_program(["--kernel-trace", "--memory-copy-trace"], d, "k")
    self.assertEqual(p.returncode, 0, p.stderr)
    con = sqlite3.connect(os.path.join(d, "k_results.db"))
    rows = con.execute("SELECT corr_id, tid FROM kernels").fetchall()
    copies = con.execute("SELECT COUNT(*) FROM memory_copies").fetchone()[0]
    regions_n = con.execute("SELECT COUNT(*) FROM regions").fetchone()[0]
    joined = [con.execute(
        "SELECT COUNT(*) FROM %s X JOIN rocpd_info_thread T ON T.id = X.tid "
        "AND T.guid = X.guid" % t).fetchone()[0]
              for t in ("rocpd_kernel_dispatch", "rocpd_memory_copy")]
    con.close()
    self.assertEqual(len(rows), 2 * N)
    self.assertEqual(set(rows), {(0, 0)})
    self.assertEqual(joined, [2 * N, M])
    self.assertEqual(copies, M)
    self.assertEqual(regions_n, 0)


class ExitPaths(unittest.TestCase):

  def trace(self, *args, pre=(), **kw):
    d = tempfile.mkdtemp()
    p = run([ROCTRACE, "--hip-trace"] + list(pre) +
            ["-d", d, "-o", "x", "--", PROGRAM] + list(args), d, **kw)
    return p, os.path.join(d, "x_results.db")

  def test_return_from_main(self):
    p, db = self.trace("threads", "1", "100")
    self.assertEqual(p.returncode, 0)
    self.assertEqual(metadata(db)["roctrace.finished"], "1")
    self.assertEqual(len(regions(db)), 100)

  def test_exit_from_a_worker_thread(self):
    p, db = self.trace("exit_worker", "100")
    self.assertEqual(p.returncode, 3, p.stderr)
    self.assertEqual(metadata(db)["roctrace.finished"], "1")
    self.assertEqual(len(regions(db)), 100)

  def test_crash_passes_the_signal_through(self):
    p, db = self.trace("crash", "100")
    self.assertEqual(p.returncode, -signal.SIGSEGV)
    # The calls before the crash are all there, in a finished database
    # (written from the library's fatal-signal handler before the program
    # died of the signal).
    self.assertEqual(len(regions(db)), 100)
    self.assertEqual(metadata(db)["roctrace.finished"], "1")

  def test_disable_signal_handlers_leaves_a_crash_to_the_program(self):
    # rocprofv3's --disable-signal-handlers: no handler of the tracer's
    # runs at the crash, so nothing finishes the database.
    p, db = self.trace("crash", "100", pre=["--disable-signal-handlers"])
    self.assertEqual(p.returncode, -signal.SIGSEGV)
    finished = None
    if os.path.exists(db):
      try:
        finished = metadata(db).get("roctrace.finished")
      except sqlite3.Error:
        pass
    self.assertNotEqual(finished, "1")

  def test_sigkill_leaves_a_readable_database(self):
    d = tempfile.mkdtemp()
    db = os.path.join(d, "k_results.db")
    proc = subprocess.Popen(
        [ROCTRACE, "--hip-trace", "-d", d, "-o", "k", "--", PROGRAM,
         "wait_for_kill", "1000"], cwd=d, stdout=subprocess.PIPE,
        stderr=subprocess.PIPE, universal_newlines=True)
    try:
      self.assertEqual(proc.stdout.readline().strip(), "ready")
      # The periodic checkpoint makes every call before "ready" durable;
      # wait for it (no timing assumption: poll until it shows).
      deadline = time.monotonic() + 60
      count = 0
      while time.monotonic() < deadline:
        try:
          count = len(regions(db))
        except sqlite3.Error:
          count = 0
        if count == 1000:
          break
        time.sleep(0.05)
      self.assertEqual(count, 1000)
      program = [int(x) for x in subprocess.check_output(
          ["pgrep", "-P", str(proc.pid)]).split()]
      for pid in program:
        os.kill(pid, signal.SIGKILL)
      proc.wait(timeout=60)
    finally:
      if proc.poll() is None:
        proc.kill()
      proc.stdout.close()
      proc.stderr.close()
    self.assertEqual(proc.returncode, -signal.SIGKILL)
    self.assertEqual(len(regions(db)), 1000)
    self.assertEqual(metadata(db)["roctrace.finished"], "0")


class BadInput(unittest.TestCase):

  def setUp(self):
    self.dir = tempfile.mkdtemp()

  def roctrace(self, *args):
    return run([ROCTRACE] + list(args), self.dir)

  def test_unknown_option(self):
    p = self.roctrace("--no-such-option", "--", "true")
    self.assertEqual(p.returncode, 2)
    self.assertIn("unknown option", p.stderr)
    self.assertIn("usage: roctrace", p.stderr)

  def test_no_program(self):
    for args in ([], ["--hip-trace"], ["--hip-trace", "--"]):
      p = self.roctrace(*args)
      self.assertEqual(p.returncode, 2, args)
      self.assertIn("usage: roctrace", p.stderr)

  def test_option_without_value_or_bad_value(self):
    for args in (["-d"], ["--output-format", "xml", "--", "true"],
                 ["--buffer-size", "12", "--", "true"],
                 ["--collection-period", "1:2", "--", "true"],
                 ["--kernel-include-regex", "(", "--", "true"]):
      p = self.roctrace(*args)
      self.assertEqual(p.returncode, 2, args)
      self.assertIn("usage: roctrace", p.stderr)

  def test_program_not_found(self):
    p = self.roctrace("--", "no-such-program-here")
    self.assertEqual(p.returncode, 127)
    self.assertIn("no-such-program-here: command not found", p.stderr)
    p = self.roctrace("--", "./missing")
    self.assertEqual(p.returncode, 127)

  def test_program_not_executable(self):
    path = os.path.join(self.dir, "script")
    with open(path, "w") as f:
      f.write("#!/bin/sh\n")
    os.chmod(path, 0o644)
    p = self.roctrace("--", path)
    self.assertEqual(p.returncode, 126)
    self.assertIn("Permission denied", p.stderr)

  def test_unwritable_output_directory_before_start(self):
    blocker = os.path.join(self.dir, "file")
    open(blocker, "w").close()
    marker = os.path.join(self.dir, "started")
    p = self.roctrace("-d", os.path.join(blocker, "out"), "--", "/bin/sh",
                      "-c", "touch " + marker)
    self.assertEqual(p.returncode, 1)
    self.assertIn("cannot write the output directory", p.stderr)
    self.assertIn("not a directory", p.stderr.lower())
    self.assertFalse(os.path.exists(marker))

  def test_exit_status_and_signal_pass_through(self):
    p = self.roctrace("-d", self.dir, "--", "/bin/sh", "-c", "exit 7")
    self.assertEqual(p.returncode, 7)
    p = self.roctrace("-d", self.dir, "--", "/bin/sh", "-c", "kill -TERM $$")
    self.assertEqual(p.returncode, -signal.SIGTERM)


def limit_file_size(limit):
  """A preexec_fn: files may not grow past `limit` bytes, and a write past it
  fails with EFBIG instead of killing the writer (SIGXFSZ ignored: the
  disposition survives exec), as on a full disk."""
  def apply():
    import resource
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
    resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))
  return apply


class NothingSilent(unittest.TestCase):
  """An output that cannot be created or written is an error on stderr and
  in roctrace's status, never a silent loss; paths are checked before the
  program starts."""

  def setUp(self):
    self.dir = tempfile.mkdtemp()
    self.marker = os.path.join(self.dir, "started")

  def roctrace(self, *args, **kwargs):
    return subprocess.run([ROCTRACE] + list(args), cwd=self.dir,
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          universal_newlines=True, timeout=120, **kwargs)

  def touch_program(self):
    return ["--", "/bin/sh", "-c", "touch " + self.marker]

  def test_a_directory_inside_the_output_name_is_created(self):
    p = self.roctrace("--hip-trace", "--output-format", "csv", "rocpd", "-o",
                      "sub/dir/x", "--", PROGRAM, "threads", "1", "10")
    self.assertEqual(p.returncode, 0, p.stderr)
    rows = read_csv(os.path.join(self.dir, "sub", "dir",
                                 "x_hip_api_trace.csv"))
    self.assertEqual(len(rows), 10)
    self.assertEqual(len(regions(os.path.join(self.dir, "sub", "dir",
                                              "x_results.db"))), 10)

  def test_bad_paths_are_errors_before_the_program_starts(self):
    cases = [["-o", "x" * 300],  # a file name longer than NAME_MAX
             ["-d", "/proc/nope"],  # cannot be created, even by root
             ["-d", os.path.join(self.dir, "file", "below")]]
    open(os.path.join(self.dir, "file"), "w").close()
    ro = os.path.join(self.dir, "ro")
    os.mkdir(ro)
    with open(os.path.join(ro, "x_results.db"), "w"):
      pass
    os.chmod(os.path.join(ro, "x_results.db"), 0o444)
    if os.geteuid() != 0:  # root writes read-only files anyway
      cases.append(["-d", ro, "-o", "x"])
    for args in cases:
      p = self.roctrace(*(args + self.touch_program()))
      self.assertEqual(p.returncode, 1, (args, p.stderr))
      self.assertIn("cannot write the output directory", p.stderr)
      self.assertIn("not started", p.stderr)
      self.assertFalse(os.path.exists(self.marker), args)
    # Nothing of the check is left behind.
    self.assertEqual(sorted(os.listdir(self.dir)), ["file", "ro"])

  def test_runs_at_once_share_a_new_directory(self):
    # As MPI ranks do: the run that made the directory removes it after its
    # check, while the others may be checking it.
    for r in range(20):
      out = os.path.join(self.dir, "shared%d" % r, "out")
      procs = [subprocess.Popen([ROCTRACE, "-d", out, "-o", "r%d" % i, "--",
                                 "/bin/true"], cwd=self.dir,
                                stdout=subprocess.DEVNULL,
                                stderr=subprocess.PIPE,
                                universal_newlines=True) for i in range(8)]
      for p in procs:
        _, err = p.communicate(timeout=120)
        self.assertEqual(p.returncode, 0, err)

  def test_an_option_as_a_value_is_an_error(self):
    for args in (["-o", "--"], ["-d", "--hip-trace"]):
      p = self.roctrace(*(args + self.touch_program()))
      self.assertEqual(p.returncode, 2, args)
      self.assertIn("needs a value", p.stderr)
      self.assertFalse(os.path.exists(self.marker))

  def test_a_relative_directory_is_roctraces_not_the_programs(self):
    elsewhere = tempfile.mkdtemp()
    p = self.roctrace("--hip-trace", "--output-format", "csv", "-d", "out",
                      "-o", "r", "--", PROGRAM, "chdir", elsewhere, "5")
    self.assertEqual(p.returncode, 0, p.stderr)
    self.assertEqual(
        len(read_csv(os.path.join(self.dir, "out", "r_hip_api_trace.csv"))),
        5)
    self.assertEqual(os.listdir(elsewhere), [])

  def test_a_full_disk_is_an_error_with_whole_rows_and_a_database(self):
    # CSV and timeline files outgrow the limit; the database and its journal
    # stay under it (without the calls' arguments, which would double it),
    # and record what the others lost.
    p = self.roctrace("--hip-trace", "--output-format", "csv", "rocpd",
                      "pftrace", "json", "-d", "out", "-o", "f", "--",
                      PROGRAM, "threads", "2", "20000",
                      preexec_fn=limit_file_size(2800 << 10),
                      env=dict(os.environ, ROCTRACE_API_ARGS="0"))
    self.assertEqual(p.returncode, 74, p.stderr)
    self.assertIn("cannot write", p.stderr)
    self.assertIn("the program exited with status 0", p.stderr)
    out = os.path.join(self.dir, "out")
    csv_path = os.path.join(out, "f_hip_api_trace.csv")
    self.assertIn("cannot write " + csv_path, p.stderr)
    self.assertIn(csv_path + " (incomplete)", p.stderr)
    # No half row: the file ends with a whole one, every row has 7 fields.
    with open(csv_path, newline="") as f:
      data = f.read()
    self.assertTrue(data.endswith("\n"))
    rows = list(csv.reader(data.splitlines()))
    self.assertTrue(all(len(r) == 7 for r in rows))
    self.assertLess(len(rows) - 1, 40000)
    # The JSON, one document, is not left cut short.
    self.assertFalse(os.path.exists(os.path.join(out, "f_results.json")))
    # The database opens, has every event, and says what was lost where.
    db = os.path.join(out, "f_results.db")
    self.assertEqual(len(regions(db)), 40000)
    m = metadata(db)
    self.assertIn(csv_path, m["roctrace.write_failures"])
    self.assertEqual(int(m["roctrace.lost.unwritten_csv"]),
                     40000 - (len(rows) - 1))
    self.assertEqual(int(m["roctrace.lost.unwritten_json"]), 40000)
    # The timeline keeps whole packets only.
    self.assertEqual(m["roctrace.finished"], "1")

  def test_a_full_tmpfs(self):
    mnt = tempfile.mkdtemp()
    if subprocess.run(["mount", "-t", "tmpfs", "-o", "size=512k", "tmpfs",
                       mnt]).returncode != 0:
      self.skipTest("cannot mount a tmpfs here (the file size limit test "
                    "covers the same failures)")
    try:
      p = self.roctrace("--hip-trace", "--output-format", "csv", "rocpd",
                        "--stats", "-d", mnt, "-o", "t", "--", PROGRAM,
                        "threads", "2", "20000")
      self.assertEqual(p.returncode, 74, p.stderr)
      self.assertIn("No space left on device", p.stderr)
      with open(os.path.join(mnt, "t_hip_api_trace.csv")) as f:
        data = f.read()
      self.assertTrue(data == "" or data.endswith("\n"))
      # A valid database (SQLite reads it), holding what fitted: when the
      # disk filled before its schema did, nothing; else its metadata.
      con = sqlite3.connect(os.path.join(mnt, "t_results.db"))
      tables = {r[0] for r in con.execute(
          "SELECT name FROM sqlite_master WHERE type = 'table'")}
      if tables:
        con.execute("SELECT COUNT(*) FROM rocpd_metadata").fetchall()
      con.close()
    finally:
      subprocess.run(["umount", mnt])

  def test_killing_roctrace_tells_the_program(self):
    proc = subprocess.Popen(
        [ROCTRACE, "--hip-trace", "-d", self.dir, "-o", "k", "--", PROGRAM,
         "wait_for_kill", "10"], cwd=self.dir, stdout=subprocess.PIPE,
        stderr=subprocess.PIPE, universal_newlines=True)
    try:
      self.assertEqual(proc.stdout.readline().strip(), "ready")
      program = int(subprocess.check_output(["pgrep", "-P", str(proc.pid)]))
      proc.kill()  # SIGKILL: roctrace cannot forward it
      proc.wait(timeout=60)
      def running():
        # Gone, or ended and not yet reaped by its new parent (a zombie).
        try:
          with open("/proc/%d/stat" % program) as f:
            return not f.read().split(") ")[1].startswith("Z")
        except FileNotFoundError:
          return False

      deadline = time.monotonic() + 30
      while time.monotonic() < deadline and running():
        time.sleep(0.05)
      alive = running()
      if alive:
        os.kill(program, signal.SIGKILL)
      self.assertFalse(alive, "the program outlived roctrace")
    finally:
      proc.stdout.close()
      proc.stderr.close()

  def test_a_program_closing_every_descriptor_keeps_its_file(self):
    # The program closes every descriptor from 3 up (ours too) and opens a
    # file of its own, which may get the number a writer held: the writer
    # never writes into it and goes on in its own file.
    mine = os.path.join(self.dir, "mine.txt")
    p = self.roctrace("--hip-trace", "--output-format", "csv", "pftrace",
                      "-d", "out", "-o", "c", "--", PROGRAM, "close_fds",
                      mine, "3000")
    self.assertEqual(p.returncode, 0, p.stderr)
    with open(mine) as f:
      self.assertEqual(f.read(), "minemine")
    rows = read_csv(os.path.join(self.dir, "out", "c_hip_api_trace.csv"))
    self.assertEqual(len(rows), 6000)

  def test_a_program_closing_every_descriptor_keeps_db_and_json(self):
    # The same with the database and the JSON, which keep descriptors of
    # their own (SQLite's, the JSON's parts) across the close.
    mine = os.path.join(self.dir, "mine.txt")
    p = self.roctrace("--hip-trace", "--output-format", "rocpd", "json",
                      "-d", "out", "-o", "c", "--", PROGRAM, "close_fds",
                      mine, "3000")
    self.assertEqual(p.returncode, 0, p.stderr)
    with open(mine) as f:
      self.assertEqual(f.read(), "minemine")
    out = os.path.join(self.dir, "out")
    self.assertEqual(len(regions(os.path.join(out, "c_results.db"))), 6000)
    with open(os.path.join(out, "c_results.json")) as f:
      doc = json.load(f)["rocprofiler-sdk-tool"][0]
    self.assertEqual(len(doc["buffer_records"]["hip_api"]), 6000)

  def test_a_program_dup2ing_over_every_descriptor_gets_none_of_our_data(self):
    # Every descriptor from 3 up becomes the program's file: a writer that
    # wrote through its old number would write into it.
    mine = os.path.join(self.dir, "mine.txt")
    p = self.roctrace("--hip-trace", "--output-format", "rocpd", "json",
                      "csv", "pftrace", "-d", "out", "-o", "d", "--",
                      PROGRAM, "dup2_fds", mine, "3000")
    self.assertEqual(p.returncode, 0, p.stderr)
    with open(mine) as f:
      self.assertEqual(f.read(), "minemine")
    out = os.path.join(self.dir, "out")
    self.assertEqual(len(regions(os.path.join(out, "d_results.db"))), 6000)
    self.assertEqual(len(read_csv(os.path.join(out, "d_hip_api_trace.csv"))),
                     6000)
    with open(os.path.join(out, "d_results.json")) as f:
      doc = json.load(f)["rocprofiler-sdk-tool"][0]
    self.assertEqual(len(doc["buffer_records"]["hip_api"]), 6000)

  def test_a_program_that_execs_itself_keeps_each_images_files(self):
    # Same pid, same names: the image after the exec writes files of its
    # own (_exec1), the first image's are finished before the exec.
    p = self.roctrace("--hip-trace", "--output-format", "csv", "rocpd",
                      "json", "pftrace", "-d", "out", "-o", "x", "--",
                      PROGRAM, "exec_self", "3000", "2000")
    self.assertEqual(p.returncode, 0, p.stderr)
    out = os.path.join(self.dir, "out")
    for prefix, calls in (("x", 3000), ("x_exec1", 2000)):
      rows = read_csv(os.path.join(out, prefix + "_hip_api_trace.csv"))
      self.assertEqual(len(rows), calls, prefix)
      self.assertEqual(len(regions(os.path.join(out, prefix + "_results.db"))),
                       calls, prefix)
      self.assertEqual(metadata(os.path.join(
          out, prefix + "_results.db"))["roctrace.finished"], "1")
      with open(os.path.join(out, prefix + "_results.json")) as f:
        doc = json.load(f)["rocprofiler-sdk-tool"][0]
      self.assertEqual(len(doc["buffer_records"]["hip_api"]), calls, prefix)
      self.assertGreater(
          os.path.getsize(os.path.join(out, prefix + "_results.pftrace")), 0)
    # Both images are one process.
    self.assertEqual(
        {r["Process_Id"] for r in read_csv(
            os.path.join(out, "x_hip_api_trace.csv"))},
        {r["Process_Id"] for r in read_csv(
            os.path.join(out, "x_exec1_hip_api_trace.csv"))})

  def test_cross_thread_ranges_are_written(self):
    p = self.roctrace("--marker-trace", "--output-format", "csv", "rocpd",
                      "-d", "out", "-o", "c", "--", PROGRAM, "cross_ranges",
                      "50")
    self.assertEqual(p.returncode, 0, p.stderr)
    rows = read_csv(os.path.join(self.dir, "out", "c_marker_api_trace.csv"))
    self.assertEqual([r["Function"] for r in rows], ["cross"] * 50)
    for r in rows:
      self.assertLessEqual(int(r["Start_Timestamp"]),
                           int(r["End_Timestamp"]))
    db = os.path.join(self.dir, "out", "c_results.db")
    self.assertEqual(len([r for r in regions(db) if r[1] == "cross"]), 50)
    m = metadata(db)
    self.assertEqual(m["roctrace.lost.unmatched_range_ends"], "0")
    self.assertEqual(m["roctrace.lost.unterminated_ranges"], "0")

  def test_pops_with_no_open_range_are_counted_not_written(self):
    # The tracer reports a pop with no open range like any pop: it closes
    # nothing, so it makes no row and is counted as an unmatched range end.
    p = self.roctrace("--marker-trace", "--output-format", "csv", "rocpd",
                      "-d", "out", "-o", "p", "--", PROGRAM, "unbalanced_pop")
    self.assertEqual(p.returncode, 0, p.stderr)
    rows = read_csv(os.path.join(self.dir, "out", "p_marker_api_trace.csv"))
    self.assertEqual([r["Function"] for r in rows], ["kept"])
    self.assertLess(int(rows[0]["Start_Timestamp"]),
                    int(rows[0]["End_Timestamp"]))
    db = os.path.join(self.dir, "out", "p_results.db")
    self.assertEqual([r[1] for r in regions(db)].count("kept"), 1)
    m = metadata(db)
    self.assertEqual(m["roctrace.lost.unmatched_range_ends"], "2")
    self.assertEqual(m["roctrace.lost.unterminated_ranges"], "0")

  def test_marker_strings_are_valid_utf8_in_every_format(self):
    p = self.roctrace("--marker-trace", "--output-format", "csv", "rocpd",
                      "json", "pftrace", "-d", "out", "-o", "u", "--",
                      PROGRAM, "bad_utf8")
    self.assertEqual(p.returncode, 0, p.stderr)
    out = os.path.join(self.dir, "out")
    for name in ("u_marker_api_trace.csv", "u_results.json"):
      with open(os.path.join(out, name), "rb") as f:
        text = f.read().decode("utf-8")  # strict: raises on invalid bytes
      self.assertIn("bad\ufffd\ufffd", text)
    json.loads(text)
    con = sqlite3.connect(os.path.join(out, "u_results.db"))
    con.text_factory = bytes
    names = {r[0].decode("utf-8") for r in con.execute(
        "SELECT string FROM rocpd_string")}
    con.close()
    self.assertIn("\ufffd(", names)
    with open(os.path.join(out, "u_results.pftrace"), "rb") as f:
      trace = f.read()
    self.assertNotIn(b"\xff\xfe", trace)
    self.assertIn("bad\ufffd\ufffd".encode("utf-8"), trace)


class Summaries(unittest.TestCase):
  """rocprofv3's summary options: -S (one table), -D (per domain),
  --summary-groups, -u, --summary-output-file."""

  def tables(self, text):
    """{title: {name: (domain, calls, ...)}} of rocprofv3's summary tables in
    `text` ("ROCPROFV3 <title>:" then a pipe table)."""
    tables, title = {}, None
    for line in text.splitlines():
      line = line.strip()
      m = re.match(r"ROCPROFV3 (.*):$", line)
      if m:
        title = m.group(1)
        tables[title] = {}
      elif title and line.startswith("| "):
        fields = [f.strip() for f in line.strip("|").split("|")]
        if fields[0] != "NAME":  # the header
          tables[title][fields[0]] = fields[1:]
    return tables

  def test_per_domain_groups_units_and_file(self):
    d = tempfile.mkdtemp()
    # rocprofv3's documented group, matched against whole domain names.
    p = run([ROCTRACE, "--sys-trace", "-D", "--summary-groups", "HSA_.*",
             "MARKER_API|HIP_API", "HIP", "-u", "usec",
             "--summary-output-file", "sum",
             "-d", d, "-o", "run", "--", PROGRAM, "sample"], d)
    self.assertEqual(p.returncode, 0, p.stderr)
    self.assertNotIn("ROCPROFV3", p.stderr)
    # "HIP" is part of a domain's name, not a whole one: said on stderr.
    self.assertIn("--summary-groups 'HIP' matches no domain", p.stderr)
    # rocprofv3's path: <output directory>/<prefix>_NAME.txt.
    self.assertFalse(os.path.exists(os.path.join(d, "sum")))
    with open(os.path.join(d, "run_sum.txt")) as f:
      text = f.read()
    tables = self.tables(text)
    self.assertIn("HIP_API SUMMARY", tables)
    self.assertIn("hsa_system_get_info", tables["HSA_API SUMMARY"])
    self.assertEqual(tables["HSA_API SUMMARY"]["hsa_system_get_info"][0],
                     "HSA_API")
    self.assertNotIn("hipGetErrorString", tables["HSA_API SUMMARY"])
    self.assertNotIn("SUMMARY", tables)  # -S not given
    self.assertEqual(tables["HIP_API + MARKER_API SUMMARY"]["outer"][0],
                     "MARKER_API")
    self.assertEqual(
        tables["HIP_API + MARKER_API SUMMARY"]["hipGetDeviceCount"][0],
        "HIP_API")
    self.assertEqual(set(tables["MARKER_API SUMMARY"]),
                     {"start", "outer", "inner"})
    # Microseconds: the column headers say so.
    self.assertIn("DURATION (usec)", text)
    p = run([ROCTRACE, "--summary-groups", "(", "--", "true"], d)
    self.assertEqual(p.returncode, 2)

  def test_stdout_and_stderr_names_print_on_the_standard_output(self):
    # rocprofv3 1.0.0 prints the tables on its standard output for both
    # names (any case), writing no file.
    for name in ("stderr", "STDOUT", "Stderr"):
      d = tempfile.mkdtemp()
      p = run([ROCTRACE, "--hip-trace", "-S", "--summary-output-file", name,
               "-d", d, "-o", "s", "--", PROGRAM, "threads", "1", "3"], d)
      self.assertEqual(p.returncode, 0, p.stderr)
      self.assertIn("ROCPROFV3 SUMMARY:", p.stdout, name)
      self.assertIn("hipGetErrorString", p.stdout, name)
      self.assertNotIn("SUMMARY", p.stderr, name)
      self.assertEqual(os.listdir(d), ["s_results.db"], name)


class MoreRocprofv3Options(unittest.TestCase):
  """rocprofv3's --output-config, --log-level config, -v and the options
  accepted with no effect."""

  def test_output_config_and_log_level_config(self):
    d = tempfile.mkdtemp()
    p = run([ROCTRACE, "--hip-trace", "--output-config", "--log-level",
             "config", "--disable-signal-handlers", "--rocm-root", "/opt/rocm",
             "-d", d, "-o", "c", "--", PROGRAM, "threads", "1", "3"], d)
    self.assertEqual(p.returncode, 0, p.stderr)
    self.assertIn("- roctrace configuration:", p.stderr)
    self.assertIn("    - ROCTRACE_DOMAINS=hip", p.stderr)
    self.assertIn("--rocm-root /opt/rocm: no effect", p.stderr)
    with open(os.path.join(d, "c_config.json")) as f:
      doc = json.load(f)["roctrace"]
    self.assertEqual(doc["command"], [PROGRAM, "threads", "1", "3"])
    self.assertGreater(doc["pid"], 0)
    self.assertEqual(doc["config"]["ROCTRACE_DOMAINS"], "hip")
    self.assertEqual(doc["config"]["ROCTRACER_CRASH_FLUSH"], "0")
    self.assertEqual(len(regions(os.path.join(d, "c_results.db"))), 3)

  def test_output_config_of_every_traced_process(self):
    # As rocprofv3's: one file per traced process (the shell and both of its
    # programs), each with that process's pid and command line. (bash, ending
    # on a builtin: it neither execs its last program nor leaves by _exit,
    # as dash does, which skips the exit handlers that write the file.)
    d = tempfile.mkdtemp()
    p = run([ROCTRACE, "--hip-trace", "--output-config", "-d", d, "-o",
             "%pid%", "--", "/bin/bash", "-c",
             "%s threads 1 3; %s threads 1 2; true" % (PROGRAM, PROGRAM)], d)
    self.assertEqual(p.returncode, 0, p.stderr)
    configs = sorted(f for f in os.listdir(d) if f.endswith("_config.json"))
    commands = []
    for name in configs:
      with open(os.path.join(d, name)) as f:
        doc = json.load(f)["roctrace"]
      self.assertEqual("%d_config.json" % doc["pid"], name)
      self.assertEqual(doc["config"]["ROCTRACE_DOMAINS"], "hip")
      commands.append(doc["command"])
    self.assertEqual(len(configs), 3, configs)
    self.assertIn([PROGRAM, "threads", "1", "3"], commands)
    self.assertIn([PROGRAM, "threads", "1", "2"], commands)
    # A file that cannot be written: roctrace's status says so.
    blocked = os.path.join(d, "blocked")
    with open(blocked, "w") as f:
      f.write("a file, not a directory")
    p = run([ROCTRACE, "--hip-trace", "--output-config", "-d", d, "-o",
             "%pid%", "--", "/bin/sh", "-c",
             "cd /; ROCTRACE_OUTPUT_DIR=%s %s threads 1 1" %
             (blocked, PROGRAM)], d)
    self.assertEqual(p.returncode, 74, p.stderr)
    self.assertIn("_config.json", p.stderr)

  def test_output_config_of_one_name_is_the_last_to_finish(self):
    # Written as each process finishes, as rocprofv3 writes its file: with
    # one name for all (a fixed -o), the file kept is the shell's, which
    # finishes after both of its programs (not the last one started).
    d = tempfile.mkdtemp()
    script = "%s threads 1 3; %s threads 1 2; true" % (PROGRAM, PROGRAM)
    p = run([ROCTRACE, "--hip-trace", "--output-config", "-d", d, "-o", "c",
             "--", "/bin/bash", "-c", script], d)
    self.assertEqual(p.returncode, 0, p.stderr)
    with open(os.path.join(d, "c_config.json")) as f:
      doc = json.load(f)["roctrace"]
    self.assertEqual(doc["command"], ["/bin/bash", "-c", script])
    self.assertEqual(doc["config"]["ROCTRACE_DOMAINS"], "hip")
    # An image that execs writes its own as it goes (the exit steps run
    # before the exec), the next image its own; a program killed by a fatal
    # signal writes its file as its other outputs are finished.
    p = run([ROCTRACE, "--hip-trace", "--output-config", "-d", d, "-o", "e",
             "--", PROGRAM, "exec_self", "2", "1"], d)
    self.assertEqual(p.returncode, 0, p.stderr)
    for name, command in (("e", ["exec_self", "2", "1"]),
                          ("e_exec1", ["exec_self", "1", "0", "again"])):
      with open(os.path.join(d, name + "_config.json")) as f:
        self.assertEqual(json.load(f)["roctrace"]["command"][1:], command)
    p = run([ROCTRACE, "--hip-trace", "--output-config", "-d", d, "-o", "k",
             "--", PROGRAM, "crash", "2"], d)
    self.assertNotEqual(p.returncode, 0, p.stderr)
    with open(os.path.join(d, "k_config.json")) as f:
      self.assertEqual(json.load(f)["roctrace"]["command"][1:], ["crash", "2"])

  def test_tracing_options_that_turn_nothing_on(self):
    # rocprofv3's rule: the program runs, nothing is traced or written, a
    # warning says so; statistics asked for are an error before it runs.
    d = tempfile.mkdtemp()
    p = run([ROCTRACE, "--sys-trace=False", "-d", d, "-o", "n", "--",
             PROGRAM, "exit_worker", "5"], d)
    self.assertEqual(p.returncode, 3, p.stderr)
    self.assertIn("no tracing options were enabled", p.stderr)
    self.assertEqual(os.listdir(d), [])
    p = run([ROCTRACE, "--sys-trace=False", "--stats", "-d", d, "-o", "n",
             "--", PROGRAM, "threads", "1", "1"], d)
    self.assertEqual(p.returncode, 2, p.stderr)
    self.assertIn("no tracing options were enabled for the --stats option",
                  p.stderr)
    self.assertEqual(os.listdir(d), [])
    # Nothing will be written: an output directory that cannot be made or
    # written is no reason not to run the program (rocprofv3 runs it), and
    # none is made.
    for out in ("/proc/1/x", os.path.join(d, "sub")):
      p = run([ROCTRACE, "--sys-trace=False", "-d", out, "-o", "n", "--",
               PROGRAM, "exit_worker", "5"], d)
      self.assertEqual(p.returncode, 3, (out, p.stderr))
      self.assertIn("no tracing options were enabled", p.stderr)
      self.assertEqual(os.listdir(d), [])
    # ... but the configuration file, asked for, is still written, and a
    # directory it cannot be written in stops the run before it starts.
    p = run([ROCTRACE, "--sys-trace=False", "--output-config", "-d",
             "/proc/1/x", "-o", "n", "--", PROGRAM, "exit_worker", "5"], d)
    self.assertEqual(p.returncode, 1, p.stderr)
    self.assertIn("cannot write the output directory", p.stderr)
    p = run([ROCTRACE, "--sys-trace=False", "--output-config", "-d",
             os.path.join(d, "sub"), "-o", "n", "--", PROGRAM, "exit_worker",
             "5"], d)
    self.assertEqual(p.returncode, 3, p.stderr)
    self.assertEqual(os.listdir(os.path.join(d, "sub")), ["n_config.json"])

  def test_short_version_and_refused_options(self):
    d = tempfile.mkdtemp()
    p = run([ROCTRACE, "-v"], d)
    self.assertEqual(p.returncode, 0, p.stderr)
    self.assertIn("roctrace", p.stdout)
    for args in (["-E", "extra.yaml"], ["--extra-counters", "x.yaml"],
                 ["-f", "otf2"], ["-f", "csv", "otf2"]):
      p = run([ROCTRACE] + args + ["--", PROGRAM, "threads", "1", "1"], d)
      self.assertEqual(p.returncode, 2, args)
      self.assertIn("not supported", p.stderr)
    self.assertEqual(os.listdir(d), [])


class InputFiles(unittest.TestCase):
  """rocprofv3's -i input files: each job runs the program once, with its own
  options only."""

  def test_yaml_jobs_run_one_after_the_other(self):
    d = tempfile.mkdtemp()
    with open(os.path.join(d, "input.yaml"), "w") as f:
      f.write("jobs:\n"
              "  - hip_trace: true\n"
              "    output_format: [csv]\n"
              "    output_directory: one\n"
              "  - marker_trace: true\n"
              "    output_format: [csv]\n"
              "    output_directory: two\n")
    p = run([ROCTRACE, "-i", "input.yaml", "-o", "r", "--", PROGRAM,
             "threads", "2", "5"], d)
    self.assertEqual(p.returncode, 0, p.stderr)
    self.assertIn("job 2 of 2", p.stderr)
    # Each job in pass_N of its directory, as rocprofv3's. Each CSV run
    # also describes the agents (_agent_info.csv).
    self.assertEqual(sorted(os.listdir(os.path.join(d, "one", "pass_1"))),
                     ["r_agent_info.csv", "r_hip_api_trace.csv"])
    self.assertEqual(len(read_csv(os.path.join(d, "one", "pass_1",
                                               "r_hip_api_trace.csv"))), 10)
    # The second job traces markers only: nothing of the first's settings.
    self.assertEqual(sorted(os.listdir(os.path.join(d, "two", "pass_2"))),
                     ["r_agent_info.csv", "r_marker_api_trace.csv"])

  def test_jobs_sharing_a_prefix_keep_their_own_files(self):
    d = tempfile.mkdtemp()
    with open(os.path.join(d, "input.json"), "w") as f:
      json.dump({"jobs": [{"hip_trace": True, "output_format": ["csv"]},
                          {"hip_trace": True, "output_format": ["csv"]}]}, f)
    p = run([ROCTRACE, "-i", "input.json", "-o", "r", "--", PROGRAM,
             "threads", "1", "3"], d)
    self.assertEqual(p.returncode, 0, p.stderr)
    for n in (1, 2):
      self.assertEqual(len(read_csv(os.path.join(
          d, "pass_%d" % n, "r_hip_api_trace.csv"))), 3)
    self.assertFalse(os.path.exists(os.path.join(d, "r_hip_api_trace.csv")))

  def test_json_job_and_bad_files(self):
    d = tempfile.mkdtemp()
    with open(os.path.join(d, "input.json"), "w") as f:
      json.dump({"jobs": [{"hip_trace": True, "output_format": ["CSV"],
                           "output_directory": "j"}]}, f)
    p = run([ROCTRACE, "-i", "input.json", "-o", "r", "--", PROGRAM,
             "threads", "1", "3"], d)
    self.assertEqual(p.returncode, 0, p.stderr)
    self.assertEqual(
        len(read_csv(os.path.join(d, "j", "r_hip_api_trace.csv"))), 3)
    with open(os.path.join(d, "bad.json"), "w") as f:
      f.write('{"jobs": [{"hip_trace": tru}]}')
    with open(os.path.join(d, "counters.txt"), "w") as f:
      f.write("pmc: SQ_WAVES\n")
    with open(os.path.join(d, "comma.json"), "w") as f:
      f.write('{"jobs": [{"hip_trace": true},]}')
    with open(os.path.join(d, "bad.yaml"), "w") as f:
      f.write("jobs:\n  - hip_trace: [true\n")
    with open(os.path.join(d, "nested.yml"), "w") as f:
      f.write("jobs:\n  - hip_trace: {a: 1}\n")
    for name in ("bad.json", "counters.txt", "missing.yaml", "comma.json",
                 "bad.yaml", "nested.yml"):
      p = run([ROCTRACE, "-i", name, "--", "true"], d)
      self.assertEqual(p.returncode, 2, name)
      self.assertIn(name, p.stderr)
    # Malformed documents say what the parser found, and where.
    p = run([ROCTRACE, "-i", "comma.json", "--", "true"], d)
    self.assertIn("not JSON", p.stderr)
    p = run([ROCTRACE, "-i", "bad.yaml", "--", "true"], d)
    self.assertIn("not read as YAML", p.stderr)
    self.assertIn("line", p.stderr)


class MinimumOutputData(unittest.TestCase):
  """rocprofv3's --minimum-output-data KB: a process's outputs are kept
  only when they hold at least that much."""

  def trace(self, calls, kb):
    d = tempfile.mkdtemp()
    p = run([ROCTRACE, "--hip-trace", "-f", "csv", "rocpd",
             "--minimum-output-data", kb, "-d", d, "-o", "m", "--", PROGRAM,
             "threads", "1", calls], d)
    self.assertEqual(p.returncode, 0, p.stderr)
    return d, p.stderr

  def test_small_outputs_are_not_kept(self):
    d, err = self.trace("10", "1024")
    self.assertEqual(os.listdir(d), [])
    self.assertIn("less than --minimum-output-data: not kept", err)

  def test_outputs_above_the_threshold_are_kept(self):
    d, err = self.trace("20000", "64")
    # Every CSV output comes with the agents' (rocprofv3's agent_info.csv).
    self.assertEqual(sorted(os.listdir(d)),
                     ["m_agent_info.csv", "m_hip_api_trace.csv", "m_results.db"])
    self.assertGreaterEqual(
        sum(os.path.getsize(os.path.join(d, f)) for f in os.listdir(d)),
        64 * 1024)
    self.assertEqual(len(read_csv(os.path.join(d, "m_hip_api_trace.csv"))),
                     20000)
    self.assertNotIn("not kept", err)


def run_on_terminal(args, cwd):
  """Runs `args` with stderr on a pseudo-terminal; (status, what the terminal
  received)."""
  master, slave = pty.openpty()
  p = subprocess.Popen(args, cwd=cwd, stdout=subprocess.DEVNULL, stderr=slave)
  os.close(slave)
  received = b""
  while True:
    try:
      chunk = os.read(master, 65536)
    except OSError:  # EIO: every writer has closed the terminal
      break
    if not chunk:
      break
    received += chunk
  os.close(master)
  return p.wait(timeout=120), received.decode("utf-8", "replace")


STATUS_LINE = re.compile(
    r"\rroctrace: (\d+) s, (\d+) events, ([\d.]+) MiB written, (\d+) "
    r"dropped\x1b\[K")


class Progress(unittest.TestCase):
  """A run of more than a few seconds shows a status line on a terminal,
  redrawn in place; never in a pipe or with --log-level error."""

  def test_status_line_on_a_terminal(self):
    d = tempfile.mkdtemp()
    status, text = run_on_terminal(
        [ROCTRACE, "--hip-trace", "-d", d, "-o", "p", "--", PROGRAM, "for_ms",
         "3500"], d)
    self.assertEqual(status, 0, text)
    lines = STATUS_LINE.findall(text)
    self.assertGreaterEqual(len(lines), 2, repr(text))
    events = [int(l[1]) for l in lines]
    mib = [float(l[2]) for l in lines]
    self.assertEqual(events, sorted(events))
    self.assertGreater(events[-1], 0)
    self.assertGreater(mib[-1], 0)
    self.assertEqual({l[3] for l in lines}, {"0"})
    # It starts after the first seconds, and is erased at the end: the
    # terminal's last line is empty, the exit summary stands on its own line.
    self.assertGreaterEqual(int(lines[0][0]), 2)
    self.assertTrue(text.endswith("\r\x1b[K"), repr(text[-200:]))
    summary = re.search(r"roctrace: pid \d+: (\d+) events", text)
    self.assertIsNotNone(summary, repr(text))
    self.assertGreaterEqual(int(summary.group(1)), events[-1])
    self.assertNotIn("dropped\x1b[Kroctrace: pid", text)

  def test_no_status_line_in_a_pipe(self):
    d = tempfile.mkdtemp()
    p = run([ROCTRACE, "--hip-trace", "-d", d, "-o", "p", "--", PROGRAM,
             "for_ms", "2600"], d)
    self.assertEqual(p.returncode, 0, p.stderr)
    self.assertRegex(p.stderr, r"roctrace: pid \d+: \d+ events")
    self.assertNotIn("MiB written", p.stderr)
    self.assertNotIn("\x1b", p.stderr)

  def test_no_status_line_with_log_level_error(self):
    d = tempfile.mkdtemp()
    status, text = run_on_terminal(
        [ROCTRACE, "--hip-trace", "--log-level", "error", "-d", d, "-o", "p",
         "--", PROGRAM, "for_ms", "2600"], d)
    self.assertEqual(status, 0, text)
    self.assertNotIn("MiB written", text)


class Merge(unittest.TestCase):

  def test_merge_two_processes(self):
    d = tempfile.mkdtemp()
    for name, threads in (("a", "1"), ("b", "2")):
      p = run([ROCTRACE, "--hip-trace", "-d", d, "-o", name, "--", PROGRAM,
               "threads", threads, "50"], d)
      self.assertEqual(p.returncode, 0, p.stderr)
    inputs = [os.path.join(d, n + "_results.db") for n in ("a", "b")]
    out = os.path.join(d, "merged.db")
    p = run([ROCTRACE, "merge", "-o", out] + inputs, d)
    self.assertEqual(p.returncode, 0, p.stderr)
    merged = regions(out)
    self.assertEqual(sorted(merged), sorted(regions(inputs[0]) +
                                            regions(inputs[1])))
    con = sqlite3.connect(out)
    pids = {r[0] for r in con.execute("SELECT pid FROM processes")}
    con.close()
    self.assertEqual(pids, {r[2] for r in merged})
    self.assertEqual(len(pids), 2)

  def test_merge_follows_a_drifting_clock(self):
    # An MPI rank's offsets (as the tool records them at MPI_Init and
    # MPI_Finalize) that differ: each timestamp is shifted by the offset
    # interpolated at its time, and held at the nearer one outside them.
    d = tempfile.mkdtemp()
    p = run([ROCTRACE, "--hip-trace", "-d", d, "-o", "a", "--", PROGRAM,
             "threads", "1", "50"], d)
    self.assertEqual(p.returncode, 0, p.stderr)
    db = os.path.join(d, "a_results.db")
    before = {r[0]: r[1] for r in sqlite3.connect(db).execute(
        "SELECT id, start FROM rocpd_region")}
    starts = sorted(before.values())
    t1, t2 = starts[10], starts[40]
    con = sqlite3.connect(db)
    con.executemany(
        "INSERT INTO rocpd_metadata(tag, value) VALUES (?, ?)",
        [("roctrace.clock.init_local_ns", str(t1)),
         ("roctrace.clock.init_offset_ns", "1000000"),
         ("roctrace.clock.init_uncertainty_ns", "700"),
         ("roctrace.clock.finalize_local_ns", str(t2)),
         ("roctrace.clock.finalize_offset_ns", "-2000000"),
         ("roctrace.clock.finalize_uncertainty_ns", "900")])
    con.commit()
    con.close()
    out = os.path.join(d, "merged.db")
    p = run([ROCTRACE, "merge", "-o", out, db], d)
    self.assertEqual(p.returncode, 0, p.stderr)
    self.assertIn("to within 900 ns", p.stderr)
    con = sqlite3.connect(out)
    after = dict(con.execute("SELECT id, start FROM rocpd_region"))
    meta = dict(con.execute("SELECT tag, value FROM rocpd_metadata"))
    con.close()
    self.assertEqual(meta["roctrace.merge.clock_uncertainty_ns"], "900")
    for i, t in before.items():
      if t <= t1:
        expected = 1000000
      elif t >= t2:
        expected = -2000000
      else:
        expected = 1000000 - 3000000 * (t - t1) / (t2 - t1)
      self.assertLessEqual(abs(after[i] - t - expected), 1, (t, t1, t2))

  def test_rocpd_package_reads_merged_and_single_databases(self):
    """The rocpd Python package opens its inputs in one in-memory database:
    it attaches each file, takes every rocpd_metadata 'uuid' value, and for
    each table whose name contains one makes a temporary view named after
    the table without it, the UNION ALL of that name in every file; then it
    creates the schema's views on the suffixed tables (with an empty suffix:
    `rocpd_X AS SELECT * FROM rocpd_X`) where no such view exists yet. A
    table suffix not recorded as a 'uuid' leaves those views defined on
    themselves ("view ... is circularly defined")."""
    d = tempfile.mkdtemp()
    for name in ("a", "b", "c"):
      p = run([ROCTRACE, "--hip-trace", "-d", d, "-o", name, "--", PROGRAM,
               "threads", "1", "30"], d)
      self.assertEqual(p.returncode, 0, p.stderr)
    dbs = [os.path.join(d, n + "_results.db") for n in ("a", "b", "c")]
    merged = os.path.join(d, "ab.db")
    p = run([ROCTRACE, "merge", "-o", merged] + dbs[:2], d)
    self.assertEqual(p.returncode, 0, p.stderr)
    tables = ["rocpd_" + t for t in (
        "metadata", "string", "info_node", "info_process", "info_thread",
        "info_agent", "info_queue", "info_stream", "info_pmc",
        "info_code_object", "info_kernel_symbol", "track", "event", "arg",
        "pmc_event", "region", "sample", "kernel_dispatch", "memory_copy",
        "memory_allocate")]

    def open_as_rocpd(paths):
      con = sqlite3.connect(":memory:")
      uuids, selects = [], collections.OrderedDict()
      for i, path in enumerate(paths):
        con.execute("ATTACH DATABASE ? AS db%d" % i, (path,))
        for (u,) in con.execute(
            "SELECT value FROM db%d.rocpd_metadata WHERE tag = 'uuid'" % i):
          if u not in uuids:
            uuids.append(u)
      for i in range(len(paths)):
        for (table,) in con.execute(
            "SELECT name FROM db%d.sqlite_master WHERE type = 'table' AND "
            "name LIKE 'rocpd_%%'" % i):
          for u in uuids:
            if u in table:
              base = table.replace(u, "")
              sel = "SELECT * FROM db%d.%s" % (i, base)
              if sel not in selects.setdefault(base, []):
                selects[base].append(sel)
      for base, sels in selects.items():
        con.execute("CREATE TEMPORARY VIEW %s AS %s" %
                    (base, " UNION ALL ".join(sels)))
      for t in tables:
        con.execute("CREATE TEMPORARY VIEW IF NOT EXISTS %s AS SELECT * FROM "
                    "%s" % (t, t))
      return con

    def counts(paths):
      con = open_as_rocpd(paths)
      try:
        out = {t: con.execute("SELECT COUNT(*) FROM %s" % t).fetchone()[0]
               for t in tables}
        # One of the package's region queries: each call's name through
        # the event and string of its own process (joined on guid).
        out["named"] = con.execute(
            "SELECT COUNT(*) FROM rocpd_region R JOIN rocpd_string S ON "
            "S.id = R.name_id AND S.guid = R.guid JOIN rocpd_event E ON "
            "E.id = R.event_id AND E.guid = R.guid").fetchone()[0]
        return out
      finally:
        con.close()

    single = [counts([db]) for db in dbs]
    self.assertGreaterEqual(single[0]["rocpd_region"], 30)
    self.assertEqual(single[0]["named"], single[0]["rocpd_region"])
    both = counts([merged])
    for t in tables + ["named"]:
      self.assertEqual(both[t], single[0][t] + single[1][t], t)
    mixed = counts([merged, dbs[2]])
    self.assertEqual(mixed["rocpd_region"],
                     sum(c["rocpd_region"] for c in single))
    self.assertEqual(mixed["named"], mixed["rocpd_region"])
    # rocprofv3's naming: `<table>_<uuid>`, the uuid the GUID with '_'.
    con = sqlite3.connect(merged)
    rows = con.execute("SELECT value FROM rocpd_metadata WHERE tag = 'uuid' "
                       "ORDER BY value").fetchall()
    guids = con.execute("SELECT value FROM rocpd_metadata WHERE tag = 'guid' "
                        "ORDER BY value").fetchall()
    names = {r[0] for r in con.execute(
        "SELECT name FROM sqlite_master WHERE type = 'table'")}
    con.close()
    self.assertEqual([r[0] for r in rows],
                     ["_" + g[0].replace("-", "_") for g in guids])
    for (u,) in rows:
      self.assertIn("rocpd_region" + u, names)

  def test_merge_refuses_the_same_database_twice(self):
    d = tempfile.mkdtemp()
    p = run([ROCTRACE, "--hip-trace", "-d", d, "-o", "a", "--", PROGRAM,
             "threads", "1", "20"], d)
    self.assertEqual(p.returncode, 0, p.stderr)
    db = os.path.join(d, "a_results.db")
    copy = os.path.join(d, "copy.db")
    with open(db, "rb") as src, open(copy, "wb") as dst:
      dst.write(src.read())
    for inputs in ([db, db], [db, copy]):
      out = os.path.join(d, "m.db")
      p = run([ROCTRACE, "merge", "-o", out] + inputs, d)
      self.assertEqual(p.returncode, 1, p.stderr)
      self.assertIn("same process", p.stderr)
      self.assertFalse(os.path.exists(out))

  def test_merge_bad_input(self):
    d = tempfile.mkdtemp()
    self.assertEqual(run([ROCTRACE, "merge"], d).returncode, 2)
    self.assertEqual(run([ROCTRACE, "merge", "-o", "x.db"], d).returncode, 2)
    notdb = os.path.join(d, "notdb")
    with open(notdb, "w") as f:
      f.write("hello")
    p = run([ROCTRACE, "merge", "-o", "x.db", notdb], d)
    self.assertEqual(p.returncode, 1)
    self.assertIn("notdb", p.stderr)
    self.assertFalse(os.path.exists(os.path.join(d, "x.db")))
    p = run([ROCTRACE, "merge", "-o", "y.db", "missing.db"], d)
    self.assertEqual(p.returncode, 1)


class Environment(unittest.TestCase):

  def test_default_names_use_hostname_and_pid(self):
    # rocprofv3's default: ./<hostname>/<pid>_results.db.
    d = tempfile.mkdtemp()
    p = run([ROCTRACE, "--hip-trace", "--", PROGRAM, "threads", "1", "10"], d)
    self.assertEqual(p.returncode, 0, p.stderr)
    dbs = glob.glob(os.path.join(d, "*", "*_results.db"))
    self.assertEqual(len(dbs), 1, os.listdir(d))
    host, name = dbs[0].split(os.sep)[-2:]
    self.assertEqual(host, os.uname().nodename)
    pid = name[:-len("_results.db")]
    self.assertEqual({r[2] for r in regions(dbs[0])}, {int(pid)})

  def test_path_keys(self):
    d = tempfile.mkdtemp()
    env = dict(os.environ, SLURM_PROCID="5", MYTAG="abc")
    p = run([ROCTRACE, "--hip-trace", "-d", "%env{MYTAG}%", "-o",
             "r%rank%_%ppid%", "--", PROGRAM, "threads", "1", "10"], d,
            env=env)
    self.assertEqual(p.returncode, 0, p.stderr)
    files = os.listdir(os.path.join(d, "abc"))
    self.assertEqual(len(files), 1)
    self.assertRegex(files[0], r"^r5_\d+_results\.db$")

  def test_command_line_path_keys(self):
    # rocprofv3's documented keys: the checked paths (before the program
    # starts) and the program's own files agree.
    d = tempfile.mkdtemp()
    env = dict(os.environ, ROCPROF_TIME_FORMAT="T%Y")
    p = run([ROCTRACE, "--hip-trace", "-f", "csv", "-d", "{tag}_%launch_time%",
             "-o", "%argt%_%arg9%_%p", "--", PROGRAM, "threads", "1", "10"], d,
            env=env)
    self.assertEqual(p.returncode, 0, p.stderr)
    year = time.strftime("%Y")
    tag = os.path.basename(PROGRAM)
    files = os.listdir(os.path.join(d, tag + "_T" + year))
    names = [f for f in files if f.endswith("_hip_api_trace.csv")]
    self.assertEqual(len(names), 1, files)
    self.assertRegex(names[0], "^" + re.escape(tag) +
                     r"threads_1_10_\d+_hip_api_trace\.csv$")

  def test_the_variables_alone_trace_a_program(self):
    # What roctrace sets, set by hand: the same outputs without the command.
    d = tempfile.mkdtemp()
    libdir = os.path.dirname(os.path.realpath(ROCTRACE))
    tracer = os.path.realpath(os.path.join(libdir, "..",
                                           "libroctracer64.so.4"))
    tool = os.path.join(libdir, "libroctrace_tool.so")
    env = dict(os.environ, LD_PRELOAD=tracer + ":" + tool,
               ROCTRACE_OUTPUT_DIR=d, ROCTRACE_OUTPUT_FILE="env",
               ROCTRACE_OUTPUT_FORMAT="csv", ROCTRACE_DOMAINS="hip")
    p = run([PROGRAM, "threads", "2", "10"], d, env=env)
    self.assertEqual(p.returncode, 0, p.stderr)
    rows = read_csv(os.path.join(d, "env_hip_api_trace.csv"))
    self.assertEqual(len(rows), 20)


# hip_streams_program's rounds; its launches' grid widths and copies' sizes
# (/ 1000) name the stream: 1 stream a, 2 stream b (created second, used
# first), 3 the null stream. rocprofiler-sdk's Stream_Ids: by creation, the
# null stream 0.
ROUNDS = 3
STREAM_OF_TAG = {1: 1, 2: 2, 3: 0}


class HipStreams(unittest.TestCase):
  """A HIP program with two created streams and the null stream (the
  stand-in HIP library on softhsa): each kernel's and copy's Stream_Id is the
  stream it was launched on, in every format, with and without the HIP
  trace."""

  def trace(self, options, formats, extra=()):
    d = tempfile.mkdtemp()
    p = run([ROCTRACE] + options + ["--output-format"] + formats +
            ["-d", d, "-o", "s", "--", HIP_STREAMS_PROGRAM, GPU_KERNELS,
             str(ROUNDS)] + list(extra), d)
    self.assertEqual(p.returncode, 0, p.stderr)
    self.stdout = p.stdout
    return d

  def test_a_program_with_its_own_hip_callbacks_keeps_them_and_the_ids(self):
    # The program's callback on every HIP API (as a profiler in it would
    # set) and roctrace's on the stream-creating ones both run: creation
    # order still numbers the streams (b is used first).
    d = self.trace(["--kernel-trace", "--memory-copy-trace"], ["csv"],
                   ["client"])
    # At least its two creations (the stand-in's hipStreamCreate may call
    # hipStreamCreateWithFlags, traced as a nested call).
    seen = re.search(r"client saw (\d+) stream creations", self.stdout)
    self.assertIsNotNone(seen, self.stdout)
    self.assertGreaterEqual(int(seen.group(1)), 2)
    self.check_csv(d)

  def check_csv(self, d, sizes_by_times=None):
    kernels = read_csv(os.path.join(d, "s_kernel_trace.csv"))
    self.assertEqual(len(kernels), 3 * ROUNDS)
    for r in kernels:
      self.assertEqual(int(r["Stream_Id"]),
                       STREAM_OF_TAG[int(r["Grid_Size_X"])], r)
    copies = read_csv(os.path.join(d, "s_memory_copy_trace.csv"))
    self.assertEqual(len(copies), 3 * ROUNDS)
    if sizes_by_times is not None:
      for r in copies:
        size = sizes_by_times[(int(r["Start_Timestamp"]),
                               int(r["End_Timestamp"]))]
        self.assertEqual(int(r["Stream_Id"]), STREAM_OF_TAG[size // 1000], r)
    self.assertEqual(collections.Counter(int(r["Stream_Id"]) for r in copies),
                     {0: ROUNDS, 1: ROUNDS, 2: ROUNDS})

  def test_every_format_with_the_system_trace(self):
    d = self.trace(["--sys-trace"], ["rocpd", "csv", "json"])
    con = sqlite3.connect(os.path.join(d, "s_results.db"))
    try:
      dispatches = con.execute(
          "SELECT grid_size_x, stream_id FROM rocpd_kernel_dispatch").fetchall()
      copies = con.execute(
          "SELECT size, stream_id, start, \"end\" FROM rocpd_memory_copy"
      ).fetchall()
      streams = con.execute(
          "SELECT id, name FROM rocpd_info_stream").fetchall()
      view = con.execute("SELECT stream_id, stream FROM kernels").fetchall()
      copy_view = con.execute(
          "SELECT stream_id, stream_name FROM memory_copies").fetchall()
      # Upstream's stream_args: a call's `stream` argument and its stream.
      stream_args = con.execute(
          "SELECT R.name, SA.arg_type, SA.stream_id, SA.stream_name "
          "FROM stream_args SA JOIN regions R ON R.event_id = SA.event_id"
      ).fetchall()
    finally:
      con.close()
    self.assertEqual(len(dispatches), 3 * ROUNDS)
    for width, stream in dispatches:
      self.assertEqual(stream, STREAM_OF_TAG[width])
    self.assertEqual(len(copies), 3 * ROUNDS)
    for size, stream, _, _ in copies:
      self.assertEqual(stream, STREAM_OF_TAG[size // 1000])
    # rocprofv3's names: the null stream first, then by first appearance.
    names = dict(streams)
    self.assertEqual(names[0], "Default Stream")
    self.assertEqual(sorted(names.values()),
                     ["Default Stream", "Stream 0", "Stream 1"])
    self.assertEqual(sorted(names), [0, 1, 2])
    # The views join them.
    self.assertEqual(len(view), 3 * ROUNDS)
    self.assertEqual(len(copy_view), 3 * ROUNDS)
    for stream_id, name in view + copy_view:
      self.assertEqual(name, names[stream_id])
    self.assertEqual(
        collections.Counter(r[2] for r in stream_args
                            if r[0] == "hipMemcpyAsync"),
        {0: ROUNDS, 1: ROUNDS, 2: ROUNDS})
    for _, arg_type, stream_id, name in stream_args:
      self.assertEqual(arg_type, "ihipStream_t*")
      self.assertEqual(name, names[stream_id])
    self.check_csv(d, {(c[2], c[3]): c[0] for c in copies})
    with open(os.path.join(d, "s_results.json")) as f:
      tool = json.load(f)["rocprofiler-sdk-tool"][0]
    records = tool["buffer_records"]
    # As rocprofv3's HIP records, a call names its stream.
    self.assertEqual(
        collections.Counter(
            r["stream_id"]["handle"] for r in records["hip_api"]
            if json_op_name(tool, r) == "hipMemcpyAsync"),
        {0: ROUNDS, 1: ROUNDS, 2: ROUNDS})
    self.assertEqual(len(records["kernel_dispatch"]), 3 * ROUNDS)
    for r in records["kernel_dispatch"]:
      self.assertEqual(r["stream_id"]["handle"],
                       STREAM_OF_TAG[r["dispatch_info"]["grid_size"]["x"]])
    self.assertEqual(len(records["memory_copy"]), 3 * ROUNDS)
    for r in records["memory_copy"]:
      self.assertEqual(r["stream_id"]["handle"],
                       STREAM_OF_TAG[r["bytes"] // 1000])
    # hipMemcpyAsync's stream holds through the hipMemcpy it calls.
    hip = read_csv(os.path.join(d, "s_hip_api_trace.csv"))
    self.assertEqual(
        collections.Counter(r["Function"] for r in hip
                            if r["Function"].startswith("hipMemcpy")),
        {"hipMemcpyAsync": 3 * ROUNDS, "hipMemcpy": 3 * ROUNDS})

  def test_timeline_draws_gpu_work_per_stream(self):
    """As rocprofv3 draws a HIP program's timeline: one track per HIP stream
    holding its kernels and copies, named as rocprofv3 names them by stream
    ID ('STREAM [" N "] ', 0 the null stream); with --group-by-queue per
    queue (kernels) and per GPU (copies), no stream tracks."""
    for options, by_stream in (([], True), (["--group-by-queue"], False)):
      d = self.trace(["--sys-trace"] + options, ["pftrace", "csv"])
      stream_of = {}
      for name in ("s_kernel_trace.csv", "s_memory_copy_trace.csv"):
        for r in read_csv(os.path.join(d, name)):
          stream_of[int(r["Correlation_Id"])] = int(r["Stream_Id"])
      self.assertEqual(len(stream_of), 6 * ROUNDS)
      with open(os.path.join(d, "s_results.pftrace"), "rb") as f:
        trace = pftrace_reader.Trace(f.read())
      device = [s for s in trace.slices()
                if "tid" not in trace.tracks[s.track] and
                s.correlation_id in stream_of]
      self.assertEqual(len(device), len(stream_of), options)
      names = collections.Counter(trace.tracks[s.track]["name"]
                                  for s in device)
      if by_stream:
        for s in device:
          stream = stream_of[s.correlation_id]
          self.assertEqual(trace.tracks[s.track]["name"],
                           'STREAM [" %d "] ' % stream, s)
          if "stream_id" in s.args:  # a kernel's launch annotations
            self.assertEqual(s.args["stream_id"], stream)
        self.assertEqual(names, {'STREAM [" 0 "] ': 2 * ROUNDS,
                                 'STREAM [" 1 "] ': 2 * ROUNDS,
                                 'STREAM [" 2 "] ': 2 * ROUNDS})
      else:
        self.assertFalse([n for n in names if "STREAM" in n], names)
        self.assertTrue([n for n in names if "queue" in n], names)

  def test_kernels_renamed_by_the_rocTX_range_around_their_launch(self):
    # rocprofv3's --kernel-rename: the innermost range pushed around the
    # launch names the kernel ("launch on a" inside "round"), in every
    # format; without ranges asked for, the ranges are not written.
    for options in (["--kernel-trace", "--kernel-rename"],
                    ["--kernel-trace", "--hip-trace", "--marker-trace",
                     "--kernel-rename"]):
      d = self.trace(options, ["csv", "rocpd"])
      kernels = read_csv(os.path.join(d, "s_kernel_trace.csv"))
      self.assertEqual(len(kernels), 3 * ROUNDS)
      for r in kernels:
        self.assertEqual(r["Kernel_Name"],
                         "launch on a" if r["Grid_Size_X"] == "1" else
                         "round", (options, r))
      self.assertEqual(len({r["Kernel_Id"] for r in kernels}), 2)
      names = query_db(os.path.join(d, "s_results.db"),
                       "SELECT name, COUNT(*) FROM kernels GROUP BY name")
      self.assertEqual(sorted(names), [("launch on a", ROUNDS),
                                       ("round", 2 * ROUNDS)])
      markers = os.path.exists(os.path.join(d, "s_marker_api_trace.csv"))
      self.assertEqual(markers, "--marker-trace" in options, options)
      self.assertEqual(
          os.path.exists(os.path.join(d, "s_hip_api_trace.csv")),
          "--hip-trace" in options, options)
    # Without it, the kernels keep their own name.
    d = self.trace(["--kernel-trace"], ["csv"])
    self.assertEqual(
        {r["Kernel_Name"]
         for r in read_csv(os.path.join(d, "s_kernel_trace.csv"))}, {"empty"})

  def test_kernel_and_copy_trace_alone(self):
    # No HIP trace: the calls that take a stream are traced all the same
    # (empty callbacks), and nothing of them is written.
    d = self.trace(["--kernel-trace", "--memory-copy-trace"], ["csv"])
    self.assertFalse(os.path.exists(os.path.join(d, "s_hip_api_trace.csv")))
    self.check_csv(d)


class ApiFiltersEndToEnd(unittest.TestCase):
  """The parts of the HIP API chosen by name, and collection periods, on
  traced calls: what is written is exactly what was asked for, in the CSV
  and the database alike (these runs take the tracer's filtering path, not
  its direct one)."""

  def trace(self, options, mode_args, prefix="f"):
    d = tempfile.mkdtemp()
    p = run([ROCTRACE] + options + ["--output-format", "csv", "rocpd", "-d",
                                    d, "-o", prefix, "--", PROGRAM] +
            mode_args, d)
    self.assertEqual(p.returncode, 0, p.stderr)
    return d

  def rows(self, d, kind, prefix="f"):
    path = os.path.join(d, prefix + "_%s_api_trace.csv" % kind)
    return read_csv(path) if os.path.exists(path) else []

  def test_hip_runtime_trace_alone(self):
    d = self.trace(["--hip-runtime-trace"], ["sample"])
    names = collections.Counter(r["Function"] for r in self.rows(d, "hip"))
    self.assertEqual(names, {"hipGetDeviceCount": 1, "hipGetErrorString": 1})
    self.assertEqual(self.rows(d, "hsa"), [])
    self.assertEqual(self.rows(d, "marker"), [])
    db = collections.Counter(
        (r[0], r[1]) for r in regions(os.path.join(d, "f_results.db")))
    self.assertEqual(db, {("HIP_RUNTIME_API_EXT", "hipGetDeviceCount"): 1,
                          ("HIP_RUNTIME_API_EXT", "hipGetErrorString"): 1})

  def test_hip_compiler_trace_alone(self):
    # The program makes no __hip* call: none of its HIP runtime calls
    # (hipGetErrorString N times) is written, and nothing of HSA. Its mark
    # comes first and is written: the calls after it come in later buffers
    # (4K), once the files are open.
    d = self.trace(["--hip-compiler-trace", "--marker-trace",
                    "--buffer-size", "4K"], ["mark_loop", "5000"])
    self.assertEqual(self.rows(d, "hip"), [])
    self.assertEqual(self.rows(d, "hsa"), [])
    self.assertEqual([r["Function"] for r in self.rows(d, "marker")],
                     ["start"])
    self.assertEqual([r[1] for r in regions(os.path.join(d, "f_results.db"))],
                     ["start"])


  def test_hip_runtime_beside_hsa_trace(self):
    # Every HSA call, and HIP's runtime part: the HIP calls as without
    # the choice.
    d = self.trace(["--hip-runtime-trace", "--hsa-trace"], ["sample"])
    names = collections.Counter(r["Function"] for r in self.rows(d, "hip"))
    self.assertEqual(names, {"hipGetDeviceCount": 1, "hipGetErrorString": 1})
    hsa = collections.Counter(r["Function"] for r in self.rows(d, "hsa"))
    self.assertEqual(hsa["hsa_system_get_info"], 1)
    self.assertGreaterEqual(hsa["hsa_init"], 1)

  def test_collection_period_keeps_only_the_windows(self):
    # Two windows one after the other, from the tool's load: [0.3, 0.6) s
    # and then [0.8, 1.0) s; the program calls for 1.5 s (1000 calls, then
    # 1 ms asleep, over and over).
    d = self.trace(["--hip-trace", "--collection-period", "0.3:0.3:1",
                    "0.2:0.2:1"], ["for_ms", "1500"])
    db = os.path.join(d, "f_results.db")
    load = query_db(db, "SELECT start FROM rocpd_info_process")[0][0]
    csv_rows = self.rows(d, "hip")
    self.assertTrue(csv_rows)
    starts = sorted(int(r["Start_Timestamp"]) for r in csv_rows)
    self.assertEqual(starts, sorted(r[4] for r in regions(db)))
    for start in starts:
      t = (start - load) * 1e-9
      self.assertTrue(0.3 <= t < 0.6 or 0.8 <= t < 1.0, t)
    # The calls before, between and after the windows were made and
    # counted, not written: together every call of the program's (a
    # thousand a round).
    outside = int(metadata(db)["roctrace.lost.outside_collection_period"])
    self.assertGreater(outside, len(starts))
    self.assertEqual((outside + len(starts)) % 1000, 0)
    self.assertEqual({r["Function"] for r in csv_rows}, {"hipGetErrorString"})

  def test_whole_collection_period_keeps_every_call(self):
    # A window from the load with no end: every call of a loop (its
    # warm-up, a tenth and one, and then its own).
    d = self.trace(["--hip-trace", "--collection-period", "0:0:0"],
                   ["loop", "5000"])
    names = collections.Counter(r["Function"] for r in self.rows(d, "hip"))
    self.assertEqual(names["hipGetErrorString"], 5000 + 5000 // 10 + 1)


def load_tests(loader, tests, pattern):
  del pattern  # unittest's protocol
  suite = unittest.TestSuite()
  for case in tests:
    classes = {type(t) for t in case}
    if bool(classes & {GpuProgram, HipStreams}) == (PART == "gpu"):
      suite.addTest(case)
  return suite


if __name__ == "__main__":
  unittest.main()
