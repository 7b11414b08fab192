import EventStore
import Foundation
import JSON
import Testing

/// Once an app has had two scenes at once, the chrome trace and the Mermaid diagram group each
/// scene's delegate and controllers under it. No verb connects a second scene yet, so the log is
/// written here event by event, under the header of a real run.
@Suite struct SceneTrackExportTests {
  private func field(_ k: String, _ v: String) -> (String, JSONValue) { (k, .string(v)) }

  /// The events of a launch that connects two scenes, each with its root, as the log spells them.
  private var twoSceneEvents: [(EventKind, [(String, JSONValue)])] {
    func callback(_ name: String, _ target: String) -> [(EventKind, [(String, JSONValue)])] {
      [(.callback, [field("name", name), field("target", target), ("handled", .bool(true)), ("depth", .int(0))]),
       (.return, [field("name", name), field("target", target), ("used_us", .int(0)), ("depth", .int(0))])]
    }
    func root(_ controller: String, scene: String?) -> (EventKind, [(String, JSONValue)]) {
      (.transition, [field("name", "rootViewController"), field("container", "navigation"), ("navigation", .bool(true)),
                     ("targets", .array([.string(controller)]))] + (scene.map { [field("scene", $0)] } ?? []))
    }
    return [
      (.system, [field("name", "launchProcess"), field("mode", "foreground"), field("state", "inactive")]),
      (.transition, [field("name", "sceneConnected"), field("target", "Scene#1")]),
      root("List#1", scene: nil),
      (.transition, [field("name", "sceneConnected"), field("target", "Scene#2")]),
      root("List#2", scene: "Scene#2"),
    ] + callback("viewDidLoad()", "List#1") + callback("viewDidLoad()", "List#2")
      + callback("sceneDidBecomeActive(_:)", "SceneDelegate") + [
      (.transition, [field("name", "activationState"), field("target", "Scene#1"), field("from", "unattached"),
                     field("to", "foregroundActive")]),
    ]
  }

  /// After the launch: both scenes active, the application too, then `home()`.
  private var bothActiveThenHome: [(EventKind, [(String, JSONValue)])] {
    [(.transition, [field("name", "activationState"), field("target", "Scene#2"), field("from", "unattached"),
                    field("to", "foregroundActive")]),
     (.transition, [field("name", "applicationState"), field("from", "inactive"), field("to", "active")]),
     (.input, [field("name", "home")])]
  }

  private func twoSceneLog(_ name: String, then more: [(EventKind, [(String, JSONValue)])] = []) throws -> String {
    let real = temp(name + "-real.lifelog"), log = temp(name + ".lifelog")
    _ = try lifesim(["run", "Scripts/scenarios/home_and_return.lua", "-o", real, "-q", "--force"])
    let reader = try LogReader(path: real)
    guard case let .complete(trailer) = try reader.drain() else { throw CocoaError(.fileReadCorruptFile) }
    let writer = try LogWriter(path: log, header: reader.header, options: .init(overwrite: true))
    for (i, (kind, fields)) in (twoSceneEvents + more).enumerated() {
      _ = try writer.append(LogEvent(seq: Int64(i + 1), t: Int64(i) * 1_000, kind: kind, fields: fields))
    }
    try writer.finish(outcome: trailer.outcome)
    return log
  }

  @Test func theChromeTraceDrawsATrackGroupPerScene() throws {
    let r = try lifesim(["export", try twoSceneLog("scene-tracks-chrome"), "--format", "chrome-trace"])
    #expect(r.status == 0, "\(r.err)")
    let names = r.out.split(separator: "\n").compactMap { line -> String? in
      guard line.contains(#""name":"thread_name""#), let start = line.range(of: #""args":{"name":""#) else { return nil }
      return String(line[start.upperBound...].prefix { $0 != "\"" })
    }
    #expect(names == ["System", "App state", "AppDelegate", "SceneDelegate", "Background tasks",
                      "Scene#1 List#1", "Scene#2 List#2", "Scene#2 SceneDelegate", "Scene#1 SceneDelegate"])
  }

  @Test func theMermaidDiagramHasAParticipantPerScene() throws {
    let r = try lifesim(["export", try twoSceneLog("scene-tracks-mermaid"), "--format", "mermaid"])
    #expect(r.status == 0, "\(r.err)")
    #expect(r.out.contains("""
        participant Scene_1_List_1 as Scene#35;1 List#35;1
        participant Scene_2_List_2 as Scene#35;2 List#35;2
        participant Scene_2_SceneDelegate as Scene#35;2 SceneDelegate
        UIKit->>Scene_1_List_1: viewDidLoad()
        UIKit->>Scene_2_List_2: viewDidLoad()
        UIKit->>Scene_2_SceneDelegate: sceneDidBecomeActive(_:)
      """), "\(r.out)")
  }

  /// The `tables` export names each event's scene once a run has had two; one-scene runs write
  /// no `scene` key (their lines keep their bytes) and read it as null.
  @Test func theTablesNameEachEventsScene() throws {
    let dir = temp("scene-tables")
    try? FileManager.default.removeItem(atPath: dir)
    let r = try lifesim(["export", try twoSceneLog("scene-tables"), "--format", "tables", "-o", dir])
    #expect(r.status == 0, "\(r.err)")
    let lines = try String(contentsOfFile: dir + "/events.jsonl", encoding: .utf8).split(separator: "\n")
    let scenes = lines.map { line -> String in
      guard let start = line.range(of: #""scene":"#) else { return "-" }
      return String(line[start.upperBound...].prefix { $0 != "," && $0 != "}" })
    }
    #expect(scenes == ["null", "\"Scene#1\"", "\"Scene#1\"", "\"Scene#2\"", "\"Scene#2\"", "\"Scene#1\"", "\"Scene#1\"",
                       "\"Scene#2\"", "\"Scene#2\"", "\"Scene#2\"", "\"Scene#2\"", "\"Scene#1\""])
    let one = temp("scene-tables-one")
    try? FileManager.default.removeItem(atPath: one)
    #expect(try lifesim(["export", try recordedRun("scene-tables-one.lifelog"), "--format", "tables", "-o", one]).status == 0)
    #expect(try !String(contentsOfFile: one + "/events.jsonl", encoding: .utf8).contains(#""scene""#))
    guard duckdbReady else { return }
    let query = try pythonScript("query_tables.py", [dir, repositoryRoot.appendingPathComponent("docs/analytics.md").path, "Callbacks per scene"])
    #expect(query.status == 0, "\(query.err)")
    #expect(query.out == """
      ["home_and_return", "Scene#1", "List", "viewDidLoad()", 1]
      ["home_and_return", "Scene#2", "List", "viewDidLoad()", 1]
      ["home_and_return", "Scene#2", "SceneDelegate", "sceneDidBecomeActive(_:)", 1]

      """)
  }

  /// `coverage` counts an input once for each connected scene, with that scene's own state,
  /// once a log has had two scenes; a one-scene log's report has no such lines.
  @Test func coverageCountsTransitionsPerScene() throws {
    let log = try twoSceneLog("scene-coverage", then: bothActiveThenHome)
    let json = try lifesim(["coverage", log, "--json"])
    #expect(json.status == 0, "\(json.err)")
    #expect(json.out.contains(#""scenes":{"Scene#1":["active/foregroundActive/home"],"Scene#2":["active/foregroundActive/home"]}"#), "\(json.out)")
    let text = try lifesim(["coverage", log])
    #expect(text.out.contains(" transitions covered, 2 callbacks delivered\n  Scene#1: 1 of "), "\(text.out)")
    #expect(text.out.contains(" transitions covered\n  Scene#2: 1 of "), "\(text.out)")
    let one = try lifesim(["coverage", try recordedRun("scene-coverage-one.lifelog"), "--json"])
    #expect(one.status == 0 && !one.out.contains(#""scenes""#), "\(one.out)")
  }

  /// `diff` of two runs that push the same controller in different scenes: each line names its
  /// scene, so the two are not paired as one event that changed a field.
  @Test func diffKeepsEachScenesLinesApart() throws {
    func push(in scene: String) -> [(EventKind, [(String, JSONValue)])] {
      [(.transition, [field("name", "push"), field("target", "Detail#1"), field("scene", scene)])]
    }
    let a = try twoSceneLog("scene-diff-a", then: push(in: "Scene#1")), b = try twoSceneLog("scene-diff-b", then: push(in: "Scene#2"))
    let r = try lifesim(["diff", a, b, "--context", "0"])
    #expect(r.status == 1, "\(r.err)")
    #expect(r.out.contains("""
      @@ -13,1 +13,1 @@
      -     0.012000   ◆ push Detail#1 in Scene#1
      +     0.012000   ◆ push Detail#1 in Scene#2
      First divergence: event 13 of A, event 13 of B, at t = 0.012000 s.

      """), "\(r.out)")
  }

  /// The HTML timeline draws one group of lanes per scene (its state, its scene delegate's
  /// marks, its controllers), opened in headless Chromium; a one-scene page keeps its program.
  @Test(.enabled(if: browserReady, "needs /usr/bin/chromium and Python's playwright"))
  func theTimelineGroupsItsLanesPerScene() throws {
    let html = temp("scene-timeline.html")
    let r = try lifesim(["export", try twoSceneLog("scene-timeline"), "--format", "html", "-o", html, "--force"])
    #expect(r.status == 0, "\(r.err)")
    let view = try pythonScript("time_view.py", [html])
    #expect(view.status == 0, "\(view.err)")
    let titles = view.out.components(separatedBy: #"": {"bands": "#).dropLast().map { $0.components(separatedBy: "\"").last ?? "" }
    #expect(titles == ["process", "applicationState", "Scene#1 state", "Scene#1 SceneDelegate", "Scene#1 List#1",
                       "Scene#2 state", "Scene#2 SceneDelegate", "Scene#2 List#2", "background time left", "background tasks",
                       "inputs", "system, expectations, notes", "\\u2691 kills, crashes, failures", "AppDelegate", "SceneDelegate",
                       "handlers (tasks, after, completions)", "app calls", "notifications"], "\(view.out)")
    #expect(view.out.contains(#""Scene#2 SceneDelegate": {"bands": [], "marks": [[10, "#), "\(view.out)")
    let one = try recordedRun("scene-timeline-one.lifelog")
    let onePage = try lifesim(["export", one, "--format", "html"])
    #expect(onePage.out.contains("const SCENE") == false && r.status == 0)
    #expect(try String(contentsOfFile: html, encoding: .utf8).contains("const SCENE = 11;"))
  }

  /// A real two-window run (the bundled iPad draft): a scene-delegate call names the scene it is
  /// for, and its return takes the call's scene, also for the window that is not frontmost; the
  /// trace names it.
  @Test func theTablesTakeACallbacksSceneFromTheCallNotFromTheFrontWindow() throws {
    let dir = temp("scene-tables-ipad")
    try? FileManager.default.removeItem(atPath: dir)
    let log = temp("scene-tables-ipad.lifelog")
    try? FileManager.default.removeItem(atPath: log)
    let scenario = repositoryRoot.appendingPathComponent("Scripts/scenarios/ipad_draft_per_scene.lua").path
    #expect(try lifesim(["run", scenario, "-o", log, "-q"]).status == 0)
    #expect(try lifesim(["export", log, "--format", "tables", "-o", dir]).status == 0)
    let rows = try String(contentsOfFile: dir + "/events.jsonl", encoding: .utf8).split(separator: "\n").compactMap { line -> String? in
      guard line.contains(#""event_name":"sceneDidEnterBackground(_:)""#), let s = line.range(of: #""scene":"#) else { return nil }
      let kind = line.contains(#""kind":"return""#) ? "return" : "callback"
      return kind + " " + line[s.upperBound...].prefix { $0 != "," && $0 != "}" }
    }
    // The second window opens full screen and sends the first (not frontmost) to the background;
    // home takes the second; back in the app, focus(1) sends the second away again.
    #expect(rows == [#"callback "Scene#1""#, #"return "Scene#1""#, #"callback "Scene#2""#, #"return "Scene#2""#,
                     #"callback "Scene#2""#, #"return "Scene#2""#])
    // The trace says which window a scene-delegate call is for.
    let trace = try lifesim(["replay", log])
    #expect(trace.out.contains("→ SceneDelegate.sceneDidEnterBackground(_:) in Scene#1\n"), "\(trace.out)")
    // Mermaid and the chrome trace draw each call on its own scene's delegate.
    let mermaid = try lifesim(["export", log, "--format", "mermaid"]).out.split(separator: "\n")
      .filter { $0.hasSuffix(": sceneDidEnterBackground(_:)") }.map { $0.trimmingCharacters(in: .whitespaces) }
    #expect(mermaid == ["UIKit->>Scene_1_SceneDelegate: sceneDidEnterBackground(_:)", "UIKit->>Scene_2_SceneDelegate: sceneDidEnterBackground(_:)",
                        "UIKit->>Scene_2_SceneDelegate: sceneDidEnterBackground(_:)"])
    let chrome = try lifesim(["export", log, "--format", "chrome-trace"]).out
    let object = try JSONSerialization.jsonObject(with: Data(chrome.utf8)) as? [String: Any]
    let events = object?["traceEvents"] as? [[String: Any]] ?? []
    var threads: [Int: String] = [:]
    for e in events where e["name"] as? String == "thread_name" {
      threads[e["tid"] as? Int ?? -1] = (e["args"] as? [String: Any])?["name"] as? String
    }
    let tracks = events.filter { $0["name"] as? String == "sceneDidEnterBackground(_:)" }.map { threads[$0["tid"] as? Int ?? -1] ?? "?" }
    #expect(tracks == ["Scene#1 SceneDelegate", "Scene#2 SceneDelegate", "Scene#2 SceneDelegate"])
  }
}
