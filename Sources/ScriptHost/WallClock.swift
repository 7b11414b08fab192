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
