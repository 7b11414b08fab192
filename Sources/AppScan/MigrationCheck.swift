import Lifecycle
import Render
import Suite

/// What runs of both mirrors showed of one migration change.
package enum MigrationConfirmation: Sendable, Equatable {
  /// The pair of cases (same scenario and profile) that shows it, what they showed, and the
  /// command that runs each side's case again.
  case confirmed(scenario: String, ios: Int, sdk: Int?, shows: String, before: String, after: String)
  /// No run showed it, or none was made: why. The change keeps its `regression`.
  case unconfirmed(why: String)
}

/// `scan --compare BEFORE AFTER --check`: the battery run on the mirror of each side, on the
/// same profiles, its cases paired by scenario, iOS and SDK, and each regression confirmed by
/// a pair that shows it through the model:
///
/// - `handler_silenced`, `payload_lost`: BEFORE's case delivered the app-delegate method the
///   change is about, and AFTER's same case delivered neither it nor its scene replacement;
/// - `moved_after_launch`: the background case of the moved registration's identifier (or a
///   cold notification tap, for the notification delegate) passed before and fails after;
/// - any kind: a runtime diagnostic of the change's code in AFTER's case and not in BEFORE's.
///
/// An imperfect mirror never hides a regression: what no pair shows stays a regression, with why.
package struct MigrationCheck {
  /// One side of the comparison: its scan, and how a command line names it.
  package struct Side {
    package let report: ScanReport
    /// The folder its files are cited from.
    package let root: String
    /// The tree as the command line named it: a folder, or `git:REV`.
    package let path: String
    /// `--target T`, `--exclude G`: what picks this side's app again.
    package let options: [String]

    package init(report: ScanReport, root: String, path: String, options: [String]) {
      self.report = report; self.root = root; self.path = path; self.options = options
    }

    /// `lifesim scan PATH …`: the words that scan this side again.
    var command: [String] { ["lifesim", "scan", path] + options }
  }

  /// The profiles both sides run on when `--ios` and `--sdk` name none: the release with the
  /// scene mandate and the one before it, each with both SDKs.
  package static let defaultReleases = IOSRelease.versions.filter { $0 <= IOSRelease.sceneMandate }.suffix(2).map { $0 }

  let checker: ScanCheck

  package init(_ checker: ScanCheck) { self.checker = checker }

  /// Runs the battery on both mirrors (only the case `only` names, when given). AFTER also runs
  /// each case of BEFORE's battery that its own lacks (a quick action AFTER no longer handles),
  /// expecting what BEFORE's app handled.
  package func run(_ before: Side, _ after: Side, only: String?) throws(ScanTrouble) -> (before: ScanCheck.Outcome, after: ScanCheck.Outcome) {
    let beforeCases = CheckBattery.scenarios(for: before.report).run
    if let only, !(beforeCases + CheckBattery.scenarios(for: after.report).run).contains(where: { $0.name == only }) {
      throw ScanTrouble("--case \(only): no such case of either side's battery (BEFORE's cases: \(beforeCases.map(\.name).joined(separator: ", ")))")
    }
    return (try run(before, only: only, extras: []), try run(after, only: only, extras: beforeCases))
  }

  /// Runs the battery on `side`'s mirror (`ScanCheck.runBattery`).
  private func run(_ side: Side, only: String?, extras: [CheckBattery.Scenario]) throws(ScanTrouble) -> ScanCheck.Outcome {
    // A case that this side's battery does not have is not run there: the pair is not made.
    if let only, !(CheckBattery.scenarios(for: side.report).run + extras).contains(where: { $0.name == only }) {
      return ScanCheck.Outcome(results: [], notRun: ["\(only): not in this side's battery"])
    }
    return try checker.runBattery(of: side.report, root: side.root, only: only, extras: extras, findings: [])
  }

  /// What the pairs of cases show of `change` (its places as the scans name them).
  package static func confirmation(of change: MigrationChange, before: Side, after: Side,
                                    runs: (before: ScanCheck.Outcome, after: ScanCheck.Outcome)) -> MigrationConfirmation {
    guard change.regression else { return .unconfirmed(why: "a correct move: runs confirm regressions") }
    let pairs = Self.pairs(runs.before.results, runs.after.results)
    guard !pairs.isEmpty else { return .unconfirmed(why: "no case ran on both sides") }
    // Of the payloads that launch the app, the battery delivers only a notification tap cold.
    if change.kind == .payloadLost, change.atLaunch, callbackKeys(change, before.report)?.method.hasPrefix("NotificationDelegate.") != true {
      return .unconfirmed(why: "no case of the battery delivers this payload at a cold launch")
    }
    var evidence = [diagnosticShown(change)]
    switch change.kind {
    case .handlerSilenced, .payloadLost:
      if let keys = callbackKeys(change, before.report) { evidence.insert(callbackLost(keys), at: 0) }
    case .movedAfterLaunch:
      evidence.insert(brokenAfter(showingScenarios(change, after.report)), at: 0)
    case .workDuplicated:
      evidence.insert(bothDelivered(duplicatingKeys(change, after.report)), at: 0)
    default:
      break
    }
    // A payload is shown by the cases that deliver it the same way: a cold case for the one that
    // launches the app, a warm one for the one that reaches it running.
    let moment = { (r: CaseResult) in change.kind != .payloadLost || r.scenario.hasSuffix(" cold") == change.atLaunch }
    for shows in evidence {
      for (b, a) in pairs where moment(b) {
        guard let text = shows(b, a) else { continue }
        let scenario = b.scenario
        let caseWords = ["--check", "--case", scenario, "--ios", String(b.ios)] + (b.sdk.map { ["--sdk", String($0)] } ?? [])
        // A case AFTER's own battery lacks runs only beside BEFORE's: the comparison runs it again.
        let afterOwn = CheckBattery.scenarios(for: after.report).run.contains { $0.name == scenario }
        let afterWords = afterOwn ? after.command + caseWords : ["lifesim", "scan", "--compare", before.path, after.path] + after.options + caseWords
        return .confirmed(scenario: scenario, ios: b.ios, sdk: b.sdk, shows: text,
                          before: ShellCommand.line(before.command + caseWords), after: ShellCommand.line(afterWords))
      }
    }
    return .unconfirmed(why: "no pair of cases of the battery on this matrix showed it")
  }

  /// The cases of both sides with the same scenario, iOS and SDK, in BEFORE's order; only
  /// cases that ran (a skipped case delivered nothing, which would look like a loss).
  private static func pairs(_ before: [CaseResult], _ after: [CaseResult]) -> [(CaseResult, CaseResult)] {
    let key = { (r: CaseResult) in "\(r.scenario)\u{1F}\(r.ios)\u{1F}\(r.sdk ?? 0)" }
    let ran = { (r: CaseResult) in r.choices.isEmpty && (r.status == .passed || r.status == .failed) }
    var byKey: [String: CaseResult] = [:]
    for r in after where ran(r) { byKey[key(r)] = byKey[key(r)] ?? r }
    return before.filter(ran).compactMap { b in byKey[key(b)].map { (b, $0) } }
  }


  private typealias Shows = (CaseResult, CaseResult) -> String?

  /// The delegate method the change is about (`AppDelegate.openURL`) and, for an app
  /// delegate's, its scene replacement's, as the runs name delivered callbacks.
  private static func callbackKeys(_ change: MigrationChange, _ report: ScanReport) -> (method: String, replacement: String?)? {
    guard let method = report.methods.first(where: { [.application, .scene, .notification].contains($0.role) && $0.place == change.before }),
          let callback = Callback(signature: method.selector) else { return nil }
    if method.role == .notification { return ("NotificationDelegate." + callback.key, nil) }
    guard method.role == .application else { return ("SceneDelegate." + callback.key, nil) }
    let replacement = SceneReplacements.replacement(for: method.selector).flatMap(Callback.init(signature:))
    return ("AppDelegate." + callback.key, replacement.map { "SceneDelegate." + $0.key })
  }

  private static func callbackLost(_ keys: (method: String, replacement: String?)) -> Shows {
    { b, a in
      guard b.callbacksDelivered.contains(keys.method), !a.callbacksDelivered.contains(keys.method) else { return nil }
      if let replacement = keys.replacement, a.callbacksDelivered.contains(replacement) { return nil }
      return "BEFORE's run called \(keys.method); AFTER's " + (keys.replacement.map { "called neither it nor \($0)" } ?? "did not")
    }
  }

  /// The battery's cases that exercise a registration or delegate assignment at AFTER's place.
  private static func showingScenarios(_ change: MigrationChange, _ report: ScanReport) -> Set<String> {
    if let delegate = report.notificationDelegate, delegate.place == change.after { return ["notification tap cold"] }
    let identifiers = report.registrations.filter { $0.place == change.after }.compactMap(\.identifier)
    return Set(identifiers.flatMap { ["background refresh \($0)", "background processing \($0)"] })
  }

  private static func brokenAfter(_ scenarios: Set<String>) -> Shows {
    { b, a in
      guard scenarios.contains(b.scenario), b.status == .passed, a.status == .failed else { return nil }
      return "BEFORE's run passed; AFTER's failed: \(a.message ?? "")"
    }
  }

  /// The scene-delegate method at AFTER's place and the app delegate's launch methods that
  /// share its work, as the runs name delivered callbacks.
  private static func duplicatingKeys(_ change: MigrationChange, _ report: ScanReport) -> (scene: String, launch: [String])? {
    guard let connect = report.methods.first(where: { $0.role == .scene && $0.place == change.after }),
          let key = Callback(signature: connect.selector)?.key else { return nil }
    let launch = report.methods.filter { $0.role == .application && SceneReplacements.launchSelectors.contains($0.selector)
      && !$0.calls.isDisjoint(with: connect.calls) }
    return ("SceneDelegate." + key, launch.compactMap { Callback(signature: $0.selector).map { "AppDelegate." + $0.key } })
  }

  /// AFTER's case called both the launch method and the scene-delegate method that run the work.
  private static func bothDelivered(_ keys: (scene: String, launch: [String])?) -> Shows {
    { _, a in
      guard let keys, a.callbacksDelivered.contains(keys.scene),
            let launch = keys.launch.first(where: a.callbacksDelivered.contains) else { return nil }
      return "AFTER's run called both \(launch) and \(keys.scene), and each runs the work"
    }
  }

  /// A runtime diagnostic of the change's code in AFTER's case and not in BEFORE's.
  private static func diagnosticShown(_ change: MigrationChange) -> Shows {
    { b, a in
      let code = change.kind.rawValue
      guard !b.diagnostics.contains(where: { $0.code == code }), let shown = a.diagnostics.first(where: { $0.code == code }) else { return nil }
      return "AFTER's run recorded \(code): \(shown.message)"
    }
  }
}

extension CaseResult {
  /// The battery scenario the case ran: its name without the profile and variant.
  var scenario: String {
    name.lastRange(of: " [iOS ").map { String(name[..<$0.lowerBound]) } ?? name
  }
}
