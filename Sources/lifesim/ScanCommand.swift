import AppScan
import ArgumentParser
import FoundationEssentials
import EventStore
import JSON
import Lifecycle
import Render
import ScriptHost
import Suite

struct Scan: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "scan",
    abstract: "Read a Swift app's delegates and Info.plist, and report its lifecycle risks.",
    discussion: helpText("""
      Finds *.swift, Xcode projects, Info.plists (XML, binary or preprocessed) and storyboards
      under the paths (skipping build folders, Pods, Carthage and .build), parses the Swift
      without type checking, and reports each iOS app target's lifecycle shape and the
      diagnostics of docs/scan.md, each with its target, file:line, rule and the rule's source.
      A project's targets say which files and which Info.plist are whose; extensions, watchOS
      and macOS targets are listed as what they are. Without a project, each @main app delegate
      is an app of its own. Exit status: 0 no diagnostics, 1 diagnostics, 2 trouble (a path
      missing, no app found, a file that cannot be read).

      Example:
        lifesim scan MyApp/
        lifesim scan . --target MyApp --format sarif > scan.sarif
        lifesim scan --compare git:main .   # what this branch changed
      """)
  )

  enum Format: String, ExpressibleByArgument, CaseIterable { case text, json, sarif }

  @Argument(help: "Folders or files to scan; git:REV is that revision of the git repository holding the current folder, read without touching the work tree (its files are named from a temporary copy).")
  var paths: [String]

  @Option(help: ArgumentHelp("An earlier `--json` or SARIF output of this scan: findings it holds are reported as unchanged and do not fail; new ones do.", valueName: "file"))
  var baseline: String?

  @Option(help: ArgumentHelp("A path not to read, as a shell glob from the scanned folder (`*` crosses `/`), e.g. 'Generated/*'. Repeatable.", valueName: "glob"))
  var exclude: [String] = []

  @Option(help: "Scan only this target (an Xcode target's name; without a project, the app's folder name as the report prints it).")
  var target: String?

  @Flag(help: "Compare two trees, BEFORE and AFTER (folders, or git:REV for that revision of the git repository holding the current folder, read without touching the work tree): list what the migration changed in each app's lifecycle, regressions first. Exit 1 when a regression is found.")
  var compare = false

  @Flag(help: "Also list what the scan looked at and did not follow (a call into code it does not have, a value handed on), with why: where it gave no finding rather than guess.")
  var explain = false

  @Flag(help: "The report as JSON Lines (docs/json.md): an app line, one line per diagnostic, the end line.")
  var json = false

  @Option(help: "text, json (as --json) or sarif (SARIF 2.1.0, for code scanning).")
  var format: Format = .text

  @Option(name: .customLong("emit-app"), help: "Also write the Lua app that mirrors the Swift (app.lua) and its scenarios into this folder.")
  var emitApp: String?

  @Flag(help: "With --emit-app: overwrite files already there.")
  var force = false

  @Flag(help: "Also run lifesim's battery of scenarios against the emitted app (in a temporary folder unless --emit-app says where) on an iOS × SDK matrix, and report what the runs find with the scan's diagnostics. With --compare: run it on both mirrors (iOS 26 and 27, each with SDK 26 and 27, unless --ios and --sdk say) and confirm each regression with a pair of cases.")
  var check = false

  @Option(help: "With --check: the profiles, e.g. \(ScanCheck.defaultIOS.map(String.init).joined(separator: ",")) (the default) or 15-27 or all.")
  var ios: String?

  @Option(help: "With --check: the SDKs the app is built with, e.g. \(ScanCheck.defaultSDKs.map(String.init).joined(separator: ",")) (the default).")
  var sdk: String?

  @Option(name: .customLong("case"), help: ArgumentHelp("With --check: run only this case of the battery (its name as the report prints it, e.g. 'home and return'), as a confirmation's reproduce line does.", valueName: "name"))
  var caseName: String?

  @OptionGroup var choice: ChoiceOptions

  func validate() throws {
    if compare {
      guard paths.count == 2 else { throw ValidationError("--compare takes two trees, BEFORE and AFTER (folders or git:REV), not \(paths.count)") }
      if emitApp != nil || baseline != nil || explain || !choice.choose.isEmpty {
        throw ValidationError("--compare compares two trees; --emit-app, --baseline, --explain and --choose go with a scan of one")
      }
    }
    if !check, ios != nil || sdk != nil || caseName != nil || !choice.choose.isEmpty {
      throw ValidationError("--ios, --sdk, --case and --choose go with --check")
    }
    if check, !compare, !json, format == .sarif {
      throw ValidationError("--check reports as text or JSON Lines; SARIF holds the scan's diagnostics only (scan without --check)")
    }
    _ = try matrix()
  }

  /// `--ios` and `--sdk` as releases, each parsed as `lifesim test --ios` is; without them,
  /// `defaultReleases` for both, or the scan's own defaults.
  private func matrix(defaultReleases: [Int]? = nil) throws -> ScanCheck {
    func releases(_ text: String, _ option: String) throws -> [Int] {
      do throws(ScenarioError) { return try IOSVersionSet(parsing: text).profiles } catch {
        throw ValidationError("\(option) \(text): \(error.message)")
      }
    }
    return ScanCheck(ios: try ios.map { try releases($0, "--ios") } ?? defaultReleases ?? ScanCheck.defaultIOS,
                     sdks: try sdk.map { try releases($0, "--sdk") } ?? defaultReleases ?? ScanCheck.defaultSDKs, choices: choice.choices)
  }

  func run() throws {
    defer { Terminal.flush() }
    if compare {
      let checker = try check ? matrix(defaultReleases: MigrationCheck.defaultReleases) : nil
      return try ScanCompare(paths: paths, target: target, exclude: exclude, format: json ? .json : format,
                             check: checker.map(MigrationCheck.init), caseName: caseName).run()
    }
    let format = json ? .json : format
    if format == .json { JSONLines.begin("scan") }
    var revisions: [GitRevisionTree] = []
    defer { revisions.forEach { $0.remove() } }
    let scan = try scanned(&revisions)
    var result = scan.result
    // Before any report line: a folder it cannot write to is trouble, and the end line says so.
    let emitted = try scan.mirror.map { try emit($0, into: emitApp ?? "", battery: scan.battery.files) }
    let checker = try matrix()
    let command = ["lifesim", "scan"] + paths + (target.map { ["--target", $0] } ?? []) + exclude.flatMap { ["--exclude", $0] }
    var runs: [ScanCheckSession.AppRun] = []
    if check {
      do throws(ScanTrouble) {
        if let folder = emitApp, let emitted {
          runs = [try ScanCheckSession(checker).runEmitted(&result, folder: folder, battery: scan.battery, mirror: emitted.mirror, command: command)]
        } else {
          runs = try ScanCheckSession(checker).run(&result, root: scan.root, only: caseName, command: command)
        }
      } catch {
        Terminal.error(TerminalText.visible(error.description))
        throw ExitCode(Status.trouble)
      }
    }
    let reported = emitted?.paths ?? []
    for path in reported where format != .text { Terminal.errorLine(TerminalText.visible("wrote \(path)")) }
    for trouble in result.troubles where format != .text { Terminal.error(TerminalText.visible("\(trouble.file): not read: \(trouble.reason)")) }
    let status = check ? ScanCheckSession.status(runs, scan: result.status) : result.status
    let targetOf = { (run: ScanCheckSession.AppRun) in runs.count > 1 ? result.apps[run.app].target : nil }
    switch format {
    case .text:
      for line in result.textLines { Terminal.write(line) }
      for run in runs {
        let lines = checker.textLines(run.outcome, scenes: result.apps[run.app].scenes, folderRemoved: emitApp == nil, target: targetOf(run))
        lines.forEach(Terminal.write)
      }
    case .json:
      for line in result.jsonLines { JSONLines.write(line) }
      for run in runs { for r in run.outcome.results { Terminal.write(JSONReport.caseLine(r, wallTimes: false, target: targetOf(run))) } }
      JSONLines.end(status: status, result.endMembers + (check ? [ScanCheckSession.endMember(runs, result)] : []))
    case .sarif:
      Terminal.write(result.sarif(toolVersion: lifesimVersion).canonicalText)
    }
    for path in reported where format == .text { Terminal.write(TerminalText.visible("wrote \(path)")) }
    if emitApp != nil, format == .text, let summary = emitted?.mirror {
      Terminal.write("mirror: app.lua carries \(summary.share); its opening comment lists what it left as comments")
    }
    if status != Status.ok { throw ExitCode(status) }
  }

  /// The scan of the paths, and with --check or --emit-app the mirror (and the battery's files);
  /// a `git:REV` path is that revision, read into a temporary folder (as --compare reads it,
  /// so a reproduce line of `--compare --check` runs from the same folder) and added to `revisions`.
  private func scanned(_ revisions: inout [GitRevisionTree]) throws
    -> (result: ScanResult, root: String, mirror: ScanMirror?, battery: (files: [(String, String)], notRun: [String])) {
    var roots = paths
    do throws(ScanTrouble) {
      for (index, path) in paths.enumerated() where path.hasPrefix("git:") {
        revisions.append(try GitRevisionTree.read(String(path.dropFirst(4)), from: FileManager.default.currentDirectoryPath))
        roots[index] = revisions[revisions.count - 1].root
      }
      var result = try AppScanner.scan(roots, target: target, exclude: exclude)
      if let baseline { result.baseline = try ScanBaseline.read(baseline).get() }
      result.explain = explain
      if emitApp != nil, result.apps.count > 1 {
        throw ScanTrouble("\(result.apps.count) app targets (\(result.apps.map(\.target).joined(separator: ", "))): --emit-app mirrors one app; choose it with --target")
      }
      // --check without --emit-app runs each app's battery in a temporary folder (ScanCheckSession).
      let mirror = emitApp != nil ? ScanMirror(result.apps[0], root: roots[0]) : nil
      var battery: (files: [(String, String)], notRun: [String]) = ([], [])
      if check, let mirror { battery = try ScanCheck.scenarioFiles(mirror, only: caseName) }
      return (result, roots[0], mirror, battery)
    } catch {
      Terminal.error(TerminalText.visible(error.description))
      throw ExitCode(Status.trouble)
    }
  }

  private func emit(_ mirror: ScanMirror, into directory: String, battery: [(String, String)]) throws -> (paths: [String], mirror: MirrorSummary) {
    let removed = { (path: String) in Terminal.errorLine(TerminalText.visible("removed \(path): a battery scenario this emit does not write")) }
    switch ScanEmit.write(mirror, into: directory, battery: battery, force: force, removed: removed) {
    case let .failure(trouble):
      Terminal.error(trouble.description)
      throw ExitCode(Status.trouble)
    case let .success(written):
      return written
    }
  }
}
