"""Loads a `lifesim export --format tables` folder in DuckDB with its schema.sql, runs every
query of docs/analytics.md and checks the numbers against lifesim's own outcomes (the logs'
trailers) and against times computed by hand.
usage: check_tables.py DIR ANALYTICS_MD HAND_JSON LOG [LOG ...]
HAND_JSON: {"scenario@ios": background seconds, ...}. Prints problems (exit 1) or `ok …`."""
import json
import os
import re
import sys
from collections import Counter, defaultdict

import duckdb
from report import finish


def read_log(path):
    with open(path) as f:
        lines = [json.loads(l) for l in f]
    return lines[0], [l for l in lines[1:] if "seq" in l], lines[-1]


def category(t):
    """MetricKit 27's category of an outcome's termination, written out apart from lifesim's."""
    reason, description = t["reason"], t["description"]
    if reason == "jetsam":
        return "memoryLimit" if description.startswith("per-process-limit") else "systemPressure"
    if reason == "crash":
        if t.get("code") == "EXC_BAD_ACCESS" or "EXC_BAD_ACCESS" in description:
            return "badAccess"
        # An uncaught Objective-C exception's name first, or after Lua's file:line: position.
        position, _, rest = description.partition(": ")
        names = [description] + ([rest] if re.search(r":[0-9]+$", position) else [])
        if any(re.match(r"NS[A-Za-z]*Exception:", text) for text in names):
            return "abnormal"
        return "illegalInstruction"
    return {"watchdog": "watchdog", "suspended_with_locked_file": "fileLock",
            "background_task_expired": "taskTimeout", "user": "normal", "reboot": "normal"}[reason]


def foreground_at_terminations(events):
    """For each kill or crash: whether the app was active or inactive just before it."""
    out, foreground = [], False
    for e in events:
        name = e.get("name")
        if e["kind"] == "crash" or (e["kind"] == "system" and name == "terminate"):
            out.append(foreground)
            foreground = False
        elif e["kind"] == "system" and name == "launchProcess":
            foreground = e["mode"] == "foreground"
        elif e["kind"] == "system" and name == "continueLaunch":
            foreground = e["state"] != "background"
        elif e["kind"] == "system" and name == "suspend":
            foreground = False
        elif e["kind"] == "transition" and name == "applicationState":
            foreground = e["to"] != "background"
        elif e["kind"] == "transition" and e.get("to") in ("foregroundInactive", "foregroundActive"):
            foreground = True
    return out


def several_scenes(log, scenario, events, several, call_scenes):
    """A run that has had two scenes at once names scenes: adds its scenario's name to `several`,
    and to `call_scenes` the scene of each scene-delegate call, {(log, seq): scene}, as its log line
    names it (before the second window, the one scene connected)."""
    if not any(isinstance(e.get("scene"), str) for e in events):
        return
    several.add(os.path.splitext(os.path.basename(scenario))[0])
    connected = None
    for e in events:
        if e["kind"] == "transition" and e.get("name") == "sceneConnected":
            connected = e["target"]
        elif e["kind"] == "callback" and e["target"] == "SceneDelegate":
            call_scenes[(log, e["seq"])] = e.get("scene", connected)


def main(folder, analytics, hand, logs):
    problems = []
    logs = [os.path.abspath(l) if not os.path.isabs(l) else l for l in logs]
    queries = re.findall(r"^### (.+?)\n\n```sql\n(.*?)```", open(analytics).read(), re.S | re.M)
    os.chdir(folder)
    con = duckdb.connect()
    con.execute(open("schema.sql").read())
    keywords = {k for (k,) in con.sql("SELECT keyword_name FROM duckdb_keywords()").fetchall()}
    for view in ("runs", "events", "states"):
        columns = [c for (c,) in con.sql(f"SELECT column_name FROM (DESCRIBE {view})").fetchall()]
        bad = [c for c in columns if c in keywords]
        if bad:
            problems.append(f"{view}: columns {bad} are SQL keywords")
    results = {}
    for title, sql in queries:
        try:
            results[title] = con.sql(sql).fetchall()
        except duckdb.Error as e:
            problems.append(f"query {title!r} fails: {e}")
    if len(queries) < 5:
        problems.append(f"{len(queries)} queries in {analytics}")

    # lifesim's own outcomes, from the trailers.
    outcomes, headers, slowest, counted = {}, {}, defaultdict(int), Counter()
    several, call_scenes = set(), {}  # runs that have had several scenes; their scene-delegate calls' scenes
    for log in logs:
        header, events, trailer = read_log(log)
        outcomes[log], headers[log] = trailer["outcome"], header
        places = foreground_at_terminations(events)
        for t, fg in zip(trailer["outcome"]["terminations"], places):
            counted[(category(t), "foreground" if fg else "background")] += 1
        scenario = next(s for s in header["scripts"] if s["role"] == "scenario")["path"]
        headers[log]["scenario_path"] = scenario
        several_scenes(log, scenario, events, several, call_scenes)
        waiting = []
        for e in events:
            if e["kind"] == "callback":
                if e["handled"]:
                    waiting.append(e)
                else:
                    slowest[(e["target"].split("#")[0], e["name"])] += 0
            elif e["kind"] == "return":
                c = next(c for c in reversed(waiting) if c["name"] == e["name"] and c["target"] == e["target"])
                waiting.remove(c)
                key = (c["target"].split("#")[0], c["name"])
                slowest[key] = max(slowest[key], e["t"] - c["t"])
            elif e["kind"] == "crash" or (e["kind"] == "system" and e["name"] == "terminate"):
                for c in waiting:
                    key = (c["target"].split("#")[0], c["name"])
                    slowest[key] = max(slowest[key], e["t"] - c["t"])
                waiting = []
    runs = {r[0]: r[1:] for r in con.sql("SELECT log_path, expectations_passed, expectations_failed, terminations, final_state FROM runs").fetchall()}
    if len(runs) != len(logs):
        problems.append(f"{len(runs)} runs for {len(logs)} logs")
    for log, o in outcomes.items():
        want = (o["expectations"]["passed"], o["expectations"]["failed"], len(o["terminations"]), o["state"])
        if runs.get(log) != want:
            problems.append(f"{log}: runs row {runs.get(log)}, lifesim says {want}")

    reasons = Counter(t["reason"] for o in outcomes.values() for t in o["terminations"])
    got = {r[0]: r[1] for r in results.get("Terminations by reason across runs", [])}
    if got != dict(reasons):
        problems.append(f"terminations by reason: {got}, lifesim says {dict(reasons)}")

    got = {(r[0], r[1]): r[2] for r in results.get("Terminations by MetricKit category, foreground and background", [])}
    if got != dict(counted) or len(counted) < 3:
        problems.append(f"terminations by category: {got}, the logs say {dict(counted)}")

    # Only runs that have had two scenes at once name scenes (the bundled iPad ones); each of
    # their scene delegate's calls is under the scene its log line names, checked call by call.
    rows = results.get("Callbacks per scene", [])
    if not several or {r[0] for r in rows} != several:
        problems.append(f"callbacks per scene name {sorted({r[0] for r in rows})}, the logs of several scenes are {sorted(several)}")
    got = {(r[0], r[1]): r[2] for r in con.sql(
        "SELECT r.log_path, e.seq, e.scene FROM events e JOIN runs r USING (run_id) "
        "WHERE e.kind = 'callback' AND e.class_name = 'SceneDelegate' AND e.scene IS NOT NULL").fetchall()}
    wrong = sorted((k, got.get(k), v) for k, v in call_scenes.items() if got.get(k) != v)
    if wrong or len(got) != len(call_scenes):
        problems.append(f"scene delegate calls filed under the wrong scene (log, seq; tables, log): {wrong[:3]}")

    failed = sum(o["expectations"]["failed"] for o in outcomes.values())
    if len(results.get("Failed expectations", [])) != failed:
        problems.append(f"failed expectations: {len(results.get('Failed expectations', []))} rows, lifesim says {failed}")

    rows = results.get("Slowest callbacks by class", [])
    top = max(slowest.values()) / 1e6 if slowest else 0
    if not rows or rows[0][3] != top:
        problems.append(f"slowest callback: {rows[:1]}, the logs say {top} s")
    for r in rows:
        if slowest.get((r[0], r[1])) / 1e6 != r[3]:
            problems.append(f"slowest {r[0]}.{r[1]}: {r[3]} s, the logs say {slowest.get((r[0], r[1])) / 1e6} s")

    background = {f"{r[0]}@{r[1]}": r[2] for r in results.get("Time in background per run", [])}
    for key, seconds in hand.items():
        if background.get(key) != seconds:
            problems.append(f"time in background of {key}: {background.get(key)} s, by hand {seconds} s")

    by_scenario = defaultdict(list)
    for log, h in headers.items():
        by_scenario[(h["scenario_path"], h["seed"])].append((h["profile"]["ios"], outcomes[log]))
    differ = set()
    for (path, _), runs_of in by_scenario.items():
        for ios_a, a in runs_of:
            for ios_b, b in runs_of:
                key = lambda o: (o["state"], [t["reason"] for t in o["terminations"]], o["expectations"]["failed"])
                if ios_a < ios_b and key(a) != key(b):
                    differ.add((path, ios_a, ios_b))
    got = {(r[0], r[1], r[2]) for r in results.get("Runs that differ in outcome between two iOS versions", [])}
    if got != differ or not differ:
        problems.append(f"runs that differ between iOS versions: {sorted(got)}, the logs say {sorted(differ)}")

    finish(problems, f"ok: {len(logs)} runs, {len(queries)} queries, {sum(reasons.values())} terminations, {failed} failed expectations, {len(differ)} iOS differences")


main(sys.argv[1], sys.argv[2], json.loads(sys.argv[3]), sys.argv[4:])
