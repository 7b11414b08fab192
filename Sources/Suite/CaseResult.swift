import Lifecycle
import ScriptHost

/// How one case ended, everything a report needs.
public struct CaseResult: Sendable, Equatable {
  public enum Status: String, Sendable {
    case passed, failed, skipped
    /// A script error (or a log that could not be written): the case says nothing about the app.
    case error
  }

  public let index: Int
  /// `name [iOS 15]` / `name [iOS 15, no scenes]`.
  public let name: String
  public let file: String
  public let ios: Int
  /// The sceneless variant of `--scenes both`.
  public let sceneless: Bool
  /// Whether the run used scenes.
  public let scenes: Bool
  /// The SDK of a `--compare sdk=A,B` variant; nil: the run's own.
  public var sdk: Int? = nil
  /// The `choose` outcomes of this case's variant (`scan --check`); empty for the run's own.
  public var choices = ForcedChoices()
  /// The forced `choose` sites the app asked in the run (`LifecycleState.forcedSitesReached`).
  public var forcedSitesReached: [String] = []
  public let seed: Int64
  public let status: Status
  /// The failed expectation (`expect_calls: expected …`), the skip's reason, or the script error.
  public let message: String?
  /// The `file:line` of the failed expectation.
  public let at: String?
  /// Trace lines around the failure (or before the error), plain text.
  public let trace: [String]
  /// The command that runs this case alone.
  public let reproduce: String
  public let events: Int64
  /// Virtual time at the end, µs.
  public let virtualUs: Int64
  /// Wall-clock time of the run, µs.
  public let wallUs: Int64
  /// The kept `.lifelog`, if any.
  public var logPath: String?
  /// What the run warned of (`RunWarning`: a scenario that checks nothing, a vacuous expectation).
  public var warnings: [RunWarning] = []
  /// The run's diagnostics (notes with a code), in the order recorded.
  public var diagnostics: [Diagnostic] = []
  /// The callbacks that returned without calling a completion handler UIKit does not wait for
  /// (`LifecycleState.returnedWithoutCompletion`), by signature.
  public var returnedWithoutCompletion: [String] = []
  /// The delegate callbacks the app handled, as `AppDelegate.didEnterBackground`, each once, in
  /// the order first delivered (at most `RunObservations.max`).
  public var callbacksDelivered: [String] = []
  /// The names of the system's notes the run recorded (`bgTaskExpiredUnhandled`), each once, in
  /// the order first recorded (at most `RunObservations.max`).
  public var notesRecorded: [String] = []
  /// The sites of the reads of the app delegate's window that found it nil
  /// (`UIApplication.shared:delegateWindow(site)`), each once ("" for a read that named none).
  public var nilDelegateWindowReads: [String] = []
  /// The BGTask identifiers whose registration the system refused as not permitted (the
  /// Info.plist's `BGTaskSchedulerPermittedIdentifiers` lacks them), each once.
  public var refusedRegistrations: [String] = []
  /// The sites of the windows the app made from a frame that were not shown
  /// (`UIApplication.shared:frameWindow(site)` in a run with scenes), each once.
  public var unshownFrameWindows: [String] = []
}

/// Collects `CaseResult.callbacksDelivered`, `notesRecorded`, `nilDelegateWindowReads`,
/// `refusedRegistrations` and `unshownFrameWindows` from a run's events as they are recorded.
final class RunObservations {
  /// The most distinct names kept of each: far more than the delegates' methods or the model's notes.
  static let max = 256
  private(set) var callbacks = BoundedNames(limit: max)
  private(set) var notes = BoundedNames(limit: max)
  private(set) var nilWindowReads = BoundedNames(limit: max)
  private(set) var refusedRegistrations = BoundedNames(limit: max)
  private(set) var unshownFrameWindows = BoundedNames(limit: max)

  /// Notes a delegate's handled callback (`AppDelegate`, `SceneDelegate`, `NotificationDelegate`),
  /// a note of the system's, a read of the app delegate's window that found it nil, a
  /// registration refused as not permitted, or a window made from a frame and not shown.
  func observe(_ body: EventBody) {
    switch body {
    case let .callbackDelivered(callback, target, true, _, _) where target.hasSuffix("Delegate"): callbacks.add(target + "." + callback.key)
    case let .noted(name, _, _): notes.add(name)
    case let .appCalled(.delegateWindow(false, site), _): nilWindowReads.add(site ?? "")
    case let .appCalled(.registerBGTask(identifier, .undeclared), _): refusedRegistrations.add(identifier)
    case let .appCalled(.frameWindow(false, site), _): unshownFrameWindows.add(site ?? "")
    default: break
    }
  }
}

/// Distinct names in the order first added, at most `limit` of them.
struct BoundedNames {
  let limit: Int
  private(set) var names: [String] = []
  private var seen: Set<String> = []

  init(limit: Int) { self.limit = limit }

  mutating func add(_ name: String) {
    if names.count < limit, seen.insert(name).inserted { names.append(name) }
  }
}

/// Counts of a run's results.
public struct SuiteSummary: Sendable, Equatable {
  public var passed = 0, failed = 0, skipped = 0, errors = 0
  /// Files found that look like cases but cannot run (`DiscoveredFile.isProblem`).
  public var problemFiles = 0
  public var virtualUs: Int64 = 0
  public var cases: Int { passed + failed + skipped + errors }
  /// Every case was skipped, or there was none: the suite tested nothing.
  public var noCaseRan: Bool { cases == skipped }

  public init(_ results: [CaseResult] = []) { for r in results { add(r) } }

  public mutating func add(_ r: CaseResult) {
    switch r.status {
    case .passed: passed += 1
    case .failed: failed += 1
    case .skipped: skipped += 1
    case .error: errors += 1
    }
    virtualUs += r.virtualUs
  }

  /// 0: every case passed or was skipped; 1: a case failed; 2: a case had a script error, a
  /// file looks like a case but cannot run, or no case ran at all.
  public var exitStatus: Int32 { errors > 0 || problemFiles > 0 || noCaseRan ? 2 : failed > 0 ? 1 : 0 }
}
