#!/usr/bin/python3
"""What tracing adds per 64-byte hipMemcpyAsync, in every thread, counted.

Runs copy_cost (a fixed number of copies, see copy_cost.hip) untraced and
traced, alternated, ROUNDS times each, on softhsa with libroctracer64.so.4
preloaded and as the HSA tool, and prints medians per copy of:
  - each thread's CPU time and context switches over the copy loop (from the
    program: /proc/self/task/*/schedstat and status), and the loop's elapsed
    time (wall_us, on the main thread's line);
  - each thread's system calls over the copy loop (`perf record -e
    raw_syscalls:sys_enter -k CLOCK_MONOTONIC`, cut to the loop's bounds),
    futex split into waits and wakes;
  - each thread's user-space instructions over the copy loop (callgrind,
    --separate-threads=yes, instrumented from the loop's start), unless
    --callgrind-rounds=0.
Counts of calls, switches and instructions do not scale with the machine's
load the way CPU time does (spin-waits aside: an instruction count includes
the spinning of a thread that waits for another).

With --baseline OTHER_TRACER_LIB (another build of the library, e.g. the
main branch's), every round also runs traced with it, so that two builds are
compared in one run against the same untraced rounds ("baseline" below).
Instructions are also given without those of softhsa's spin-waits
(instructions_nospin: softhsa::WaitOn and WaitWatch's own), whose length
follows the timing rather than the work.

Usage: count_copy_cost.py COPY_COST SOFTHSA_LIB TRACER_LIB [--rounds N]
         [--copies N] [--callgrind-rounds N] [--callgrind-copies N] [--cpu N]
         [--baseline OTHER_TRACER_LIB] [--baseline-softhsa OTHER_SOFTHSA_LIB]

With --baseline-softhsa OTHER_SOFTHSA_LIB, every round also runs untraced
and traced on that build of softhsa, and its traced - off is printed too.

With --cpu N, every run is confined to CPU N. softhsa's copy engine is a
thread: on two or more free CPUs it may run beside the program's thread
instead of taking turns with it on one. HIP spins (about 10 us) on the copy
before each copy; softhsa's waits run the engine's next ready copy
themselves, but a copy the engine thread has already taken is still spun
for while the engine runs elsewhere. One CPU leaves the tracer's cost
without that placement (and without the parallelism a GPU's copy engine
has).
"""
import argparse
import collections
import glob
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile

ROLES = ("main", "roctracer-gpu", "softhsa-copy", "softhsa-queue", "other")
SYSCALLS = {202: "futex", 449: "futex_waitv", 24: "sched_yield"}
FUTEX_OPS = {0: "wait", 9: "wait", 1: "wake", 10: "wake"}


def role(name):
    return name if name in ROLES else "other"


def environment(workdir, softhsa, tracer):
    """The environment of a run with `tracer` preloaded and as the tool."""
    lib = os.path.join(workdir, "lib")
    os.makedirs(lib, exist_ok=True)
    link = os.path.join(lib, "libhsa-runtime64.so.1")
    if not os.path.exists(link):
        os.symlink(softhsa, link)
    env = dict(os.environ)
    env.update(LD_LIBRARY_PATH=lib, LD_PRELOAD=tracer, HSA_TOOLS_LIB=tracer,
               SOFTHSA_SYSTEM_CLOCK="monotonic")
    return env


def parse_program(text):
    """(copies, begin_ns, end_ns, {role: Counter of cpu_ns/vol/invol})."""
    loop = None
    threads = collections.defaultdict(collections.Counter)
    for line in text.splitlines():
        f = line.split()
        if f[:1] == ["loop"]:
            loop = (int(f[2]), int(f[3]), int(f[4]))
        elif f[:1] == ["thread"]:
            t = threads[role(f[2])]
            t["cpu_us"] += int(f[3]) / 1000.0
            t["switches_voluntary"] += int(f[4])
            t["switches_involuntary"] += int(f[5])
    if loop is None:
        raise RuntimeError("copy_cost printed no loop line:\n" + text)
    return loop, threads


def confine(cpu):
    """A preexec_fn confining the run to `cpu` (None: no confinement)."""
    if cpu is None:
        return None
    return lambda: os.sched_setaffinity(0, {cpu})


def run_perf(binary, mode, copies, env, workdir, cpu=None):
    data = os.path.join(workdir, "perf.data")
    p = subprocess.run(
        ["perf", "record", "-q", "-k", "CLOCK_MONOTONIC", "-e",
         "raw_syscalls:sys_enter", "-o", data, binary, mode, str(copies)],
        env=env, capture_output=True, text=True, check=True,
        preexec_fn=confine(cpu))
    (n, begin, end), threads = parse_program(p.stdout)
    # The loop's elapsed time, for what the copies waited for.
    threads["main"]["wall_us"] = (end - begin) / 1000.0
    script = subprocess.run(
        ["perf", "script", "-i", data, "-F", "comm,pid,tid,time,trace", "--ns"],
        capture_output=True, text=True, check=True).stdout
    pattern = re.compile(r"^\s*(\S+)\s+(\d+)/(\d+)\s+(\d+)\.(\d+):\s+NR (\d+) \(([0-9a-f]+), ([0-9a-f]+)")
    for line in script.splitlines():
        m = pattern.match(line)
        if not m:
            continue
        t = int(m.group(4)) * 10**9 + int(m.group(5))
        if not begin <= t <= end:
            continue
        nr = int(m.group(6))
        name = SYSCALLS.get(nr, "other")
        if nr == 202:
            name += "_" + FUTEX_OPS.get(int(m.group(8), 16) & 0x7F, "other")
        thread = "main" if m.group(2) == m.group(3) else role(m.group(1))
        threads[thread]["sys_" + name] += 1
    return n, threads


def run_callgrind(binary, mode, copies, env, workdir, cpu=None):
    out = os.path.join(workdir, "cg")
    shutil.rmtree(out, ignore_errors=True)
    os.makedirs(out)
    p = subprocess.run(
        ["valgrind", "--tool=callgrind", "--separate-threads=yes",
         "--instr-atstart=no", "--fair-sched=yes",
         "--callgrind-out-file=" + os.path.join(out, "cg.out"), binary, mode,
         str(copies)], env=env, capture_output=True, text=True, check=True,
        preexec_fn=confine(cpu))
    (n, _, _), _ = parse_program(p.stdout)
    threads = collections.defaultdict(collections.Counter)
    for path in glob.glob(os.path.join(out, "cg.out-*")):
        text = open(path, errors="replace").read()
        total = re.search(r"^totals: (\d+)", text, re.M)
        if total is None or int(total.group(1)) == 0:
            continue
        if path.endswith("-01"):
            name = "main"
        elif "CompletionThreadMain" in text:
            name = "roctracer-gpu"
        elif "softhsa::GetFaults" in text:  # the copy engine's Perform
            name = "softhsa-copy"
        elif re.search(r"softhsa::\(anonymous namespace\)::Process", text):
            name = "softhsa-queue"
        else:
            name = "other"
        threads[name]["instructions"] += int(total.group(1))
        threads[name]["instructions_nospin"] += (int(total.group(1)) -
                                                 spin_instructions(path))
    return n, threads


def spin_instructions(path):
    """softhsa's spin-waits' own instructions in one callgrind file."""
    p = subprocess.run(["callgrind_annotate", "--inclusive=no", path],
                       capture_output=True, text=True)
    spin = 0
    for line in p.stdout.splitlines():
        if "softhsa::WaitOn(" in line or "softhsa::WaitWatch(" in line:
            m = re.match(r"\s*([\d,]+)", line)
            if m:
                spin += int(m.group(1).replace(",", ""))
    return spin


def metrics_of(*modes):
    metrics = set()
    for runs in modes:
        for _, threads in runs:
            for r, counter in threads.items():
                metrics.update((r, m) for m in counter)
    return metrics


def collect(runs, metrics):
    """runs: [(copies, threads)] -> {(role, metric): [per-copy values]}."""
    values = collections.defaultdict(list)
    for n, threads in runs:
        for r, m in metrics:
            values[(r, m)].append(threads[r][m] / n)
        for m in {m for _, m in metrics}:
            values[("all", m)].append(
                sum(threads[r][m] for r in threads) / n)
    return values


def table(title, off, traced, name="traced"):
    print(f"\n{title} (per copy; medians: off / {name} / {name} - off; "
          f"then {name} - off of each round, min..max)")
    keys = sorted(set(off) | set(traced),
                  key=lambda k: (k[1], (ROLES + ("all",)).index(k[0])))
    for key in keys:
        a = statistics.median(off.get(key, [0.0]))
        b = statistics.median(traced.get(key, [0.0]))
        if a == 0 and b == 0:
            continue
        rounds = [t - o for o, t in zip(off.get(key, []), traced.get(key, []))]
        spread = (f"{min(rounds):+9.3f}..{max(rounds):+.3f}" if rounds else "")
        print(f"  {key[1]:22s} {key[0]:14s} {a:10.3f} {b:10.3f} {b - a:+10.3f}"
              f"  {spread}")
    rounds = [t - o for o, t in zip(off.get(("all", "cpu_us"), []),
                                    traced.get(("all", "cpu_us"), []))]
    if rounds:
        print(f"  CPU of all threads, {name} - off, each round (us): " +
              " ".join(f"{r:+.2f}" for r in sorted(rounds)))
        print(f"  rounds above +2 us: {sum(r > 2 for r in rounds)} of "
              f"{len(rounds)}")
    sleeps = [t - o for o, t in
              zip(off.get(("roctracer-gpu", "switches_voluntary"), []),
                  traced.get(("roctracer-gpu", "switches_voluntary"), []))]
    if sleeps:
        print(f"  completion thread's sleeps per copy, {name} - off, each "
              "round: " + " ".join(f"{r:.3f}" for r in sorted(sleeps)))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("copy_cost")
    ap.add_argument("softhsa")
    ap.add_argument("tracer")
    ap.add_argument("--rounds", type=int, default=7)
    ap.add_argument("--copies", type=int, default=20000)
    ap.add_argument("--callgrind-rounds", type=int, default=3)
    ap.add_argument("--callgrind-copies", type=int, default=2000)
    ap.add_argument("--baseline", help="another build of the tracer library")
    ap.add_argument("--cpu", type=int,
                    help="confine every run to this CPU (see above)")
    ap.add_argument("--baseline-softhsa",
                    help="another build of softhsa: its own untraced and "
                    "traced rounds, alternated with the others")
    args = ap.parse_args()
    binary = os.path.realpath(args.copy_cost)
    workdir = tempfile.mkdtemp(prefix="copy_cost.")
    try:
        softhsa = os.path.realpath(args.softhsa)
        env = environment(workdir, softhsa, os.path.realpath(args.tracer))
        # mode name -> (the program's mode, environment)
        modes = {"off": ("off", env), "traced": ("traced", env)}
        if args.baseline:
            base_dir = os.path.join(workdir, "baseline")
            os.makedirs(base_dir)
            modes["baseline"] = ("traced", environment(
                base_dir, softhsa, os.path.realpath(args.baseline)))
        # Pairs compared: (untraced mode, traced mode).
        pairs = [("off", m) for m in modes if m != "off"]
        if args.baseline_softhsa:
            other_dir = os.path.join(workdir, "other_softhsa")
            os.makedirs(other_dir)
            other_env = environment(other_dir,
                                    os.path.realpath(args.baseline_softhsa),
                                    os.path.realpath(args.tracer))
            modes["off_base_softhsa"] = ("off", other_env)
            modes["traced_base_softhsa"] = ("traced", other_env)
            pairs.append(("off_base_softhsa", "traced_base_softhsa"))
        names = list(modes)
        runs = {m: [] for m in names}
        for i in range(args.rounds):
            # Rotated, so that no mode always runs first or last.
            for m in names[i % len(names):] + names[:i % len(names)]:
                runs[m].append(run_perf(binary, modes[m][0], args.copies,
                                        modes[m][1], workdir, args.cpu))
        metrics = metrics_of(*runs.values())
        for off, m in pairs:
            table(f"CPU, switches, system calls: {args.rounds} rounds of "
                  f"{args.copies} copies", collect(runs[off], metrics),
                  collect(runs[m], metrics), m)
        if args.callgrind_rounds > 0:
            cg = {m: [] for m in names}
            for i in range(args.callgrind_rounds):
                for m in names:
                    cg[m].append(run_callgrind(binary, modes[m][0],
                                               args.callgrind_copies,
                                               modes[m][1], workdir, args.cpu))
            metrics = metrics_of(*cg.values())
            for off, m in pairs:
                table(f"user-space instructions (callgrind): "
                      f"{args.callgrind_rounds} rounds of "
                      f"{args.callgrind_copies} copies",
                      collect(cg[off], metrics), collect(cg[m], metrics), m)
        sys.stdout.flush()
    finally:
        shutil.rmtree(workdir, ignore_errors=True)


if __name__ == "__main__":
    main()
