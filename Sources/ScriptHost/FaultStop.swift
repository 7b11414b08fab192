import Lifecycle

/// Why a run ends early without a script error: after a fault that no expectation named, a verb
/// that the state the fault left behind refuses (`home()` once the app crashed) stops the run
/// there. The run has already failed on the fault; the scenario's next steps assumed an app that
/// is gone, so the stop is the failure's consequence, reported with it, and not a broken scenario.
enum FaultStop {
  /// The message `stopped at line N: home() needs a running app; the app was terminated by crash
  /// (…) at 1.250000 s`, or nil when the refusal is the script's own mistake: the app is running,
  /// or its latest termination was no fault or one an expectation named.
  static func message(refusing verb: String, at site: String?, state: LifecycleState, faultAtUs: Int64) -> String? {
    guard state.process == .notRunning, state.latestFaultUnnamed, let fault = state.unexpectedFaults.last else { return nil }
    var stopped = "stopped"
    if let site, let colon = site.lastIndex(of: ":") { stopped += " at line " + site[site.index(after: colon)...] }
    let reason = fault.reason.rawValue + (fault.code.map { " \($0)" } ?? "")
    return "\(stopped): \(verb)() needs a running app; "
      + "the app was terminated by \(reason) (\(fault.description)) at \(VirtualTime.format(faultAtUs)) s"
  }
}
