"""Explore's trust targets for the reliability suite: the Lua string writer round-trips every
byte sequence through the real Lua, and `explore merge` fed hostile report.json files ends with
0, 1 or 2 and a message, never a signal, and writes nothing outside its output folder."""
import json, os, shutil, subprocess

SPECIAL = [0x00, 0x0A, 0x0D, 0x09, 0x22, 0x5C, 0x7F, 0x80, 0xC2, 0x85, 0xE2, 0xA8, 0xA9, 0xFF, 0x30, 0x31, 0x39]

APP = """app { root = "Editor" }
controller "Editor" { actions = { save = function(vc) error("disk full") end, keep = function(vc) work(11) end } }
"""

SECRET = "SECRET-MARKER-" + "7f3a"


def random_bytes(rng):
    n = rng.choice([0, 1, 2, 3, rng.randrange(64), rng.randrange(600)])
    return bytes(rng.choice(SPECIAL) if rng.random() < 0.5 else rng.randrange(256) for _ in range(n))


def lua_string_test(run, bench, tmp, rng, cases):
    """Random byte strings written by `lifesim-bench lua-quote` (LuaStringLiteral), loaded by
    lua5.4, compared byte for byte. Returns (cases, crashes, mismatches, note)."""
    lua = shutil.which("lua5.4")
    if lua is None:
        return 0, 0, 0, "lua5.4 not installed: not run"
    strings = [random_bytes(rng) for _ in range(cases)]
    quoted = run([bench, "lua-quote"], input="".join(s.hex() + "\n" for s in strings))
    literals = quoted.stdout.split("\n")[:-1]
    if quoted.returncode != 0 or len(literals) != cases:
        return cases, 1, 0, f"lifesim-bench lua-quote failed: {quoted.stderr.strip()[-200:]}"
    script = os.path.join(tmp, "literals.lua")
    with open(script, "w", encoding="utf-8") as f:
        f.write("local t = {\n" + ",\n".join(literals) + "\n}\n")
        f.write('for _, s in ipairs(t) do io.write((s:gsub(".", function(c) return string.format("%02x", c:byte()) end)), "\\n") end\n')
    loaded = run([lua, script])
    back = loaded.stdout.split("\n")[:-1]
    if loaded.returncode != 0 or len(back) != cases:
        return cases, 0, cases, f"lua5.4 could not load the literals: {loaded.stderr.strip()[-200:]}"
    wrong = sum(1 for s, hexed in zip(strings, back) if s.hex() != hexed)
    return cases, 0, wrong, "each literal loads in lua5.4 as exactly the bytes written"


HOSTILE_VALUES = [9223372036854775807, -9223372036854775808, -1, 0, 1e308, -0.5, "20", "", None, True, [], {},
                  [[[[[]]]]], "../../secret.lua", "/etc/passwd", "finding-1.lua/../../secret.lua", "..", "finding-0.lua",
                  "finding-1.lua\u0000", "finding-99999999999999999999.lua", ".finding-1.lua", "sub/finding-1.lua", "1/4"]


def mutate(text, rng):
    """One hostile report from a real one: a member's value replaced, a key duplicated, deep
    nesting, a cut, or bytes flipped."""
    kind = rng.randrange(6)
    if kind <= 1:
        report = json.loads(text)
        target, key = report, rng.choice(list(report))
        if kind == 1 and report["findings"]:
            target = rng.choice(report["findings"])
            key = rng.choice(list(target))
        target[key] = rng.choice(HOSTILE_VALUES)
        return json.dumps(report, indent=rng.choice([None, 2]))
    if kind == 2:
        return text.replace('"runs":', '"runs":1,"runs":', 1)
    if kind == 3:
        depth = rng.choice([10, 63, 64, 65, 500, 100000])
        return text.replace('"callbacks":', '"callbacks":' + "[" * depth + "]" * depth + ',"x":', 1)
    data = bytearray(text.encode())
    if kind == 4:
        return bytes(data[:rng.randrange(len(data))]).decode("utf-8", "replace")
    for _ in range(rng.randrange(1, 8)):
        data[rng.randrange(len(data))] = rng.randrange(256)
    return bytes(data).decode("latin-1")


def listing(folder, skip):
    out = set()
    for root, dirs, files in os.walk(folder):
        if os.path.abspath(root).startswith(skip):
            continue
        out.update(os.path.join(root, f) for f in files)
    return out


def merge_fuzz_test(run, lifesim, tmp, rng, cases):
    """`explore merge` of a real shard and a hostile copy of it. Returns (cases, crashes, wrong, note)."""
    base = os.path.join(tmp, "merge-fuzz")
    os.makedirs(base, exist_ok=True)
    with open(os.path.join(base, "app.lua"), "w") as f:
        f.write(APP)
    with open(os.path.join(tmp, "secret.lua"), "w") as f:
        f.write("-- " + SECRET + "\n")
    shard = os.path.join(base, "shard")
    p = run([lifesim, "explore", os.path.join(base, "app.lua"), "--runs", "40", "-o", shard])
    if p.returncode != 1:
        return 0, 1, 0, "the base exploration failed: " + p.stderr.strip()[-200:]
    original = open(os.path.join(shard, "report.json"), encoding="utf-8").read()
    crashes = wrong = 0
    for i in range(cases):
        case = os.path.join(base, f"case-{i}")
        shutil.copytree(shard, case)
        with open(os.path.join(case, "report.json"), "w", encoding="utf-8", errors="surrogateescape") as f:
            f.write(mutate(original, rng))
        out = os.path.join(base, f"out-{i}")
        before = listing(tmp, out)
        p = run([lifesim, "explore", "merge", shard, case, "-o", out], timeout=60)
        crashed = p.returncode < 0 or p.returncode not in (0, 1, 2) or "Fatal error" in p.stderr or "Backtrac" in p.stderr
        crashes += crashed
        problem = None
        if p.returncode == 2 and not p.stderr.startswith("lifesim: "):
            problem = "exit 2 without a message"
        elif listing(tmp, out) != before:
            problem = "wrote outside its folder: " + " ".join(sorted(listing(tmp, out) - before))[:200]
        elif os.path.isdir(out):
            names = os.listdir(out)
            if any(not (n == "report.json" or (n.startswith("finding-") and n.endswith((".lua", ".lifelog")))) for n in names):
                problem = "unexpected files: " + " ".join(names)
            elif any(SECRET in open(os.path.join(out, n), errors="replace").read() for n in names):
                problem = "copied a file from outside the shards"
        if crashed or problem:
            wrong += problem is not None
            print(f"merge fuzz {i}: exit {p.returncode} {problem or ''} {p.stderr.strip()[-300:]}")
        shutil.rmtree(case, ignore_errors=True)
        shutil.rmtree(out, ignore_errors=True)
    return cases, crashes, wrong, "exit 0, 1 or 2 with a message; nothing written outside -o, nothing copied from outside"
