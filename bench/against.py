"""Times this build against another lifesim binary, in pairs: the two run in turn on the same
inputs (7 pairs each), and each row is the median of the per-pair ratios (this ÷ that), with
min and max. Unlike the goal ratios, this one does not move with the machine's speed, which
on a shared VM changes by a third within an hour: it says what a change did.

    python3 bench/against.py OTHER_LIFESIM [run] [state] [diff] [explore]

OTHER_LIFESIM is, say, the release binary of an earlier commit copied beside this one (so
that both find the same bundled scripts). Prints the rows; writes nothing.
"""
import os, shutil, sys

import bench as b

if len(sys.argv) < 2 or not os.access(sys.argv[1], os.X_OK):
    sys.exit("usage: python3 bench/against.py OTHER_LIFESIM [run] [state] [diff] [explore]")
OTHER, NEW = sys.argv[1], b.LIFESIM
what = sys.argv[2:] or ["run", "state", "diff", "explore"]


def row(name, command):
    """`command(binary)` of this build against the other binary's, in pairs."""
    b.ratio_row(f"{name}: this ÷ the other", "the other binary", None, b.paired(lambda: b.timed(command(NEW)), lambda: b.timed(command(OTHER))))


if "run" in what:
    scenario, log = b.scenario(b.RATIO_CYCLES), os.path.join(b.TMP, "run.lifelog")
    row(f"run, {b.RATIO_CYCLES:,} cycles", lambda binary: [binary, "run", scenario, "-o", b.fresh(log), "-q"])
if "state" in what:
    recorded = b.recorded_log(b.RATIO_CYCLES)
    row("replay --state", lambda binary: [binary, "replay", recorded, "--state"])
if "diff" in what:
    x, y = b.diff_logs("20,000")
    row("diff, 20,000 differences", lambda binary: [binary, "diff", x, y, "--ignore-time"])
if "explore" in what:
    app, out = os.path.join(b.ROOT, "bench/explore_small.lua"), os.path.join(b.TMP, "explore")
    row("explore, 10,000 runs", lambda binary: [binary, "explore", app, "--runs", "10000", "-o", out, "--force"])
shutil.rmtree(b.TMP, ignore_errors=True)
