"""`lifesim test` speed: the bundled suite on every profile, with and without scenes.

    python3 bench/suite.py            # uses .build/static/release/lifesim (make release-build)
    LIFESIM=.build/release/lifesim python3 bench/suite.py   # a plain swift build -c release

Times `lifesim test Scripts/scenarios --ios all --scenes both` with -j 1 and -j 2 (median of
BENCH_RUNS runs, default 5) and the same cases as separate `lifesim run` processes, one at a
time and two at a time. Prints a Markdown table; with --write, puts it in BENCHMARKS.md as the
section SECTION (replacing that section, which bench/run's bench.py does not write).
"""
import concurrent.futures, glob, os, statistics, subprocess, sys, time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
LIFESIM = os.path.abspath(os.environ.get("LIFESIM", os.path.join(ROOT, ".build/static/release/lifesim")))
RUNS = int(os.environ.get("BENCH_RUNS", "5"))
PROFILES = [12, 13, 14, 15, 16, 17, 18, 26]
SUITE = ["test", "Scripts/scenarios", "--ios", "all", "--scenes", "both", "-q"]
SECTION = "## `lifesim test`: the bundled suite on every profile"


def wall(cmd):
    """Wall seconds, CPU seconds (user + system) and exit status of one command."""
    start = time.perf_counter()
    p = subprocess.Popen(cmd, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, status, usage = os.wait4(p.pid, 0)
    return time.perf_counter() - start, usage.ru_utime + usage.ru_stime, os.waitstatus_to_exitcode(status)


def suite_medians():
    """-j 1 and -j 2 runs, alternated so that a change in the machine's load hits both alike."""
    runs = {1: [], 2: []}
    for _ in range(RUNS):
        for jobs in (1, 2):
            result = wall([LIFESIM, *SUITE, "-j", str(jobs)])
            if result[2] != 0:
                sys.exit(f"suite: lifesim test -j {jobs} exited with {result[2]}")
            runs[jobs].append(result)
    return {jobs: (statistics.median(r[0] for r in rs), statistics.median(r[1] for r in rs)) for jobs, rs in runs.items()}


def case_commands():
    """The suite's cases as `lifesim run` commands, in the suite's order."""
    commands = []
    for path in sorted(glob.glob(os.path.join(ROOT, "Scripts/scenarios/*.lua"))):
        rel = os.path.relpath(path, ROOT)
        for ios in PROFILES:
            commands.append([LIFESIM, "run", rel, "--ios", str(ios), "-q"])
            commands.append([LIFESIM, "run", rel, "--ios", str(ios), "--no-scenes", "-q"])
    return commands


def processes(commands, workers):
    start = time.perf_counter()
    with concurrent.futures.ThreadPoolExecutor(max_workers=workers) as pool:
        list(pool.map(wall, commands))
    return time.perf_counter() - start


def main():
    if not os.path.exists(LIFESIM):
        sys.exit(f"suite: {LIFESIM} is missing; build it with swift build -c release --product lifesim")
    commands = case_commands()
    load = os.getloadavg()[0]
    medians = suite_medians()
    (one, one_cpu), (two, two_cpu) = medians[1], medians[2]
    separate_one = statistics.median(processes(commands, 1) for _ in range(max(1, RUNS // 2)))
    separate_two = statistics.median(processes(commands, 2) for _ in range(max(1, RUNS // 2)))
    n = len(commands)
    lines = [
        SECTION,
        "",
        f"Produced by `bench/suite.py` ({'release build' if 'release' in LIFESIM else LIFESIM}): "
        f"`lifesim test Scripts/scenarios --ios all --scenes both`, {n} cases, {os.cpu_count()} processors, "
        f"median of {RUNS} runs; {time.strftime('%Y-%m-%d', time.gmtime())}; load average {load:.1f} when it began "
        "(the machine is shared: -j 2 is faster than -j 1 only by the second processor's time it gets). "
        "CPU is user + system time. The separate processes run the same scenario/profile/scenes combinations as "
        "`lifesim run FILE --ios N [--no-scenes] -q`.",
        "",
        "| what | wall | CPU | cases/s | compared |",
        "|---|---:|---:|---:|---:|",
        f"| `lifesim test … -j 1` | {one:.3f} s | {one_cpu:.3f} s | {n / one:,.0f} | |",
        f"| `lifesim test … -j 2` | {two:.3f} s | {two_cpu:.3f} s | {n / two:,.0f} | {one / two:.2f}x faster than -j 1 |",
        f"| {n} `lifesim run` processes, one at a time | {separate_one:.3f} s | | {n / separate_one:,.0f} | {separate_one / one:.1f}x the time of -j 1 |",
        f"| {n} `lifesim run` processes, two at a time | {separate_two:.3f} s | | {n / separate_two:,.0f} | {separate_two / two:.1f}x the time of -j 2 |",
        "",
        f"Processors the suite had on average (CPU ÷ wall): {one_cpu / one:.2f} with -j 1, {two_cpu / two:.2f} with -j 2. "
        f"-j 2 can be up to 2x faster than -j 1 only when that figure reaches 2 (two idle processors); its CPU time "
        f"is {two_cpu / one_cpu:.2f}x -j 1's, so running on two threads costs nothing extra.",
        "",
    ]
    print("\n".join(lines))
    if "--write" in sys.argv:
        path = os.path.join(ROOT, "BENCHMARKS.md")
        text = open(path, encoding="utf-8").read()
        at = text.find(SECTION)
        kept = (text if at < 0 else text[:at]).rstrip("\n") + "\n\n"
        with open(path, "w", encoding="utf-8") as f:
            f.write(kept + "\n".join(lines))
        print("wrote the section to BENCHMARKS.md")

if __name__ == "__main__":
    main()
