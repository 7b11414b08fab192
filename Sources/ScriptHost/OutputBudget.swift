/// What a run may write through `log` (app) and `print` (app and scenario): a budget per
/// callback and one for the whole run, so a script cannot fill the disk with its log. A breach
/// stops the run as a script error naming the line; the log stays whole and says why.
final class OutputBudget {
  /// Bytes one callback (with everything it calls) may log.
  static let callbackBytesMax = 4 << 20
  /// Bytes the whole run may log, the scenario's `print` included.
  static let runBytesMax = 32 << 20

  private(set) var runBytes = 0
  private(set) var callbackBytes = 0

  /// A new top-level callback starts with a fresh per-callback budget.
  func startCallback() { callbackBytes = 0 }

  /// Charges `bytes` written by `fn`; the problem when a budget would be passed.
  func charge(_ bytes: Int, by fn: String, inCallback: Bool) -> String? {
    if inCallback, callbackBytes + bytes > Self.callbackBytesMax {
      return "\(fn): this callback would write more than \(Self.callbackBytesMax >> 20) MiB of log output (the budget of one callback)"
    }
    if runBytes + bytes > Self.runBytesMax {
      return "\(fn): the run would write more than \(Self.runBytesMax >> 20) MiB of log output (the budget of one run)"
    }
    runBytes += bytes
    if inCallback { callbackBytes += bytes }
    return nil
  }
}
