"""Crafted headers: a recorded log whose header values are mutated (knobs at extreme values or of
the wrong type, the seed, the iOS version, scenes, the embedded scripts; in a quarter of the cases
a number in an event line too) and whose hash chain is computed again, as anyone can (it has no secret). Every command that reads a log must end with
exit 0, 1 or 2 (2 with a message on standard error), never a signal or a Swift runtime failure."""
import hashlib, json, os, random, re, subprocess

EXTREMES = [-(2 ** 63), -1, 0, 1, 2 ** 63 - 1, 2 ** 62, 10 ** 18, 999, 1000, 31536000000000, 31536000000001,
            2 ** 20 - 1, 2 ** 34 + 1, 11, 12, 26, 27, 1.5, -0.0, 1e300, "17", None, True, [], {}]
TEXTS = ["", "\u001b]0;title\u0007", "x" * 5000, "../../etc/passwd", "<script>alert(1)</script>", "a\nb", "\u202e", "\u009b2J"]
# Recorded runs to craft from: between them every kind of event and most numbers an event holds
# (after's delay, background tasks, transfers, BGTasks, restoration).
SCENARIOS = ["home_and_return", "background_fetch", "background_transfer", "bg_refresh", "restoration_after_jetsam",
             "tab_switch"]
COMMANDS = [["verify"], ["replay"], ["replay", "--state"], ["replay", "--json"], ["replay", "--verify"],
            ["replay", "--app", "Scripts/apps/notes.lua"], ["coverage"], ["diff", "BASE"],
            ["export", "--format", "chrome-trace", "-o", "OUT"], ["export", "--format", "html", "-o", "OUT"],
            ["export", "--format", "mermaid", "-o", "OUT"], ["export", "--format", "tables", "-o", "OUT"]]


def rechain(bodies):
    """Lines from bodies (each a line without `h`), every `h` computed again."""
    prev, lines = "", []
    for body in bodies:
        digest = hashlib.sha256((prev + body).encode()).hexdigest()
        lines.append(body[:-1] + ',"h":"' + digest + '"}')
        prev = digest
    return "\n".join(lines) + "\n"


def mutate(header, rng):
    """One change to the header object: a value replaced, removed or added; returns what changed."""
    profile = header["profile"]
    scripts = header["scripts"]
    kind = rng.randrange(9)
    if kind <= 2:
        key = rng.choice(list(profile))
        profile[key] = rng.choice(EXTREMES)
        return f"profile.{key} = {profile[key]!r}"
    if kind == 3:
        header["seed"] = rng.choice(EXTREMES)
        return f"seed = {header['seed']!r}"
    if kind == 4:
        key = rng.choice(["scenes", "format", "lifesim", "lua"])
        header[key] = rng.choice(EXTREMES + TEXTS)
        return f"{key} = {header[key]!r}"[:120]
    if kind == 5:
        key = rng.choice(list(profile))
        del profile[key]
        return f"profile.{key} removed"
    if kind == 6 and scripts:
        script = rng.choice(scripts)
        field = rng.choice(["role", "path", "source"])
        script[field] = rng.choice(TEXTS + ["scenario", "app", "require:x"])
        if field == "source" and rng.random() < 0.8:
            script["sha256"] = hashlib.sha256(script["source"].encode()).hexdigest()
        return f"scripts.{script['role']}.{field} changed"
    if kind == 7 and scripts:
        i = rng.randrange(len(scripts))
        if rng.random() < 0.5:
            del scripts[i]
            return f"script {i} removed"
        scripts.append(dict(scripts[i]))
        return f"script {i} twice"
    profile["ios"] = rng.choice(EXTREMES)
    return f"profile.ios = {profile['ios']!r}"


def mutate_event(bodies, rng):
    """A number in an event line (not `seq` or `t`, which the reader checks) set to an extreme:
    a depth, a duration, a task id; returns the new bodies and what changed."""
    i = rng.randrange(1, len(bodies) - 1)
    numbers = [m for m in re.finditer(r'"([a-z_]+)":(-?[0-9]+)', bodies[i]) if m.group(1) not in ("seq", "t")]
    if not numbers:
        return bodies, f"event line {i + 1} unchanged"
    m = rng.choice(numbers)
    value = rng.choice([-(2 ** 63), -1, 2 ** 63 - 1, 10 ** 18, 1001])
    body = bodies[i][:m.start()] + f'"{m.group(1)}":{value}' + bodies[i][m.end():]
    return bodies[:i] + [body] + bodies[i + 1:], f"line {i + 1} {m.group(1)} = {value}"


def crashed(p):
    return p.returncode < 0 or p.returncode not in (0, 1, 2) or "Fatal error" in p.stderr or "Program crashed" in p.stderr


def fuzz_headers(lifesim, root, tmp, cases, seed=20261127):
    """Runs `cases` crafted headers through every command; returns (cases, crashes, wrong, notes):
    a crash is a signal or a runtime failure, wrong an exit 2 without a message or a hang."""
    rng = random.Random(seed)
    recorded = {}
    for name in SCENARIOS:
        base = os.path.join(tmp, f"headers-{name}.lifelog")
        p = subprocess.run([lifesim, "run", f"Scripts/scenarios/{name}.lua", "-o", base, "--force", "-q"],
                           cwd=root, capture_output=True, text=True)
        assert p.returncode in (0, 1), p.stderr
        lines = open(base, encoding="utf-8").read().split("\n")[:-1]
        recorded[base] = [line[:line.rindex(',"h":"')] + "}" for line in lines]
    crashes = wrong = 0
    notes = []
    for i in range(cases):
        base = rng.choice(sorted(recorded))
        bodies = recorded[base]
        header = json.loads(bodies[0])
        changes = [mutate(header, rng) for _ in range(1 + rng.randrange(3))]
        events = bodies[1:]
        if rng.random() < 0.25:
            events, change = mutate_event(bodies, rng)
            events = events[1:]
            changes.append(change)
        path = os.path.join(tmp, "headers-case.lifelog")
        with open(path, "w", encoding="utf-8") as f:
            f.write(rechain([json.dumps(header, ensure_ascii=False, separators=(",", ":"))] + events))
        for command in COMMANDS:
            out = os.path.join(tmp, "headers-out")
            args = [a.replace("BASE", base).replace("OUT", out) for a in command]
            try:
                p = subprocess.run([lifesim, args[0], path] + args[1:] + (["--force"] if "-o" in args else []),
                                   cwd=root, capture_output=True, text=True, timeout=120)
            except subprocess.TimeoutExpired:
                wrong += 1
                notes.append(f"headers {i} {' '.join(command)}: hung ({'; '.join(changes)})")
                continue
            if crashed(p):
                crashes += 1
                notes.append(f"headers {i} {' '.join(command)}: crashed ({'; '.join(changes)}): {p.stderr.strip()[-300:]}")
            elif p.returncode == 2 and not p.stderr.strip():
                wrong += 1
                notes.append(f"headers {i} {' '.join(command)}: exit 2 without a message ({'; '.join(changes)})")
    return cases, crashes, wrong, notes
