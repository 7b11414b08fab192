"""lifesim's benchmarks: every figure next to a baseline measured in the same run.

Run with bench/run (it builds release first). Medians of 5 runs; scale points of 10 k,
100 k and 1 M events. Writes BENCHMARKS.md.
"""
import itertools, json, os, platform, shutil, statistics, subprocess, sys, tempfile, time

import scan_repo

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
LIFESIM = os.environ.get("LIFESIM", os.path.join(ROOT, ".build/static/release/lifesim"))
BENCH = os.path.join(ROOT, ".build/static/release/lifesim-bench")
RUNS = int(os.environ.get("BENCH_RUNS", "5"))
TMP = tempfile.mkdtemp(prefix="lifesim-bench-")


def timed(cmd, stdout=subprocess.DEVNULL):
    """Wall seconds, peak RSS (bytes), exit code and CPU seconds (user + system) of one command."""
    start = time.perf_counter()
    p = subprocess.Popen(cmd, stdout=stdout, stderr=subprocess.DEVNULL, cwd=ROOT)
    _, status, usage = os.wait4(p.pid, 0)
    return (time.perf_counter() - start, usage.ru_maxrss * 1024, os.waitstatus_to_exitcode(status),
            usage.ru_utime + usage.ru_stime)


def fresh(path):
    """Removes `path`, so that a timed run writes a new log (as `run -o` usually does) rather
    than truncating the previous run's with --force."""
    if os.path.exists(path):
        os.remove(path)
    return path


def median_of(fn, runs=RUNS):
    results = [fn() for _ in range(runs)]
    return statistics.median(r[0] for r in results), max(r[1] for r in results)


def bench_json(*args):
    return json.loads(subprocess.check_output([BENCH, *args], cwd=ROOT))


def scenario(cycles, variant=False):
    """A scenario of home / 60 s / return cycles; the variant adds a memory warning every 1,000th."""
    path = os.path.join(TMP, f"cycles-{cycles}{'-b' if variant else ''}.lua")
    extra = "if i % 1000 == 0 then memory_warning() end" if variant else ""
    with open(path, "w") as f:
        f.write(f"scenario {{ ios = 17 }}\nlaunch()\nfor i = 1, {cycles} do\n  home()\n  advance(60)\n  launch()\n  {extra}\nend\n")
    return path


def events_in(log):
    with open(log, "rb") as f:
        f.seek(-4096, os.SEEK_END)
        tail = f.read().splitlines()[-1]
    return json.loads(tail)["events"]


rows = []
pattern_rows = []


def row(name, value, unit, baseline_name, baseline, note=""):
    rows.append((name, value, unit, baseline_name, baseline, note))
    print(f"{name:<44} {value:>14} {unit:<10} | {baseline_name:<34} {baseline:>12} {note}", flush=True)


def fmt(x, digits=0):
    return f"{x:,.{digits}f}"


def patterns():
    """bench/patterns.lua: each case's best of 5 calls in the sandbox (Swift matcher, metered) and
    in lua5.4 (C matcher); the best of RUNS runs of each, since on a shared machine the spread
    comes from other load, not from the code. The target is within 1.5x."""
    ours = [bench_json("patterns", "bench/patterns.lua") for _ in range(RUNS)]
    stock = []
    for _ in range(RUNS):
        out = subprocess.check_output(["lua5.4", "bench/patterns.lua"], cwd=ROOT, text=True)
        stock.append({name: float(t) for name, t in (line.split("\t") for line in out.splitlines())})
    for name in ours[0]:
        a = min(r[name] for r in ours)
        b = min(r[name] for r in stock)
        pattern_rows.append((name, a * 1000, b * 1000, a / b))
        print(f"{name:<44} {a * 1000:>8.1f} ms | lua5.4 {b * 1000:>8.1f} ms | {a / b:.2f}x", flush=True)
    total_ours = sum(r[1] for r in pattern_rows)
    total_stock = sum(r[2] for r in pattern_rows)
    pattern_rows.append(("all cases", total_ours, total_stock, total_ours / total_stock))
    print(f"{'all cases':<44} {total_ours:>8.1f} ms | lua5.4 {total_stock:>8.1f} ms | {total_ours / total_stock:.2f}x")
    # As an app runs them: the instruction hook slows the Lua loops around the matcher.
    app = min(sum(bench_json("patterns", "bench/patterns.lua", "--as-app").values()) for _ in range(RUNS)) * 1000
    pattern_rows.append(("all cases, as an app runs them", app, total_stock, app / total_stock))
    print(f"{'all cases, as an app runs them':<44} {app:>8.1f} ms | lua5.4 {total_stock:>8.1f} ms | {app / total_stock:.2f}x")


FORMER_HANGS = [
    ("backtracking gsub", 'local s = ("a"):rep(5000):gsub("a-a-a-a-a-b", "")'),
    ("back-reference find", 'local i = ("a"):rep(2e5):find("(.-)%1b")'),
    ("table.move({}, 1, 2^40, 1)", "table.move({}, 1, 2^40, 1)"),
    ("1e6 plain finds over 16 MB", 'local s = ("x"):rep(2^24) for i = 1, 1e6 do s:find("y", 1, true) end'),
    ("endless loop (for reference)", "while true do end"),
]
hang_rows = []


def former_hangs():
    """Cases that hung lifesim before C library work was metered: wall seconds until the
    watchdog kill (in an app, 50 M budget) and the script error (in a scenario, 500 M)."""
    app, scen, app_scenario = (os.path.join(TMP, n) for n in ("hang-app.lua", "hang-scenario.lua", "hang-s.lua"))
    with open(app_scenario, "w") as f:
        f.write('scenario { app = "hang-app.lua" }\nlaunch()\n')
    for name, body in FORMER_HANGS:
        with open(app, "w") as f:
            f.write('app { root = "Home" }\ncontroller "Home" { viewDidLoad = function(vc)\n%s\nend }\n' % body)
        with open(scen, "w") as f:
            f.write(body + "\n")
        t_app = min(timed([LIFESIM, "run", app_scenario, "-q"])[0] for _ in range(3))
        t_scen = min(timed([LIFESIM, "run", scen, "-q"])[0] for _ in range(3))
        hang_rows.append((name, t_app, t_scen))
        print(f"{name:<44} app {t_app:6.2f} s | scenario {t_scen:6.2f} s", flush=True)


def patterns_markdown():
    lines = [
        "## Pattern matching",
        "",
        "`bench/patterns.lua`: typical uses of `find`, `match`, `gmatch` and `gsub` on a 1.3 MB text and on",
        "short strings. lifesim runs them in an app's sandbox on its own matcher, with every step charged",
        "to the CPU budget, without the instruction hook (as in `lua5.4`), so the rows compare the",
        "matchers; the last row runs with an app's hook, which slows every instruction of the loops",
        "around them. The baseline is stock `lua5.4` (C matcher). Best of 5 calls per case, best of",
        f"{RUNS} runs on each side. Target: within 1.5x.",
        "",
        "| case | lifesim (ms) | lua5.4 (ms) | ratio |",
        "|---|---:|---:|---:|",
    ]
    for name, a, b, ratio in pattern_rows:
        lines.append(f"| {name} | {a:.1f} | {b:.1f} | {ratio:.2f}x |")
    lines += [
        "",
        "Cases that used to hang lifesim (Lua's C library ran outside the instruction count): wall time of",
        "`lifesim run` until the watchdog kill (the case in an app's `viewDidLoad`) or the script error",
        "(the case as a scenario), best of 3. Every one is killed at the same point on every run.",
        "",
        "| case | app: watchdog after | scenario: script error after |",
        "|---|---:|---:|",
    ]
    for name, t_app, t_scen in hang_rows:
        lines.append(f"| {name} | {t_app:.2f} s | {t_scen:.2f} s |")
    lines.append("")
    return lines


def alternating(first, second, runs=RUNS, pick=statistics.median):
    """Two commands timed in turn (first, second, first, …), so that a shared machine's slow
    spells fall on both alike: for each, the median (or `pick`: min, the best) wall time, the
    peak RSS and the median (best) CPU time (which a busy machine inflates less than wall time)."""
    a, b = [], []
    for _ in range(runs):
        a.append(first())
        b.append(second())
    return tuple((pick(r[0] for r in x), max(r[1] for r in x), pick(r[3] for r in x)) for x in (a, b))


PAIRS = int(os.environ.get("BENCH_PAIRS", "7"))


def paired(first, second, pairs=PAIRS):
    """The method every ratio compared with a goal is measured by: A and B alternate (A, B, A,
    B, …), each pair gives one ratio of wall times A / B, and the figure is the median of the
    per-pair ratios, with their min and max beside it. A slow spell of a shared machine then
    falls on both halves of a pair, where a ratio of two separately taken bests or medians can
    put it on one side only. Returns (median, min, max, median A s, median B s, median A CPU s,
    median B CPU s, pairs)."""
    ratios, a, b = [], [], []
    for _ in range(pairs):
        ta, tb = first(), second()
        a.append(ta)
        b.append(tb)
        ratios.append(ta[0] / tb[0])
    med = statistics.median
    return (med(ratios), min(ratios), max(ratios), med(x[0] for x in a), med(x[0] for x in b),
            med(x[3] for x in a), med(x[3] for x in b), pairs)


def ratio_row(name, baseline, goal, measured, unit="s", scale=1):
    """One row of a paired ratio: the median per-pair ratio, its spread, both medians and the goal."""
    ratio, low, high, ta, tb, ca, cb, pairs = measured
    row(name, f"{ratio:.2f}", "×", baseline, f"{tb * scale:.3f} {unit}",
        f"(median of {pairs} pairs; min {low:.2f}, max {high:.2f}; {ta * scale:.3f} {unit} vs {tb * scale:.3f} {unit}, "
        f"CPU {ca * scale:.3f} vs {cb * scale:.3f}" + (f"; goal {goal})" if goal else ")"))


def recorded_log(cycles):
    """The log of a run of `cycles` home/return cycles (not timed)."""
    out = os.path.join(TMP, f"recorded-{cycles}.lifelog")
    if not os.path.exists(out):
        subprocess.check_call([LIFESIM, "run", scenario(cycles), "-o", out, "-q"], cwd=ROOT, stdout=subprocess.DEVNULL)
    return out


def explore_rows():
    """Explore: 30-verb runs of a small app, and shrinking a failure planted at verb 150 of 200."""
    for app, name in [("bench/explore_small.lua", "explore, 10,000 30-verb runs, 2 threads"),
                      ("Scripts/apps/notes.lua", "explore notes.lua, 10,000 30-verb runs, 2 threads")]:
        # Interleaved with the same runs building every process's Lua state (--no-pool), the path before AppStatePool.
        e, b = [], []
        for _ in range(RUNS):
            e.append(bench_json("explore", app, "10000", "2"))
            b.append(bench_json("explore", app, "10000", "2", "--no-pool"))
        load = os.getloadavg()[0]
        row(name, fmt(statistics.median(x["runs_per_s"] for x in e)), "runs/s", "target", "10,000",
            f"({statistics.median(x['events_per_s'] for x in e):,.0f} events/s; {e[0]['findings']} findings; "
            f"{statistics.median(x['runs_per_cpu_s'] for x in e):,.0f} runs per CPU second; "
            f"{statistics.median(x['runs_per_s'] for x in b):,.0f} runs/s and {statistics.median(x['runs_per_cpu_s'] for x in b):,.0f} "
            f"per CPU second building every state; load {load:.2f} at the end)")
    k = [bench_json("explore-shrink", "bench/explore_shrink.lua") for _ in range(RUNS)]
    row("explore: shrink a failure at verb 150 of 200", f"{statistics.median(x['seconds'] for x in k):.3f}", "s", "target", "< 10 s",
        f"(to {k[0]['verbs']} verbs in {k[0]['attempts']} runs)")


def fold_rows():
    """Folding a log without re-running it: `replay --state` against `replay --verify` (which
    re-runs the scripts), and the chrome-trace export, at three sizes."""
    for cycles in (340, 3400, 34000):
        log = recorded_log(cycles)
        n = events_in(log)
        (t_state, _, cpu_state), (t_verify, _, cpu_verify) = alternating(lambda: timed([LIFESIM, "replay", log, "--state"]),
                                                                        lambda: timed([LIFESIM, "replay", log, "--verify"]))
        row(f"replay --state, {n:,} events", f"{t_state:.3f}", "s", "replay --verify of the same log", f"{t_verify:.3f} s",
            f"({t_state / t_verify:.2f}× --verify; CPU {cpu_state:.3f} s vs {cpu_verify:.3f} s; target ≤ 0.5×)")
        out = os.path.join(TMP, "trace.json")
        t_trace, _ = median_of(lambda: timed([LIFESIM, "export", log, "--format", "chrome-trace", "-o", out, "--force"]))
        row(f"export chrome-trace, {n:,} events", fmt(n / t_trace), "events/s", "target", "2,000,000", f"({t_trace:.3f} s)")


RATIO_CYCLES = 34000  # 952,029 events: a log of 185 MB, where start-up costs are small


def ratio_rows():
    """Every ratio with a goal (issue 46), each measured in pairs (`paired`) on one log of about
    1 M events: run against hashing its own log, replay --state and --verify, verify against
    openssl, diff at 20,000 differences against GNU diff -u, and start-up against lua5.4; the
    chrome-trace export beside its own goal."""
    log = recorded_log(RATIO_CYCLES)
    n = events_in(log)
    s, own = scenario(RATIO_CYCLES), os.path.join(TMP, "ratio-run.lifelog")
    ratio_row(f"ratio: run, no-op app, {n:,} events", "openssl dgst -sha256 of the log it wrote", "≤ 3×",
              paired(lambda: timed([LIFESIM, "run", s, "-o", fresh(own), "-q"]), lambda: timed(["openssl", "dgst", "-sha256", own])))
    ratio_row(f"ratio: replay --state, {n:,} events", "replay --verify of the same log", "≤ 0.5×",
              paired(lambda: timed([LIFESIM, "replay", log, "--state"]), lambda: timed([LIFESIM, "replay", log, "--verify"])))
    ratio_row(f"ratio: replay --verify, {n:,} events", "run of the same scenario", "≤ 1.2×",
              paired(lambda: timed([LIFESIM, "replay", log, "--verify"]), lambda: timed([LIFESIM, "run", s, "-o", fresh(own), "-q"])))
    ratio_row(f"ratio: verify, {n:,} events", "openssl dgst -sha256 of the same file", "≤ 2×",
              paired(lambda: timed([LIFESIM, "verify", log]), lambda: timed(["openssl", "dgst", "-sha256", log])))
    a, b = diff_logs("20,000")
    ratio_row(f"ratio: diff, {events_in(a):,} events, 20,000 differences", "GNU diff -u on their replay text", "≤ 0.5×",
              paired(lambda: timed([LIFESIM, "diff", a, b, "--ignore-time"]), lambda: timed(["diff", "-u", a + ".txt", b + ".txt"])))
    tiny, empty = startup_scripts()
    ratio_row("ratio: start-up, a one-verb run", "lua5.4 running an empty script", "≤ 2×",
              paired(lambda: timed([LIFESIM, "run", tiny, "-q"]), lambda: timed(["lua5.4", empty]), pairs=max(PAIRS, 21)), "ms", 1000)
    out = os.path.join(TMP, "ratio-trace.json")
    # The rows before wrote gigabytes: flushed first, so that the export's writes wait less on
    # the kernel's writeback of theirs (alone it makes 2.9 M events/s; after those rows 1.0 to
    # 1.6 M unflushed, 1.2 to 2.4 M flushed).
    os.sync()
    t_trace = statistics.median(timed([LIFESIM, "export", log, "--format", "chrome-trace", "-o", out, "--force"])[0] for _ in range(3))
    row(f"ratio: export chrome-trace, {n:,} events", fmt(n / t_trace), "events/s", "target", "2,000,000",
        f"(median of 3: {t_trace:.3f} s)")


def scan_rows():
    """`lifesim scan` of a generated repository of 5,000 Swift files with a 3.9 MB project file,
    and `--check` of its app (the battery on iOS 17, 26, 27 × SDK 26, 27), each against its goal
    of 2 s (median of RUNS)."""
    repo = scan_repo.repository(5000, TMP)
    project = os.path.getsize(os.path.join(repo, "Ledger.xcodeproj", "project.pbxproj"))
    for name, extra in (("scan", []), ("scan --check of the app", ["--target", "Ledger", "--check"])):
        t, rss = median_of(lambda: timed([LIFESIM, "scan", repo, *extra]))
        row(f"{name}, 5,000 Swift files", f"{t:.3f}", "s", "target", "≤ 2 s",
            f"(median of {RUNS}; project file {project / 1e6:.1f} MB; peak {rss / 2**20:.0f} MiB)")


def verify_rows():
    """`lifesim verify` against openssl's SHA-256 of the same file, at three sizes."""
    for cycles in (340, 3400, 34000):
        log = recorded_log(cycles)
        n = events_in(log)
        (t_verify, _, cpu_verify), (t_ossl, _, cpu_ossl) = alternating(lambda: timed([LIFESIM, "verify", log]),
                                                                      lambda: timed(["openssl", "dgst", "-sha256", log]))
        row(f"verify, {n:,} events", fmt(n / t_verify), "events/s", "openssl dgst -sha256 of the same file", f"{t_ossl:.3f} s",
            f"({t_verify:.3f} s, {t_verify / t_ossl:.2f}× openssl; CPU {cpu_verify:.3f} s vs {cpu_ossl:.3f} s)")


def main():
    if sys.argv[1:] == ["patterns"]:
        patterns()
        former_hangs()
        print("\n".join(patterns_markdown()))
        return
    print(f"lifesim benchmarks, medians of {RUNS} runs (temporary files in {TMP})\n")
    if ONLY:
        for part in ONLY:
            PARTS[part]()
        write_markdown(merge=True)
        return
    # 1. The model alone.
    m = [bench_json("model", "100000") for _ in range(RUNS)]
    eps = statistics.median(x["eventsPerSecond"] for x in m)
    row("model only, 100 k launch/home/return cycles", fmt(eps), "events/s", "target", "3,000,000", f"({m[0]['events']:,} events)")

    # 2. Host call costs vs bare lua5.4.
    call_rows()

    # 3. Log write vs raw write; read+verify vs openssl.
    log = os.path.join(TMP, "write.lifelog")
    w = [bench_json("write", "1000000", log) for _ in range(RUNS)]
    row("log write with hashing, 1 M events", fmt(statistics.median(x["eventsPerSecond"] for x in w)), "events/s",
        "raw write of the same bytes", fmt(statistics.median(x["rawSeconds"] for x in w), 3) + " s",
        f"({statistics.median(x['seconds'] for x in w):.3f} s, {w[0]['bytes'] / 1e6:.0f} MB)")
    r = [bench_json("read", log) for _ in range(RUNS)]
    ossl, _ = median_of(lambda: timed(["openssl", "dgst", "-sha256", log]))
    row("read + verify, 1 M events", fmt(statistics.median(x["eventsPerSecond"] for x in r)), "events/s",
        "openssl dgst -sha256 (hash floor)", f"{ossl:.3f} s", f"({statistics.median(x['seconds'] for x in r):.3f} s)")
    row("read + verify peak memory", fmt(max(x["peakRSSBytes"] for x in r) / 2**20, 1), "MiB", "target", "< 32 MiB")

    # 4. run (no-op app and busy app), replay --verify, at 10 k / 100 k / 1 M events.
    for cycles in (340, 3400, 34000):
        s = scenario(cycles)
        out = os.path.join(TMP, f"run-{cycles}.lifelog")
        t_run, rss_run = median_of(lambda: timed([LIFESIM, "run", s, "-o", fresh(out), "-q"]))
        n = events_in(out)
        t_busy, _ = median_of(lambda: timed([LIFESIM, "run", s, "--app", "Scripts/apps/notes.lua", "-o", fresh(out + ".busy"), "-q"]))
        n_busy = events_in(out + ".busy")
        t_verify, rss_verify = median_of(lambda: timed([LIFESIM, "replay", out, "--verify"]))
        row(f"run, no-op app, {n:,} events", fmt(n / t_run), "events/s", "target", "1,000,000", f"({t_run:.3f} s, {rss_run / 2**20:.0f} MiB)")
        row(f"run, busy app (notes.lua), {n_busy:,} events", fmt(n_busy / t_busy), "events/s", "", "", f"({t_busy:.3f} s)")
        row(f"replay --verify, {n:,} events", f"{t_verify:.3f}", "s", "run of the same scenario", f"{t_run:.3f} s", f"({t_verify / t_run:.2f}× run)")

    verify_rows()
    diff_rows()

    # 5. diff vs GNU diff -u on the replay text of two 1 M-event runs with ~1,000 differences.
    a, b = os.path.join(TMP, "a.lifelog"), os.path.join(TMP, "b.lifelog")
    subprocess.check_call([LIFESIM, "run", scenario(34000), "-o", a, "--force", "-q"], cwd=ROOT, stdout=subprocess.DEVNULL)
    subprocess.call([LIFESIM, "run", scenario(34000, variant=True), "-o", b, "--force", "-q"], cwd=ROOT, stdout=subprocess.DEVNULL)
    ta, tb = a + ".txt", b + ".txt"
    for src, dst in ((a, ta), (b, tb)):
        with open(dst, "w") as f:
            subprocess.check_call([LIFESIM, "replay", src], cwd=ROOT, stdout=f, env={**os.environ, "NO_COLOR": "1"})
    t_diff, rss_diff = median_of(lambda: timed([LIFESIM, "diff", a, b, "--ignore-time"]))
    t_gnu, rss_gnu = median_of(lambda: timed(["diff", "-u", ta, tb]))
    row(f"diff of two {events_in(a):,}-event runs", f"{t_diff:.3f}", "s", "GNU diff -u on their replay text", f"{t_gnu:.3f} s",
        f"(memory {rss_diff / 2**20:.0f} MiB vs {rss_gnu / 2**20:.0f} MiB)")

    startup_rows()

    # 7. The pattern functions against lua5.4's, and the former hangs.
    patterns()
    former_hangs()

    explore_rows()
    fold_rows()
    ratio_rows()
    scan_rows()

    write_markdown()


def diff_logs(label):
    """Two logs of 20,000-cycle runs and their replay texts (`LOG.txt`): at "20" differences (a
    memory warning every 1,000th cycle) or "20,000" (the app of one run handles
    sceneWillResignActive, called once a cycle)."""
    plain, resign = os.path.join(TMP, "plain.lua"), os.path.join(TMP, "resign.lua")
    with open(plain, "w") as f:
        f.write('app { name = "Plain", root = "Home" }\ncontroller "Home" {}\n')
    with open(resign, "w") as f:
        f.write('app { name = "Plain", root = "Home" }\nfunction SceneDelegate.sceneWillResignActive(scene) end\ncontroller "Home" {}\n')
    cycles = 20000
    (sa, aa), (sb, ab) = {"20": ((scenario(cycles), plain), (scenario(cycles, variant=True), plain)),
                          "20,000": ((scenario(cycles), plain), (scenario(cycles), resign))}[label]
    a, b = os.path.join(TMP, "diff-a.lifelog"), os.path.join(TMP, "diff-b.lifelog")
    for s, app, out in ((sa, aa, a), (sb, ab, b)):
        subprocess.call([LIFESIM, "run", s, "--app", app, "-o", fresh(out), "-q"], cwd=ROOT, stdout=subprocess.DEVNULL)
        with open(out + ".txt", "w") as f:
            subprocess.check_call([LIFESIM, "replay", out], cwd=ROOT, stdout=f, env={**os.environ, "NO_COLOR": "1"})
    return a, b


def diff_rows():
    """`lifesim diff` of two runs against GNU `diff -u` of their replay text, timed in turn, at
    20 and at 20,000 differences (`diff_logs`)."""
    for label in ("20", "20,000"):
        a, b = diff_logs(label)
        (t_diff, rss_diff, cpu_diff), (t_gnu, rss_gnu, cpu_gnu) = alternating(
            lambda: timed([LIFESIM, "diff", a, b, "--ignore-time"]), lambda: timed(["diff", "-u", a + ".txt", b + ".txt"]))
        row(f"diff, {events_in(a):,} events, {label} differences", f"{t_diff:.3f}", "s", "GNU diff -u on their replay text",
            f"{t_gnu:.3f} s", f"({t_diff / t_gnu:.2f}×; CPU {cpu_diff:.3f} s vs {cpu_gnu:.3f} s; "
            f"memory {rss_diff / 2**20:.0f} MiB vs {rss_gnu / 2**20:.0f} MiB)")


def call_rows():
    """Host call costs on an app's real path (lifesim-bench calls: an app launched by the simulator,
    its sandbox, hook and budget), in CPU time, against bare lua5.4's Lua -> Lua call (os.clock)."""
    calls, floors = [], []
    for _ in range(RUNS):
        calls.append(bench_json("calls", "2000000"))
        floors.append(float(subprocess.check_output(["lua5.4", "bench/calls.lua", "10000000"], cwd=ROOT)))
    floor = statistics.median(floors)
    in_app = statistics.median(c["luaToLuaInAppNs"] for c in calls)
    for name, key, what in [("Swift → Lua callback", "swiftToLuaNs", "implements + run of an empty scene handler, its scene pushed"),
                            ("Lua → Swift call", "luaToSwiftNs", "the app API stored(\"k\") called in a handler's loop")]:
        ns = statistics.median(c[key] for c in calls)
        row(name, fmt(ns, 1), "ns/call", "lua5.4 Lua → Lua call", fmt(floor, 1) + " ns",
            f"({ns / floor:.1f}×; {what}; the same Lua → Lua call in the app's sandbox: {in_app:.1f} ns)")


def startup_scripts():
    """A one-verb scenario, and an empty file for lua5.4."""
    tiny = os.path.join(TMP, "tiny.lua")
    with open(tiny, "w") as f:
        f.write("launch()\n")
    empty = os.path.join(TMP, "empty.lua")
    open(empty, "w").close()
    return tiny, empty


def startup_rows():
    """A one-verb run against lua5.4 running an empty file, timed in turn."""
    tiny, empty = startup_scripts()
    (t_start, _, cpu_start), (t_lua, _, cpu_lua) = alternating(lambda: timed([LIFESIM, "run", tiny, "-q"]),
                                                               lambda: timed(["lua5.4", empty]), runs=max(RUNS, 20))
    row("start-up: lifesim run (a one-verb scenario)", f"{t_start * 1000:.1f}", "ms", "lua5.4 running an empty script",
        f"{t_lua * 1000:.1f} ms", f"({t_start / t_lua:.1f}× lua5.4; CPU {cpu_start * 1000:.1f} ms vs {cpu_lua * 1000:.1f} ms)")


# The parts `bench/run --only a,b` runs alone; their rows replace the same rows of BENCHMARKS.md.
PARTS = {"calls": call_rows, "verify": verify_rows, "diff": diff_rows, "startup": startup_rows, "explore": explore_rows, "fold": fold_rows,
         "ratios": ratio_rows, "scan": scan_rows}
ONLY = [p for p in os.environ.get("BENCH_ONLY", "").split(",") if p]


PROFILES_HEADING = "## The ratios: where the time goes"


def profiles_section():
    """The profiles of the ratios (written by hand from `perf`, not measured here), kept from the
    last BENCHMARKS.md through a full run."""
    with open(os.path.join(ROOT, "BENCHMARKS.md")) as f:
        previous = f.read().splitlines()
    if PROFILES_HEADING not in previous:
        return []
    start = previous.index(PROFILES_HEADING)
    end = next((i for i in range(start + 1, len(previous)) if previous[i].startswith("## ")), len(previous))
    return previous[start:end]


def write_markdown(merge=False):
    cpu = "unknown"
    try:
        with open("/proc/cpuinfo") as f:
            cpu = next(l.split(":", 1)[1].strip() for l in f if l.startswith("model name"))
    except Exception:
        pass
    lines = [
        "# Benchmarks",
        "",
        "Produced by `bench/run` (release build). Each figure is the median of "
        f"{RUNS} runs, next to a baseline measured in the same run on the same machine.",
        "",
        "The rows named `ratio:` are the figures compared with a goal, and are measured in pairs: A and B "
        f"alternate ({PAIRS} pairs; 21 for start-up), each pair gives one ratio of wall times, and the figure "
        "is the median of the per-pair ratios with their min and max beside it. A ratio measured any other way "
        "(the medians of the other rows, taken apart) is not compared with a goal.",
        "",
        f"Machine: {os.cpu_count()} cores, {cpu}, {platform.system()} {platform.release()}; "
        f"{time.strftime('%Y-%m-%d', time.gmtime())}.",
        "",
        "This is a shared 2-core VM whose speed varies from day to day and within an hour: on 2026-11-22 the model "
        "benchmark alone measured 3.7 to 6.1 M events/s within one hour, against 5.8 to 9.9 M on an earlier day. "
        "Compare a figure with its baseline from the same run. Each timed `run` writes a new log file.",
        "",
        "| measure | figure | unit | baseline | baseline figure | notes |",
        "|---|---:|---|---|---:|---|",
    ]
    if merge:
        with open(os.path.join(ROOT, "BENCHMARKS.md")) as f:
            previous = f.read().splitlines()
        machine = next((l for l in previous if l.startswith("Machine: ")), None)
        if machine:
            lines[lines.index(next(l for l in lines if l.startswith("Machine: ")))] = machine
        lines.insert(lines.index("| measure | figure | unit | baseline | baseline figure | notes |"),
                     f"Rows of {', '.join(ONLY)} re-measured alone (BENCH_ONLY) on {time.strftime('%Y-%m-%d', time.gmtime())}, "
                     f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores; the others are from the last full run.\n")
    table = [f"| {name} | {value} | {unit} | {bname} | {bvalue} | {note} |" for name, value, unit, bname, bvalue, note in rows]
    if merge:
        # Keep the rows not measured now, in their places; replace or append the measured ones.
        measured = {r[0]: line for r, line in zip(rows, table)}
        with open(os.path.join(ROOT, "BENCHMARKS.md")) as f:
            previous = f.read().splitlines()
        # Only the main table's rows: the sections after it (patterns, lifesim test) have tables of their own.
        start = previous.index("| measure | figure | unit | baseline | baseline figure | notes |") + 2
        end = next((i for i in range(start, len(previous)) if not previous[i].startswith("| ")), len(previous))
        old = previous[start:end]
        kept = []
        for l in old:
            name = l.split(" | ")[0][2:]
            kept.append(measured.pop(name, l))
        table = kept + list(measured.values())
    lines += table
    lines.append("")
    # A partial run keeps the sections after the main table (patterns, lifesim test) as they were.
    lines += list(itertools.dropwhile(lambda l: l == "", previous[end:])) if merge else patterns_markdown() + profiles_section()
    with open(os.path.join(ROOT, "BENCHMARKS.md"), "w") as f:
        f.write("\n".join(lines).rstrip("\n") + "\n")  # a text file ends with a newline, merged or not
    print("\nwrote BENCHMARKS.md")


if __name__ == "__main__":
    try:
        main()
    finally:
        shutil.rmtree(TMP, ignore_errors=True)  # about a gigabyte of logs
