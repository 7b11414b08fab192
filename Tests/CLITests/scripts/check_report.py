"""Opens a `lifesim test --html DIR` report in headless Chromium: no console error and no
request but its own files; the failures first; one row per case in the case list; each
failing case's link opens its timeline.
usage: check_report.py INDEX_HTML CASES FAILING"""
import os
import sys
from playwright.sync_api import sync_playwright

from report import finish


def main(index, cases, failing):
    problems = []
    folder = "file://" + os.path.dirname(os.path.abspath(index)) + "/"
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=["--no-sandbox"])
        page = browser.new_page()
        errors, requests = [], []
        page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.on("request", lambda r: requests.append(r.url) if not r.url.startswith(folder) else None)
        page.goto("file://" + os.path.abspath(index))
        rows = page.query_selector_all("#cases tbody tr")
        if len(rows) != cases:
            problems.append(f"{len(rows)} rows for {cases} cases")
        links = page.eval_on_selector_all("#cases tr.failed a, #cases tr.error a", "as => as.map(a => a.getAttribute('href'))")
        first = page.eval_on_selector_all("table", "ts => ts.map(t => t.id)")
        if first[:1] != (["failures"] if failing else ["matrix"]):
            problems.append(f"the report's tables are {first}: the failures do not come first")
        if len(links) != failing:
            problems.append(f"{len(links)} timeline links for {failing} failing cases")
        for href in links:
            page.goto("file://" + os.path.abspath(index))
            page.click(f'a[href="{href}"]')
            page.wait_for_selector("body[data-ready]", timeout=10000)
            if not page.query_selector_all("#seq [data-seq]"):
                problems.append(f"{href}: no marks")
            if page.query_selector("#seq .m.flag") is None:
                problems.append(f"{href}: the failed expectation is not flagged")
        if errors:
            problems.append(f"console errors {errors[:3]}")
        if requests:
            problems.append(f"requests {requests[:3]}")
        browser.close()
    finish(problems, f"ok: {cases} cases, {len(links)} timelines")


main(sys.argv[1], int(sys.argv[2]), int(sys.argv[3]))
