"""lifesim's reliability suite. Counts cases tried, host crashes, events lost and damage
undetected (targets: 0, 0, 0) and writes RELIABILITY.md (not in --quick mode)."""
import glob, json, os, random, shutil, signal, subprocess, sys, tempfile, time
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import headers
import hunt
import html_fuzz
import explore_trust

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
QUICK = "--quick" in sys.argv
BUILD = ".build/debug" if QUICK else ".build/release"
LIFESIM = os.path.join(ROOT, BUILD, "lifesim")
BENCH = os.path.join(ROOT, BUILD, "lifesim-bench")
TMP = tempfile.mkdtemp(prefix="lifesim-reliability-")
rng = random.Random(20261122)
results = []   # (test, cases, host crashes, events lost, damage undetected, note)


def run(cmd, **kw):
    return subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, **kw)


def crashed(p):
    """A host crash: killed by a signal, or Swift's fatal error / backtrace."""
    return p.returncode < 0 or p.returncode not in (0, 1, 2) or "Fatal error" in p.stderr or "Program crashed" in p.stderr


def verify(path):
    return run([LIFESIM, "verify", path])


def kill_test(rounds):
    lost = crashes = 0
    for i in range(rounds):
        path = os.path.join(TMP, f"kill-{i}.lifelog")
        child = subprocess.Popen([BENCH, "write-forever", path], stdout=subprocess.PIPE, cwd=ROOT)
        time.sleep(rng.uniform(0.005, 0.15))
        child.send_signal(signal.SIGKILL)
        out = child.communicate()[0].decode().split("\n")
        reported = max([int(l.split()[1]) for l in out if l.startswith("flushed ")] or [0])
        if not os.path.exists(path) and reported == 0:
            continue  # killed before it created the file: nothing written, nothing reported
        v = verify(path)
        crashes += crashed(v) and v.returncode != 2
        if v.returncode == 2 and reported == 0 and os.path.getsize(path) < 4096:
            continue  # killed before the header was whole: nothing reported, nothing lost
        cut = [l for l in v.stdout.split() if l.isdigit()]
        after = int(cut[0]) if "cut off after event" in v.stdout and cut else -1
        if after < reported:
            lost += 1
            print(f"kill {i}: {v.stdout.strip()} but {reported} were reported flushed")
    results.append(("kill: SIGKILL a writing process at random moments", rounds, crashes, lost, 0,
                    "every log verifies as cut off after an event ≥ the last one reported flushed"))


def kill_run_test(rounds):
    """SIGKILL `lifesim run -o`, whose log is written on a thread of its own, at random moments:
    the log must verify as cut off after some event (or as intact, had the run ended), never as
    damaged; a kill before the header was written leaves an empty or header-less file."""
    scenario = os.path.join(TMP, "kill-run.lua")
    with open(scenario, "w") as f:
        f.write("scenario { ios = 17 }\nlaunch()\nfor i = 1, 200000 do\n  home()\n  advance(60)\n  launch()\nend\n")
    damaged = crashes = 0
    for i in range(rounds):
        path = os.path.join(TMP, f"kill-run-{i}.lifelog")
        child = subprocess.Popen([LIFESIM, "run", scenario, "-o", path, "-q"], cwd=ROOT,
                                 stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        time.sleep(rng.uniform(0.02, 0.6))
        child.send_signal(signal.SIGKILL)
        child.wait()
        if not os.path.exists(path):
            continue  # killed before it created the file
        v = verify(path)
        crashes += crashed(v) and v.returncode != 2
        before_header = v.returncode == 2 and ("empty file" in v.stderr or "inside the header" in v.stderr)
        if not (v.returncode == 0 or "cut off after event" in v.stdout or before_header):
            damaged += 1
            print(f"kill run {i}: {v.stdout.strip()} {v.stderr.strip()}")
    results.append(("kill: SIGKILL lifesim run -o (log thread) at random moments", rounds, crashes, damaged, 0,
                    "every log verifies as cut off after an event, never damaged"))


def tamper_test(cases):
    base = os.path.join(TMP, "tamper-base.lifelog")
    p = run([LIFESIM, "run", "Scripts/scenarios/home_and_return.lua", "-o", base, "--force", "-q"])
    assert p.returncode == 0, p.stderr
    original = open(base, "rb").read()
    lines = original.split(b"\n")[:-1]
    undetected = crashes = 0
    kinds = ["flip", "delete-byte", "insert-byte", "swap-lines", "delete-line", "truncate", "duplicate-line"]
    for i in range(cases):
        kind = kinds[i % len(kinds)]
        data = bytearray(original)
        if kind == "flip":
            j = rng.randrange(len(data)); data[j] ^= rng.randrange(1, 256)
        elif kind == "delete-byte":
            del data[rng.randrange(len(data))]
        elif kind == "insert-byte":
            data.insert(rng.randrange(len(data)), rng.randrange(256))
        elif kind in ("swap-lines", "delete-line", "duplicate-line"):
            ls = list(lines)
            a = rng.randrange(len(ls)); b = rng.randrange(len(ls))
            while b == a or ls[a] == ls[b]:
                b = rng.randrange(len(ls))
            if kind == "swap-lines": ls[a], ls[b] = ls[b], ls[a]
            elif kind == "delete-line": del ls[a]
            else: ls.insert(a, ls[b])
            data = bytearray(b"\n".join(ls) + b"\n")
        else:
            data = data[:rng.randrange(1, len(data))]
        if bytes(data) == original:
            continue
        path = os.path.join(TMP, "tamper.lifelog")
        open(path, "wb").write(data)
        v = verify(path)
        crashes += crashed(v)
        detected = v.returncode in (1, 2) and ("line " in v.stdout + v.stderr or "cut off after event" in v.stdout
                                               or "not a lifesim log" in v.stderr)
        if kind == "truncate":
            detected = v.returncode in (1, 2)  # a cut is reported as cut off (or unreadable inside line 1)
        if not detected:
            undetected += 1
            print(f"tamper {i} ({kind}) undetected: {v.stdout.strip()} {v.stderr.strip()}")
    results.append(("tamper: random flips, deletions, insertions, line swaps and truncations", cases, crashes, 0, undetected,
                    "every change is reported with its line, or as a cut"))


def hostile_test():
    scenario = os.path.join(TMP, "hostile-scenario.lua")
    open(scenario, "w").write("launch()\nlock()\nadvance(40)\nunlock()\nmemory_warning()\n")
    scripts = sorted(glob.glob(os.path.join(ROOT, "Tests/ScriptHostTests/Hostile/*.lua")))
    crashes = wrong = 0
    for s in scripts:
        expected = open(s).readline().split(":", 1)[1].strip()
        log = os.path.join(TMP, os.path.basename(s) + ".lifelog")
        p = run([LIFESIM, "run", scenario, "--app", s, "-o", log, "--force", "--json"], timeout=120)
        crashes += crashed(p)
        end = json.loads(p.stdout.strip().split("\n")[-1]) if p.stdout.strip() else {}
        terms = end.get("outcome", {}).get("terminations", [])
        got = "exit2" if p.returncode == 2 else (terms[0]["reason"] if terms else "ok")
        if got != expected:
            wrong += 1
            print(f"hostile {os.path.basename(s)}: expected {expected}, got {got}")
        if os.path.exists(log) and verify(log).returncode != 0:
            wrong += 1
            print(f"hostile {os.path.basename(s)}: log does not verify")
    results.append(("hostile scripts through the CLI (Tests/ScriptHostTests/Hostile)", len(scripts), crashes, 0, wrong,
                    "each gives its documented outcome; every log verifies"))


def determinism_test(processes):
    scenarios = sorted(glob.glob(os.path.join(ROOT, "Scripts/scenarios/*.lua")))
    differ = crashes = 0
    for s in scenarios:
        digests = set()
        for i in range(processes):
            log = os.path.join(TMP, f"det-{i}.lifelog")
            env = {k: v for k, v in os.environ.items() if k != "SWIFT_DETERMINISTIC_HASHING"}
            env.update({"TZ": ["UTC", "Asia/Tokyo", "America/Lima", "Europe/Paris", "Australia/Eucla"][i % 5],
                        "LANG": ["C", "en_US.UTF-8", "ja_JP.UTF-8"][i % 3], "NOISE": "x" * (i * 131)})
            p = subprocess.run([LIFESIM, "run", s, "-o", log, "--force", "-q"], cwd=ROOT, env=env, capture_output=True)
            crashes += p.returncode < 0
            digests.add(open(log, "rb").read())
        if len(digests) != 1:
            differ += 1
            print(f"determinism: {os.path.relpath(s, ROOT)} differs between processes")
    results.append((f"determinism: every bundled scenario in {processes} processes, different environments",
                    len(scenarios) * processes, crashes, 0, differ, "identical log bytes (SWIFT_DETERMINISTIC_HASHING unset)"))


def hunt_test(cases):
    # The quick suite runs the debug build, several times slower than the release build.
    n, failures, longest, peak, largest, notes = hunt.hunt(LIFESIM, TMP, cases,
                                                           case_seconds=90 if QUICK else hunt.CASE_SECONDS)
    for line in notes:
        print(line)
    results.append((f"hunt: every sandbox function and verb with extreme arguments, app and scenario", n, failures, 0, 0,
                    f"each ends by itself as an outcome, a kill or a script error; longest {longest:.1f} s, "
                    f"peak memory {peak:.0f} MiB, largest log {largest:.1f} MiB; every log verifies"))


def html_fuzz_test(cases):
    n, crashes, failed, notes = html_fuzz.html_fuzz(LIFESIM, TMP, cases)
    for line in notes:
        print(line)
    results.append(("html fuzz: random hostile text in every field of a log, exported as a page and as tables", n, crashes, 0, failed,
                    "data only in the page's JSON blocks, escaped, read back whole; the same page around it; the policy's "
                    "hashes match its script and style; the tables' typed columns typed or null"))


def headers_test(cases):
    n, crashes, wrong, notes = headers.fuzz_headers(LIFESIM, ROOT, TMP, cases)
    for line in notes:
        print(line)
    results.append(("crafted headers (knobs, seed, ios, scenes, scripts; chain re-hashed) through every command that reads a log",
                    n * len(headers.COMMANDS), crashes, 0, wrong, "exit 0, 1 or 2 (2 with a message), never a signal"))


def fuzz(product, seconds, corpus_seed=None):
    build = run(["swift", "build", "-c", "release", "--product", product, "--sanitize=fuzzer", "--scratch-path", ".build-fuzz"])
    if build.returncode != 0:
        results.append((f"libFuzzer: {product}", 0, 0, 0, 0, "build failed: " + build.stderr.strip()[-200:]))
        return
    corpus = os.path.join(TMP, product + "-corpus")
    os.makedirs(corpus, exist_ok=True)
    if corpus_seed:
        for i, path in enumerate(corpus_seed):
            shutil.copy(path, os.path.join(corpus, f"seed-{i}"))
    p = subprocess.run([os.path.join(ROOT, ".build-fuzz/release", product), f"-max_total_time={seconds}",
                        "-rss_limit_mb=4096", "-timeout=30", corpus], cwd=TMP, capture_output=True, text=True,
                       env={**os.environ, "SWIFT_BACKTRACE": "enable=no"})
    runs = 0
    for line in p.stderr.split("\n"):
        if "Done " in line and " runs" in line:
            runs = int(line.split("Done ")[1].split()[0])
    crash = p.returncode != 0
    if crash:
        print(p.stderr[-2000:])
    results.append((f"libFuzzer: {product}, {seconds} s", runs, int(crash), 0, 0, "inputs executed"))


def explore_trust_test(strings, reports):
    cases, crashes, wrong, note = explore_trust.lua_string_test(run, BENCH, TMP, rng, strings)
    results.append(("Lua string writer: random byte strings loaded back by lua5.4", cases, crashes, 0, wrong, note))
    cases, crashes, wrong, note = explore_trust.merge_fuzz_test(run, LIFESIM, TMP, rng, reports)
    results.append(("explore merge of hostile report.json files", cases, crashes, 0, wrong, note))


def report():
    print()
    width = max(len(r[0]) for r in results)
    for name, cases, crashes, lost, undetected, note in results:
        print(f"{name:<{width}}  cases {cases:>6}  crashes {crashes}  lost {lost}  undetected {undetected}")
    totals = [sum(r[i] for r in results) for i in (1, 2, 3, 4)]
    print(f"{'total':<{width}}  cases {totals[0]:>6}  crashes {totals[1]}  lost {totals[2]}  undetected {totals[3]}")
    if not QUICK:
        rows = "\n".join(f"| {n} | {c:,} | {cr} | {l} | {u} | {note} |" for n, c, cr, l, u, note in results)
        open(os.path.join(ROOT, "RELIABILITY.md"), "w").write(
            "# Reliability\n\nProduced by `reliability/run` (release build) on "
            f"{time.strftime('%Y-%m-%d', time.gmtime())}, {os.cpu_count()} cores. Targets: 0 host crashes, 0 events lost, "
            "0 damage undetected.\n\n| test | cases | host crashes | events lost | damage undetected / wrong outcome | what passes |\n"
            "|---|---:|---:|---:|---:|---|\n" + rows +
            f"\n| **total** | {totals[0]:,} | {totals[1]} | {totals[2]} | {totals[3]} | |\n")
        print("wrote RELIABILITY.md")
    return totals


def main():
    kill_test(20 if QUICK else 120)
    kill_run_test(10 if QUICK else 60)
    tamper_test(140 if QUICK else 1400)
    hostile_test()
    determinism_test(2 if QUICK else 5)
    hunt_test(40 if QUICK else 400)
    html_fuzz_test(40 if QUICK else 400)
    explore_trust_test(2000 if QUICK else 50000, 100 if QUICK else 1000)
    headers_test(15 if QUICK else 300)
    if not QUICK:
        logs = glob.glob(os.path.join(TMP, "det-*.lifelog"))[:2]
        fuzz("lifesim-fuzz-reader", int(os.environ.get("FUZZ_SECONDS", "60")), logs)
        fuzz("lifesim-fuzz-script", int(os.environ.get("FUZZ_SECONDS", "60")),
             sorted(glob.glob(os.path.join(ROOT, "Scripts/apps/*.lua"))))
    totals = report()
    shutil.rmtree(TMP, ignore_errors=True)
    print(f"{totals[0]} passed, {sum(totals[1:])} failed")
    sys.exit(0 if sum(totals[1:]) == 0 else 1)


if __name__ == "__main__":
    main()
