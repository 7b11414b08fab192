/// The wall-clock guard (`--wall-limit`): a last resort, not model behaviour. Every limit of the
/// model is in virtual time or Lua instructions, so a run always ends by itself; the guard only
/// stops a host call that would run for minutes of real time (a pathological script on a slow
/// machine), so that lifesim never hangs a CI job. It never fires in a run that ends by itself
/// within the limit, and a run it stops is exit 2 with a trailer that says why.
public enum WallClock {
  /// The default limit, seconds, for one host call.
  public static let defaultLimitSeconds = 300

  static func message(at: String, in what: String, seconds: Int) -> String {
    "\(at.isEmpty ? "" : at + ": ")the wall-clock guard stopped the run: \(what) ran for more than \(seconds) s of real time "
      + "in one call (--wall-limit \(seconds); a guard against hangs, not model behaviour)"
  }
}

/// The wall-clock guard for the work the host does for one verb while no script runs
/// (delivering the transfers the app queued, expiring its tasks): no Lua hook counts there, so
/// the host asks this before each step. A verb's host work counts as one host call.
/// Its time starts at the first step asked about, so that a verb with no host work (most of
/// them) reads no clock.
struct HostWorkGuard {
  private var deadline: ContinuousClock.Instant?
  /// The scenario line of the verb, which the message names.
  private var at: String?

  /// A verb starts at `at`: its host work is guarded from its first step.
  mutating func start(at: String?) {
    deadline = nil
    self.at = at
  }

  /// nil while the verb's host work is within `seconds` (0: no guard); past it, the message
  /// the run stops with.
  mutating func overrun(seconds: Int) -> String? {
    guard seconds > 0 else { return nil }
    let now = ContinuousClock.now
    guard let deadline else {
      deadline = now.advanced(by: .seconds(seconds))
      return nil
    }
    guard now > deadline else { return nil }
    return WallClock.message(at: at ?? "", in: "the host's work for one verb (delivering or expiring what the app queued)", seconds: seconds)
  }
}
