"""`lifesim test` speed: the bundled suite on every profile, with and without scenes.

    python3 bench/suite.py            # uses .build/release/lifesim (swift build -c release --product lifesim)
    LIFESIM=.build/dist/release/lifesim python3 bench/suite.py   # the `make release` binary

Times `lifesim test Scripts/scenarios --ios all --scenes both` with -j 1 and -j 2 (median of
BENCH_RUNS runs, default 5) and the same cases as separate `lifesim run` processes, one at a
time and two at a time. Prints a Markdown table for BENCHMARKS.md.
"""
import concurrent.futures, glob, os, statistics, subprocess, sys, time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
LIFESIM = os.path.abspath(os.environ.get("LIFESIM", os.path.join(ROOT, ".build/release/lifesim")))
RUNS = int(os.environ.get("BENCH_RUNS", "5"))
PROFILES = [12, 13, 14, 15, 16, 17, 18, 26]
SUITE = ["test", "Scripts/scenarios", "--ios", "all", "--scenes", "both", "-q"]


def wall(cmd):
    start = time.perf_counter()
    status = subprocess.run(cmd, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL).returncode
    return time.perf_counter() - start, status


def median_wall(cmd):
    results = [wall(cmd) for _ in range(RUNS)]
    if any(status != 0 for _, status in results):
        sys.exit(f"suite: {' '.join(cmd)} exited with {results[0][1]}")
    return statistics.median(t for t, _ in results)


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
    one = median_wall([LIFESIM, *SUITE, "-j", "1"])
    two = median_wall([LIFESIM, *SUITE, "-j", "2"])
    separate_one = statistics.median(processes(commands, 1) for _ in range(max(1, RUNS // 2)))
    separate_two = statistics.median(processes(commands, 2) for _ in range(max(1, RUNS // 2)))
    n = len(commands)
    print(f"{n} cases, {os.cpu_count()} processors, median of {RUNS} runs ({LIFESIM})\n")
    print("| what | wall | cases/s | vs `lifesim test` |")
    print("|---|---:|---:|---:|")
    print(f"| `lifesim test … -j 1` | {one:.3f} s | {n / one:,.0f} | 1.00x |")
    print(f"| `lifesim test … -j 2` | {two:.3f} s | {n / two:,.0f} | {one / two:.2f}x faster than -j 1 |")
    print(f"| {n} `lifesim run` processes, one at a time | {separate_one:.3f} s | {n / separate_one:,.0f} | {separate_one / one:.1f}x slower than -j 1 |")
    print(f"| {n} `lifesim run` processes, two at a time | {separate_two:.3f} s | {n / separate_two:,.0f} | {separate_two / two:.1f}x slower than -j 2 |")


if __name__ == "__main__":
    main()
