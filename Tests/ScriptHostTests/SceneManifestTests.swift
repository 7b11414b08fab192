import EventStore
import Foundation
import JSON
import Lifecycle
import Testing
@testable import ScriptHost

/// What counts as adopting scenes (docs/model.md §13): `app { sceneManifest = … }` beside whether
/// the app delegate defines `configurationForConnecting`, each row of the table run on iOS 27 with
/// SDK 27. TN3187 (S31) and the reports of apps rebuilt with Xcode 27 (T44, T140, T141, T142)
/// say a missing manifest, or one without configurations (T143) and no method, does not launch;
/// the two half-way shapes no source says fail launch (docs/decisions.md).
@Suite struct SceneManifestTests {
  /// An app with `manifest` (nil: none declared) and, when `method`, a configuration method.
  static func app(_ manifest: String?, method: Bool, sdk: Int = 27) -> String {
    let declared = manifest.map { ", sceneManifest = \"\($0)\"" } ?? ""
    return """
      app { root = "Main", sdk = \(sdk)\(declared) }
      controller "Main" {}
      \(method ? "function AppDelegate.configurationForConnecting(app) end" : "")
      """
  }

  /// The first launch's callbacks, its termination and the header's manifest members.
  private static func launch(_ app: String, scenario: String = "scenario { app = \"app.lua\", ios = 27 }")
    throws -> (result: RunResult, calls: [String], header: String) {
    let run = try runScripts(app: app, scenario: scenario + "\nlaunch()\nexpect(true, \"ran\")\n")
    let calls = run.events.compactMap { e -> String? in
      switch e.body {
      case let .callbackDelivered(cb, target, _, _, _) where cb.receiver != .viewController: return "\(target).\(cb.key)"
      case let .terminated(t): return "\(t.reason.rawValue) \(t.code ?? "")"
      default: return nil
      }
    }
    let profile = run.result.header?.profile
    let header = ["scenes", "sceneManifest", "configurationForConnecting"].map { "\($0)=\(profile?[$0]?.canonicalText ?? "-")" }
    return (run.result, calls, header.joined(separator: " "))
  }

  static let trap = ["crash EXC_BREAKPOINT"]
  static let sceneLaunch = ["AppDelegate.willFinishLaunchingWithOptions", "AppDelegate.didFinishLaunchingWithOptions",
                            "AppDelegate.configurationForConnecting", "SceneDelegate.willConnectTo",
                            "SceneDelegate.sceneWillEnterForeground", "SceneDelegate.sceneDidBecomeActive"]

  @Test(arguments: [
    // manifest, configurationForConnecting, what iOS 27 does with SDK 27, the header's members
    ("none", false, trap, "scenes=false sceneManifest=- configurationForConnecting=-"),
    ("none", true, trap, "scenes=false sceneManifest=- configurationForConnecting=-"),
    ("empty", false, trap, "scenes=false sceneManifest=\"empty\" configurationForConnecting=false"),
    ("empty", true, sceneLaunch, "scenes=true sceneManifest=\"empty\" configurationForConnecting=true"),
    ("configured", false, sceneLaunch, "scenes=true sceneManifest=\"configured\" configurationForConnecting=false"),
    ("configured", true, sceneLaunch, "scenes=true sceneManifest=- configurationForConnecting=-"),
  ])
  func eachRowOfTheTable(manifest: String, method: Bool, calls: [String], header: String) throws {
    let run = try Self.launch(Self.app(manifest, method: method))
    #expect(run.calls == calls)
    #expect(run.header == header)
    #expect(run.result.error == nil, "\(run.result.error ?? "")")
    let shape = SceneManifest(rawValue: manifest) ?? .none
    #expect(SceneAdoption.launches(manifest: shape, hasConfigurationMethod: method, ios: 27, sdk: 27) == (calls != Self.trap))
  }

  /// The same shapes built with SDK 26 all launch on iOS 27, the two that do not adopt scenes
  /// with the app delegate's life cycle and iOS 26's note (S31, F12).
  @Test(arguments: [("none", false), ("empty", false)])
  func anOlderSDKLaunchesEveryShape(manifest: String, method: Bool) throws {
    let run = try Self.launch(Self.app(manifest, method: method, sdk: 26))
    #expect(run.calls.first == "AppDelegate.willFinishLaunchingWithOptions" && !run.calls.contains("crash EXC_BREAKPOINT"), "\(run.calls)")
    #expect(run.result.state.diagnostics.map(\.code) == ["scene_lifecycle_required"])
    #expect(SceneAdoption.launches(manifest: SceneManifest(rawValue: manifest) ?? .none, hasConfigurationMethod: method, ios: 27, sdk: 26))
  }

  /// `scenes` stays the shorthand: `false` is `none`, `true` `configured` with the method, and a
  /// header without the manifest keeps the bytes it had. A `scenes` that disagrees with the
  /// manifest is a script error naming the scenario's declaration and the app.
  @Test func scenesIsTheShorthandAndADisagreementIsAScriptError() throws {
    let agreeing = try Self.launch(Self.app("none", method: false), scenario: "scenario { app = \"app.lua\", ios = 27, scenes = false }")
    #expect(agreeing.calls == Self.trap && agreeing.header == "scenes=false sceneManifest=- configurationForConnecting=-")
    let shorthand = try Self.launch(Self.app(nil, method: false), scenario: "scenario { app = \"app.lua\", ios = 27, scenes = true }")
    #expect(shorthand.calls == Self.sceneLaunch && shorthand.header == "scenes=true sceneManifest=- configurationForConnecting=-")
    for (manifest, scenes, uses) in [("none", true, "does not use"), ("configured", false, "uses"), ("empty", true, "does not use")] {
      let run = try runScripts(app: Self.app(manifest, method: false),
                               scenario: "scenario { app = \"app.lua\", ios = 27, scenes = \(scenes) }\nlaunch()\n")
      #expect(run.result.exitStatus == 2 && run.events.isEmpty)
      let expected = "s.lua:1: scenes = \(scenes) disagrees with the app's sceneManifest = \"\(manifest)\" without "
        + "AppDelegate.configurationForConnecting, which \(uses) scenes ("
      #expect(run.result.error?.contains(expected) == true && run.result.error?.hasSuffix("/app.lua)") == true, "\(run.result.error ?? "")")
    }
  }

  @Test(arguments: [
    ("sceneManifest = true", "app.lua:1: app: sceneManifest must be \"none\", \"empty\" or \"configured\", not true"),
    ("sceneManifest = \"full\"", "app.lua:1: app: sceneManifest must be \"none\", \"empty\" or \"configured\", not \"full\""),
  ])
  func aBadManifestIsAScriptErrorAtItsLine(declared: String, message: String) throws {
    let run = try runScripts(app: "app { root = \"Main\", \(declared) }\ncontroller \"Main\" {}\n",
                             scenario: "scenario { app = \"app.lua\" }\nlaunch()\n")
    #expect(run.result.exitStatus == 2)
    #expect(run.result.error?.hasSuffix(message) == true, "\(run.result.error ?? "")")
  }

  /// A header's shape reads back; one that gives other scenes than the header's is refused.
  @Test func theHeaderReadsBack() throws {
    var profile = Profile(ios: 27, sdk: 27)
    try profile.adopt(SceneManifestShape(manifest: .configured, hasConfigurationMethod: false), declaredScenes: nil)
    #expect(try Profile(json: profile.json) == profile)
    var wrong = profile.json
    if case let .object(fields) = wrong { wrong = .object(fields.map { $0.0 == "scenes" ? ($0.0, .bool(false)) : $0 }) }
    #expect { try Profile(json: wrong) } throws: { "\($0)" == "profile: sceneManifest \"configured\" disagrees with scenes = false" }
    guard case let .object(fields) = Profile(ios: 27).json else { return }
    for (members, message) in [
      ([("sceneManifest", JSONValue.int(1)), ("configurationForConnecting", .bool(true))],
       "profile: sceneManifest must be \"none\", \"empty\" or \"configured\""),
      ([("sceneManifest", .string("empty"))], "profile: sceneManifest needs configurationForConnecting (true or false)"),
    ] {
      #expect { try Profile(json: .object(fields + members)) } throws: { "\($0)" == message }
    }
  }
}
