import Foundation
import Testing
import TestSupport

/// Issue 13, items 9 and 10: diff shows what its text would hide (fields, headers, time
/// shifts); exports show the background countdown, `%`, and `log` text as they are.
@Suite(.serialized) struct DiffAndExportTruthTests {
  private func write(_ text: String, _ name: String) throws -> String {
    let path = temp(name)
    try text.write(toFile: path, atomically: false, encoding: .utf8)
    return path
  }

  private func run(_ scenario: String, app: String, _ name: String) throws -> String {
    let log = temp(name)
    let r = try lifesim(["run", scenario, "--app", app, "-o", log, "-q"])
    #expect(r.status == 0, "\(r.err)")
    return log
  }

  /// Two runs of a scenario (its text): app A leaves sceneWillResignActive unhandled, app B handles it.
  private func runsWithAndWithoutResign(_ text: String, _ name: String) throws -> (scenario: String, plain: String, resign: String, a: String, b: String) {
    let scenario = try write(text, "\(name).lua")
    let plain = try write("app { root = \"Home\" }\ncontroller \"Home\" {}\n", "\(name)-plain-app.lua")
    let resign = try write("app { root = \"Home\" }\ncontroller \"Home\" {}\nfunction SceneDelegate.sceneWillResignActive(scene) end\n", "\(name)-resign-app.lua")
    return (scenario, plain, resign, try run(scenario, app: plain, "\(name)-a.lifelog"), try run(scenario, app: resign, "\(name)-b.lifelog"))
  }

  @Test func eventsThatReadTheSameShowTheFieldThatDiffers() throws {
    let (scenario, plain, resign, a, b) = try runsWithAndWithoutResign("launch()\nhome()\n", "hidden")
    let r = try lifesim(["diff", a, b, "--context", "1"], env: ["NO_COLOR": "1"])
    #expect(r.status == 1)
    #expect(r.out.hasPrefix("""
      --- \(a)
      +++ \(b)
      The runs were set up differently:
        app  \(plain) (fbdd99c186cc) → \(resign) (493738ef3747)
      @@ -30,3 +30,4 @@
            0.000000 ▶ home  \(scenario):2
      -     0.000000     → SceneDelegate.sceneWillResignActive(_:)  [handled: false]
      +     0.000000     → SceneDelegate.sceneWillResignActive(_:)  [handled: true]
      +     0.000000     ← SceneDelegate.sceneWillResignActive(_:) after 0.000000 s
            0.000000     ✉ UIScene.willDeactivateNotification
      First divergence: event 31 of A, event 31 of B, at t = 0.000000 s.
        A: 0.000000     → SceneDelegate.sceneWillResignActive(_:)  [handled: false]
        B: 0.000000     → SceneDelegate.sceneWillResignActive(_:)  [handled: true]

      """))
  }

  @Test func aHunkThatRecursAtOtherTimesIsPrintedWithItsOwnTimes() throws {
    // The second and third hunks repeat the first at other times (diff renders them from the
    // first with the times put back): each shows its own times, event numbers and notes.
    let (scenario, _, _, a, b) = try runsWithAndWithoutResign("launch()\nfor i = 1, 3 do\n  home()\n  advance(60)\n  launch()\nend\n", "recurring")
    let r = try lifesim(["diff", a, b, "--context", "1"], env: ["NO_COLOR": "1"])
    #expect(r.status == 1)
    let hunks = r.out.components(separatedBy: "@@ -").dropFirst().map { "@@ -" + $0 }
    #expect(hunks.count == 3)
    #expect(hunks.first == """
      @@ -30,3 +30,4 @@
            0.000000 ▶ home  \(scenario):3
      -     0.000000     → SceneDelegate.sceneWillResignActive(_:)  [handled: false]
      +     0.000000     → SceneDelegate.sceneWillResignActive(_:)  [handled: true]
      +     0.000000     ← SceneDelegate.sceneWillResignActive(_:) after 0.000000 s
            0.000000     ✉ UIScene.willDeactivateNotification

      """)
    // The others: the same lines at their own times and places.
    func recurring(at time: String, _ header: String) -> String {
      (hunks.first ?? "").replacingOccurrences(of: "    0.000000", with: time).replacingOccurrences(of: "@@ -30,3 +30,4 @@", with: header)
    }
    #expect(hunks.dropFirst().first == recurring(at: "   60.000000", "@@ -58,3 +59,4 @@"))
    #expect(hunks.last?.hasPrefix(recurring(at: "  120.000000", "@@ -86,3 +88,4 @@") + "First divergence: event 31 of A") == true)
  }

  @Test func headerDifferencesComeFirst() throws {
    let a = try recordedRun("header-a.lifelog", scenario: "Scripts/scenarios/cold_launch.lua")
    let b = try recordedRun("header-b.lifelog", scenario: "Scripts/scenarios/cold_launch.lua", extra: ["--ios", "15", "--seed", "3"])
    let r = try lifesim(["diff", a, b], env: ["NO_COLOR": "1"])
    #expect(r.out.hasPrefix("--- \(a)\n+++ \(b)\nThe runs were set up differently:\n  seed  1 → 3\n  ios   17 → 15\n"))
    let json = try lifesim(["diff", a, b, "--json"])
    let first = json.out.split(separator: "\n").first.map(String.init) ?? ""
    #expect(first == #"{"kind":"header","differs":[{"field":"seed","a":1,"b":3},{"field":"ios","a":17,"b":15}]}"#)
    #expect(try lifesim(["diff", a, a]).out.contains("set up differently") == false)
    // Scenes are named once (the header and its profile both hold them).
    let c = try recordedRun("header-c.lifelog", scenario: "Scripts/scenarios/cold_launch.lua", extra: ["--ios", "12", "--no-scenes"])
    let twelve = try lifesim(["diff", a, c], env: ["NO_COLOR": "1"])
    #expect(twelve.out.components(separatedBy: "\n  scenes ").count == 2)
    #expect(twelve.out.contains("\n  backgroundTaskAllowance_us  30000000 → 180000000\n"))
  }

  @Test func aTimeShiftIsNamedAndPointsToIgnoreTime() throws {
    let app = try write("app { root = \"Home\" }\ncontroller \"Home\" {}\n", "shift-app.lua")
    let one = try write("launch()\nadvance(1)\nhome()\nadvance(5)\nlaunch()\nhome()\n", "shift-1.lua")
    let two = try write("launch()\nadvance(2)\nhome()\nadvance(5)\nlaunch()\nhome()\n", "shift-2.lua")
    let a = try run(one, app: app, "shift-a.lifelog"), b = try run(two, app: app, "shift-b.lifelog")
    let r = try lifesim(["diff", a, b], env: ["NO_COLOR": "1"])
    #expect(r.status == 1)
    #expect(r.out.contains("\nNote: from event 30 of A, 43 of the 45 events that differ appear in B at other times (a time shift); --ignore-time compares events without their time.\nFirst divergence: event 30 of A"))
    let ignoring = try lifesim(["diff", a, b, "--ignore-time"], env: ["NO_COLOR": "1"])
    #expect(!ignoring.out.contains("Note: "))
    // Without time, only the advance itself differs, and the last event: each scenario's
    // no_expectations diagnostic names its own file. Two hunks of one event each side.
    #expect(ignoring.out.components(separatedBy: "\n@@ ").count == 3)
    #expect(ignoring.out.contains("@@ -27,7 +27,7 @@\n"))
    #expect(ignoring.out.contains("\n-     0.000000 ▶ advance 1.000000 s  \(one):2\n+     0.000000 ▶ advance 2.000000 s  \(two):2\n"))
  }

  @Test func theChromeTraceCounterCountsDownToTheExpiration() throws {
    let app = try write("""
      app { root = "Home" }
      controller "Home" {}
      function SceneDelegate.sceneDidEnterBackground(scene)
        log("100%% done %% really")
        UIApplication.shared:beginBackgroundTask("upload", function() end)
      end

      """, "countdown-app.lua")
    let scenario = try write("launch()\nhome()\nadvance(40)\nexpect_terminated(\"background_task_expired\")\n", "countdown.lua")
    let log = temp("countdown.lifelog")
    #expect(try lifesim(["run", scenario, "--app", app, "-o", log, "-q"]).status == 0)
    let r = try lifesim(["export", log, "--format", "chrome-trace", "--clock", "virtual"])
    let object = try JSONSerialization.jsonObject(with: Data(r.out.utf8)) as? [String: Any]
    let samples = (object?["traceEvents"] as? [[String: Any]] ?? []).filter { $0["ph"] as? String == "C" }.compactMap { e -> (Int, Double)? in
      guard let ts = e["ts"] as? Int, let s = (e["args"] as? [String: Any])?["seconds"] as? Double else { return nil }
      return (ts, s)
    }
    // Home at t = 0: 30 s left, one sample a second, 5 s left where the expiration handler runs, 0 at the kill.
    let background = samples.filter { $0.0 > 0 }
    #expect(background.map(\.0) == (1...30).map { $0 * 1_000_000 })
    #expect(background.map(\.1) == (1...30).map { Double(30 - $0) })
    #expect(samples.allSatisfy { $0.1 <= 30 })

    let mermaid = try lifesim(["export", log, "--format", "mermaid"])
    #expect(mermaid.out.contains("\n  Note right of UIKit: log: 100#37;#37; done #37;#37; really\n"))
    #expect(!mermaid.out.contains("%% done"))
  }
}
