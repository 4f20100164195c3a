#!/usr/bin/python3
"""Checks what Kineto collected from tools/kineto/kineto_driver on softhsa.

Usage: check_kineto_trace.py DRIVER_STDOUT TRACE.json

The work (kineto_work.hip) makes, inside the trace: 3 launches of
kineto_scale, a pageable host-to-device hipMemcpy (HIP 5.2 writes it with the
CPU: no GPU activity), a pinned host-to-device hipMemcpy (an HSA copy), a
device-to-device hipMemcpy (HIP's __amd_rocclr_copyBuffer blit kernel) and a
device-to-host hipMemcpy (an HSA copy). Two later traces (the work twice,
then once, untraced work before each) must hold their own work only. Every
check failing is printed; exit
1 if any failed. Prints a summary of what was found.
"""
import collections
import json
import sys

failures = []


def check(ok, what):
    if not ok:
        failures.append(what)
    return ok


def main(out_path, trace_path):
    acts = []
    for line in open(out_path):
        if not line.startswith("activity\t"):
            continue
        _, typ, corr, start, dur, dev, res, name = line.rstrip("\n").split(
            "\t", 7)
        acts.append(dict(type=typ, corr=int(corr), start=int(start),
                         dur=int(dur), dev=int(dev), res=int(res), name=name))
    runtime = [a for a in acts if a["type"] == "cuda_runtime"]
    kernels = [a for a in acts if a["type"] == "kernel"]
    copies = [a for a in acts if a["type"] == "gpu_memcpy"]
    calls = collections.Counter(a["name"] for a in runtime)
    by_corr = {a["corr"]: a for a in runtime}

    # HIP runtime calls: names, one correlation ID each, sane times.
    check(calls["hipLaunchKernel"] == 3, "3 hipLaunchKernel: %s" % calls)
    check(calls["hipMemcpy"] == 4, "4 hipMemcpy: %s" % calls)
    for n in ("hipMalloc", "hipFree"):
        check(calls[n] == 2, "2 %s: %s" % (n, calls))
    check(len(by_corr) == len(runtime), "runtime correlation IDs unique")
    check(all(a["corr"] > 0 for a in runtime), "runtime correlation IDs > 0")
    for a in runtime:
        check(0 < a["dur"] < 10**10, "runtime duration sane: %s" % a)
    ordered = sorted(runtime, key=lambda a: a["corr"])
    for x, y in zip(ordered, ordered[1:]):
        check(x["start"] + x["dur"] <= y["start"],
              "calls on one thread do not overlap, in correlation order: "
              "%s then %s" % (x, y))
    # Kineto leaves out these by name (its own list): none may show.
    for n in ("hipGetLastError", "__hipPushCallConfiguration",
              "__hipPopCallConfiguration", "hipGetDeviceCount"):
        check(calls[n] == 0, "%s filtered by Kineto" % n)

    # GPU activities: each carries the correlation ID of the call that
    # submitted it, starts inside or after that call, ends before the
    # trace's last call ends; durations sane.
    end = max(a["start"] + a["dur"] for a in runtime)
    for g in kernels + copies:
        call = by_corr.get(g["corr"])
        if not check(call is not None,
                     "GPU activity's correlation is a call's: %s" % g):
            continue
        check(call["start"] <= g["start"] <= end,
              "GPU activity starts after its call: %s %s" % (g, call))
        check(0 < g["dur"] < 10**9 and g["start"] + g["dur"] <= end,
              "GPU activity duration sane: %s" % g)
        check(g["dev"] == 0, "device 0: %s" % g)
        if call["name"] == "hipMemcpy":
            check(g["start"] + g["dur"] <= call["start"] + call["dur"],
                  "a synchronous copy ends inside its call: %s %s" % (g, call))
    scale = [k for k in kernels if k["name"].startswith(
        "kineto_scale(float*, float, int)")]
    check(len(scale) == 3, "3 kineto_scale kernels: %s" % kernels)
    check(sorted(by_corr[k["corr"]]["name"] for k in scale if k["corr"] in
                 by_corr) == ["hipLaunchKernel"] * 3,
          "each kernel's call is a hipLaunchKernel")
    blit = [k for k in kernels if k["name"].startswith(
        "__amd_rocclr_copyBuffer")]
    check(len(blit) == 1 and by_corr.get(blit[0]["corr"], {}).get("name")
          == "hipMemcpy", "the device-to-device hipMemcpy's blit kernel: %s"
          % kernels)
    dirs = sorted(c["name"] for c in copies)
    check(dirs == ["Memcpy DtoH (Device -> Host)",
                   "Memcpy HtoD (Host -> Device)"],
          "copies HtoD (pinned) and DtoH: %s" % dirs)

    # The chrome trace has the same activities and links each GPU event
    # to its call by a flow.
    trace = json.load(open(trace_path))
    events = trace["traceEvents"]
    xs = [e for e in events if e.get("ph") == "X"]
    cats = collections.Counter(e.get("cat") for e in xs)
    check(cats["cuda_runtime"] == len(runtime) and
          cats["kernel"] == len(kernels) and
          cats["gpu_memcpy"] == len(copies),
          "chrome trace events: %s" % cats)
    flows_s = {e["id"] for e in events
               if e.get("ph") == "s" and e.get("cat") == "ac2g"}
    flows_f = {e["id"] for e in events
               if e.get("ph") == "f" and e.get("cat") == "ac2g"}
    for e in xs:
        if e.get("cat") in ("kernel", "gpu_memcpy"):
            c = e.get("args", {}).get("correlation")
            check(c in by_corr and c in flows_s and c in flows_f,
                  "chrome trace GPU event linked to its call: %s" % e)
    launches = [e for e in xs if e.get("cat") == "kernel" and
                e["name"].startswith("kineto_scale")]
    for e in launches:
        check(e["args"].get("grid") == [4, 1, 1] and
              e["args"].get("block") == [256, 1, 1],
              "kernel grid/block in the chrome trace: %s" % e["args"])

    # The later traces of the same process: each holds its own work only
    # (the first trace's counts, times the work ran in it).
    rounds = [line.split() for line in open(out_path)
              if line.startswith("round ")]
    check(len(rounds) == 2, "2 later traces: %s" % rounds)
    for r in rounds:
        times = int(r[2])
        got = dict(runtime=int(r[4]), kernels=int(r[6]), copies=int(r[8]))
        want = dict(runtime=times * len(runtime), kernels=times * len(kernels),
                    copies=times * len(copies))
        check(got == want, "trace %s (work %d times): %s, want %s" %
              (r[1], times, got, want))

    print("kineto: %d HIP runtime calls (%s), %d kernels (%s), %d copies "
          "(%s); chrome trace: %s, %d flows" %
          (len(runtime), ", ".join("%s %d" % kv for kv in
                                   sorted(calls.items())),
           len(kernels), ", ".join(sorted({k["name"] for k in kernels})),
           len(copies), ", ".join(dirs), dict(cats), len(flows_f)))
    for r in rounds:
        print("  later trace %s, the work %s times: %s runtime calls, %s "
              "kernels, %s copies" % (r[1], r[2], r[4], r[6], r[8]))
    for g in kernels + copies:
        call = by_corr.get(g["corr"], {})
        print("  %-45s corr %3d  %7.1f us after %s starts, %6.1f us long" %
              (g["name"][:45], g["corr"],
               (g["start"] - call.get("start", 0)) / 1e3,
               call.get("name"), g["dur"] / 1e3))
    for f in failures:
        print("FAILED:", f)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], sys.argv[2]))
