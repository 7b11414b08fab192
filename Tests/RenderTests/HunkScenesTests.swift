import EventStore
import Lifecycle
import Render
import ScriptHost
import TestSupport
import Testing

/// `HunkScenes` over a real two-window run (the bundled composer on iPad): what each event is
/// named is checked against what the run itself says, not against the namer's own rules.
@Suite struct HunkScenesTests {
  /// Each event of the bundled per-process composer's log with the scene `HunkScenes` names.
  /// `test`: the test's name, which names its log (the tests run at once).
  private static func named(_ test: String = #function) throws -> [(event: Event, scene: String?)] {
    let log = temporaryPath("lifesim-render-logs", "hunk-scenes-\(test.prefix { $0 != "(" }).lifelog")
    var config = RunConfiguration(scenarioPath: BundledLogs.root + "/Scripts/scenarios/ipad_draft_per_process.lua", outputPath: log,
                                  source: .files(searchPath: [BundledLogs.root + "/Scripts/lib"]))
    config.overwrite = true
    #expect(ScenarioRunner(config) { _, _ in }.run().exitStatus == 0)
    var scenes = HunkScenes()
    return try BundledLogs.events(log).map { ($0.event, scenes.scene(of: $0.event)) }
  }

  /// Until a second scene connects, nothing is named (the trace names no scene either).
  @Test func nothingIsNamedBeforeTheRunHasTwoScenes() throws {
    let events = try Self.named()
    let second = try #require(events.firstIndex { if case .sceneConnected("Scene#2", _) = $0.event.body { true } else { false } })
    #expect(events[..<second].allSatisfy { $0.scene == nil })
    #expect(events[second].scene == "Scene#2")
  }

  /// A scene-delegate call is named by the scene it was delivered for, its return and the app's
  /// calls inside it by that call, a controller's callback by the window holding the
  /// controller (the composer's Editor#n is Scene#n's), and the user's verbs by none.
  @Test func eachEventIsNamedAsTheRunPlacesIt() throws {
    var calls: [String?] = []  // the scene-delegate calls under way, by depth
    var checked = (appCalls: 0, returns: 0, controllers: 0)
    for (event, scene) in try Self.named() {
      switch event.body {
      case let .callbackDelivered(_, target, _, depth, arguments):
        calls = Array(calls.prefix(depth)) + [target == "SceneDelegate" ? arguments.scene : nil]
        if target == "SceneDelegate" { #expect(scene == arguments.scene) }
        if InstanceLabel.className(target) == "Editor", let n = InstanceLabel.number(target), arguments.scene == nil, scene != nil {
          #expect(scene == "Scene#\(n)", "\(target)")
          checked.controllers += 1
        }
      case let .returned(_, target, _, depth, _) where target == "SceneDelegate":
        #expect(depth < calls.count && scene == calls[depth])
        checked.returns += scene == nil ? 0 : 1
        calls = Array(calls.prefix(depth))
      case .appCalled:
        // Inside a scene-delegate call: that call's scene.
        guard let innermost = calls.last, let callScene = innermost else { break }
        #expect(scene == callScene)
        checked.appCalls += 1
      case .inputPerformed, .expectationChecked:
        #expect(scene == nil)
      default:
        break
      }
    }
    #expect(checked.appCalls >= 4 && checked.returns >= 8 && checked.controllers >= 4, "\(checked)")
  }

  /// A scene label read from a log is hostile: only `Scene#` and a number from 1 is named (as
  /// `Scene#n`, so nothing else of the label reaches the terminal).
  @Test(arguments: [("Scene#2", "Scene#2"), ("Scene#007", "Scene#7"), ("Scene#2\u{1b}[2J", nil), ("Scene#0", nil),
                    ("Window#2", nil), ("Scene#99999999999999999999", nil), ("Scene", nil)])
  func aSceneLabelIsNamedOnlyAsSceneAndANumber(_ label: String, _ named: String?) {
    var scenes = HunkScenes()
    _ = scenes.scene(of: Event(t: 0, .sceneConnected(scene: "Scene#1")))
    _ = scenes.scene(of: Event(t: 0, .sceneConnected(scene: "Scene#2")))
    #expect(scenes.scene(of: Event(t: 0, .sceneDisconnected(scene: label))) == named)
  }

  /// Callbacks nested deeper than 256 (only a crafted log has them) are not followed, so memory
  /// stays bounded: an app call inside one is named by the deepest callback followed.
  @Test func callbacksPast256DeepAreNotFollowed() {
    var scenes = HunkScenes()
    _ = scenes.scene(of: Event(t: 0, .sceneConnected(scene: "Scene#1")))
    _ = scenes.scene(of: Event(t: 0, .sceneConnected(scene: "Scene#2")))
    func deliver(depth: Int, to scene: String) -> String? {
      scenes.scene(of: Event(t: 0, .callbackDelivered(.sceneDidEnterBackground, target: "SceneDelegate", handled: true, depth: depth,
                                                       arguments: CallbackArguments(scene: scene))))
    }
    for depth in 0..<256 { #expect(deliver(depth: depth, to: "Scene#1") == "Scene#1") }
    #expect(deliver(depth: 256, to: "Scene#2") == "Scene#2")
    #expect(scenes.scene(of: Event(t: 0, .appCalled(.log("x"), at: nil))) == "Scene#1")
  }
}
