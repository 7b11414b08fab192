import EventStore
import Lifecycle
import ScriptHost
import Suite

/// `lifesim scan --check`: the bundled battery's scenarios (docs/scan.md), written beside the
/// emitted app and run on the iOS × SDK matrix by the suite's session, and what they found.
package struct ScanCheck {
  /// The profiles the battery runs on.
  package let ios: [Int]
  /// The SDKs the app is built with, each on every profile.
  package let sdks: [Int]
  /// `--choose`: the mirror's `choose` outcomes the user fixes, in every case.
  package let choices: ForcedChoices

  /// The SDKs the app is built with when `--sdk` names none: the App Store's and every newer one.
  package static let defaultSDKs = IOSRelease.versions.filter { $0 >= IOSRelease.appStoreSDK }
  /// The profiles when `--ios` names none: the default release, and those of `defaultSDKs`.
  package static let defaultIOS = [IOSRelease.defaultVersion] + defaultSDKs
  /// The folder, beside the emitted app, that the battery's scenarios are written into.
  package static let batteryFolder = "check"

  /// The matrix: `ios` profiles, each with the app built with each of `sdks`.
  package init(ios: [Int], sdks: [Int], choices: ForcedChoices = .init()) {
    self.ios = ios
    self.sdks = sdks
    self.choices = choices
  }

  /// Runs the battery's scenario files (those the emit wrote: nothing else in their folder) on
  /// the matrix, each case on a worker thread of this process, once per variant of the mirror's
  /// choices (`choicePlan`: each condition that guards one of `findings` both ways).
  package func run(_ files: [String], notRun: [String], mirror: MirrorSummary = .init(),
                   findings: [ScanDiagnostic] = []) throws(ScanTrouble) -> Outcome {
    let plan = Self.choicePlan(mirror, findings: findings, forced: choices)
    var options = CaseOptions(logsDirectory: nil, keepAllLogs: false, searchPath: ModuleSearchPath.folders(libs: []),
                              wallLimitSeconds: WallClock.defaultLimitSeconds, lib: [])
    options.choices = plan.base
    var request = SuiteRequest(paths: files, caseOptions: options)
    request.profiles = ios
    request.sdks = sdks.map(Optional.some)
    request.choiceVariants = plan.variants
    request.requiresScenario = false
    let results: [CaseResult]
    do { results = try SuiteSession(request).run().results } catch { throw ScanTrouble(error.message) }
    // A case the model refuses (a script error in the mirror's run) says nothing of the app: it
    // is listed as not run, with why, and not counted.
    let refused = results.filter { $0.status == .error }.map { "\($0.name): not run, \($0.message ?? "the run stopped")" }
    var outcome = Outcome(results: results.filter { $0.status != .error }, notRun: notRun + plan.notRun + refused, refused: refused.count)
    outcome.choiceGuards = mirror.choices
    outcome.unplacedTasks = mirror.unplacedTasks
    outcome.windowCalls = mirror.windowCalls
    return outcome
  }

  /// What the battery did: every case's result, and the scenarios it did not run, with why.
  package struct Outcome {
    /// The results of the cases run (not those the model refused), in case order.
    package let results: [CaseResult]
    /// The scenarios and cases not run, each with why.
    package let notRun: [String]
    /// The cases the model refused (listed in `notRun`).
    package var refused = 0
    /// Each `choose` site of the mirror and the Swift place of the effect it guards.
    package var choiceGuards: [(site: String, guards: SourcePlace)] = []
    /// Each background task the mirror could not place: where it begins, and a place a finding
    /// about it stands (`MirrorSummary.unplacedTasks`).
    package var unplacedTasks: [(begun: SourcePlace, guards: SourcePlace)] = []
    /// Each window call the mirror makes (`MirrorSummary.windowCalls`).
    package var windowCalls: [MirrorSummary.WindowCall] = []

    /// The results of the cases run, the scenarios not run (with why) and how many were refused.
    package init(results: [CaseResult], notRun: [String], refused: Int = 0) {
      self.results = results
      self.notRun = notRun
      self.refused = refused
    }

    /// The counts of `results`.
    package var summary: SuiteSummary { SuiteSummary(results) }
    /// The runs' diagnostics, each code and message once, with the cases that recorded it.
    package var diagnostics: [(diagnostic: Diagnostic, cases: [String])] {
      var found: [(diagnostic: Diagnostic, cases: [String])] = []
      for r in results {
        for d in r.diagnostics {
          if let i = found.firstIndex(where: { $0.diagnostic.code == d.code && $0.diagnostic.message == d.message }) {
            found[i].cases.append(r.name)
          } else {
            found.append((d, [r.name]))
          }
        }
      }
      return found
    }
    /// The findings of the runs: failed cases and distinct diagnostics.
    package var findings: Int { summary.failed + diagnostics.count }
  }
}
