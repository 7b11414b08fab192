"""The hang and crash hunt: every function the sandbox exposes and every verb, called with
extreme arguments (huge counts and lengths, deep and cyclic tables, pathological patterns,
clock edges, self-re-posting after chains, large store/log values), from app code and from the
scenario. Every case must end by itself within CASE_SECONDS as an ordinary outcome, a kill or a
script error (exit 0, 1 or 2) — never a hang or a signal — with the host's memory and the log's
size inside the documented limits, and a log that verifies."""
import os, random, resource, subprocess, time

CASE_SECONDS = 30          # a case still running after this is a hang (release build)
RSS_LIMIT_MB = 1024        # the host's peak memory for one case (app 64 MiB + scenario 256 MiB + log buffers)
LOG_LIMIT_MB = 40          # output budget 32 MiB + events and header

BIG = ['("a"):rep(2^20)', '("a"):rep(5000)', '("\\0"):rep(65536)', '("("):rep(100000)', '("%"):rep(9999)']
NUMBERS = ["2^53", "-2^63", "math.huge", "-math.huge", "0/0", "2^40", "-1", "0", "math.maxinteger", "math.mininteger", "1e308"]
PATTERNS = ['"a-a-a-a-a-b"', '"(.-)%1b"', '"%f[%w]%w+"', '"%b()"', '"(((((((((((a)))))))))))"', '"[%a-z]*$"', '".-.-.-.-.-x"',
            '"%"', '"[a"', '"(()"', '"%g+%S*"', '("(.-)"):rep(32)', '"^(a*)*$"', '"%1"']

CALLS = [
    "string.rep({s}, {n})", "string.rep({s}, {n}, {s})", "({s}):rep({n})",
    "string.find({s}, {p})", "string.find({s}, {p}, {n})", "string.find({s}, {s}, 1, true)",
    "string.match({s}, {p})", "string.gsub({s}, {p}, '%0%0')", "string.gsub({s}, {p}, function(x) return x end)",
    "string.gsub({s}, {p}, {{}})", "(function() local c = 0 for _ in string.gmatch({s}, {p}) do c = c + 1 end return c end)()",
    "string.format('%99d', {n})", "string.format('%s', {s})", "string.format('%q', {s})", "string.format('%.99f', {n})",
    "string.byte({s}, 1, {n})", "string.char(string.byte({s}, 1, 200))", "string.sub({s}, {n}, {n})", "string.upper({s})",
    "string.reverse({s})", "string.len({s})",
    "table.concat({{ {s}, {s}, {s} }}, {s})", "table.concat({{}}, '', 1, {n})", "table.move({{}}, 1, {n}, 1)",
    "table.unpack({{}}, 1, {n})", "table.insert({{}}, {n}, 1)", "table.remove({{}}, {n})",
    "(function() local t = {{}} for i = 1, 3000 do t[i] = ({n}) * i % 97 end table.sort(t, function(a, b) return a > b end) end)()",
    "(function() local t = {{}} for i = 1, 100 do t[i] = i end table.sort(t, function() return true end) end)()",
    "utf8.char({n})", "utf8.len({s})", "(function() for _ in utf8.codes({s}) do end end)()", "utf8.offset({s}, {n})",
    "utf8.codepoint({s}, 1, -1)",
    "load(string.rep('x = 1 ', 200000))", "load('return ' .. string.rep('(', 1000) .. '1' .. string.rep(')', 1000))",
    "select('#', table.unpack({{}}, 1, 200))", "tostring({n})", "tonumber({s})", "math.random({n})",
    "(function() local t = {{}} t.t = t return tostring(t) end)()",
    "coroutine.wrap(function() while true do coroutine.yield() end end)()",
    "(function() local co = coroutine.wrap(function() for i = 1, 1e9 do coroutine.yield(i) end end) for _ = 1, 1e7 do co() end end)()",
    "setmetatable({{}}, {{ __index = function(t, k) return t[k] end }}).x",
    "(function() local function f() return f() end return f() end)()",
    "(function() local function f(n) return n > 0 and 1 + f(n - 1) or 0 end return f(1e6) end)()",
]

APP_SINKS = [
    'store("k", {v})', 'log({s})', 'after({n}, function() end)', 'work({n})',
    'local t = {{}} t.t = t store("k", t)', 'local t = {{}} local c = t for _ = 1, 100 do c.x = {{}} c = c.x end store("k", t)',
    'for i = 1, 40 do log(("x"):rep(2^22)) end', 'for i = 1, 300 do store("k" .. i, ("x"):rep(2^20)) end',
    'local function again() after(0, again) end after(0, again)',
    'local function tick() after(1, tick) end after(1, tick)',
    'push({s})', 'present({s}, {{ style = {s} }})',
    'UIApplication.shared:beginBackgroundTask({s}, function() while true do end end)',
]

SCENARIO_VERBS = [
    "advance({n})", "for _ = 1, 40000 do advance(31536000) end", "select_tab({n})", "push({s})", "present({s})",
    "rotate({s})", "interrupt({s})", "open_url({s})", "background_launch({s})", "expect_calls({{ {s} }})",
    "print({s})", "for _ = 1, 40 do print(('x'):rep(2^20)) end", "stored({s})",
]


def pick(rng, template):
    return template.format(s=rng.choice(BIG + ['"x"', "nil", "{}"]), n=rng.choice(NUMBERS), p=rng.choice(PATTERNS),
                           v=rng.choice(BIG + NUMBERS + ["{}", "nil"]))


def make_case(rng, i):
    """(app source, scenario source) for case i."""
    kind = i % 4
    app = ['app { root = "Home" }', 'controller "Home" {}']
    scenario = []
    if kind == 0:    # a library function from app code, bare or in pcall
        call = pick(rng, rng.choice(CALLS))
        body = call if rng.random() < 0.5 else f"pcall(function() return {call} end)"
        app.append(f"function SceneDelegate.sceneDidBecomeActive(s) local _ = {body} end")
        scenario += ["launch()", "home()", "launch()"]
    elif kind == 1:  # the same from the scenario
        scenario += ["launch()", f"local _ = {pick(rng, rng.choice(CALLS))}", "home()"]
    elif kind == 2:  # app calls with extreme arguments
        app.append(f"function SceneDelegate.sceneDidBecomeActive(s) {pick(rng, rng.choice(APP_SINKS))} end")
        scenario += ["launch()", "advance(2)", "home()", "advance(40)", "launch()"]
    else:            # verbs with extreme arguments
        scenario += ["launch()"] + [f"pcall(function() {pick(rng, rng.choice(SCENARIO_VERBS))} end)" for _ in range(3)]
    return "\n".join(app) + "\n", "scenario { app = \"app.lua\" }\n" + "\n".join(scenario) + "\n"


def run_case(lifesim, tmp, i, app, scenario, case_seconds):
    """(exit status or None on a hang, wall seconds, peak RSS MiB, log MiB, verified)."""
    d = os.path.join(tmp, f"hunt-{i}")
    os.makedirs(d, exist_ok=True)
    open(os.path.join(d, "app.lua"), "w").write(app)
    open(os.path.join(d, "s.lua"), "w").write(scenario)
    log = os.path.join(d, "run.lifelog")
    start = time.monotonic()
    p = subprocess.Popen([lifesim, "run", "s.lua", "-q", "-o", log, "--force"], cwd=d,
                         stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    status = None
    while time.monotonic() - start < case_seconds:
        pid, raw, usage = os.wait4(p.pid, os.WNOHANG)
        if pid:
            status = os.waitstatus_to_exitcode(raw)
            break
        time.sleep(0.01)
    wall = time.monotonic() - start
    if status is None:
        p.kill()
        _, _, usage = os.wait4(p.pid, 0)
    rss_mb = usage.ru_maxrss / 1024
    log_mb = os.path.getsize(log) / (1 << 20) if os.path.exists(log) else 0
    verified = status is not None and (not os.path.exists(log) or subprocess.run(
        [lifesim, "verify", log], capture_output=True).returncode == 0)
    for f in ("app.lua", "s.lua", "run.lifelog"):
        if os.path.exists(os.path.join(d, f)) and (status in (0, 1, 2) and verified):
            os.remove(os.path.join(d, f))
    return status, wall, rss_mb, log_mb, verified


def hunt(lifesim, tmp, cases, seed=20261123, case_seconds=CASE_SECONDS):
    """Runs the hunt (a debug build gets a longer `case_seconds`); returns (cases, failures, longest wall s, peak RSS MiB, largest log MiB, failure lines)."""
    rng = random.Random(seed)
    failures, notes = 0, []
    longest = peak = largest = 0.0
    for i in range(cases):
        app, scenario = make_case(rng, i)
        status, wall, rss, log_mb, verified = run_case(lifesim, tmp, i, app, scenario, case_seconds)
        longest, peak, largest = max(longest, wall), max(peak, rss), max(largest, log_mb)
        problem = None
        if status is None:
            problem = f"hang (still running after {case_seconds} s)"
        elif status not in (0, 1, 2):
            problem = f"exit {status} (a signal or a crash)"
        elif not verified:
            problem = "the log does not verify"
        elif rss > RSS_LIMIT_MB:
            problem = f"peak memory {rss:.0f} MiB"
        elif log_mb > LOG_LIMIT_MB:
            problem = f"log {log_mb:.0f} MiB"
        if problem:
            failures += 1
            notes.append(f"hunt case {i}: {problem}; kept in {os.path.join(tmp, f'hunt-{i}')}")
    return cases, failures, longest, peak, largest, notes
