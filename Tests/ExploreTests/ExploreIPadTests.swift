import Foundation
import Testing
@testable import Explore
import ScriptHost

/// `explore { device = "ipad" }`: explore draws the window verbs, and a finding's scenario names
/// the device, so a bug that needs a second window is found and reproduced.
@Suite struct ExploreIPadTests {
  private static func folder() throws -> String {
    // Short: Lua shortens a longer chunk name in its messages ("...").
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("lsx-ipad-\(UUID().uuidString.prefix(8))").path
    try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
    try """
      app { root = "Editor", multipleScenes = true }
      controller "Editor" {}
      local connected = 0  -- windows connected at once (an iPhone has one; its next one is Scene#2)
      function SceneDelegate.willConnectTo(scene) connected = connected + 1 end
      function SceneDelegate.sceneDidDisconnect(scene) connected = connected - 1 end
      function SceneDelegate.sceneDidBecomeActive(scene)
        if connected > 1 then error("a second window") end
      end
      """.write(toFile: dir + "/app.lua", atomically: true, encoding: .utf8)
    return dir
  }

  private static func spec(_ dir: String, _ declaration: String) throws -> String {
    try declaration.write(toFile: dir + "/spec.lua", atomically: true, encoding: .utf8)
    return dir + "/spec.lua"
  }

  @Test func anIPadSpecFindsABugThatNeedsASecondWindow() throws {
    let dir = try Self.folder()
    let explorer = try Explorer(ExploreOptions(path: try Self.spec(dir, "explore { app = \"app.lua\", ios = 17, device = \"ipad\" }\n"),
                                               runs: 200, jobs: 1))
    let result = try explorer.explore()
    #expect(result.findings.map(\.signature.text) == ["crash in SceneDelegate.sceneDidBecomeActive(_:)"])
    let report = try ExploreOutput.write(result, explorer: explorer, to: dir + "/out")
    #expect(report.findings.first?.reproduces == true)
    let scenario = try String(contentsOfFile: dir + "/out/finding-1.lua", encoding: .utf8)
    #expect(scenario.contains("scenario { app = \"../app.lua\", ios = 17, scenes = true, device = \"ipad\", seed = 1 }\n"), "\(scenario)")
    #expect(scenario.hasSuffix("launch()\nopen_window { activity = \"com.example.notes.editing\" }\n"), "\(scenario)")
  }

  @Test func onAnIPhoneTheSameAppHasNoSecondWindow() throws {
    let dir = try Self.folder()
    let explorer = try Explorer(ExploreOptions(path: try Self.spec(dir, "explore { app = \"app.lua\", ios = 17 }\n"), runs: 200, jobs: 1))
    #expect(try explorer.explore().findings.isEmpty)
  }

  @Test func aDeviceExploreCannotModelIsRefusedAtItsLine() throws {
    let dir = try Self.folder()
    #expect(throws: ScriptError("\(dir)/spec.lua:1: explore: device must be \"iphone\" or \"ipad\", not \"watch\"")) {
      try ExploreSetup(ExploreOptions(path: try Self.spec(dir, "explore { app = \"app.lua\", device = \"watch\" }\n")))
    }
    #expect(throws: ScriptError("\(dir)/spec.lua: explore: device \"ipad\" needs iOS 13 or later (ios = 12)")) {
      try ExploreSetup(ExploreOptions(path: try Self.spec(dir, "explore { app = \"app.lua\", ios = 12, device = \"ipad\" }\n")))
    }
  }
}
