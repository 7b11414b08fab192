import JSON
import Lifecycle
import Testing

/// The one function that decides a run's profile: every combination of its four layers, the
/// header each gives, and each refusal with the rule that made it.
@Suite struct RunPlanTests {
  /// A replayed log recorded on iOS 15 without scenes, with a 10 s allowance its scenario set.
  static let recorded: Profile = {
    var profile = Profile(ios: 15, scenes: false)
    try! profile.set("backgroundTaskAllowance", .number(10))
    return profile
  }()
  static let scenario = RunPlan.ScenarioLayer(ios: 26, knobs: [.init("backgroundTaskAllowance", .number(40))])
  static let app = RunPlan.AppLayer(sdk: 27, multipleScenes: true)
  static let commandLine = RunPlan.CommandLineLayer(ios: 18, sdk: 26, noScenes: true)

  /// (recorded, scenario, app, command line) → ios, sdk, scenes, allowance s, multipleScenes.
  /// A recorded header stands for the scenario and command line that made it: of the later
  /// layers only `--sdk` (and the app's `multipleScenes`) still apply.
  static let table: [(layers: String, ios: Int, sdk: Int, scenes: Bool, allowanceSeconds: Int64, multiple: Bool)] = [
    ("----", 17, 17, true, 30, false),
    ("R---", 15, 15, false, 10, false),
    ("-S--", 26, 26, true, 40, false),
    ("RS--", 15, 15, false, 10, false),
    ("--A-", 17, 27, true, 30, true),
    ("R-A-", 15, 15, false, 10, true),
    ("-SA-", 26, 27, true, 40, true),
    ("RSA-", 15, 15, false, 10, true),
    ("---C", 18, 26, false, 30, false),
    ("R--C", 15, 26, false, 10, false),
    ("-S-C", 18, 26, false, 40, false),
    ("RS-C", 15, 26, false, 10, false),
    ("--AC", 18, 26, false, 30, true),
    ("R-AC", 15, 26, false, 10, true),
    ("-SAC", 18, 26, false, 40, true),
    ("RSAC", 15, 26, false, 10, true),
  ]

  static func plan(_ layers: String) -> RunPlan {
    let has = Array(layers).map { $0 != "-" }
    return RunPlan(recorded: has[0] ? recorded : nil, scenario: has[1] ? scenario : .init(),
                   app: has[2] ? app : nil, commandLine: has[3] ? commandLine : .init())
  }

  @Test(arguments: table.indices) func everyCombinationOfTheLayers(_ row: Int) throws {
    let expected = Self.table[row]
    let profile = try Self.plan(expected.layers).profile()
    #expect(profile.ios == expected.ios, "\(expected.layers)")
    #expect(profile.sdk == expected.sdk, "\(expected.layers)")
    #expect(profile.scenes == expected.scenes, "\(expected.layers)")
    #expect(profile.backgroundTaskAllowance_us == expected.allowanceSeconds * 1_000_000, "\(expected.layers)")
    #expect(profile.multipleScenes == expected.multiple, "\(expected.layers)")
  }

  @Test func theHeaderOfThePlan() throws {
    // The header leaves out what a lifesim without the SDK axis would have run (an iOS 17 app
    // built with SDK 17) and records every later choice.
    let plain = try Self.plan("----").profile().json
    #expect(plain["sdk"] == nil && plain["ios"] == .int(17) && plain["scenes"] == .bool(true))
    let all = try Self.plan("-SAC").profile().json
    #expect(all["ios"] == .int(18) && all["sdk"] == .int(26) && all["scenes"] == .bool(false))
    #expect(all["multipleScenes"] == .bool(true))
    // A replayed header gives back the profile it was read from, byte for byte.
    let replayed = try Self.plan("R---").profile()
    #expect(replayed == Self.recorded)
    #expect(try Profile(json: replayed.json) == Self.recorded)
  }

  @Test func aNewBuildOfTheAppDecidesTheSDKOfAReplay() throws {
    var plan = Self.plan("R-A-")
    plan.appIsNewBuild = true
    #expect(try plan.profile().sdk == 27)
    // A knob at its default for the recorded SDK follows the new one; one the scenario set stays.
    #expect(try plan.profile().backgroundTaskAllowance_us == 10_000_000)
    plan.commandLine.sdk = 26
    #expect(try plan.profile().sdk == 26)
  }

  @Test func theAppsManifestDecidesScenesUnlessTheCommandLineAsksWithout() throws {
    let none = SceneManifestShape(manifest: .none, hasConfigurationMethod: false)
    var plan = RunPlan(app: .init(sceneManifest: none))
    #expect(try plan.profile().scenes == false)
    plan.scenario.scenes = true
    #expect(throws: RunPlan.Refusal.self) { try plan.profile() }
    plan.commandLine.noScenes = true
    #expect(try plan.profile().scenes == false)
    // A recorded profile is not adopted again: the header already holds what the manifest gave.
    let recorded = RunPlan(recorded: Profile(ios: 26), app: .init(sceneManifest: none))
    #expect(try recorded.profile().scenes == true)
  }

  @Test func eachRefusalNamesItsRule() {
    func refusal(_ plan: RunPlan) -> RunPlan.Refusal? {
      do { _ = try plan.profile(); return nil } catch { return error }
    }
    #expect(refusal(RunPlan(commandLine: .init(ios: 19))) == RunPlan.Refusal(
      kind: .ios, description: "ios must be a released iOS version (12 to 18, 26, or 27), not 19"))
    #expect(refusal(RunPlan(scenario: .init(ios: 12, scenes: true))) == RunPlan.Refusal(
      kind: .scenes, description: "scenes need iOS 13 or later (ios = 12)"))
    #expect(refusal(RunPlan(scenario: .init(device: .ipad), commandLine: .init(noScenes: true))) == RunPlan.Refusal(
      kind: .device, description: "device \"ipad\" needs scenes (scenes = false)"))
    #expect(refusal(RunPlan(scenario: .init(knobs: [.init("backgroundTaskAllowanse", .number(1))])))?.kind == .knob)
    let manifest = refusal(RunPlan(scenario: .init(scenes: true),
                                   app: .init(sceneManifest: .init(manifest: .none, hasConfigurationMethod: false))))
    #expect(manifest?.kind == .manifest)
    #expect(manifest?.description.hasPrefix("scenes = true disagrees with the app's sceneManifest = \"none\"") == true)
    // An iPad whose app's manifest takes its scenes away.
    let ipad = refusal(RunPlan(scenario: .init(device: .ipad), app: .init(sceneManifest: .init(manifest: .none, hasConfigurationMethod: false))))
    #expect(ipad == RunPlan.Refusal(kind: .device, description: "device \"ipad\" needs scenes (scenes = false)"))
  }
}
