import Foundation
import Testing
import TestSupport

@Suite(.serialized) struct CLITests {
  @Test func everyBundledScenarioPassesAndVerifies() throws {
    for scenario in try bundledScenarios() {
      let log = temp(URL(fileURLWithPath: scenario).lastPathComponent + ".lifelog")
      let run = try lifesim(["run", scenario, "-o", log, "--quiet"])
      #expect(run.status == 0, "\(scenario): \(run.out) \(run.err)")
      let verify = try lifesim(["verify", log])
      #expect(verify.status == 0 && verify.out.contains("intact and complete"), "\(scenario)")
      let replay = try lifesim(["replay", log, "--verify"])
      #expect(replay.status == 0, "\(scenario): \(replay.out)")
    }
  }

  @Test func sameScriptsSameSeedSameBytesInFiveProcesses() throws {
    var logs: [Data] = []
    for i in 0..<5 {
      let log = temp("det-\(i).lifelog")
      // Different environments and hashing seeds in each process.
      let r = try lifesim(["run", "Scripts/scenarios/determinism.lua", "-o", log, "--quiet"],
                          env: ["LIFESIM_TEST_NOISE": String(repeating: "x", count: i * 97), "TZ": i % 2 == 0 ? "UTC" : "Asia/Tokyo"])
      #expect(r.status == 0, "\(r.err)")
      logs.append(try Data(contentsOf: URL(fileURLWithPath: log)))
    }
    #expect(Set(logs).count == 1)
    let text = String(decoding: logs[0], as: UTF8.self)
    #expect(text.contains("table#1"))
    #expect(!text.contains("0x"))
  }

  @Test func outputIsNeverSilentlyOverwritten() throws {
    let log = temp("keep.lifelog")
    #expect(try lifesim(["run", "Scripts/scenarios/cold_launch.lua", "-o", log, "-q"]).status == 0)
    let before = try Data(contentsOf: URL(fileURLWithPath: log))
    let again = try lifesim(["run", "Scripts/scenarios/cold_launch.lua", "-o", log, "-q"])
    #expect(again.status == 2)
    #expect(again.err == "lifesim: \(log): already exists; refusing to overwrite it (pass --force to replace it)\n")
    #expect(try Data(contentsOf: URL(fileURLWithPath: log)) == before)
    #expect(try lifesim(["run", "Scripts/scenarios/cold_launch.lua", "-o", log, "-q", "--force"]).status == 0)
  }

  @Test func tamperedLogIsNamedByLine() throws {
    let log = temp("tamper.lifelog")
    _ = try lifesim(["run", "Scripts/scenarios/home_and_return.lua", "-o", log, "-q"])
    var lines = try String(contentsOfFile: log, encoding: .utf8).components(separatedBy: "\n")
    lines[4] = lines[4].replacingOccurrences(of: "\"t\":0", with: "\"t\":1")
    try lines.joined(separator: "\n").write(toFile: log, atomically: true, encoding: .utf8)
    let r = try lifesim(["verify", log])
    #expect(r.status == 1)
    #expect(r.out == "\(log): line 5: hash chain broken\n")
    // replay --verify re-hashes the recording as it re-runs it: trouble, not a divergence.
    let replay = try lifesim(["replay", log, "--verify"])
    #expect(replay.status == 2)
    #expect(replay.err == "lifesim: \(log): line 5: hash chain broken\n")
  }

  @Test func scriptErrorsNameFileAndLineAndKeepTheLog() throws {
    let scenario = temp("bad.lua")
    try "launch()\nunlock()\n".write(toFile: scenario, atomically: true, encoding: .utf8)
    let log = temp("bad.lifelog")
    let r = try lifesim(["run", scenario, "-o", log, "-q"])
    #expect(r.status == 2)
    #expect(r.err == "lifesim: \(scenario):2: unlock(): the device is not locked (state: active)\n")
    #expect(try lifesim(["verify", log]).status == 0)
  }

  @Test func unknownHandlerNamesTheNearestOne() throws {
    let app = temp("typo.lua")
    try "app { root = \"Home\" }\ncontroller \"Home\" {}\nfunction AppDelegate.applicationDidEnterBackgroud(a)\nend\n"
      .write(toFile: app, atomically: true, encoding: .utf8)
    let log = temp("typo.lifelog")
    try? FileManager.default.removeItem(atPath: log)
    let r = try lifesim(["run", "Scripts/scenarios/cold_launch.lua", "--app", app, "-o", log])
    #expect(r.status == 2)
    // A script error before the run starts: no trace, no outcome, no crash, no log.
    #expect(r.out == "")
    #expect(r.err == "lifesim: \(app):3: AppDelegate has no handler \"applicationDidEnterBackgroud\" (did you mean applicationDidEnterBackground?)\n")
    #expect(!FileManager.default.fileExists(atPath: log))
  }

  @Test func overrunAppDepartsFromTheWellBehavedOne() throws {
    let log = temp("notes.lifelog")
    _ = try lifesim(["run", "Scripts/scenarios/home_and_return.lua", "-o", log, "-q"])
    let r = try lifesim(["replay", log, "--app", "Scripts/apps/overrun.lua"])
    #expect(r.status == 1)
    // Both apps save the draft alike; where notes.lua returns from sceneDidEnterBackground,
    // overrun.lua starts a 6 s upload instead.
    #expect(r.out.hasPrefix("Departs at event 48 (t = 0.500000 s):"))
    #expect(r.out.contains(#"  recorded:  {"seq":48,"t":500000,"kind":"return","name":"sceneDidEnterBackground(_:)","target":"SceneDelegate","used_us":500000,"depth":0}"#))
    #expect(r.out.contains(#"  this run:  {"seq":48,"t":500000,"kind":"call","name":"work","duration_us":6000000,"at":"Scripts/apps/notes.lua:29"}"#))
    #expect(r.out.contains("  produced by: Scripts/apps/notes.lua:29"))
  }

  @Test func helpAndVersion() throws {
    #expect(try lifesim(["--version"]).out == "0.4.0\n")
    for cmd in ["run", "replay", "verify", "diff", "export"] {
      let h = try lifesim([cmd, "--help"])
      #expect(h.out.contains("Example"), "\(cmd)")
    }
  }

  /// The discussions wrap at the terminal's width, not at the source's: a line of prose that
  /// the next line of the same paragraph continues is a full line, whatever the command.
  @Test func helpProseWrapsAtTheTerminalWidth() throws {
    for cmd in ["run", "test", "replay", "verify", "diff", "export", "explore", "coverage", "profile", "init"] {
      let help = try lifesim(["help", cmd]).out
      let discussion = help.components(separatedBy: "USAGE:")[0].split(separator: "\n", omittingEmptySubsequences: false)
      for (line, next) in zip(discussion, discussion.dropFirst()) {
        let prose = { (l: Substring) in !l.isEmpty && !l.hasPrefix(" ") && l.range(of: #"^[a-z-]+: "#, options: .regularExpression) == nil }
        guard !line.isEmpty, !line.hasPrefix(" "), prose(next) else { continue }
        #expect(line.count >= 50, "lifesim help \(cmd): a short line in a paragraph: \"\(line)\"")
      }
    }
  }

  @Test func aMisspelledCommandGetsASuggestion() throws {
    let r = try lifesim(["rn", "s.lua"])
    #expect(r.status == 2)
    #expect(r.err == "lifesim: unknown command 'rn' (did you mean 'run'?)\nUsage: run 'lifesim --help' (or 'lifesim COMMAND --help') for the options and examples.\n", "\(r.err)")
    #expect(try lifesim(["exprt", "a.lifelog"]).err.hasPrefix("lifesim: unknown command 'exprt' (did you mean 'export'?)\n"))
  }
}

@Suite(.serialized) struct DiffAndExportTests {
  private func runs() throws -> (String, String) {
    let a = temp("notes-diff.lifelog"), b = temp("overrun-diff.lifelog")
    _ = try lifesim(["run", "Scripts/scenarios/home_and_return.lua", "-o", a, "-q"])
    _ = try lifesim(["run", "Scripts/scenarios/home_and_return.lua", "--app", "Scripts/apps/overrun.lua", "-o", b, "-q"])
    return (a, b)
  }

  @Test func diffOfARunWithItselfIsEmpty() throws {
    let (a, _) = try runs()
    let r = try lifesim(["diff", a, a])
    #expect(r.status == 0)
    #expect(r.out.contains("No difference in the events."))
  }

  @Test func diffOfOverrunAgainstNotesShowsTheKillAndTheOutcomes() throws {
    let (a, b) = try runs()
    let r = try lifesim(["diff", a, b, "--context", "2"], env: ["NO_COLOR": "1"])
    #expect(r.status == 1)
    #expect(r.out.contains("""
      First divergence: event 48 of A, event 48 of B, at t = 0.500000 s.
        A: 0.500000     ← SceneDelegate.sceneDidEnterBackground(_:) after 0.500000 s
        B: 0.500000       · work 6.000000 s  (Scripts/apps/notes.lua:29)

      """))
    #expect(r.out.contains("""
      @@ -46,27 +46,42 @@
            0.000000       · work 0.500000 s
            0.500000       · endBackgroundTask 1
      -     0.500000     ← SceneDelegate.sceneDidEnterBackground(_:) after 0.500000 s
      """))
    #expect(r.out.contains("+     0.500000       · work 6.000000 s\n+     5.000000   ✖ terminated: watchdog 0x8badf00d"))
    let row = r.out.split(separator: "\n").first { $0.hasPrefix("terminations") }.map(String.init) ?? ""
    #expect(row.split(separator: " ", omittingEmptySubsequences: true) == ["terminations", "none", "watchdog", "0x8badf00d", "←", "differs"])
    let j = try lifesim(["diff", a, b, "--json"])
    let last = j.out.split(separator: "\n").last.map(String.init) ?? ""
    let object = try JSONSerialization.jsonObject(with: Data(last.utf8)) as? [String: Any]
    #expect(object?["same"] as? Bool == false)
    let first = object?["firstDivergence"] as? [String: Any]
    #expect(first?["a"] as? Int == 48)
    #expect((first?["aEvent"] as? [String: Any])?["kind"] as? String == "return")
    #expect((first?["bEvent"] as? [String: Any])?["duration_us"] as? Int == 6_000_000)
  }

  /// The issue's case in its own words: without scenes (iOS 12) the app delegate saves; the
  /// well-behaved app returns from applicationDidEnterBackground where the overrun one blocks.
  @Test func diffOfOverrunOnIOS12DivergesAtTheApplicationDidEnterBackgroundReturn() throws {
    let a = temp("notes-12.lifelog"), b = temp("overrun-12.lifelog")
    let scenario = "Scripts/scenarios/did_enter_background_overrun.lua"
    _ = try lifesim(["run", scenario, "--app", "Scripts/apps/notes.lua", "-o", a, "-q"])
    #expect(try lifesim(["run", scenario, "-o", b, "-q"]).status == 0)
    let r = try lifesim(["diff", a, b], env: ["NO_COLOR": "1"])
    #expect(r.status == 1)
    #expect(r.out.contains("""
      First divergence: event 30 of A, event 30 of B, at t = 0.500000 s.
        A: 0.500000     ← AppDelegate.applicationDidEnterBackground(_:) after 0.500000 s
        B: 0.500000       · work 6.000000 s  (Scripts/apps/notes.lua:29)
      Outcome       - \(a)  + \(b)
      final state   suspended\(String(repeating: " ", count: a.count - 5))not_running   ← differs
      """))
  }

  @Test func aDamagedLogIsTroubleNamingTheFileAndLine() throws {
    let (a, b) = try runs()
    var lines = try String(contentsOfFile: b, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
    lines.remove(at: 20)  // line 21, event 20, goes missing
    try lines.joined(separator: "\n").write(toFile: b, atomically: true, encoding: .utf8)
    let r = try lifesim(["diff", a, b])
    #expect(r.status == 2)
    #expect(r.err == "lifesim: \(b): line 21: expected event 20, found event 21\n")
  }

  @Test func diffTroubleIsExitTwo() throws {
    let r = try lifesim(["diff", "/nonexistent.lifelog", "/nonexistent.lifelog"])
    #expect(r.status == 2)
    #expect(r.err.hasPrefix("lifesim: /nonexistent.lifelog: cannot open: No such file or directory"))
  }

  @Test func chromeTraceIsValidTraceEventFormat() throws {
    let (_, b) = try runs()
    let r = try lifesim(["export", b, "--format", "chrome-trace", "--clock", "virtual"])
    #expect(r.status == 0)
    let object = try JSONSerialization.jsonObject(with: Data(r.out.utf8)) as? [String: Any]
    let events = object?["traceEvents"] as? [[String: Any]] ?? []
    #expect(!events.isEmpty)
    let pid = events.first?["pid"] as? Int
    for e in events {
      let ph = e["ph"] as? String
      #expect(["X", "i", "C", "M"].contains(ph ?? ""), "\(e)")
      #expect(e["pid"] as? Int == pid)
      if ph == "X" { #expect((e["dur"] as? Int ?? -1) >= 0 && e["ts"] is Int) }
    }
    let names = events.filter { $0["name"] as? String == "thread_name" }.compactMap { ($0["args"] as? [String: Any])?["name"] as? String }
    #expect(names.starts(with: ["System", "App state", "AppDelegate", "SceneDelegate", "Background tasks"]))
    #expect(events.contains { ($0["name"] as? String)?.hasPrefix("terminated: watchdog") == true && $0["ph"] as? String == "i" })
    #expect(events.contains { $0["name"] as? String == "sceneDidEnterBackground(_:)" && $0["dur"] as? Int == 5_000_000 })
  }

  @Test func mermaidOfEveryScenarioStartsWithSequenceDiagramAndFits() throws {
    for scenario in try bundledScenarios() {
      let log = temp("mm-" + URL(fileURLWithPath: scenario).lastPathComponent + ".lifelog")
      _ = try lifesim(["run", scenario, "-o", log, "-q"])
      let r = try lifesim(["export", log, "--format", "mermaid"])
      #expect(r.status == 0)
      #expect(r.out.hasPrefix("sequenceDiagram\n"), "\(scenario)")
      for part in r.out.components(separatedBy: "\n\nsequenceDiagram") { #expect(part.utf8.count < 50_000) }
    }
  }

  @Test func jsonlIsTheEventsWithoutHashes() throws {
    let (a, _) = try runs()
    let r = try lifesim(["export", a, "--format", "jsonl"])
    let lines = r.out.split(separator: "\n")
    #expect(lines.first == #"{"seq":1,"t":0,"kind":"input","name":"launch","at":"Scripts/scenarios/home_and_return.lua:5"}"#)
    #expect(!r.out.contains("\"h\":"))
    let out = temp("export.jsonl")
    #expect(try lifesim(["export", a, "--format", "jsonl", "-o", out]).status == 0)
    let again = try lifesim(["export", a, "--format", "jsonl", "-o", out])
    #expect(again.status == 2 && again.err.contains("already exists; refusing to overwrite it"))
  }
}

@Suite(.serialized) struct ErrorPathTests {
  @Test func unreadableLogsAreExitTwoWithTheirReason() throws {
    let empty = temp("empty.lifelog")
    FileManager.default.createFile(atPath: empty, contents: Data())
    for cmd in [["verify", empty], ["replay", empty], ["replay", empty, "--verify"], ["export", empty, "--format", "jsonl"]] {
      let r = try lifesim(cmd)
      #expect(r.status == 2, "\(cmd)")
      #expect(r.err == "lifesim: \(empty): empty file: not a lifesim log\n", "\(cmd)")
    }
    let missing = try lifesim(["replay", "/nonexistent.lifelog"])
    #expect(missing.status == 2 && missing.err == "lifesim: /nonexistent.lifelog: cannot open: No such file or directory\n")
  }

  @Test func cutOffLogVerifiesAsIncompleteAndReplaysItsPrefix() throws {
    let log = temp("cut.lifelog")
    _ = try lifesim(["run", "Scripts/scenarios/home_and_return.lua", "-o", log, "-q"])
    var data = try Data(contentsOf: URL(fileURLWithPath: log))
    let lines = data.split(separator: 0x0A)
    data = Data(lines.prefix(11).joined(separator: [0x0A]) + [0x0A] + lines[11].prefix(20))
    try data.write(to: URL(fileURLWithPath: log))
    let v = try lifesim(["verify", log])
    #expect(v.status == 1 && v.out == "\(log): cut off after event 10 (no trailer)\n")
    let r = try lifesim(["replay", log], env: ["NO_COLOR": "1"])
    #expect(r.status == 2 && r.err == "lifesim: \(log): the log ends without a trailer after event 10\n")
    #expect(r.out.hasSuffix(" after 10 events. Expectations: 0 passed, 0 failed. No termination. Nothing stored. Seed 1.\n"), "\(r.out)")
  }

  @Test func verifyCatchesAReExecutionThatDiverges() throws {
    // Rewrite the embedded app (notes.lua saves in 6 s instead of 0.5 s) and re-chain every
    // line, as a forger would: the log still verifies, but re-executing it diverges.
    let log = temp("forged.lifelog")
    _ = try lifesim(["run", "Scripts/scenarios/home_and_return.lua", "-o", log, "-q"])
    let script = """
    import hashlib, json, re, sys
    path = sys.argv[1]
    lines = open(path, encoding="utf-8").read().split("\\n")[:-1]
    prev, out = "", []
    for i, line in enumerate(lines):
        body = re.fullmatch(r'(.*),"h":"[0-9a-f]{64}"}', line).group(1) + "}"
        if i == 0:
            header = json.loads(body)
            for s in header["scripts"]:
                if s["role"] == "app":
                    s["source"] = s["source"].replace("SAVE_SECONDS or 0.5", "SAVE_SECONDS or 6")
                    s["sha256"] = hashlib.sha256(s["source"].encode()).hexdigest()
            body = json.dumps(header, separators=(",", ":"), ensure_ascii=False)
        h = hashlib.sha256((prev + body).encode()).hexdigest()
        out.append(body[:-1] + ',"h":"' + h + '"}')
        prev = h
    open(path, "w", encoding="utf-8").write("\\n".join(out) + "\\n")
    """
    let p = Process()
    p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    p.arguments = ["python3", "-c", script, log]
    try p.run()
    p.waitUntilExit()
    #expect(p.terminationStatus == 0)
    #expect(try lifesim(["verify", log]).status == 0)
    let r = try lifesim(["replay", log, "--verify"])
    #expect(r.status == 1)
    #expect(r.out.hasPrefix("Diverged at event 46 (t = 0.000000 s):\n"))
    #expect(r.out.contains("produced by: Scripts/apps/notes.lua:23"))
    let j = try lifesim(["replay", log, "--verify", "--json"])
    #expect(j.out.hasPrefix(#"{"kind":"end","command":"replay","status":1,"verdict":"diverged","events":"#))
    #expect(j.out.contains(#""divergence":{"seq":46,"t":0,"recorded":{"seq":46,"#))
  }

  @Test func anEndlessScenarioStopsWithItsLineAndKeepsTheLog() throws {
    let scenario = temp("endless.lua")
    try "launch()\nlocal n = 0\nwhile true do\n  n = n + 1\nend\n".write(toFile: scenario, atomically: true, encoding: .utf8)
    let log = temp("endless.lifelog")
    let r = try lifesim(["run", scenario, "-o", log, "-q"])
    #expect(r.status == 2)
    #expect(r.err.hasSuffix("lifesim: \(scenario):4: the scenario ran 500000000 instructions without calling a verb (an endless loop?)\n"))
    let v = try lifesim(["verify", log])
    #expect(v.status == 0)
  }

  @Test func usageErrorsAreExitTwo() throws {
    let r = try lifesim(["run", "Scripts/scenarios/cold_launch.lua", "--ios", "99"])
    #expect(r.status == 2)
    #expect(r.err.hasPrefix("lifesim: --ios must be a released iOS version (12 to 18, 26, or 27), not 99\n"))
    let unknown = try lifesim(["run"])
    #expect(unknown.status == 2 && unknown.err.hasPrefix("lifesim: Missing expected argument '<scenario>'"))
  }
}
