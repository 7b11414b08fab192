"""The scaling benchmark (issue 34): each command at sizes ×1, ×4 and ×16 of what it works on
(events, hunks, cases, transfers, tasks, Swift files), reporting the exponent of its time and of its peak
memory: the slope of log(cost) over log(size), fitted through the three points. 1.0 is
linear time, 0 is constant memory; a quadratic cost shows as 2.

Run by bench/run after bench.py, or alone: python3 bench/scaling.py [--write] (LIFESIM=path
measures another build, SCALING_DIVISOR=10 smaller sizes). The machine is shared: the load average is stated beside every row.
"""
import math, os, shutil, subprocess, sys, tempfile, time

import scan_repo

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
LIFESIM = os.environ.get("LIFESIM", os.path.join(ROOT, ".build/static/release/lifesim"))
TMP = tempfile.mkdtemp(prefix="lifesim-scaling-")
SCALES = (1, 4, 16)
# SCALING_DIVISOR=10 makes every size ten times smaller (a quick check of a debug build).
DIVISOR = int(os.environ.get("SCALING_DIVISOR", "1"))
HEADING = "## Scaling: exponents of time and peak memory"
SUITE_HEADING = "## `lifesim test`"


def timed(cmd, cwd=TMP):
    """Best of 3: wall seconds and peak RSS (bytes)."""
    best = None
    for _ in range(3):
        start = time.perf_counter()
        p = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd=cwd)
        _, _, usage = os.wait4(p.pid, 0)
        result = (time.perf_counter() - start, usage.ru_maxrss * 1024)
        best = result if best is None or result[0] < best[0] else best
    return best


def write(name, text):
    path = os.path.join(TMP, name)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(text)
    return path


def run(scenario, log):
    if os.path.exists(log):
        os.remove(log)
    subprocess.call([LIFESIM, "run", scenario, "-o", log, "-q"], cwd=TMP, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return log


def cycles(n, later=False, app=None):
    """Home / 60 s / return cycles; `later`: the same one second later (every time differs)."""
    head = "scenario { ios = 17" + (f', app = "{app}"' if app else "") + " }\n"
    return write(f"cycles-{n}{'-later' if later else ''}{'-' + app if app else ''}.lua",
                 head + ("advance(1)\n" if later else "") + f"launch()\nfor i = 1, {n} do\n  home()\n  advance(60)\n  launch()\nend\n")


APP_HEAD = 'app { name = "S", root = "Main" }\ncontroller "Main" { }\n'


def transfers(n):
    write(f"transfers-{n}-app.lua", APP_HEAD + "function AppDelegate.didFinishLaunchingWithOptions(application, options)\n"
          f'  for i = 1, {n} do background_transfer{{ session = "s", seconds = 1 }} end\n  return true\nend\n')
    return write(f"transfers-{n}.lua", f'scenario {{ app = "transfers-{n}-app.lua" }}\nlaunch()\nadvance(2)\ntransfer_done("s")\n')


def tasks(n):
    write(f"tasks-{n}-app.lua", APP_HEAD + "function SceneDelegate.sceneDidEnterBackground(scene)\n"
          f"  for i = 1, {n} do\n    local id\n"
          "    id = UIApplication.shared:beginBackgroundTask(\"t\", function() UIApplication.shared:endBackgroundTask(id) end)\n"
          "  end\nend\n")
    return write(f"tasks-{n}.lua", f'scenario {{ app = "tasks-{n}-app.lua" }}\nlaunch()\nhome()\nadvance(40)\n')


def suite(n):
    folder = os.path.join(TMP, f"suite-{n}")
    for i in range(n):
        write(f"suite-{n}/case{i}.lua", f'scenario {{ name = "case {i}", ios = 17 }}\nlaunch()\nhome()\nadvance(60)\nlaunch()\nexpect_state("active")\n')
    return folder


def swift_repository(k):
    """The generated Xcode repository (`scan_repo.py`) at scale k: 5,000 Swift files and a 3.9 MB
    project file at ×16."""
    return scan_repo.repository(max(2, 5000 // 16 // DIVISOR * k), TMP)


def plain_and_resign():
    write("plain.lua", 'app { name = "Plain", root = "Home" }\ncontroller "Home" {}\n')
    write("resign.lua", 'app { name = "Plain", root = "Home" }\nfunction SceneDelegate.sceneWillResignActive(scene) end\ncontroller "Home" {}\n')


def cases():
    """(command, what grows, unit size, a function of the scale giving the command line)."""
    plain_and_resign()

    def run_cmd(k):
        s = cycles(2000 // DIVISOR * k)
        return [LIFESIM, "run", s, "-o", os.path.join(TMP, "timed.lifelog"), "--force", "-q"]

    def logged(k, **kw):
        return run(cycles(2000 // DIVISOR * k, **kw), os.path.join(TMP, f"log-{k}-{sorted(kw.items())}.lifelog"))

    cyc = f"{2000 // DIVISOR:,} cycles"
    yield "run", "events", cyc, run_cmd
    yield "replay --verify", "events", cyc, lambda k: [LIFESIM, "replay", logged(k), "--verify"]
    yield "replay --state", "events", cyc, lambda k: [LIFESIM, "replay", logged(k), "--state"]
    yield "verify", "events", cyc, lambda k: [LIFESIM, "verify", logged(k)]
    yield "export chrome-trace", "events", cyc, \
        lambda k: [LIFESIM, "export", logged(k), "--format", "chrome-trace", "-o", os.path.join(TMP, "t.json"), "--force"]
    yield "diff, B one second later (one hunk)", "events", cyc, \
        lambda k: [LIFESIM, "diff", logged(k), logged(k, later=True)]
    yield "diff --json, B one second later", "events", cyc, \
        lambda k: [LIFESIM, "diff", logged(k), logged(k, later=True), "--json"]
    yield "diff, a hunk every cycle", "hunks", f"{2000 // DIVISOR:,}", \
        lambda k: [LIFESIM, "diff", logged(k, app="plain.lua"), logged(k, app="resign.lua")]
    yield "test", "cases", "8", lambda k: [LIFESIM, "test", suite(8 * k), "-q"]
    yield "run: transfer_done delivering", "transfers", f"{10000 // DIVISOR:,}", lambda k: [LIFESIM, "run", transfers(10000 // DIVISOR * k), "-q"]
    yield "run: background tasks expiring", "tasks", f"{10000 // DIVISOR:,}", lambda k: [LIFESIM, "run", tasks(10000 // DIVISOR * k), "-q"]
    files = f"{5000 // 16 // DIVISOR:,}"
    yield "scan", "Swift files", files, lambda k: [LIFESIM, "scan", swift_repository(k)]
    yield "scan --check of the app", "Swift files", files, \
        lambda k: [LIFESIM, "scan", swift_repository(k), "--target", "Ledger", "--check"]


def slope(xs, ys):
    lx, ly = [math.log(x) for x in xs], [math.log(max(y, 1e-9)) for y in ys]
    mx, my = sum(lx) / len(lx), sum(ly) / len(ly)
    return sum((a - mx) * (b - my) for a, b in zip(lx, ly)) / sum((a - mx) ** 2 for a in lx)


def main():
    rows = []
    for command, grows, unit, cmd in cases():
        points = []
        for k in SCALES:
            line = cmd(k)  # builds its inputs first, untimed
            points.append(timed(line))
        load = os.getloadavg()[0]
        times, peaks = [p[0] for p in points], [p[1] for p in points]
        row = (f"| {command} | {grows} (×1 = {unit}) | " + " / ".join(f"{t:.3f}" for t in times)
               + f" | {slope(SCALES, times):.2f} | " + " / ".join(f"{m / 2**20:.0f}" for m in peaks)
               + f" | {slope(SCALES, peaks):.2f} | {load:.1f} |")
        print(row, flush=True)
        rows.append(row)
    section = [HEADING, "",
               f"`bench/scaling.py` (run by `bench/run`), {time.strftime('%Y-%m-%d %H:%M', time.gmtime())} UTC, "
               f"binary `{os.path.relpath(LIFESIM, ROOT) if LIFESIM.startswith(ROOT) else LIFESIM}`"
               + (f", sizes divided by {DIVISOR}" if DIVISOR > 1 else "") + ", best of 3 a point. Each command at sizes ×1, ×4 and ×16; "
               "the exponent is the slope of log(cost) over log(size) through the three points (1: linear, 2: quadratic; "
               "memory 0: constant). Load is the 1-minute load average on the 2 shared cores when the row ended.", "",
               "| command | grows with | seconds ×1 / ×4 / ×16 | time exponent | peak MiB ×1 / ×4 / ×16 | memory exponent | load |",
               "|---|---|---:|---:|---:|---:|---:|"] + rows + [""]
    if "--write" in sys.argv:
        replace_section("\n".join(section))


def replace_section(section):
    """Puts `section` in BENCHMARKS.md in place of the last one, or before the suite's (the last)."""
    path = os.path.join(ROOT, "BENCHMARKS.md")
    with open(path) as f:
        text = f.read()
    if HEADING in text:
        before, after = text.split(HEADING, 1)
        rest = after[after.index("\n## ") + 1:] if "\n## " in after else ""
        text = before + section + ("\n" + rest if rest else "")
    elif SUITE_HEADING in text:  # bench/suite.py keeps its section last
        before, after = text.split(SUITE_HEADING, 1)
        text = before + section + "\n" + SUITE_HEADING + after
    else:
        text = text.rstrip("\n") + "\n\n" + section
    with open(path, "w") as f:
        f.write(text)
    print("wrote the scaling section of BENCHMARKS.md")

if __name__ == "__main__":
    try:
        main()
    finally:
        shutil.rmtree(TMP, ignore_errors=True)
