"""Opens lifesim HTML timelines in headless Chromium (Debian's /usr/bin/chromium, driven by
Playwright) and checks them as a user would see them.
usage: check_html.py [--screenshot PNG] [--max-load-s S] LOG HTML [LOG HTML ...]
Prints one line per problem (exit 1) or one `ok` line per page with its load time."""
import json
import os
import sys
import time
import zlib
from playwright.sync_api import sync_playwright

from report import finish

HIDDEN = {"transition", "return"}  # shown as states and durations, not as marks
CHUNK = 200  # the sequence view draws this many columns at a time


def shown_events(log):
    with open(log) as f:
        lines = [json.loads(l) for l in f]
    return [e for e in lines[1:] if "seq" in e and e["kind"] not in HIDDEN]


def signature(e):
    return e["target"] + "." + e["name"] if e["kind"] == "callback" and "target" in e else e["name"]


def png_distinct_bytes(data):
    """How many distinct byte values the PNG's pixel stream holds (a blank page has a handful)."""
    pos, idat = 8, b""
    while pos < len(data):
        length = int.from_bytes(data[pos:pos + 4], "big")
        kind = data[pos + 4:pos + 8]
        if kind == b"IDAT":
            idat += data[pos + 8:pos + 8 + length]
        pos += 12 + length
    return len(set(zlib.decompress(idat)))


def drawn_range(page):
    return page.eval_on_selector_all("#seq .chunk", "cs => cs.map(c => [Number(c.dataset.first), Number(c.dataset.last)])")


def seqs(page, where):
    return page.eval_on_selector_all(where + " [data-seq]", "ms => ms.map(m => Number(m.dataset.seq))")


def check_marks(page, events, problems, label):
    """The sequence view's marks are exactly the events of the chunks it has drawn, in order."""
    expected = []
    for first, last in sorted(drawn_range(page)):
        expected += [e["seq"] for e in events[first:last + 1]]
    got = seqs(page, "#seq")
    if got != expected:
        problems.append(f"{label}: {len(got)} marks in the sequence view, expected {len(expected)} ({got[:5]} vs {expected[:5]})")
    return got


def check(browser, log, html, shot, max_load, problems):
    name = os.path.basename(html)
    events = shown_events(log)
    page = browser.new_page(viewport={"width": 1400, "height": 900})
    errors, requests = [], []
    url = "file://" + os.path.abspath(html)
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("request", lambda r: requests.append(r.url) if r.url != url else None)
    dialogs = []
    page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
    loads, walls = [], []
    # The load time is the page's own: from the start of its navigation to the end of its first
    # drawing (performance.now() then); the wall time seen from here adds Playwright's round
    # trips and is printed too. A second try when the first is slow (the machine may be busy
    # with other tests): the page must load in time at least once; every time is printed.
    while len(loads) < 2 and (not loads or loads[0] > max_load):
        start = time.monotonic()
        page.goto(url)
        page.wait_for_selector("body[data-ready]", timeout=30000)
        walls.append(time.monotonic() - start)
        loads.append(int(page.get_attribute("body", "data-ready-ms")) / 1000)
    load = min(loads)
    if load > max_load:
        problems.append(f"{name}: loaded in {' and '.join(f'{l:.2f}' for l in loads)} s, more than {max_load} s")
    got = check_marks(page, events, problems, name)
    if len(events) <= CHUNK and len(got) != len(events):
        problems.append(f"{name}: {len(got)} marks for {len(events)} events")
    if len(got) > 3 * CHUNK:
        problems.append(f"{name}: {len(got)} marks drawn at once: the sequence view draws more than is on screen")
    if not page.query_selector_all("#tv [data-seq]"):
        problems.append(f"{name}: the time view has no marks")
    png = page.screenshot(path=shot) if shot else page.screenshot()
    if png_distinct_bytes(png) < 40:
        problems.append(f"{name}: the screenshot is blank")
    callback = next((e for e in events if e["kind"] == "callback"), None)
    if callback:
        page.hover(f'#seq [data-seq="{callback["seq"]}"]')
        details = page.inner_text("#details")
        if not details.startswith(signature(callback)) or f"seq: {callback['seq']}" not in details or "depth: " not in details:
            problems.append(f"{name}: hovering seq {callback['seq']} shows {details!r}, not {signature(callback)}")
    # The sequence view scrolls: its last column is drawn at the end, and still only what is near.
    page.eval_on_selector("#seq", "s => { s.scrollLeft = s.scrollWidth; s.dispatchEvent(new Event('scroll')); }")
    got = check_marks(page, events, problems, name + " scrolled to the end")
    if events and got[-1:] != [events[-1]["seq"]]:
        problems.append(f"{name}: scrolled to the end, the last mark is {got[-1:]}, not {events[-1]['seq']}")
    # Search filters marks by name in both views.
    query = callback["name"][:8] if callback else "launch"
    page.fill("#search", query)
    matching = [e for e in events if query.lower() in signature(e).lower()]
    got = check_marks(page, matching, problems, f"{name} searching {query!r}")
    if len(matching) <= CHUNK and len(got) != len(matching):
        problems.append(f"{name}: searching {query!r} shows {len(got)} marks, {len(matching)} match")
    wanted = {e["seq"] for e in matching}
    stray = [s for s in seqs(page, "#tv") if s not in wanted]
    if stray:
        problems.append(f"{name}: searching {query!r} leaves marks {stray[:5]} in the time view")
    page.fill("#search", "")
    # Hostile text in a log (HostileLog.swift) sets window.pwned or opens a dialog if any of
    # it runs, and adds an element if any of it is read as markup.
    if dialogs or page.evaluate("typeof window.pwned") != "undefined" or page.query_selector_all("img, iframe, object, embed"):
        problems.append(f"{name}: text from the log ran as script or markup (dialogs {dialogs[:3]})")
    if errors:
        problems.append(f"{name}: console errors {errors[:3]}")
    if requests:
        problems.append(f"{name}: network requests {requests[:3]}")
    page.close()
    print(f"ok {name}: {len(events)} marks, loaded in {' then '.join(f'{l:.2f}' for l in loads)} s"
          f" (wall {' then '.join(f'{w:.2f}' for w in walls)} s)")


def main(args):
    shot, max_load = None, 3.0
    while args and args[0].startswith("--"):
        if args[0] == "--screenshot":
            shot, args = args[1], args[2:]
        elif args[0] == "--max-load-s":
            max_load, args = float(args[1]), args[2:]
    problems = []
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=["--no-sandbox"])
        for i, (log, html) in enumerate(zip(args[0::2], args[1::2])):
            check(browser, log, html, shot if i == 0 else None, max_load, problems)
        browser.close()
    finish(problems, f"ok: {len(args) // 2} pages")


main(sys.argv[1:])
