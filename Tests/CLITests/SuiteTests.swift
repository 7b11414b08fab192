import Foundation
import Testing
import TestSupport

/// The repository's root.
private let root = repositoryRoot.path

/// Runs `binary` (default: the debug lifesim) in `cwd` (default: the repository); `env`, when given, is the whole environment.
private func run(_ args: [String], cwd: String = root, binary: String = root + "/.build/debug/lifesim",
                 env: [String: String]? = nil) throws -> (status: Int32, out: String, err: String) {
  try runProcess(binary, args, cwd: cwd, env: env ?? [:], replacingEnvironment: env != nil)
}

/// Runs a Python program (stdin-free); its stdout.
private func python(_ program: String, _ args: [String] = []) throws -> (status: Int32, out: String, err: String) {
  try run(["python3", "-c", program] + args, binary: "/usr/bin/env")
}

/// The JSON Lines of `--json` output.
private func jsonLines(_ text: String) throws -> [[String: Any]] {
  try text.split(separator: "\n").map { line in
    try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
  }
}

/// The `<testcase` elements of a JUnit report (SuiteRunnerTests read the report with a real consumer).
private func testcaseCount(_ path: String) throws -> Int {
  try String(contentsOfFile: path, encoding: .utf8).components(separatedBy: "<testcase ").count - 1
}

@Suite(.serialized) struct SuiteTests {
  /// The names and statuses are SuiteRunnerTests'; here, the folder the command runs in.
  @Test func resolvesScriptsFromAnyFolder() throws {
    let dir = try suiteFixture("discovery")
    // From another folder: the app and the module resolve relative to the scenario file.
    let r = try run(["test", dir, "-q", "-j", "1"], cwd: NSTemporaryDirectory())
    #expect(r.status == 1)
    // A relative path from inside the suite.
    let relative = try run(["test", "../a", "-q", "--no-wall-time"], cwd: dir + "/b")
    #expect(relative.status == 0, "\(relative.out)\(relative.err)")
    #expect(relative.out == "1 case: 1 passed, 0 failed, 0 skipped, 0 errors (virtual time 0.00 s).\n")
    let none = try run(["test", dir, "--filter", "nothing-matches"])
    #expect(none.status == 2)
    #expect(none.err.hasPrefix("lifesim: no scenario in \(dir) matching \"nothing-matches\""))
  }

  /// The matrix itself is SuiteRunnerTests'; here, --ios that names nothing is a usage error.
  @Test func aBadIOSListIsAUsageError() throws {
    let dir = try suiteFixture("matrix")
    let bad = try run(["test", dir, "--ios", "19-25"])
    #expect(bad.status == 2)
    #expect(bad.err.hasPrefix("lifesim: --ios 19-25: \"19-25\" names no iOS release (12 to 18, 26, or 27)\n"))
    let typo = try run(["test", dir, "--ios", "15,x"])
    #expect(typo.err.hasPrefix("lifesim: --ios 15,x: \"x\" is not a release (12 to 18, 26, or 27), a range such as 13-17, or all\n"))
  }

  @Test func aFailureShowsTheExpectationTheTraceAndTheReproduceCommand() throws {
    let dir = try suiteFixture("human")
    let r = try run(["test", dir + "/b/failing.lua", "--ios", "15", "--no-wall-time"])
    #expect(r.status == 1)
    #expect(r.err == "")  // no progress line: stderr is not a terminal
    let lines = r.out.components(separatedBy: "\n")
    #expect(lines[0] == "✘ failing [iOS 15]")
    #expect(lines[1] == "FAILED failing [iOS 15]  (\(dir)/b/failing.lua)")
    #expect(lines[2] == "  expect_state: expected state active, but the app is suspended  (\(dir)/b/failing.lua:4)")
    #expect(lines[3] == "  trace:")
    #expect(lines[12] == "        0.000000 ✘ expect_state: expected state active, but the app is suspended  \(dir)/b/failing.lua:4")
    #expect(lines[13] == "  reproduce: lifesim run \(dir)/b/failing.lua --ios 15 --seed 1")
    #expect(lines[14] == "Files: 1 scenario, 0 apps, 0 modules, 0 not cases.")
    #expect(lines[15] == "1 case: 0 passed, 1 failed, 0 skipped, 0 errors (virtual time 0.00 s).")
    // The reproduce command reproduces it.
    let again = try run(["run", dir + "/b/failing.lua", "--ios", "15", "--seed", "1", "-q"])
    #expect(again.status == 1 && again.out.contains("Expectations: 0 passed, 1 failed."))
    let quiet = try run(["test", dir, "--ios", "15", "-q", "--no-wall-time"])
    #expect(quiet.out.hasPrefix("FAILED failing [iOS 15]"))
  }

  @Test func anUnexpectedTerminationFailsTheCaseAndSaysSo() throws {
    let dir = try suiteFixture("killed")
    try "app { root = \"Home\" }\nfunction AppDelegate.didFinishLaunchingWithOptions() work(25) return true end\ncontroller \"Home\" {}\n"
      .write(toFile: dir + "/apps/heavy.lua", atomically: true, encoding: .utf8)
    try "scenario { app = \"../apps/heavy.lua\" }\nlaunch()\n".write(toFile: dir + "/a/killed.lua", atomically: true, encoding: .utf8)
    let r = try run(["test", dir + "/a/killed.lua", "--json", "--no-wall-time"])
    #expect(r.status == 1, "\(r.out)\(r.err)")
    let line = try #require(try jsonLines(r.out).first)
    #expect(line["status"] as? String == "failed")
    #expect((line["message"] as? String)?.hasPrefix("unexpected termination (watchdog 0x8badf00d): ") == true, "\(line)")
    #expect((line["trace"] as? [String])?.last?.contains("✖ terminated: watchdog 0x8badf00d") == true)
    // A crash in app code is a termination too: the case says which, with its trace, and JUnit calls it one.
    try "app { root = \"Home\" }\ncontroller \"Home\" { viewDidLoad = function(vc) error(\"kaboom\") end }\n"
      .write(toFile: dir + "/apps/crashing.lua", atomically: true, encoding: .utf8)
    try "scenario { app = \"../apps/crashing.lua\" }\nlaunch()\n".write(toFile: dir + "/a/crashing.lua", atomically: true, encoding: .utf8)
    let junit = temporaryPath("lifesim-suite", "crashing.xml")
    let c = try run(["test", dir + "/a/crashing.lua", "--json", "--no-wall-time", "--junit", junit])
    #expect(c.status == 1, "\(c.out)\(c.err)")
    let crash = try #require(try jsonLines(c.out).first)
    #expect(crash["message"] as? String == "unexpected termination (crash): \(dir)/apps/crashing.lua:2: kaboom; name it with expect_terminated if the scenario means it", "\(crash)")
    #expect((crash["trace"] as? [String])?.isEmpty == false)
    let xml = try String(contentsOfFile: junit, encoding: .utf8)
    #expect(xml.contains("<failure message=\"unexpected termination (crash): "), "\(xml)")
    #expect(xml.contains("type=\"termination\""), "\(xml)")
  }

  @Test func anExistingReportIsReplacedOnlyWithForce() throws {
    let junit = temporaryPath("lifesim-suite", "precious.xml")
    try "precious\n".write(toFile: junit, atomically: true, encoding: .utf8)
    let refused = try run(["test", "Scripts/scenarios/home_and_return.lua", "-q", "--junit", junit])
    #expect(refused.status == 2)
    #expect(refused.err == "lifesim: \(junit): already exists; refusing to overwrite it (pass --force to replace it)\n", "\(refused.err)")
    #expect(try String(contentsOfFile: junit, encoding: .utf8) == "precious\n")
    let html = temporaryPath("lifesim-suite", "precious-html")
    try FileManager.default.createDirectory(atPath: html, withIntermediateDirectories: true)
    try "precious\n".write(toFile: html + "/index.html", atomically: true, encoding: .utf8)
    #expect(try run(["test", "Scripts/scenarios/home_and_return.lua", "-q", "--html", html]).status == 2)
    #expect(try String(contentsOfFile: html + "/index.html", encoding: .utf8) == "precious\n")
    let forced = try run(["test", "Scripts/scenarios/home_and_return.lua", "-q", "--junit", junit, "--force"])
    #expect(forced.status == 0, "\(forced.out)\(forced.err)")
    #expect(try String(contentsOfFile: junit, encoding: .utf8).hasPrefix("<?xml"))
  }

  @Test func aTerminalGetsALiveProgressLine() throws {
    let dir = try suiteFixture("progress")
    // script(1) gives the command a terminal for stdout and stderr.
    let r = try run(["script", "-qec", "\(root)/.build/debug/lifesim test \(dir)/b/failing.lua \(dir)/a --ios 15,16 -q -j 1 --no-wall-time",
                     "/dev/null"], binary: "/usr/bin/env")
    // Redrawn as cases end (a busy machine may end two before the line is drawn), cleared at the end.
    #expect(r.out.hasPrefix("\r\u{1B}[K["), "\(r.out)")
    #expect(r.out.contains("\r\u{1B}[K[4/4] 2 failing\r\u{1B}[KFAILED failing [iOS 15]"), "\(r.out)")
    #expect(r.out.contains("4 cases: 2 passed, 2 failed, 0 skipped, 0 errors (virtual time 0.00 s)."))
  }

  @Test func logsKeepFailingCasesUnderTheCaseName() throws {
    let dir = try suiteFixture("logs")
    let logs = temporaryPath("lifesim-suite", "kept")
    let r = try run(["test", dir, "--ios", "14,15", "--logs", logs, "-q"])
    #expect(r.status == 1)
    #expect(try FileManager.default.contentsOfDirectory(atPath: logs).sorted() == ["failing-ios14.lifelog", "failing-ios15.lifelog"])
    #expect(r.out.contains("  log: \(logs)/failing-ios15.lifelog\n"))
    #expect(try run(["verify", logs + "/failing-ios15.lifelog"]).status == 0)
    #expect(try run(["replay", logs + "/failing-ios15.lifelog", "--verify"]).status == 0)
    let diff = try run(["diff", logs + "/failing-ios14.lifelog", logs + "/failing-ios15.lifelog"])
    #expect(diff.status == 0 || diff.status == 1, "\(diff.err)")
    let all = temporaryPath("lifesim-suite", "all")
    _ = try run(["test", dir, "--ios", "14,15", "--scenes", "both", "--logs", all, "--keep", "all", "-q"])
    #expect(try FileManager.default.contentsOfDirectory(atPath: all).sorted() == [
      "failing-ios14-no-scenes.lifelog", "failing-ios14.lifelog", "failing-ios15-no-scenes.lifelog", "failing-ios15.lifelog",
      "later-ios15-no-scenes.lifelog", "later-ios15.lifelog",
      "one-ios14-no-scenes.lifelog", "one-ios14.lifelog", "one-ios15-no-scenes.lifelog", "one-ios15.lifelog"])
    let keepAlone = try run(["test", dir, "--keep", "all"])
    #expect(keepAlone.status == 2 && keepAlone.err.hasPrefix("lifesim: --keep all goes with --logs DIR\n"))
  }

  /// Which statuses a suite ends with is SuiteRunnerTests'; here, that the process exits with them.
  @Test func exitStatuses() throws {
    let dir = try suiteFixture("status")
    #expect(try run(["test", dir + "/a", "-q"]).status == 0)
    #expect(try run(["test", dir + "/b/later.lua", "--ios", "14", "-q"]).status == 2)  // skipped only: nothing ran
    try "scenario { }\nlaunch()\nerror(\"boom\")\n".write(toFile: dir + "/a/crashing.lua", atomically: true, encoding: .utf8)
    let r = try run(["test", dir, "--json", "--no-wall-time"])
    #expect(r.status == 2)
    #expect(try jsonLines(r.out).last?["exitStatus"] as? Int == 2)
    #expect(try run(["test", "-j", "0", dir]).status == 2)
    #expect(try run(["test", "/no/such/folder"]).err == "lifesim: /no/such/folder: No such file or directory\n")
  }

  /// Shards are SuiteRunnerTests'; here, a shard that cannot exist is a usage error.
  @Test func aBadShardIsAUsageError() throws {
    let bad = try run(["test", "Scripts", "--shard", "4/3"])
    #expect(bad.status == 2 && bad.err.hasPrefix("lifesim: --shard 4/3: expected K/N with 1 <= K <= N, e.g. 2/4\n"))
  }

  @Test func compareProfilesShowsWhatChangesAtIOS15() throws {
    let dir = try suiteFixture("compare")
    let scenario = dir + "/b/prewarmed.lua"
    try "scenario { }\nprewarm()\nlaunch()\nexpect_state(\"active\")\n".write(toFile: scenario, atomically: true, encoding: .utf8)
    let r = try run(["test", scenario, "--ios", "14-16", "--compare-profiles", "-q", "--no-wall-time"])
    #expect(r.status == 2)
    let lines = r.out.components(separatedBy: "\n")
    let refusal = "\(scenario):2: prewarm(): prewarming needs iOS 15 or later (profile: iOS 14) (state: not_running)"
    #expect(lines[0] == "prewarmed: iOS 14 → 15")
    #expect(lines[1] == "  appeared: willFinishLaunchingWithOptions ×1, didFinishLaunchingWithOptions ×1, configurationForConnecting ×1, "
              + "init ×1, willConnectTo ×1, loadView ×1, viewDidLoad ×1, viewWillAppear ×1, viewIsAppearing ×1, viewWillLayoutSubviews ×1, "
              + "viewDidLayoutSubviews ×1, sceneWillEnterForeground ×1, sceneDidBecomeActive ×1, viewDidAppear ×1")
    #expect(lines[2] == "  outcome: error → passed; final state: not_running → active; expectations: 0 passed, 0 failed → 1 passed, 0 failed; "
              + "script error: \(refusal) → none")
    #expect(lines[3] == "  first divergence: - scriptError: \(refusal) + prewarm")
    #expect(lines[4].hasPrefix("ERROR prewarmed [iOS 14]"))
    #expect(!r.out.contains("iOS 15 → 16"))
    let json = try run(["test", scenario, "--ios", "14-16", "--compare-profiles", "--json", "--no-wall-time"])
    let change = try #require(try jsonLines(json.out).first { $0["kind"] as? String == "comparison" })
    #expect(change["axis"] as? String == "profiles" && change["scenario"] as? String == "prewarmed")
    let from = try #require(change["from"] as? [String: Any]), to = try #require(change["to"] as? [String: Any])
    #expect(from["ios"] as? Int == 14 && to["ios"] as? Int == 15 && from["scenes"] as? Bool == true && to["scenes"] as? Bool == true)
    #expect((change["status"] as? [String: String]) == ["from": "error", "to": "passed"])
    // The bundled suite: each neighbouring pair that differs is named, oldest first.
    let bundled = try run(["test", "Scripts/scenarios/app_switcher_other.lua", "--ios", "12-14", "--compare-profiles", "-q"])
    #expect(bundled.out.hasPrefix("app switcher, other app: iOS 12 → 13, no scenes\n  appeared: viewIsAppearing ×1, traitCollectionDidChange ×2\n"
                                  + "  first divergence: + viewIsAppearing (after viewWillAppear)\n"), "\(bundled.out)")
  }

  @Test func theCIExamplesParseAndCallLifesimTestWithJUnit() throws {
    let program = """
      import json, re, shlex, sys, yaml
      text = open(sys.argv[1], encoding="utf-8").read()
      blocks = [yaml.safe_load(b) for b in re.findall(r"```yaml\\n(.*?)```", text, re.S)]
      github = next(b for b in blocks if "jobs" in b)
      gitlab = next(b for b in blocks if "lifesim" in b and "script" in b["lifesim"])
      steps = github["jobs"]["scenarios"]["steps"]
      gh_run = next(s["run"] for s in steps if "lifesim test" in s.get("run", ""))
      gh_report = next(s["with"]["report_paths"] for s in steps if "junit-report" in s.get("uses", ""))
      gl_run = next(c for c in gitlab["lifesim"]["script"] if "lifesim test" in c)
      out = {
        "github": shlex.split(gh_run.replace("${{ matrix.shard }}", "1")), "githubPublishes": gh_report,
        "gitlab": shlex.split(gl_run.replace("$CI_NODE_INDEX/$CI_NODE_TOTAL", "2/2")),
        "gitlabPublishes": gitlab["lifesim"]["artifacts"]["reports"]["junit"],
      }
      print(json.dumps(out))
      """
    let r = try python(program, [root + "/docs/ci.md"])
    try #require(r.status == 0, "\(r.err)")
    let parsed = try #require(try JSONSerialization.jsonObject(with: Data(r.out.utf8)) as? [String: Any])
    for ci in ["github", "gitlab"] {
      let argv = try #require(parsed[ci] as? [String])
      #expect(Array(argv.prefix(2)) == ["lifesim", "test"], "\(ci)")
      let junitIndex = try #require(argv.firstIndex(of: "--junit"), "\(ci) has no --junit")
      let junit = argv[junitIndex + 1]
      #expect(parsed[ci + "Publishes"] as? String == junit, "\(ci) publishes another file")
      // The command works as written (its shard of the bundled suite), and writes the report it publishes.
      let report = temporaryPath("lifesim-suite", "\(ci)-\(junit)")
      var args = argv
      args[junitIndex + 1] = report
      args.removeFirst()
      if let logs = args.firstIndex(of: "--logs") { args[logs + 1] = temporaryPath("lifesim-suite", "\(ci)-logs") }
      let run = try run(args)
      #expect(run.status == 0, "\(ci): \(run.out)")
      #expect(try testcaseCount(report) == 576)
    }
  }

  @Test func theReleaseBinaryRunsTheBundledSuiteOutsideTheRepoWithoutSwift() throws {
    // Builds (or brings up to date) the tarball as a user would.
    // Under `make test` this make is nested: without --no-print-directory it would end its output
    // with "make[1]: Leaving directory …" (seen in CI's fresh clone).
    let make = try run(["make", "--no-print-directory", "release"], binary: "/usr/bin/env")
    try #require(make.status == 0, "make release: \(make.out)\(make.err)")
    let tarball = try #require(make.out.split(separator: "\n").last { $0.hasPrefix("dist/") }.map(String.init))
    #expect(tarball.hasPrefix("dist/lifesim-") && tarball.hasSuffix(".tar.gz"))
    let outside = temporaryPath("lifesim-release", "unpacked")
    try FileManager.default.createDirectory(atPath: outside, withIntermediateDirectories: true)
    #expect(try run(["tar", "-xzf", root + "/" + tarball, "-C", outside, "--strip-components=1"], binary: "/usr/bin/env").status == 0)
    let binary = outside + "/bin/lifesim"
    #expect(FileManager.default.fileExists(atPath: outside + "/Scripts/types/scenario.lua"))
    // Fully static (Package.swift): no shared library at all, not even the C library's, so the
    // machine needs nothing beyond the kernel; ldd refuses it as "not a dynamic executable".
    let ldd = try run(["ldd", binary], binary: "/usr/bin/env")
    #expect(ldd.status != 0 && ldd.out.isEmpty && ldd.err.contains("not a dynamic executable"), "ldd: \(ldd.out)\(ldd.err)")
    // A PATH without swift, a working folder outside the repository, no LIFESIM_LIB.
    let env = ["PATH": "/usr/bin:/bin", "HOME": outside]
    #expect(try run(["sh", "-c", "command -v swift"], binary: "/usr/bin/env", env: env).status != 0)
    let suite = try run(["test", "Scripts", "--ios", "all", "-q", "--no-wall-time", "--junit", "report.xml"], cwd: outside, binary: binary, env: env)
    #expect(suite.status == 0, "\(suite.out)\(suite.err)")
    #expect(suite.out == "576 cases: 456 passed, 0 failed, 120 skipped, 0 errors (virtual time 75179.00 s).\n")
    #expect(try testcaseCount(outside + "/report.xml") == 576)
    // `lifesim scan --check` finds its battery (Scripts/scan) beside the unpacked binary.
    let check = try run(["scan", root + "/Tests/AppScanTests/Fixtures/SceneRegistrationApp", "--check", "--ios", "17", "--sdk", "26"],
                        cwd: outside, binary: binary, env: env)
    #expect(check.status == 1 && check.out.contains("\ncheck: 8 scenarios on iOS 17 × SDK 26, with scenes\n"), "\(check.out)\(check.err)")
    // `make install` installs the binary `make release` built: nothing is compiled again.
    let prefix = temporaryPath("lifesim-release", "prefix")
    let install = try run(["make", "--no-print-directory", "install", "PREFIX=" + prefix], binary: "/usr/bin/env")
    #expect(install.status == 0, "make install: \(install.out)\(install.err)")
    #expect(!install.out.contains("Compiling") && !install.out.contains("Linking"), "make install built again: \(install.out)")
    #expect(FileManager.default.isExecutableFile(atPath: prefix + "/bin/lifesim"))
    #expect(FileManager.default.fileExists(atPath: prefix + "/share/lifesim/scan/cold_launch.lua.in"))
    try expectImageTreeRuns(tarball: root + "/" + tarball, bundledSuite: suite.out)
  }

  /// The container image's tree, laid out from the tarball as `make image` does, runs the bundled
  /// suite and a shard of an exploration with only the Containerfile's environment, from its
  /// working folder, through its entry point.
  private func expectImageTreeRuns(tarball: String, bundledSuite: String) throws {
    let image = try ContainerImage(containerfile: root + "/Containerfile")
    let tree = temporaryPath("lifesim-release", "image")
    let laid = try run(["deploy/image-tree", tarball, tree], binary: "/usr/bin/env")
    try #require(laid.status == 0, "deploy/image-tree: \(laid.err)")
    let tmp = try FileManager.default.attributesOfItem(atPath: tree + "/tmp")[.posixPermissions] as? Int
    #expect(tmp == 0o1777)
    let binary = tree + image.entryPoint[0], cwd = tree + image.workingDirectory
    let suite = try run(["test", "Scripts", "--ios", "all", "-q", "--no-wall-time"], cwd: cwd, binary: binary, env: image.environment)
    #expect(suite.status == 0 && suite.out == bundledSuite, "\(suite.out)\(suite.err)")
    let shard = temporaryPath("lifesim-release", "shard-1")
    let explore = try run(["explore", "Scripts/apps/notes.lua", "--seed", "42", "--runs", "64", "--shard-index", "1/4", "--exit-zero", "-o", shard],
                          cwd: cwd, binary: binary, env: image.environment)
    #expect(explore.status == 0, "\(explore.out)\(explore.err)")
    let report = try String(contentsOfFile: shard + "/report.json", encoding: .utf8)
    #expect(report.contains("\"shard\":\"2/4\""), "\(report)")
  }
}
