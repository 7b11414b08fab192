import EventStore
import ScriptHost

/// What a re-run of `replay --verify` or `replay --app` found: trouble, the same events as
/// recorded, or where it departs (Render's `ReplayVerdict.text` and `endMembers` report it).
package struct ReplayVerdict {
  /// What the comparison came to.
  package enum Finding {
    /// The re-run could not be made or compared: the message for standard error.
    case trouble(String)
    /// Every event re-ran as recorded; `failedDiagnostic`: the diagnostic that fails the changed
    /// app under `--strict`.
    case same(failedDiagnostic: String?)
    /// The runs part there; `stopped`: the script error the re-run stopped on after.
    case departed(ReplayComparison.Divergence, stopped: String?)
  }

  /// What the comparison came to.
  package let finding: Finding
  /// `--app`: the changed app's script; nil: `--verify`.
  package var app: String?
  /// The re-run's events.
  package var events: Int64 = 0
  /// The recording's seed.
  package var seed: Int64 = 0
  /// `--app`: how the changed app's run ended.
  package var changedApp: ChangedAppOutcome?
  /// `-o`: the re-run's log, until `keepOutput`.
  var output: OutputTarget?

  /// Trouble before the re-run compared anything.
  init(trouble: String) { finding = .trouble(trouble) }

  /// The verdict of `comparison` over the re-run `result` of the log at `log`, recorded with `seed`.
  init(log: String, seed: Int64, _ comparison: ReplayComparison, _ result: RunResult, app: String?, changedApp: ChangedAppOutcome?) {
    (self.app, events, self.seed, self.changedApp) = (app, result.events, seed, changedApp)
    // A re-run stopped by a script error is trouble, wherever it departed before it stopped.
    let stopped = result.exitStatus == 2 ? result.error : nil  // 2: the run's trouble
    if let problem = comparison.problem {
      finding = .trouble("\(log): \(problem)")
    } else if let n = comparison.cutOffAfter {
      // A recording cut off before its trailer cannot say whether the re-run matches past the cut.
      finding = .trouble("\(log): \(LogEnding.noTrailerMessage(afterEvent: n))")
    } else if let d = comparison.divergence {
      finding = .departed(d, stopped: stopped)
    } else if let stopped {
      finding = .trouble(stopped)
    } else {
      // Under --strict (or the scenario's strict = true) a diagnostic of the new app fails it.
      finding = .same(failedDiagnostic: app == nil ? nil : result.failedDiagnostic)
    }
  }

  /// The exit status: 0 the same, 1 departs or a diagnostic fails the changed app, 2 trouble.
  package var status: Int32 {
    switch finding {
    case .trouble: return 2
    case let .same(failedDiagnostic): return failedDiagnostic == nil ? 0 : 1
    case let .departed(_, stopped): return stopped == nil ? 1 : 2
    }
  }

  /// Puts the `-o` log in place, or with trouble removes it; the exit status, and why the log
  /// could not be put in place.
  package func keepOutput() -> (status: Int32, error: String?) {
    guard let output else { return (status, nil) }
    if status == 2 {
      output.discard()
      return (status, nil)
    }
    do { try output.commit() } catch { return (2, "\(error)") }
    return (status, nil)
  }
}
