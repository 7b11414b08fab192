import Foundation
import Testing

/// Input lifesim used to accept silently: each is now refused with exit 2 and a message naming
/// the file and line, or (for app code) crashes the app at the app's line.
@Suite(.serialized) struct StrictInputTests {
  /// (scenario text, the exact error line).
  static let refusals: [(String, String)] = [
    ("", "lifesim: s.lua: the scenario is empty; call verbs such as launch() and home() (see docs/lua-api.md)"),
    ("local x = 1\n", "lifesim: s.lua: the scenario calls no verb (launch(), home(), advance(…) …): there is nothing to simulate"),
    ("scenario { iOS = 12 }\nlaunch()\n",
     "lifesim: s.lua:1: scenario: unknown key \"iOS\" (did you mean ios?); the keys are app, choose, device, ios, ios_range, knobs, name, scenes, seed, strict"),
    ("scenario { sceens = false }\nlaunch()\n",
     "lifesim: s.lua:1: scenario: unknown key \"sceens\" (did you mean scenes?); the keys are app, choose, device, ios, ios_range, knobs, name, scenes, seed, strict"),
    ("scenario { ios = 17 }\nscenario { ios = 15 }\nlaunch()\n",
     "lifesim: s.lua:2: scenario { } may appear only once (the first is at s.lua:1)"),
    ("scenario { ios = 21 }\nlaunch()\n", "lifesim: s.lua:1: scenario: ios must be a released iOS version (12 to 18, 26, or 27), not 21"),
    ("scenario { ios = 0/0 }\nlaunch()\n", "lifesim: s.lua:1: scenario: ios must be a released iOS version (12 to 18, 26, or 27), not nan"),
    ("scenario { ios = 12.5 }\nlaunch()\n", "lifesim: s.lua:1: scenario: ios must be a released iOS version (12 to 18, 26, or 27), not 12.5"),
    ("scenario { ios = '13' }\nlaunch()\n", "lifesim: s.lua:1: scenario: ios must be a released iOS version (12 to 18, 26, or 27), not \"13\""),
    ("scenario { seed = 0/0 }\nlaunch()\n",
     "lifesim: s.lua:1: scenario: seed must be a whole number from -9223372036854775808 to 9223372036854775807, not nan"),
    ("scenario { seed = 1e300 }\nlaunch()\n",
     "lifesim: s.lua:1: scenario: seed must be a whole number from -9223372036854775808 to 9223372036854775807, not 1e+300"),
    ("scenario { seed = 1.5 }\nlaunch()\n",
     "lifesim: s.lua:1: scenario: seed must be a whole number from -9223372036854775808 to 9223372036854775807, not 1.5"),
    ("scenario { seed = '7' }\nlaunch()\n",
     "lifesim: s.lua:1: scenario: seed must be a whole number from -9223372036854775808 to 9223372036854775807, not \"7\""),
    ("scenario { scenes = 'no' }\nlaunch()\n", "lifesim: s.lua:1: scenario: scenes must be true or false, not \"no\""),
    ("scenario { knobs = 5 }\nlaunch()\n",
     "lifesim: s.lua:1: scenario: knobs must be a table: knobs = { backgroundTaskAllowance = 40 }, not 5"),
    ("scenario { knobs = { backgroundTaskAllowance = {} } }\nlaunch()\n",
     "lifesim: s.lua:1: scenario: knobs must be a table of knob values (true/false, numbers or names); backgroundTaskAllowance is a table"),
    ("scenario { knobs = { backgroundTaskAlowance = 4 } }\nlaunch()\n",
     "lifesim: s.lua:1: unknown knob backgroundTaskAlowance (did you mean backgroundTaskAllowance?)"),
    ("launch()\nhom()\n", "lifesim: s.lua:2: attempt to call a nil value (global 'hom') (did you mean home()?)"),
    ("launch { ulr = 'notes://1' }\n", "lifesim: s.lua:1: launch: unknown key \"ulr\" (did you mean url?); the keys are url"),
    ("launch()\npresent('ViewController', { styel = 'pageSheet' })\n",
     "lifesim: s.lua:2: present: unknown key \"styel\" (did you mean style?); the keys are navigation, style"),
    ("launch()\npresent('ViewController', { navigation = 'yes' })\n",
     "lifesim: s.lua:2: present: navigation must be true or false, not \"yes\""),
    ("launch()\nswipe_back { cancle = true }\n",
     "lifesim: s.lua:2: swipe_back: unknown key \"cancle\" (did you mean cancel?); the keys are cancel"),
  ]

  @Test func eachSilentlyAcceptedInputIsRefused() throws {
    for (script, message) in Self.refusals {
      let dir = try scriptFolder("strict", ["s.lua": script])
      let r = try lifesim(["run", "s.lua", "-q"], cwd: dir)
      #expect(r.status == 2, "\(script)")
      #expect(r.err == message + "\n", "\(script)")
    }
  }

  @Test func aDirectoryOrALogIsNotAScenario() throws {
    let dir = try scriptFolder("not-scenarios", ["s.lua": "launch()\n"])
    let folder = try lifesim(["run", dir, "-q"])
    #expect(folder.status == 2)
    #expect(folder.err == "lifesim: \(dir): is a directory; give a script file (to run every scenario in a folder, use `lifesim test`)\n")
    #expect(try lifesim(["run", "s.lua", "-q", "-o", "run.lifelog"], cwd: dir).status == 0)
    let log = try lifesim(["run", "run.lifelog", "-q"], cwd: dir)
    #expect(log.status == 2)
    #expect(log.err == "lifesim: run.lifelog: this is a lifesim log, not a scenario; did you mean `lifesim replay run.lifelog`?\n")
    for command in [["replay", "s.lua"], ["verify", "s.lua"], ["diff", "s.lua", "run.lifelog"], ["export", "s.lua", "--format", "jsonl"]] {
      let script = try lifesim(command, cwd: dir)
      #expect(script.status == 2, "\(command)")
      #expect(script.err == "lifesim: s.lua: this is a Lua script, not a lifesim log; did you mean `lifesim run s.lua`?\n", "\(command)")
    }
  }

  @Test func aFileNameThatIsNotUTF8IsRefusedNotMisread() throws {
    let dir = try scriptFolder("utf8", ["s.lua": "launch()\n"])
    let p = Process()
    p.executableURL = URL(fileURLWithPath: "/bin/bash")
    let binary = repositoryRoot.path + "/.build/debug/lifesim"
    p.arguments = ["-c", "\(binary) run s.lua -q -o \"$(printf 'x\\376.lifelog')\"; echo \"exit $?\"; ls"]
    p.currentDirectoryURL = URL(fileURLWithPath: dir)
    let out = Pipe(), err = Pipe()
    p.standardOutput = out
    p.standardError = err
    try p.run()
    let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    let error = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    p.waitUntilExit()
    #expect(text == "exit 2\ns.lua\n", "nothing written: \(text)")
    #expect(error == "lifesim: argument 5 is not valid UTF-8; lifesim takes UTF-8 file names only (rename the file)\n")
  }

  @Test func anIOSVersionThatWasNeverReleasedIsRefused() throws {
    let r = try lifesim(["run", "Scripts/scenarios/cold_launch.lua", "--ios", "21"])
    #expect(r.status == 2)
    #expect(r.err.hasPrefix("lifesim: --ios must be a released iOS version (12 to 18, 26, or 27), not 21\n"))
  }

  @Test func aByteOrderMarkAndAShebangLineAreAccepted() throws {
    let dir = try scriptFolder("bom", [
      "bom.lua": "\u{FEFF}launch()\n",
      "shebang.lua": "#!/usr/bin/env lifesim\nlaunch()\nhom()\n",
    ])
    #expect(try lifesim(["run", "bom.lua", "-q"], cwd: dir).status == 0)
    let shebang = try lifesim(["run", "shebang.lua", "-q"], cwd: dir)
    // The shebang line still counts: the error is on line 3.
    #expect(shebang.err == "lifesim: shebang.lua:3: attempt to call a nil value (global 'hom') (did you mean home()?)\n")
  }

  /// (app code after `controller "ViewController" {}`, the crash description).
  static let appMisuses: [(String, String)] = [
    ("function SceneDelegate.sceneDidEnterBackground(s)\n  UIApplication.shared.beginBackgroundTask(\"x\", function() end)\nend\n",
     "app.lua:3: beginBackgroundTask: call it with ':' — UIApplication.shared:beginBackgroundTask(…), not UIApplication.shared.beginBackgroundTask(…)"),
    ("function SceneDelegate.sceneDidEnterBackground(s)\n  work(\"soon\")\nend\n",
     "app.lua:3: work: seconds must be a number from 0 to 86400"),
    ("function SceneDelegate.sceneDidEnterBackground(s)\n  wrok(1)\nend\n",
     "app.lua:3: attempt to call a nil value (global 'wrok') (did you mean work()?)"),
    ("function SceneDelegate.sceneDidEnterBackground(s)\n  observe(\"UIApplication.didBecomeActive\", function() end)\nend\n",
     "app.lua:3: observe: unknown notification \"UIApplication.didBecomeActive\" (did you mean UIApplication.didBecomeActiveNotification?)"),
  ]

  @Test func aMisuseOfTheAppAPICrashesTheAppAtItsLine() throws {
    for (code, description) in Self.appMisuses {
      let dir = try scriptFolder("misuse", [
        "app.lua": "controller \"ViewController\" {}\n" + code,
        "s.lua": "scenario { app = \"app.lua\" }\nlaunch()\nhome()\nexpect_terminated(\"crash\")\n",
      ])
      let r = try lifesim(["run", "s.lua"], cwd: dir)
      #expect(r.status == 0, "\(code)")
      #expect(r.out.contains("Terminations: crash (\(description)) [illegalInstruction, background]."), "\(code): \(r.out)")
      #expect(r.out.contains("\n                 at app.lua:3: in function <app.lua:2>\n"), "the trace shows the traceback: \(r.out)")
    }
  }

  /// A mistake in `app { … }` is the script's, not a crash of the simulated app: an
  /// `expect_terminated("crash")` must not turn it green.
  @Test func anUnknownAppKeyStopsTheRunNamingTheKey() throws {
    let dir = try scriptFolder("app-key", [
      "app.lua": "app { nmae = \"Notes\" }\ncontroller \"ViewController\" {}\n",
      "s.lua": "scenario { app = \"app.lua\" }\nlaunch()\nexpect_terminated(\"crash\")\n",
    ])
    let r = try lifesim(["run", "s.lua", "-q"], cwd: dir)
    #expect(r.status == 2)
    #expect(r.err == "lifesim: app.lua:1: app: unknown key \"nmae\" (did you mean name?); the keys are bgTaskIdentifiers, container, minimumIOS, multipleScenes, name, root, sceneManifest, sdk, tabs\n", "\(r.err)")
    let container = try scriptFolder("app-container", [
      "app.lua": "app { root = \"Home\", container = \"nav\" }\ncontroller \"Home\" {}\n",
      "s.lua": "scenario { app = \"app.lua\" }\nlaunch()\nexpect_terminated(\"crash\")\n",
    ])
    let c = try lifesim(["run", "s.lua", "-q"], cwd: container)
    #expect(c.status == 2)
    #expect(c.err == "lifesim: app.lua:1: app: container must be \"navigation\" or \"none\", not \"nav\"\n", "\(c.err)")
  }
}

/// Scripts work from any folder, and `require` finds modules where docs/lua-api.md says.
@Suite(.serialized) struct ModuleSearchTests {
  @Test func everyBundledScenarioRunsFromAnotherFolder() throws {
    let elsewhere = try scriptFolder("elsewhere", [:])
    for scenario in try bundledScenarios() {
      let r = try lifesim(["run", repositoryRoot.path + "/" + scenario, "-q"], cwd: elsewhere)
      #expect(r.status == 0, "\(scenario): \(r.err)")
    }
  }

  @Test func requireLooksInLibThenLifesimPathAndListsWhereItLooked() throws {
    let dir = try scriptFolder("search", [
      "s.lua": "require \"helpers\"\nrequire \"more\"\nlaunch()\nexpect(helper_loaded and more_loaded, \"both modules ran\")\n",
      "one/helpers.lua": "helper_loaded = true\n",
      "two/more.lua": "more_loaded = true\n",
    ])
    let both = try lifesim(["run", "s.lua", "-q", "--lib", "one"], env: ["LIFESIM_PATH": dir + "/nothing:" + dir + "/two"], cwd: dir)
    #expect(both.status == 0, "\(both.err)")
    let missing = try lifesim(["run", "s.lua", "-q", "--lib", "one"], env: ["LIFESIM_PATH": "/nowhere"], cwd: dir)
    #expect(missing.status == 2)
    #expect(missing.err == "lifesim: s.lua:2: require \"more\": no more.lua in ., one, /nowhere, \(repositoryRoot.path)/Scripts/lib (add a folder with --lib DIR or LIFESIM_PATH)\n")
  }

  /// The layout `make install PREFIX=…` makes: the bundled modules are found beside the binary.
  @Test func anInstalledLifesimFindsItsBundledModules() throws {
    let prefix = try scriptFolder("prefix", ["s.lua": "require \"steps\"\nlaunch()\n"])
    let fm = FileManager.default
    try fm.createDirectory(atPath: prefix + "/bin", withIntermediateDirectories: true)
    try fm.createDirectory(atPath: prefix + "/share/lifesim", withIntermediateDirectories: true)
    // A hard link, not a copy: a copy just written can be "busy" (ETXTBSY) while another test forks.
    let binary = repositoryRoot.path + "/.build/debug/lifesim"
    if link(binary, prefix + "/bin/lifesim") != 0 { try fm.copyItem(atPath: binary, toPath: prefix + "/bin/lifesim") }
    try fm.copyItem(atPath: repositoryRoot.path + "/Scripts/lib", toPath: prefix + "/share/lifesim/lib")
    let p = Process()
    p.executableURL = URL(fileURLWithPath: prefix + "/bin/lifesim")
    p.arguments = ["run", "s.lua", "-q"]
    p.currentDirectoryURL = URL(fileURLWithPath: prefix)
    let err = Pipe()
    p.standardError = err
    p.standardOutput = Pipe()
    try p.run()
    let text = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    p.waitUntilExit()
    #expect(p.terminationStatus == 0, "\(text)")
  }
}

@Suite struct ProfileCommandTests {
  @Test("lifesim profile --ios 13 prints every knob with its unit and value, then the changes from iOS 12")
  func text() throws {
    let r = try lifesim(["profile", "--ios", "13"])
    #expect(r.status == 0 && r.err == "")
    let lines = r.out.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    #expect(lines.first == "iOS 13, SDK 13, with scenes: the profile a run uses unless a scenario's knobs override it")
    #expect(lines.contains { $0.split(separator: " ") == ["backgroundTaskAllowance", "seconds", "30", "s"] })
    #expect(Array(lines.suffix(8)) == ["changed from iOS 12:", "  scenes: false → true", "  viewIsAppearing: false → true",
      "  snapshotTraitFlip: false → true", "  defaultPresentationStyle: \"fullScreen\" → \"pageSheet\"",
      "  backgroundTaskAllowance: 180 s → 30 s", "  bgTaskScheduler: false → true", ""])
  }

  @Test("lifesim profile --json: one object with the knobs in the scenario's units and the changes")
  func json() throws {
    let r = try lifesim(["profile", "--ios", "26", "--no-scenes", "--json"])
    #expect(r.status == 0)
    #expect(r.out.hasPrefix(#"{"ios":26,"sdk":26,"scenes":false,"knobs":[{"name":"launchAppearanceOrder","unit":"one of \"willAppearBeforeActive\", \"allVCBeforeActive\", \"allVCAfterActive\"","value":"willAppearBeforeActive"}"#))
    #expect(r.out.contains(#"{"name":"launchWatchdog","unit":"seconds","value":20}"#))
    #expect(r.out.hasSuffix(#""previous":{"ios":18,"changes":[{"name":"updateProperties","from":false,"to":true},{"name":"sceneRequiredNote","from":false,"to":true}]}}"# + "\n"))
  }

  @Test("lifesim profile refuses a version that was never released, and names the releases")
  func refused() throws {
    let r = try lifesim(["profile", "--ios", "19"])
    #expect(r.status == 2 && r.out == "")
    #expect(r.err.hasPrefix("lifesim: --ios must be a released iOS version (12 to 18, 26, or 27), not 19\n"))
  }
}
