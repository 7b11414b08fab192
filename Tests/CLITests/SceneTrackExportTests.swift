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

  private func twoSceneLog(_ name: String) throws -> String {
    let real = temp(name + "-real.lifelog"), log = temp(name + ".lifelog")
    _ = try lifesim(["run", "Scripts/scenarios/home_and_return.lua", "-o", real, "-q", "--force"])
    let reader = try LogReader(path: real)
    guard case let .complete(trailer) = try reader.drain() else { throw CocoaError(.fileReadCorruptFile) }
    let writer = try LogWriter(path: log, header: reader.header, options: .init(overwrite: true))
    for (i, (kind, fields)) in twoSceneEvents.enumerated() {
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
}
