"""Checks lifesim chrome-trace exports (sequence clock) against what Perfetto needs to show every
callback: usage: check_trace.py LOG TRACE [LOG TRACE ...]. Prints one line per problem and
exits 1 if there is any; prints a summary line otherwise."""
import json
import os
import sys
from collections import defaultdict

from report import finish


def events_of(log):
    with open(log) as f:
        lines = [json.loads(l) for l in f]
    return lines[0], [l for l in lines[1:] if "seq" in l]


def check(log, trace_path, pids, problems):
    header, events = events_of(log)
    scenario = next(s["path"] for s in header["scripts"] if s["role"] == "scenario")
    scenario = os.path.basename(scenario)[:-4]
    with open(trace_path) as f:
        trace = json.load(f)["traceEvents"]
    where = os.path.basename(trace_path)
    names = [e for e in trace if e["ph"] == "M" and e["name"] == "process_name"]
    if len(names) != 1 or not names[0]["args"]["name"].startswith(scenario + " (iOS "):
        problems.append(f"{where}: process name {names} does not name {scenario}")
    pid = names[0]["pid"] if names else None
    if any(e["pid"] != pid for e in trace):
        problems.append(f"{where}: more than one pid")
    pids[pid].append(where)
    by_track = defaultdict(list)
    for e in trace:
        if e["ph"] in ("X", "i"):
            by_track[e["tid"]].append(e)
            if "seq" not in e["args"] or "t_us" not in e["args"]:
                problems.append(f"{where}: {e['name']} at {e['ts']} has no seq or t_us")
            elif e["ts"] != e["args"]["seq"]:
                problems.append(f"{where}: {e['name']} at {e['ts']} is not at its seq {e['args']['seq']}")
    for tid, evs in by_track.items():
        last = -1
        for e in evs:
            if e["ts"] < last:
                problems.append(f"{where}: track {tid} goes back from {last} to {e['ts']} ({e['name']})")
            last = e["ts"]
        slices = [e for e in evs if e["ph"] == "X"]
        starts = defaultdict(list)
        for s in slices:
            starts[s["ts"]].append(s)
        for ts, group in starts.items():
            if len(group) > 1:
                problems.append(f"{where}: track {tid}: {len(group)} slices start at {ts}")
        # Slices of a track nest: each is inside the one before it or after its end.
        stack = []
        for s in sorted(slices, key=lambda s: (s["ts"], -s["dur"])):
            while stack and stack[-1] <= s["ts"]:
                stack.pop()
            end = s["ts"] + s["dur"]
            if stack and end > stack[-1]:
                problems.append(f"{where}: track {tid}: {s['name']} at {s['ts']} overlaps its parent")
            stack.append(end)
    instants = {(e["args"]["seq"]) for e in trace if e["ph"] == "i"}
    spans = {e["args"]["seq"]: e for e in trace if e["ph"] == "X" and "target" in e["args"]}
    for ev in events:
        if ev["kind"] in ("call", "notification", "input", "expect") and ev["seq"] not in instants:
            problems.append(f"{where}: {ev['kind']} {ev['name']} (seq {ev['seq']}) is not an instant event")
        if ev["kind"] == "callback":
            s = spans.get(ev["seq"])
            if s is None:
                problems.append(f"{where}: callback {ev['name']} (seq {ev['seq']}) has no slice")
            elif s["dur"] < 1:
                problems.append(f"{where}: callback {ev['name']} (seq {ev['seq']}) lasts {s['dur']}")
            elif s["args"].get("depth") != ev["depth"] or s["args"].get("handled") != ev["handled"]:
                problems.append(f"{where}: callback {ev['name']} (seq {ev['seq']}) lost its args: {s['args']}")
    for ev in events:
        if ev["kind"] in ("system",) and ev["name"] == "terminate":
            killed = [s for s in spans.values() if s["args"].get("killed")]
            for s in killed:
                if "depth" not in s["args"]:
                    problems.append(f"{where}: killed {s['name']} lost its args")
    return len(events)


def main(args):
    problems, pids, count = [], defaultdict(list), 0
    for log, trace in zip(args[0::2], args[1::2]):
        count += check(log, trace, pids, problems)
    for pid, files in pids.items():
        if len(files) > 1:
            problems.append(f"pid {pid} shared by {files}")
    finish(problems, f"ok: {len(args) // 2} traces, {count} events")


main(sys.argv[1:])
