import Testing
import TestSupport

/// `diff` names, after each hunk's `@@ … @@`, the scenes its removed and added events belong to
/// (as `git diff` names a function there): a scene's own transitions, a scene-delegate call, a
/// view-controller event or callback by its window, an app call by the callback it is made in.
/// A run that never had two scenes at once names none, so its diff reads as it always has.
@Suite struct DiffSceneHeaderTests {
  private static let appA = """
    app { root = "Editor", container = "navigation", multipleScenes = true }
    controller "Editor" { actions = { open = function(vc) end } }
    controller "Detail" {}
    function SceneDelegate.sceneWillResignActive(scene) log("resign") end
    """

  /// Resigning logs another word, saving the restoration activity is handled, and the user's
  /// action pushes a controller.
  private static let appB = """
    app { root = "Editor", container = "navigation", multipleScenes = true }
    controller "Editor" { actions = { open = function(vc) push("Detail") end } }
    controller "Detail" {}
    function SceneDelegate.sceneWillResignActive(scene) log("resigned") end
    function SceneDelegate.stateRestorationActivity(scene) return nil end
    """

  /// Both runs of `verbs` on iPad, with app A and app B, then `lifesim diff --context 1` of them.
  private func diff(_ folder: String, _ verbs: String) throws -> (status: Int32, out: String, err: String) {
    let dir = try scriptFolder(folder, [
      "a.lua": Self.appA + "\n", "b.lua": Self.appB + "\n",
      "sa.lua": "scenario { app = \"a.lua\", device = \"ipad\" }\n" + verbs,
      "sb.lua": "scenario { app = \"b.lua\", device = \"ipad\" }\n" + verbs,
    ])
    _ = try lifesim(["run", "sa.lua", "-o", "a.lifelog", "-q"], cwd: dir)
    _ = try lifesim(["run", "sb.lua", "-o", "b.lifelog", "-q"], cwd: dir)
    return try lifesim(["diff", "a.lifelog", "b.lifelog", "--context", "1"], env: ["NO_COLOR": "1"], cwd: dir)
  }

  /// Before the second window opens nothing is named (the trace names no scene yet); after it,
  /// each hunk names its scenes, and the last one spans both.
  @Test func eachHunkOfARunWithTwoScenesNamesItsScenes() throws {
    let r = try diff("diff-scenes-two", "launch()\nhome()\nlaunch()\nopen_window()\nside_by_side(1, 2)\nact(\"open\")\nhome()\nexpect_state(\"suspended\")\n")
    #expect(r.status == 1)
    #expect(r.out == """
      --- a.lifelog
      +++ b.lifelog
      The runs were set up differently:
        scenario  sa.lua (40af639053eb) → sb.lua (d96245594a02)
        app       a.lua (f702965ff289) → b.lua (72ca2f297f3a)
      @@ -31,3 +31,3 @@
            0.000000     → SceneDelegate.sceneWillResignActive(_:)
      -     0.000000       · log resign
      +     0.000000       · log resigned
            0.000000     ← SceneDelegate.sceneWillResignActive(_:) after 0.000000 s
      @@ -37,3 +37,4 @@
            0.000000   ◆ applicationState active → inactive
      -     0.000000     → SceneDelegate.stateRestorationActivity(for:)  [handled: false]
      +     0.000000     → SceneDelegate.stateRestorationActivity(for:)  [handled: true]
      +     0.000000     ← SceneDelegate.stateRestorationActivity(for:) after 0.000000 s
            0.000000   ◆ Scene#1 foregroundInactive → background
      @@ -80,3 +81,3 @@ Scene#1
            0.000000     → SceneDelegate.sceneWillResignActive(_:) in Scene#1
      -     0.000000       · log resign
      +     0.000000       · log resigned
            0.000000     ← SceneDelegate.sceneWillResignActive(_:) after 0.000000 s
      @@ -84,3 +85,4 @@ Scene#1
            0.000000   ◆ Scene#1 foregroundActive → foregroundInactive
      -     0.000000     → SceneDelegate.stateRestorationActivity(for:) in Scene#1  [handled: false]
      +     0.000000     → SceneDelegate.stateRestorationActivity(for:) in Scene#1  [handled: true]
      +     0.000000     ← SceneDelegate.stateRestorationActivity(for:) after 0.000000 s
            0.000000   ◆ Scene#1 foregroundInactive → background
      @@ -99,2 +101,14 @@ Scene#2
            0.000000     → Editor#2.action(_:) {"action":"open","arguments":[]}
      +     0.000000       · push Detail
      +     0.000000   ◆ push Detail#1 in Scene#2
      +     0.000000       → Detail#1.init(coder:)
      +     0.000000       → Detail#1.loadView()
      +     0.000000       → Detail#1.viewDidLoad()
      +     0.000000       → Editor#2.viewWillDisappear(_:)
      +     0.000000       → Detail#1.viewWillAppear(_:)
      +     0.000000       → Detail#1.viewIsAppearing(_:)
      +     0.000000       → Detail#1.viewWillLayoutSubviews()
      +     0.000000       → Detail#1.viewDidLayoutSubviews()
      +     0.000000       → Editor#2.viewDidDisappear(_:)
      +     0.000000       → Detail#1.viewDidAppear(_:)
            0.000000     ← Editor#2.action(_:) after 0.000000 s
      @@ -102,3 +116,3 @@ Scene#2
            0.000000     → SceneDelegate.sceneWillResignActive(_:) in Scene#2
      -     0.000000       · log resign
      +     0.000000         · log resigned
            0.000000     ← SceneDelegate.sceneWillResignActive(_:) after 0.000000 s
      @@ -107,3 +121,3 @@ Scene#1
            0.000000     → SceneDelegate.sceneWillResignActive(_:) in Scene#1
      -     0.000000       · log resign
      +     0.000000         · log resigned
            0.000000     ← SceneDelegate.sceneWillResignActive(_:) after 0.000000 s
      @@ -113,3 +127,4 @@ Scene#2
            0.000000   ◆ applicationState active → inactive
      -     0.000000     → SceneDelegate.stateRestorationActivity(for:) in Scene#2  [handled: false]
      +     0.000000     → SceneDelegate.stateRestorationActivity(for:) in Scene#2  [handled: true]
      +     0.000000     ← SceneDelegate.stateRestorationActivity(for:) after 0.000000 s
            0.000000   ◆ Scene#2 foregroundInactive → background
      @@ -117,5 +132,6 @@ Scene#1, Scene#2
            0.000000     ✉ UIScene.didEnterBackgroundNotification
      -     0.000000     → Editor#2.traitCollectionDidChange(_:)
      -     0.000000     → Editor#2.traitCollectionDidChange(_:)
      -     0.000000     → SceneDelegate.stateRestorationActivity(for:) in Scene#1  [handled: false]
      +     0.000000     → Detail#1.traitCollectionDidChange(_:)
      +     0.000000     → Detail#1.traitCollectionDidChange(_:)
      +     0.000000     → SceneDelegate.stateRestorationActivity(for:) in Scene#1  [handled: true]
      +     0.000000     ← SceneDelegate.stateRestorationActivity(for:) after 0.000000 s
            0.000000   ◆ Scene#1 foregroundInactive → background
      First divergence: event 32 of A, event 32 of B, at t = 0.000000 s.
        A: 0.000000       · log resign  (a.lua:4)
        B: 0.000000       · log resigned  (b.lua:4)
      Outcome       - a.lifelog         + b.lifelog
      final state   suspended           suspended
      terminations  none                none
      expectations  1 passed, 0 failed  1 passed, 0 failed
      stored        nothing             nothing
      script error  none                none

      """)
  }

  /// One window only, on iPad with `multipleScenes` (the scenes are followed, and none is named):
  /// the diff main printed before scenes were named, byte for byte.
  @Test func aRunThatNeverHadTwoScenesNamesNone() throws {
    let r = try diff("diff-scenes-one", "launch()\nhome()\nexpect_state(\"suspended\")\n")
    #expect(r.status == 1)
    #expect(r.out == """
      --- a.lifelog
      +++ b.lifelog
      The runs were set up differently:
        scenario  sa.lua (d5e8b0d15090) → sb.lua (3233b507bb90)
        app       a.lua (f702965ff289) → b.lua (72ca2f297f3a)
      @@ -31,3 +31,3 @@
            0.000000     → SceneDelegate.sceneWillResignActive(_:)
      -     0.000000       · log resign
      +     0.000000       · log resigned
            0.000000     ← SceneDelegate.sceneWillResignActive(_:) after 0.000000 s
      @@ -37,3 +37,4 @@
            0.000000   ◆ applicationState active → inactive
      -     0.000000     → SceneDelegate.stateRestorationActivity(for:)  [handled: false]
      +     0.000000     → SceneDelegate.stateRestorationActivity(for:)  [handled: true]
      +     0.000000     ← SceneDelegate.stateRestorationActivity(for:) after 0.000000 s
            0.000000   ◆ Scene#1 foregroundInactive → background
      First divergence: event 32 of A, event 32 of B, at t = 0.000000 s.
        A: 0.000000       · log resign  (a.lua:4)
        B: 0.000000       · log resigned  (b.lua:4)
      Outcome       - a.lifelog         + b.lifelog
      final state   suspended           suspended
      terminations  none                none
      expectations  1 passed, 0 failed  1 passed, 0 failed
      stored        nothing             nothing
      script error  none                none

      """)
  }
}
