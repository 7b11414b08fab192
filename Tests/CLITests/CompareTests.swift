import Foundation
import Testing

/// `lifesim test --compare profiles|scenes|sdk=A,B`: a summary per scenario of what changes.
@Suite(.serialized) struct CompareTests {
  static let bundled = "Scripts/scenarios/memory_warning.lua"

  @Test func scenesComparesARunWithoutScenesWithTheSameRunWithScenes() throws {
    let r = try lifesim(["test", Self.bundled, "--ios", "17", "--compare", "scenes", "-q", "--no-wall-time"])
    #expect(r.status == 0, "\(r.err)")
    #expect(r.out == """
      memory warning: iOS 17: no scenes → scenes
        appeared: configurationForConnecting ×1, willConnectTo ×1, sceneWillEnterForeground ×1, sceneDidBecomeActive ×1
        disappeared: applicationDidBecomeActive ×1
        first divergence: - process started (foreground; applicationState inactive) + process started (foreground; applicationState background) (after launch)
      2 cases: 2 passed, 0 failed, 0 skipped, 0 errors (virtual time 0.00 s).

      """)
    let json = try lifesim(["test", Self.bundled, "--ios", "17", "--compare", "scenes", "--json", "--no-wall-time"])
    let line = try #require(json.out.split(separator: "\n").first { $0.hasPrefix("{\"kind\":\"comparison\"") })
    let expected: [String] = [
      #"{"kind":"comparison","axis":"scenes","scenario":"memory warning","file":"Scripts/scenarios/memory_warning.lua","#,
      #""from":{"ios":17,"scenes":false},"to":{"ios":17,"scenes":true},"status":{"from":"passed","to":"passed"},"outcome":{},"#,
      #""appeared":{"configurationForConnecting":1,"willConnectTo":1,"sceneWillEnterForeground":1,"sceneDidBecomeActive":1},"#,
      #""disappeared":{"applicationDidBecomeActive":1},"diagnostics":[],"#,
      #""firstDivergence":{"step":"- process started (foreground; applicationState inactive) + process started (foreground; "#,
      #"applicationState background)","after":"launch"}}"#,
    ]
    #expect(String(line) == expected.joined())
  }

  @Test func profilesNamesTheSceneChangeOfTheIOS12To13Pair() throws {
    let r = try lifesim(["test", Self.bundled, "--ios", "12-14", "--compare", "profiles", "-q", "--no-wall-time"])
    #expect(r.status == 0, "\(r.err)")
    #expect(r.out.hasPrefix("""
      memory warning: iOS 12 (no scenes) → 13 (scenes)
        appeared: configurationForConnecting ×1, willConnectTo ×1, viewIsAppearing ×2, sceneWillEnterForeground ×1, sceneDidBecomeActive ×1
        disappeared: applicationDidBecomeActive ×1
        first divergence: - process started (foreground; applicationState inactive) + process started (foreground; applicationState background) (after launch)

      """), "\(r.out)")
    #expect(!r.out.contains("13 → 14"))
    let alias = try lifesim(["test", Self.bundled, "--ios", "12-14", "--compare-profiles", "-q", "--no-wall-time"])
    #expect(alias.status == 0 && alias.out == r.out)
  }

  /// A pair whose one half stopped on a script error before its log began is reported with that
  /// error; the other pairs are still compared, and the failures and the summary still printed.
  @Test func aHalfThatStoppedOnAScriptErrorStopsNothingElse() throws {
    let dir = try scriptFolder("compare-script-error", [
      "half.lua": "scenario { name = \"half\", device = \"ipad\" }\nlaunch()\nhome()\nexpect_state(\"suspended\")\n",
      "whole.lua": "scenario { name = \"whole\", scenes = false }\nlaunch()\nexpect_state(\"active\")\n",
    ])
    let r = try lifesim(["test", ".", "--ios", "12-13", "--compare", "profiles", "-q", "--no-wall-time"], cwd: dir)
    #expect(r.status == 2)
    #expect(r.out == """
      whole: iOS 12 → 13, no scenes
        appeared: viewIsAppearing ×1
        first divergence: + viewIsAppearing (after viewWillAppear)
      half: iOS 12 (no scenes) → 13 (scenes)
        not compared: half [iOS 12] stopped on a script error: half.lua:1: device "ipad" needs iOS 13 or later (ios = 12)
      ERROR half [iOS 12]  (half.lua)
        half.lua:1: device "ipad" needs iOS 13 or later (ios = 12)
        reproduce: lifesim run half.lua --ios 12 --seed 1
      4 cases: 3 passed, 0 failed, 0 skipped, 1 error (virtual time 0.00 s).

      """, "\(r.out)")
    let json = try lifesim(["test", "half.lua", "--ios", "12-13", "--compare", "profiles", "--json", "--no-wall-time"], cwd: dir)
    #expect(json.status == 2)
    let line = json.out.split(separator: "\n").first { $0.hasPrefix("{\"kind\":\"notCompared\"") }.map(String.init)
    #expect(line == #"{"kind":"notCompared","axis":"profiles","scenario":"half","file":"half.lua","from":{"ios":12,"scenes":false},"#
      + #""to":{"ios":13,"scenes":true},"reason":"half [iOS 12] stopped on a script error: half.lua:1: device \"ipad\" needs iOS 13 or later (ios = 12)"}"#)
  }

  /// A comparison that found nothing says whether there was anything to compare.
  @Test func noChangeSaysHowManyPairsWereCompared() throws {
    let skipped = try lifesim(["test", "Scripts/scenarios/home_and_return.lua", "--ios", "17", "--compare", "scenes", "-q", "--no-wall-time"])
    #expect(skipped.status == 0)
    #expect(skipped.out.hasPrefix("Nothing to compare: no scenario ran both without scenes and with them on one iOS.\n"), "\(skipped.out)")
    let single = try lifesim(["test", Self.bundled, "--ios", "17", "--compare", "profiles", "-q", "--no-wall-time"])
    #expect(single.out.hasPrefix("Nothing to compare: no scenario ran on two profiles.\n"), "\(single.out)")
    let same = try lifesim(["test", Self.bundled, "--ios", "16-17", "--compare", "profiles", "-q", "--no-wall-time"])
    #expect(same.out.hasPrefix("No run differs between neighbouring profiles (1 pair compared).\n"), "\(same.out)")
  }

  @Test func theHTMLReportShowsEachChangeEscaped() throws {
    let dir = try scriptFolder("compare-html", [
      "s.lua": "scenario { name = \"<b>&x\", ios = 17 }\nlaunch()\nexpect_state(\"active\")\n",
    ])
    let r = try lifesim(["test", "s.lua", "--compare", "scenes", "-q", "--html", "report"], cwd: dir)
    #expect(r.status == 0, "\(r.err)")
    let page = try String(contentsOfFile: dir + "/report/index.html", encoding: .utf8)
    #expect(page.contains("<h2>What changes</h2>\n<table id=\"comparison\">"))
    #expect(page.contains("<tr><td>&lt;b&gt;&amp;x</td><td>iOS 17: no scenes → scenes</td><td>- process started"), "\(page)")
    #expect(page.contains("<td>applicationDidBecomeActive ×1</td><td></td><td></td></tr>"), "\(page)")
    #expect(!page.contains("<b>&x"))
    let none = try lifesim(["test", "s.lua", "-q", "--html", "plain"], cwd: dir)
    #expect(none.status == 0)
    #expect(try !String(contentsOfFile: dir + "/plain/index.html", encoding: .utf8).contains("What changes"))
  }

  /// Rebuilding an app that has not adopted scenes with the iOS 27 SDK: on iOS 27 it no longer
  /// launches. Each case runs with both SDKs, and the pair says what changed.
  @Test func sdkComparesTheSameRunBuiltWithTwoSDKs() throws {
    let r = try lifesim(["test", "Scripts/scenarios/ios26_sceneless.lua", "--ios", "27", "--compare", "sdk=26,27", "-q", "--no-wall-time"])
    #expect(r.status == 1, "\(r.err)")
    let summary = r.out.split(separator: "\n").prefix(5).joined(separator: "\n")
    #expect(summary == """
      iOS 26 without scenes: iOS 27: SDK 26 → 27, no scenes
        disappeared: init ×1, willFinishLaunchingWithOptions ×1, didFinishLaunchingWithOptions ×1, loadView ×1, viewDidLoad ×1, viewWillAppear ×1, viewIsAppearing ×1, updateProperties ×1, viewWillLayoutSubviews ×1, viewDidLayoutSubviews ×1, applicationDidBecomeActive ×1, viewDidAppear ×1
        outcome: passed → failed; final state: active → not_running; terminations: none → crash EXC_BREAKPOINT; expectations: 3 passed, 0 failed → 1 passed, 2 failed
        first divergence: - scene_lifecycle_required: UIScene lifecycle will soon be required. Failure to adopt will result in an assert in the future. + scene_lifecycle_required: Application failed to launch: UIScene life cycle is required for apps built with this SDK (after process started (foreground; applicationState inactive))
      FAILED iOS 26 without scenes [iOS 27, SDK 27]  (Scripts/scenarios/ios26_sceneless.lua)
      """, "\(r.out)")
    #expect(r.out.contains("  reproduce: lifesim run Scripts/scenarios/ios26_sceneless.lua --ios 27 --sdk 27 --seed 1\n"), "\(r.out)")
    let json = try lifesim(["test", "Scripts/scenarios/ios26_sceneless.lua", "--ios", "27", "--compare", "sdk=26,27", "--json", "--no-wall-time"])
    let line = try #require(json.out.split(separator: "\n").first { $0.hasPrefix("{\"kind\":\"comparison\"") })
    #expect(line.contains(#""axis":"sdk=26,27","#) && line.contains(#""from":{"ios":27,"scenes":false,"sdk":26},"to":{"ios":27,"scenes":false,"sdk":27}"#), "\(line)")
  }

  /// With --html and no --logs, the failing cases' logs stay in the report's folder, so their
  /// rows link to their timelines, as without --compare.
  @Test func htmlKeepsTheFailingCasesTimelines() throws {
    let app = repositoryRoot.path + "/Scripts/apps/half_migrated.lua"
    let dir = try scriptFolder("compare-html", [
      "m.lua": "scenario { app = \"\(app)\" }\nlaunch()\nhome()\nexpect(stored(\"draft\") == \"saved\", \"saved\")\n",
    ])
    let r = try lifesim(["test", "m.lua", "--ios", "17", "--compare", "scenes", "--html", "report", "-q"], cwd: dir)
    #expect(r.status == 1, "\(r.err)")
    #expect(try FileManager.default.contentsOfDirectory(atPath: dir + "/report/logs") == ["m-ios17.lifelog"])
    #expect(try String(contentsOfFile: dir + "/report/index.html", encoding: .utf8).contains("<a href=\"case-1.html\">timeline</a>"))
  }

  @Test func wrongAxesAreUsageErrors() throws {
    let withSDK = try lifesim(["test", Self.bundled, "--compare", "sdk=26,27", "--sdk", "26"])
    #expect(withSDK.status == 2 && withSDK.err.hasPrefix("lifesim: --compare sdk=A,B names the SDKs to run with; it cannot go with --sdk\n"), "\(withSDK.err)")
    for wrong in ["sdk=26", "sdk=27,27", "sdk=26,x", "sdk=11,26", "sdk=19,26", "sdk=", "ios"] {
      let r = try lifesim(["test", Self.bundled, "--compare", wrong])
      #expect(r.status == 2 && r.err.hasPrefix("lifesim: The value '\(wrong)' is invalid for '--compare <AXIS>'. "
                                                + "Please provide one of 'profiles', 'scenes' or 'sdk=A,B'.\n"), "\(wrong): \(r.err)")
    }
    let both = try lifesim(["test", Self.bundled, "--compare", "scenes", "--compare-profiles"])
    #expect(both.status == 2 && both.err.hasPrefix("lifesim: --compare-profiles is --compare profiles; it cannot go with --compare scenes\n"))
  }
}
