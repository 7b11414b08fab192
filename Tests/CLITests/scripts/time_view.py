"""Opens a lifesim HTML timeline in headless Chromium at its fit zoom and prints what the time
view draws, as JSON: the plot's width, and for each lane (by its title) its bands as
[state class, left px, width px] and its marks as [seq, left px, width px].
usage: time_view.py HTML"""
import json
import os
import sys
from playwright.sync_api import sync_playwright

DRAWN = """tv => ({
  width: tv.querySelector(".plot").clientWidth,
  lanes: Object.fromEntries([...tv.querySelectorAll(".lane")].map((lane) => [lane.querySelector(".lbl").textContent, {
    bands: [...lane.querySelectorAll(".band")].map((b) => [[...b.classList].find((c) => c.startsWith("s-")), b.offsetLeft, b.offsetWidth]),
    marks: [...lane.querySelectorAll("[data-seq]")].map((m) => [Number(m.dataset.seq), m.offsetLeft, m.offsetWidth]),
  }])),
})"""


def main(html):
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=["--no-sandbox"])
        page = browser.new_page(viewport={"width": 1400, "height": 900})
        errors = []
        page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto("file://" + os.path.abspath(html))
        page.wait_for_selector("body[data-ready]", timeout=30000)
        drawn = page.eval_on_selector("#tv", DRAWN)
        browser.close()
    if errors:
        sys.exit(f"console errors {errors[:3]}")
    print(json.dumps(drawn))


main(sys.argv[1])
