"""lifesim's benchmarks: every figure next to a baseline measured in the same run.

Run with bench/run (it builds release first). Medians of 5 runs; scale points of 10 k,
100 k and 1 M events. Writes BENCHMARKS.md.
"""
import json, os, platform, shutil, statistics, subprocess, sys, tempfile, time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
LIFESIM = os.path.join(ROOT, ".build/release/lifesim")
BENCH = os.path.join(ROOT, ".build/release/lifesim-bench")
RUNS = int(os.environ.get("BENCH_RUNS", "5"))
TMP = tempfile.mkdtemp(prefix="lifesim-bench-")


def timed(cmd, stdout=subprocess.DEVNULL):
    """Wall seconds and peak RSS (bytes) of one command."""
    start = time.perf_counter()
    p = subprocess.Popen(cmd, stdout=stdout, stderr=subprocess.DEVNULL, cwd=ROOT)
    _, status, usage = os.wait4(p.pid, 0)
    return time.perf_counter() - start, usage.ru_maxrss * 1024, os.waitstatus_to_exitcode(status)


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


def row(name, value, unit, baseline_name, baseline, note=""):
    rows.append((name, value, unit, baseline_name, baseline, note))
    print(f"{name:<44} {value:>14} {unit:<10} | {baseline_name:<34} {baseline:>12} {note}", flush=True)


def fmt(x, digits=0):
    return f"{x:,.{digits}f}"


def main():
    print(f"lifesim benchmarks, medians of {RUNS} runs (temporary files in {TMP})\n")
    # 1. The model alone.
    m = [bench_json("model", "100000") for _ in range(RUNS)]
    eps = statistics.median(x["eventsPerSecond"] for x in m)
    row("model only, 100 k launch/home/return cycles", fmt(eps), "events/s", "target", "3,000,000", f"({m[0]['events']:,} events)")

    # 2. Host call costs vs bare lua5.4.
    calls = [bench_json("calls", "10000000") for _ in range(RUNS)]
    floor = statistics.median(float(subprocess.check_output(["lua5.4", "bench/calls.lua", "10000000"], cwd=ROOT)) for _ in range(RUNS))
    row("Swift → Lua callback", fmt(statistics.median(c["swiftToLuaNs"] for c in calls), 1), "ns/call", "lua5.4 Lua → Lua call", fmt(floor, 1) + " ns")
    row("Lua → Swift call", fmt(statistics.median(c["luaToSwiftNs"] for c in calls), 1), "ns/call", "lua5.4 Lua → Lua call", fmt(floor, 1) + " ns")

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

    # 6. Start-up.
    tiny = os.path.join(TMP, "tiny.lua")
    with open(tiny, "w") as f:
        f.write("launch()\n")
    empty = os.path.join(TMP, "empty.lua")
    open(empty, "w").close()
    t_start, _ = median_of(lambda: timed([LIFESIM, "run", tiny, "-q"]), runs=max(RUNS, 20))
    t_lua, _ = median_of(lambda: timed(["lua5.4", empty]), runs=max(RUNS, 20))
    row("start-up: lifesim run (a one-verb scenario)", f"{t_start * 1000:.1f}", "ms", "lua5.4 running an empty script", f"{t_lua * 1000:.1f} ms")

    # 7. Explore: 30-verb runs of a small app, and shrinking a failure planted at verb 150 of 200.
    e = [bench_json("explore", "bench/explore_small.lua", "10000", "2") for _ in range(RUNS)]
    row("explore, 10,000 30-verb runs, 2 threads", fmt(statistics.median(x["runs_per_s"] for x in e)), "runs/s", "target", "2,000",
        f"({statistics.median(x['events_per_s'] for x in e):,.0f} events/s; {e[0]['findings']} findings)")
    k = [bench_json("explore-shrink", "bench/explore_shrink.lua") for _ in range(RUNS)]
    row("explore: shrink a failure at verb 150 of 200", f"{statistics.median(x['seconds'] for x in k):.3f}", "s", "target", "< 10 s",
        f"(to {k[0]['verbs']} verbs in {k[0]['attempts']} runs)")

    write_markdown()


def write_markdown():
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
    for name, value, unit, bname, bvalue, note in rows:
        lines.append(f"| {name} | {value} | {unit} | {bname} | {bvalue} | {note} |")
    lines.append("")
    with open(os.path.join(ROOT, "BENCHMARKS.md"), "w") as f:
        f.write("\n".join(lines))
    print("\nwrote BENCHMARKS.md")


if __name__ == "__main__":
    try:
        main()
    finally:
        shutil.rmtree(TMP, ignore_errors=True)  # about a gigabyte of logs
