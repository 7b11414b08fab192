extension TimelinePage {
  /// The page's program: reads the embedded JSON (`meta`, `rows`, `intervals`, `names`) and
  /// draws every text from it as text (`textContent`, properties), never as markup. The page's
  /// policy allows exactly this text by its SHA-256 (`HTMLText.policy`).
  static let script = #"""
    (function () {
    "use strict";
    const $ = (id) => document.getElementById(id);
    const meta = JSON.parse($("meta").textContent);
    const rows = JSON.parse($("rows").textContent);
    const intervals = JSON.parse($("intervals").textContent);
    const names = JSON.parse($("names").textContent);
    const SEQ = 0, T = 1, KIND = 2, NAME = 3, TARGET = 4, DEPTH = 5, DUR = 6, AT = 7, DETAILS = 8, KILLED = 9, FLAG = 10;
    // Texts come as indexes into `names`.
    for (const r of rows) {
      r[KIND] = names[r[KIND]]; r[NAME] = names[r[NAME]]; r[DETAILS] = names[r[DETAILS]];
      if (r[TARGET] !== null) r[TARGET] = names[r[TARGET]];
      if (r[AT] !== null) r[AT] = names[r[AT]];
    }
    for (const i of intervals) { i[0] = names[i[0]]; i[1] = names[i[1]]; }
    const COL = 16, LANE = 20, STRIP = 14, NAMES = 190, CHUNK = 200, MERGE_PX = 3;
    // Right of the run's last instant, each lane shows the state the run ended in.
    const END_PX = 14;
    const secs = (us) => (us / 1e6).toFixed(6) + " s";
    // Every text from the log goes into the page as a text node or a property, never as markup.
    function el(tag, cls, text) {
      const e = document.createElement(tag);
      if (cls) e.className = cls;
      if (text !== undefined) e.textContent = text;
      return e;
    }
    function place(e, left, width) { e.style.left = left + "px"; e.style.width = width + "px"; return e; }

    // The outcome and the commands that reproduce the run.
    const outcome = meta.outcome;
    const verdict = meta.status === 0 ? "passed" : meta.status === 1 ? "failed" : "stopped (error or log cut off)";
    const count = (n) => (n === null ? "?" : String(n));
    $("title").textContent = meta.scenario + " — iOS " + meta.ios + ", seed " + meta.seed;
    const kills = outcome.terminations.map((k) => (k.reason || "?") + (k.code ? " " + k.code : "") + ": " + (k.description || ""));
    $("outcome").append(el("span", meta.status === 0 ? "pass" : "fail", verdict), " · final state " + (outcome.state || "?") +
      " · expectations " + count(outcome.passed) + " passed, " + count(outcome.failed) + " failed · " + meta.events + " events, " +
      secs(meta.endUs) + " · " + (kills.length ? "terminations: " + kills.join("; ") : "no termination") +
      (outcome.error !== null ? " · error: " + outcome.error : ""));
    $("repro").append("Reproduce: ", el("code", "", meta.replay), " or ", el("code", "", meta.rerun));

    // Lanes: states as bands, events as marks.
    const layers = new Map();
    for (const i of intervals) { if (!layers.has(i[0])) layers.set(i[0], []); layers.get(i[0]).push(i); }
    const controllers = [...layers.keys()].filter((l) => l.startsWith("controller ")).map((l) => l.slice(11));
    const controllerSet = new Set(controllers);
    const tasks = [...layers.keys()].filter((l) => l.startsWith("task ")).flatMap((l) => layers.get(l));
    const lanes = [
      { id: "process", title: "process", band: "process" },
      { id: "application", title: "applicationState", band: "application" },
      ...[...layers.keys()].filter((l) => l.startsWith("scene ")).map((l) => ({ id: l, title: l + " state", band: l })),
      { id: "bgtime", title: "background time left", line: true, tall: true },
      { id: "tasks", title: "background tasks", tasks: true, tall: true },
      { id: "Inputs", title: "inputs", marks: true },
      { id: "System", title: "system, expectations, notes", marks: true },
      { id: "Flags", title: "⚑ kills, crashes, failures", marks: true },
      { id: "AppDelegate", title: "AppDelegate", marks: true },
      { id: "SceneDelegate", title: "SceneDelegate", marks: true },
      ...controllers.map((c) => ({ id: c, title: c, band: "controller " + c, marks: true })),
      { id: "Handlers", title: "handlers (tasks, after, completions)", marks: true },
      { id: "App calls", title: "app calls", marks: true },
      { id: "Notifications", title: "notifications", marks: true },
    ];
    const markLanes = lanes.filter((l) => l.marks);
    const markLaneIndex = new Map(markLanes.map((l, i) => [l.id, i]));
    function laneOf(r) {
      if (r[FLAG]) return "Flags";
      switch (r[KIND]) {
        case "input": return "Inputs";
        case "callback": return r[TARGET] === "AppDelegate" || r[TARGET] === "SceneDelegate" || controllerSet.has(r[TARGET]) ? r[TARGET] : "Handlers";
        case "call": return "App calls";
        case "notification": return "Notifications";
        default: return "System";
      }
    }
    const rowLane = rows.map(laneOf);
    const laneIndex = new Map(lanes.map((l, i) => [l.id, i]));
    const rowLaneIndex = Int32Array.from(rowLane, (id) => laneIndex.get(id));
    // The application state at each row (the sequence view's top strip).
    const appIntervals = layers.get("application") || [];
    const rowState = new Array(rows.length);
    for (let i = 0, j = 0; i < rows.length; i++) {
      while (j + 1 < appIntervals.length && appIntervals[j + 1][2] <= rows[i][SEQ]) j++;
      rowState[i] = appIntervals.length && appIntervals[j][2] <= rows[i][SEQ] ? appIntervals[j][1] : "not_running";
    }
    let shown = rows.map((_, i) => i);

    function signature(r) { return r[KIND] === "callback" && r[TARGET] ? r[TARGET] + "." + r[NAME] : r[NAME]; }
    function mark(i, left, width, merged) {
      const r = rows[i], m = place(el("div", "m k-" + r[KIND] + (r[FLAG] ? " flag" : "") + (r[KILLED] ? " killed" : "")), left, width);
      m.dataset.seq = r[SEQ];
      if (merged > 1) m.dataset.count = merged;
      return m;
    }
    function band(cls, left, width, title, label) {
      const b = place(el("div", "band " + cls, width > 60 ? label : undefined), left.toFixed(1), width.toFixed(1));
      b.title = title;
      return b;
    }

    // The time view: only the window [t0, t1] is drawn, over the plot's first `runWidth` pixels.
    const tv = $("tv");
    for (const l of lanes) {
      const lane = el("div", "lane" + (l.tall ? " tall" : "")), label = el("div", "lbl", l.title), plot = el("div", "plot");
      label.title = l.title;
      plot.dataset.lane = l.id;
      lane.append(label, plot);
      tv.append(lane);
    }
    const plots = [...tv.querySelectorAll(".plot")];
    const span = Math.max(meta.endUs, 1);
    let t0 = 0, t1 = span, width = 1, runWidth = 1;
    const xOf = (t) => (t - t0) / (t1 - t0) * runWidth;
    // Where an interval is drawn: the state the run ended in reaches the plot's right edge.
    function extent(i) {
      const a = Math.max(0, xOf(i[3])), b = xOf(i[5]);
      return [a, i[6] && b <= runWidth ? width : Math.min(runWidth, b)];
    }
    // A state lane: each pixel shows the state that covers most of it, so states of no
    // duration never hide the ones the run spent its time in.
    function stateBands(list, into) {
      const owner = new Int32Array(width).fill(-1), share = new Float64Array(width);
      list.forEach((i, n) => {
        if (i[5] < t0 || i[3] > t1) return;
        const [a, b] = extent(i);
        for (let p = Math.floor(a); p < Math.min(width, Math.ceil(b)); p++) {
          const cover = Math.min(b, p + 1) - Math.max(a, p);
          if (cover > share[p]) { share[p] = cover; owner[p] = n; }
        }
      });
      for (let p = 0; p < width;) {
        if (owner[p] < 0) { p++; continue; }
        const first = list[owner[p]];
        let q = p + 1, last = first;
        while (q < width && owner[q] >= 0 && list[owner[q]][1] === first[1]) last = list[owner[q++]];
        into.append(band("s-" + first[1], p, q - p, first[1] + " from " + secs(first[3]) + " to " + secs(last[5]), first[1]));
        p = q;
      }
    }
    function taskBands(into) {
      let lastPx = -1;
      for (const i of tasks) {
        if (i[5] < t0 || i[3] > t1) continue;
        const [a, b] = extent(i), w = Math.max(1, b - a);
        if (w < 2 && Math.floor(a) === lastPx) continue;
        lastPx = Math.floor(a);
        const label = i[0] + ' "' + i[1] + '"', b0 = band("s-task", a, w, label + " from " + secs(i[3]) + " to " + secs(i[5]), label);
        Object.assign(b0.style, { top: 2 + (Number(i[0].slice(5)) % 2) * 13 + "px", bottom: "auto", height: "12px", lineHeight: "12px" });
        into.append(b0);
      }
    }
    const SVG = "http://www.w3.org/2000/svg";
    function backgroundLine(into) {
      const a = meta.allowanceUs;
      if (!a) return;
      const h = 26, y = (left) => (2 + (1 - left / a) * (h - 4)).toFixed(1), svg = document.createElementNS(SVG, "svg");
      svg.setAttribute("width", width);
      svg.setAttribute("height", h);
      for (const i of appIntervals) {
        if (i[1] !== "background" || i[5] < t0 || i[3] > t1) continue;
        const end = i[5], out = Math.min(end, i[3] + a), line = document.createElementNS(SVG, "polyline");
        for (const [k, v] of [["fill", "none"], ["stroke", "#3f73c9"], ["stroke-width", "2"]]) line.setAttribute(k, v);
        line.setAttribute("points", xOf(i[3]).toFixed(1) + "," + y(a) + " " + xOf(out).toFixed(1) + "," + y(a - (out - i[3])) + " " +
          xOf(end).toFixed(1) + "," + y(Math.max(0, a - (end - i[3]))));
        svg.append(line);
      }
      into.append(svg);
    }
    function firstAtOrAfter(t) {
      let lo = 0, hi = shown.length;
      while (lo < hi) { const mid = (lo + hi) >> 1; if (rows[shown[mid]][T] < t) lo = mid + 1; else hi = mid; }
      return lo;
    }
    // One mark per lane and MERGE_PX pixels: the first event there, with how many it stands for.
    function marks(frames) {
      const slots = Math.ceil(width / MERGE_PX) + 1, taken = new Int32Array(lanes.length * slots), first = new Int32Array(lanes.length * slots);
      for (let k = firstAtOrAfter(t0); k < shown.length && rows[shown[k]][T] <= t1; k++) {
        const i = shown[k], slot = rowLaneIndex[i] * slots + Math.floor(xOf(rows[i][T]) / MERGE_PX);
        if (taken[slot]++ === 0) first[slot] = i;
      }
      for (let slot = 0; slot < taken.length; slot++) {
        if (taken[slot] === 0) continue;
        const i = first[slot], r = rows[i], left = xOf(r[T]);
        const w = r[DUR] > 0 ? Math.max(4, xOf(r[T] + r[DUR]) - left) : 4;
        frames[Math.floor(slot / slots)].append(mark(i, left.toFixed(1), w.toFixed(1), taken[slot]));
      }
    }
    function drawTime() {
      width = Math.max(1, plots[0].clientWidth);
      runWidth = Math.max(1, width - END_PX);
      const frames = lanes.map(() => document.createDocumentFragment());
      lanes.forEach((l, k) => {
        if (l.band) stateBands(layers.get(l.band) || [], frames[k]);
        if (l.line) backgroundLine(frames[k]);
        if (l.tasks) taskBands(frames[k]);
      });
      marks(frames);
      plots.forEach((p, k) => p.replaceChildren(frames[k]));
      const ticks = document.createDocumentFragment();
      for (let k = 0; k <= 5; k++) {
        const tick = el("span", "", ((t0 + (t1 - t0) * k / 5) / 1e6).toFixed(3) + " s");
        tick.style.left = (k * runWidth / 5).toFixed(0) + "px";
        ticks.append(tick);
      }
      $("axis").replaceChildren(ticks);
    }
    let pending = false;
    const redraw = () => { if (!pending) { pending = true; requestAnimationFrame(() => { pending = false; drawTime(); }); } };
    tv.addEventListener("wheel", (e) => {
      e.preventDefault();
      const box = plots[0].getBoundingClientRect(), at = t0 + (t1 - t0) * Math.min(1, Math.max(0, (e.clientX - box.left) / runWidth));
      const f = e.deltaY > 0 ? 1.25 : 0.8, next = Math.max(10, (t1 - t0) * f);
      t0 = at - (at - t0) * next / (t1 - t0); t1 = t0 + next; redraw();
    }, { passive: false });
    let drag = null;
    tv.addEventListener("mousedown", (e) => { drag = { x: e.clientX, t0, t1 }; });
    window.addEventListener("mouseup", () => { drag = null; });
    window.addEventListener("mousemove", (e) => {
      if (!drag) return;
      const dt = (e.clientX - drag.x) / runWidth * (drag.t1 - drag.t0);
      t0 = drag.t0 - dt; t1 = drag.t1 - dt; redraw();
    });
    $("fit").addEventListener("click", () => { t0 = 0; t1 = span; redraw(); });
    window.addEventListener("resize", redraw);

    // The sequence view: one column per shown event, drawn 200 columns at a time where it is scrolled to.
    const seq = $("seq"), inner = $("seqinner");
    const strip = el("div", "lbl strip-lbl"), namesLabel = el("div", "lbl", "names");
    strip.title = "applicationState";
    namesLabel.style.height = NAMES + "px";
    $("sqlabels").append(strip, ...markLanes.map((l) => { const label = el("div", "lbl", l.title); label.title = l.title; return label; }), namesLabel);
    inner.style.height = (STRIP + markLanes.length * LANE + NAMES) + "px";
    let drawn = new Map();
    function drawChunk(c) {
      const from = c * CHUNK, to = Math.min(shown.length, from + CHUNK), div = el("div", "chunk");
      for (let k = from; k < to; k++) {
        const i = shown[k], x = (k - from) * COL, m = mark(i, x + 2, 12, 1), name = el("div", "vname" + (rows[i][FLAG] ? " flag" : ""), signature(rows[i]));
        m.style.top = (STRIP + markLaneIndex.get(rowLane[i]) * LANE) + "px";
        name.style.left = x + "px";
        name.style.top = (STRIP + markLanes.length * LANE) + "px";
        const state = el("div", "strip s-" + rowState[i]);
        state.style.left = x + "px";
        div.append(state, m, name);
      }
      div.style.left = from * COL + "px";
      div.dataset.first = from;
      div.dataset.last = to - 1;
      inner.appendChild(div);
      return div;
    }
    function drawSequence() {
      const first = Math.floor(seq.scrollLeft / COL / CHUNK), last = Math.floor((seq.scrollLeft + seq.clientWidth) / COL / CHUNK);
      for (const [c, div] of drawn) if (c < first - 1 || c > last + 1) { div.remove(); drawn.delete(c); }
      for (let c = first; c <= last && c * CHUNK < shown.length; c++) if (!drawn.has(c)) drawn.set(c, drawChunk(c));
    }
    function resetSequence() {
      for (const div of drawn.values()) div.remove();
      drawn = new Map();
      inner.style.width = Math.max(1, shown.length * COL) + "px";
      seq.scrollLeft = 0;
      drawSequence();
    }
    seq.addEventListener("scroll", drawSequence);

    // Search: marks whose name (or signature) contains the text.
    $("search").addEventListener("input", (e) => {
      const q = e.target.value.trim().toLowerCase();
      shown = [];
      for (let i = 0; i < rows.length; i++) if (!q || signature(rows[i]).toLowerCase().includes(q)) shown.push(i);
      $("count").textContent = shown.length + " of " + rows.length + " marks";
      resetSequence();
      drawTime();
    });

    // Details of a mark, on hover or click.
    function rowIndex(s) {
      let lo = 0, hi = rows.length - 1;
      while (lo <= hi) { const mid = (lo + hi) >> 1; if (rows[mid][SEQ] === s) return mid; if (rows[mid][SEQ] < s) lo = mid + 1; else hi = mid - 1; }
      return -1;
    }
    let pinned = null;
    function show(el) {
      const i = rowIndex(Number(el.dataset.seq));
      if (i < 0) return;
      const r = rows[i], args = JSON.parse(r[DETAILS]);
      const lines = [signature(r), "kind: " + r[KIND] + (r[FLAG] ? " (flag)" : ""), "seq: " + r[SEQ], "virtual time: " + secs(r[T])];
      if (r[DUR] !== null) lines.push("duration: " + secs(r[DUR]) + (r[KILLED] ? " (killed)" : ""));
      if (r[DEPTH] !== null) lines.push("depth: " + r[DEPTH]);
      if (r[AT]) lines.push("at: " + r[AT]);
      if (Object.keys(args).length) lines.push("arguments: " + JSON.stringify(args, null, 1));
      const merged = Number(el.dataset.count || 1);
      if (merged > 1) lines.push("(and " + (merged - 1) + " more marks here; zoom in)");
      $("details").textContent = lines.join("\n");
    }
    document.addEventListener("mouseover", (e) => { const m = e.target.closest("[data-seq]"); if (m && !pinned) show(m); });
    document.addEventListener("click", (e) => {
      const m = e.target.closest("[data-seq]");
      if (pinned) pinned.classList.remove("sel");
      pinned = m;
      if (m) { m.classList.add("sel"); show(m); }
    });

    $("count").textContent = rows.length + " marks";
    drawTime();
    resetSequence();
    // How long the page took to be ready, from the start of its navigation (the tests read it).
    document.body.dataset.readyMs = Math.round(performance.now());
    document.body.dataset.ready = "1";
    })();
    """#
}
