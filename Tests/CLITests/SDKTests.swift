import Foundation
import Testing

/// The SDK an app is built with (docs/model.md §13): `app { sdk = N }`, `--sdk N` over it on
/// `run`, `test`, `explore` and `replay --app`, the log header and the reproduce line.
@Suite struct SDKTests {
  static let app = "app { name = \"A\", root = \"Main\", sdk = 27 }\ncontroller \"Main\" { viewDidLoad = function(vc) end }\n"
  static let crash = "Terminations: crash EXC_BREAKPOINT (UIScene life cycle is required for apps built with this SDK) [illegalInstruction, foreground]."

  /// A sceneless app built with SDK 27 (`app.lua`), the same app declaring no SDK or SDK 26, and
  /// a scenario on iOS 27 that expects the mandate's crash.
  static func folder(_ name: String) throws -> String {
    try scriptFolder("sdk-" + name, [
      "app.lua": app,
      "app_default.lua": app.replacingOccurrences(of: ", sdk = 27", with: ""),
      "app26.lua": app.replacingOccurrences(of: "sdk = 27", with: "sdk = 26"),
      "bad.lua": app.replacingOccurrences(of: "sdk = 27", with: "sdk = 28"),
      "s.lua": "scenario { ios = 27, scenes = false, app = \"app.lua\" }\nlaunch()\nexpect_terminated(\"crash\")\n",
    ])
  }

  @Test func runTakesTheSDKFromTheCommandLineThenTheAppAndTheReproduceLineCarriesIt() throws {
    let dir = try Self.folder("run")
    let declared = try lifesim(["run", "s.lua", "-q"], cwd: dir)
    #expect(declared.status == 0 && declared.out.contains(Self.crash), "\(declared.out)\(declared.err)")
    #expect(declared.out.hasSuffix("Seed 1 (reproduce: lifesim run s.lua --sdk 27 --seed 1).\n"))
    let older = try lifesim(["run", "s.lua", "-q", "--sdk", "26"], cwd: dir)
    #expect(older.status == 1 && older.out.hasSuffix("No termination. Nothing stored. Seed 1 (reproduce: lifesim run s.lua --sdk 26 --seed 1).\n"), "\(older.out)")
    let undeclared = try lifesim(["run", "s.lua", "-q", "--app", "app_default.lua"], cwd: dir)
    #expect(undeclared.status == 1 && undeclared.out.hasSuffix("(reproduce: lifesim run s.lua --app app_default.lua --seed 1).\n"), "\(undeclared.out)")
    let rebuilt = try lifesim(["run", "s.lua", "-q", "--app", "app_default.lua", "--sdk", "27"], cwd: dir)
    #expect(rebuilt.status == 0 && rebuilt.out.contains(Self.crash), "\(rebuilt.out)")
    // iOS 26 has no assert, whatever the SDK.
    let ios26 = try lifesim(["run", "s.lua", "-q", "--ios", "26"], cwd: dir)
    #expect(ios26.status == 1 && ios26.out.contains("No termination."), "\(ios26.out)")
  }

  @Test func anSDKThatWasNeverReleasedIsRefused() throws {
    let dir = try Self.folder("refused")
    let option = try lifesim(["run", "s.lua", "--sdk", "11"], cwd: dir)
    #expect(option.status == 2 && option.err.hasPrefix("lifesim: --sdk must be a released iOS SDK (12 to 18, 26, or 27), not 11\n"))
    let declared = try lifesim(["run", "s.lua", "--app", "bad.lua"], cwd: dir)
    #expect(declared.status == 2 && declared.out.isEmpty)
    #expect(declared.err == "lifesim: bad.lua:1: app: sdk must be a released iOS SDK (12 to 18, 26, or 27), not 28\n")
    let replay = try lifesim(["replay", "any.lifelog", "--verify", "--sdk", "26"], cwd: dir)
    #expect(replay.status == 2 && replay.err.hasPrefix("lifesim: --sdk goes with --app (a replay otherwise keeps the recorded SDK)\n"))
  }

  @Test func theHeaderRecordsTheSDKAndReplayAppTakesTheNewAppsSDKThenTheHeaders() throws {
    let dir = try Self.folder("replay")
    #expect(try lifesim(["run", "s.lua", "-q", "-o", "r.lifelog"], cwd: dir).status == 0)
    let header = try String(contentsOfFile: dir + "/r.lifelog", encoding: .utf8).prefix { $0 != "\n" }
    #expect(header.contains(#""profile":{"ios":27,"scenes":false,"sdk":27,"launchAppearanceOrder""#))
    #expect(header.contains(#""sceneLifecycleAssert":true"#))
    #expect(try lifesim(["replay", "r.lifelog", "--verify"], cwd: dir).out == "r.lifelog: identical: 5 events re-ran as recorded\n")
    // The page of the run names the command that re-runs it, SDK included.
    #expect(try lifesim(["export", "r.lifelog", "--format", "html", "-o", "r.html"], cwd: dir).status == 0)
    #expect(try String(contentsOfFile: dir + "/r.html", encoding: .utf8).contains(#""rerun":"lifesim run s.lua --ios 27 --sdk 27 --no-scenes --seed 1""#))
    // An app that declares no SDK keeps the header's.
    let kept = try lifesim(["replay", "r.lifelog", "--app", "app_default.lua"], cwd: dir)
    #expect(kept.status == 0 && kept.out == "r.lifelog: same: 5 events re-ran as recorded\n", "\(kept.out)\(kept.err)")
    // The new app's SDK, then --sdk, decide over the header's.
    let departs = "Departs at event 3 (t = 0.000000 s):\n"
    let newApp = try lifesim(["replay", "r.lifelog", "--app", "app26.lua"], cwd: dir)
    #expect(newApp.status == 1 && newApp.out.hasPrefix(departs), "\(newApp.out)")
    let option = try lifesim(["replay", "r.lifelog", "--app", "app_default.lua", "--sdk", "26"], cwd: dir)
    #expect(option.status == 1 && option.out.hasPrefix(departs), "\(option.out)")
    let optionWins = try lifesim(["replay", "r.lifelog", "--app", "app26.lua", "--sdk", "27"], cwd: dir)
    #expect(optionWins.status == 0, "\(optionWins.out)")
  }

  @Test func diffReadsAHeaderWithoutTheSDKAsItsDefault() throws {
    let dir = try Self.folder("diff")
    for (log, args) in [("ios26", ["--ios", "26"]), ("default", []), ("rebuilt", ["--sdk", "27"])] {
      _ = try lifesim(["run", "s.lua", "-q", "--app", "app_default.lua", "-o", log + ".lifelog"] + args, cwd: dir)
    }
    let os = try lifesim(["diff", "ios26.lifelog", "default.lifelog", "--json"], cwd: dir)
    #expect(os.out.hasPrefix(#"{"kind":"header","differs":[{"field":"ios","a":26,"b":27}]}"# + "\n"), "\(os.out)")
    let sdk = try lifesim(["diff", "default.lifelog", "rebuilt.lifelog", "--json"], cwd: dir)
    #expect(sdk.out.hasPrefix(#"{"kind":"header","differs":[{"field":"sdk","a":26,"b":27},{"field":"sceneLifecycleAssert","a":false,"b":true}]}"# + "\n"), "\(sdk.out)")
  }

  @Test func testAndExploreTakeSDK() throws {
    let dir = try Self.folder("test")
    #expect(try lifesim(["test", "s.lua", "-q", "--no-wall-time"], cwd: dir).out == "1 case: 1 passed, 0 failed, 0 skipped, 0 errors (virtual time 0.00 s).\n")
    let older = try lifesim(["test", "s.lua", "-q", "--no-wall-time", "--sdk", "26"], cwd: dir)
    #expect(older.status == 1 && older.out.contains("  reproduce: lifesim run s.lua --ios 27 --sdk 26 --seed 1\n"), "\(older.out)")
    let rebuilt = try lifesim(["explore", "app_default.lua", "--ios", "27", "--no-scenes", "--runs", "3", "--sdk", "27"], cwd: dir)
    #expect(rebuilt.out.contains("; 3 findings\n"), "\(rebuilt.out)\(rebuilt.err)")
    let shipped = try lifesim(["explore", "app_default.lua", "--ios", "27", "--no-scenes", "--runs", "3"], cwd: dir)
    #expect(shipped.status == 0 && shipped.out.contains("; 0 findings\n"), "\(shipped.out)\(shipped.err)")
  }

  @Test func profileShowsTheSDK() throws {
    let text = try lifesim(["profile", "--ios", "27", "--sdk", "27", "--no-scenes"])
    let lines = text.out.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    #expect(lines.first == "iOS 27, SDK 27, sceneless: the profile a run uses unless a scenario's knobs override it")
    #expect(Array(lines.suffix(3)) == ["changed from iOS 26:", "  sceneLifecycleAssert: false → true", ""])
    let json = try lifesim(["profile", "--ios", "27", "--json"])
    #expect(json.out.hasPrefix(#"{"ios":27,"sdk":26,"scenes":true,"knobs":"#))
    #expect(json.out.hasSuffix(#""previous":{"ios":26,"changes":[]}}"# + "\n"))
    let refused = try lifesim(["profile", "--ios", "27", "--sdk", "19"])
    #expect(refused.status == 2 && refused.err.hasPrefix("lifesim: --sdk must be a released iOS SDK (12 to 18, 26, or 27), not 19\n"))
  }

  @Test func profileShowsTheDevice() throws {
    let text = try lifesim(["profile", "--ios", "26", "--device", "ipad"])
    #expect(text.status == 0 && text.out.hasPrefix("iOS 26, SDK 26, with scenes, on iPad: the profile a run uses unless a scenario's knobs override it\n"))
    let json = try lifesim(["profile", "--ios", "26", "--device", "ipad", "--json"])
    #expect(json.out.hasPrefix(#"{"ios":26,"sdk":26,"scenes":true,"device":"ipad","knobs":"#))
    let old = try lifesim(["profile", "--ios", "12", "--device", "ipad"])
    #expect(old.status == 2 && old.err.hasPrefix("lifesim: device \"ipad\" needs iOS 13 or later (ios = 12)\n"), "\(old.err)")
    let watch = try lifesim(["profile", "--device", "watch\u{1B}[31m"])
    #expect(watch.status == 2 && watch.err.hasPrefix("lifesim: --device must be iphone or ipad, not 'watch'\"$(printf '\\033')\"'[31m'\n"), "\(watch.err)")
  }
}
