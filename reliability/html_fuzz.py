"""Hostile text in every field of a log, through `export --format html` and `--format tables`.
Each case runs an app and a scenario whose log message, stored key and value, expectation
message and scenario file name are random hostile strings, then rewrites the trailer's outcome
with random values of random types and makes the hash chain again (anyone can write a log whose
chain verifies). The page must then hold every data string only inside its JSON blocks, escaped
(no `<`, `>`, `&`, U+2028 or U+2029 there, so no `</script` or `<!--`), read back to the same
strings; outside them, the page must be the same bytes for every case but its escaped title; the
policy's hashes must be those of the page's script and style. The tables' runs.jsonl must give
each typed column its type or null."""
import base64, hashlib, json, os, random, re, subprocess

FRAGMENTS = ["</script>", "</SCRIPT ", "<!--", "-->", "<script>", "<img src=x onerror=window.pwned=1>", "\"", "'", "&",
             "&amp;", "&#60;", "\u2028", "\u2029", "\x01", "\x1b[31m", "\x7f", "\x85", "]]>", "${x}", "`", "\\", "</style>",
             "<svg/onload=alert(1)>", "javascript:", "%%", "#", ";", "\ufeff", "\U0001F600", "é", "<!--<script"]
BLOCK = re.compile(r'<script type="application/json" id="([a-z]+)">(.*?)</script>', re.S)
TITLE = re.compile(r"<title>(.*?)</title>", re.S)


def hostile(rng, forbid=""):
    text = "".join(rng.choice(FRAGMENTS) if rng.random() < 0.7 else chr(rng.choice([rng.randrange(0x20, 0x7f),
                   rng.randrange(0xa0, 0xd800), rng.randrange(0xe000, 0x10000)])) for _ in range(rng.randrange(1, 7)))
    return "".join(c for c in text if c not in forbid) or "x"


def lua(text):
    """A Lua string literal holding `text` exactly."""
    return '"' + "".join(c if c.isalnum() or c == " " else "\\u{%x}" % ord(c) for c in text) + '"'


def random_value(rng):
    return rng.choice([lambda: hostile(rng), lambda: rng.randrange(-2**63, 2**63), lambda: None, lambda: True,
                       lambda: [hostile(rng)], lambda: {hostile(rng): hostile(rng)}, lambda: 1.5])()


def rewrite_trailer(path, rng):
    lines = open(path, encoding="utf-8").read().split("\n")[:-1]
    trailer = json.loads(lines[-1])
    outcome = {"state": random_value(rng), "expectations": {"passed": random_value(rng), "failed": random_value(rng)},
               "terminations": [{"reason": random_value(rng), "code": random_value(rng), "description": random_value(rng)}],
               "stored": {hostile(rng): random_value(rng)}}
    if rng.random() < 0.3:
        outcome["error"] = random_value(rng)
    body = json.dumps({"kind": "end", "events": trailer["events"], "t": trailer["t"], "outcome": outcome},
                      ensure_ascii=False, separators=(",", ":"))
    prev, out = "", []
    for line in lines[:-1] + [body]:
        body = re.sub(r',"h":"[0-9a-f]{64}"}$', "}", line)
        prev = hashlib.sha256((prev + body).encode()).hexdigest()
        out.append(body[:-1] + ',"h":"' + prev + '"}')
    open(path, "w", encoding="utf-8").write("\n".join(out) + "\n")


def sha_source(text):
    return "'sha256-" + base64.b64encode(hashlib.sha256(text.encode()).digest()).decode() + "'"


def page_problems(page, strings, skeleton):
    """What is wrong with one page; `skeleton` is a one-item list holding the first page's."""
    problems, found = [], []
    for name, block in BLOCK.findall(page):
        bad = [c for c in "<>&\u2028\u2029" if c in block]
        if bad:
            problems.append(f"block {name} holds {bad}")
        found.append(json.loads(block))
    rest = BLOCK.sub("", page)
    title = TITLE.search(rest).group(1)
    if re.search(r"[<>\"'\x00-\x1f\x7f]|&(?!amp;|lt;|gt;|quot;|#39;)", title):
        problems.append(f"title not escaped: {title!r}")
    rest = TITLE.sub("<title></title>", rest)
    if not skeleton:
        skeleton.append(rest)
    elif rest != skeleton[0]:
        problems.append("the page outside its data differs from the first case's")
    script = re.search(r"<script>(.*?)</script>", rest, re.S).group(1)
    style = re.search(r"<style>(.*?)</style>", rest, re.S).group(1)
    policy = f"style-src {sha_source(style)}; script-src {sha_source(script)}\""
    if policy not in rest or "unsafe-inline" in rest:
        problems.append("the policy's hashes are not the script's and the style's")
    data = set(texts(found))
    for s in strings:
        if s not in data:
            problems.append(f"{s!r} is not in the page's data")
    return problems


def texts(value):
    """Every string in `value`, and in the JSON objects written as strings in it (an event's details)."""
    if isinstance(value, list):
        for v in value:
            yield from texts(v)
    elif isinstance(value, dict):
        for k, v in value.items():
            yield k
            yield from texts(v)
    elif isinstance(value, str):
        yield value
        if value.startswith("{"):
            try:
                yield from texts(json.loads(value))
            except ValueError:
                pass


def tables_problems(lifesim, log, folder):
    p = subprocess.run([lifesim, "export", log, "--format", "tables", "-o", folder, "--force"], capture_output=True, text=True)
    if p.returncode != 0:
        return [f"tables export: exit {p.returncode} {p.stderr.strip()}"]
    row = json.loads(open(os.path.join(folder, "runs.jsonl"), encoding="utf-8").readline())
    typed = {"final_state": str, "error_message": str, "expectations_passed": int, "expectations_failed": int}
    return [f"runs.{k} is {row[k]!r}" for k, t in typed.items() if row[k] is not None and type(row[k]) is not t]


def case(lifesim, folder, rng, skeleton):
    """One case: (crashed, problems)."""
    os.makedirs(folder, exist_ok=True)
    message, key, value, expectation = (hostile(rng) for _ in range(4))
    scenario = "s" + hostile(rng, forbid="/\x00")[:40] + ".lua"
    open(os.path.join(folder, "app.lua"), "w", encoding="utf-8").write(
        'app { name = "Fuzz", root = "Main" }\nfunction AppDelegate.didFinishLaunchingWithOptions(application, options)\n'
        f"  log({lua(message)})\n  store({lua(key)}, {lua(value)})\n  return true\nend\ncontroller \"Main\" {{}}\n")
    open(os.path.join(folder, scenario), "w", encoding="utf-8").write(
        f'scenario {{ ios = 17, app = "app.lua" }}\nlaunch()\nexpect(false, {lua(expectation)})\n')
    log, html = os.path.join(folder, "run.lifelog"), os.path.join(folder, "run.html")
    p = subprocess.run([lifesim, "run", scenario, "-o", log, "-q", "--force"], cwd=folder, capture_output=True, text=True)
    if p.returncode != 1:
        return p.returncode < 0, [f"run: exit {p.returncode} {p.stderr.strip()}"]
    rewrite_trailer(log, rng)
    p = subprocess.run([lifesim, "export", log, "--format", "html", "-o", html, "--force"], capture_output=True, text=True)
    if p.returncode != 0:
        return p.returncode < 0, [f"export: exit {p.returncode} {p.stderr.strip()}"]
    page = open(html, encoding="utf-8").read()
    problems = page_problems(page, [message, key, value, expectation, scenario[:-4]], skeleton)
    return False, problems + tables_problems(lifesim, log, os.path.join(folder, "tables"))


def html_fuzz(lifesim, tmp, cases, seed=20261127):
    """Runs `cases` cases; returns (cases, crashes, cases with a problem, problem lines)."""
    rng, skeleton = random.Random(seed), []
    crashes = failed = 0
    notes = []
    for i in range(cases):
        crashed, problems = case(lifesim, os.path.join(tmp, f"html-fuzz-{i}"), rng, skeleton)
        crashes += crashed
        if problems:
            failed += 1
            notes += [f"html fuzz {i}: {p}" for p in problems[:5]]
    return cases, crashes, failed, notes
