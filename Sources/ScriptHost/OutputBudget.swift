/// What a run may write through `log` (app) and `print` (app and scenario): a budget per
/// callback and one for the whole run, so a script cannot fill the disk with its log. A breach
/// stops the run as a script error naming the line; the log stays whole and says why.
package final class OutputBudget {
  /// Bytes one callback (with everything it calls) may log.
  package static let callbackBytesMax = 4 << 20
  /// Bytes the whole run may log, the scenario's `print` included.
  package static let runBytesMax = 32 << 20

  package private(set) var runBytes = 0
  package private(set) var callbackBytes = 0

  package init() {}

  /// A new top-level callback starts with a fresh per-callback budget.
  package func startCallback() { callbackBytes = 0 }

  /// Charges `bytes` written by `fn`; the problem when a budget would be passed.
  package func charge(_ bytes: Int, by fn: String, inCallback: Bool) -> String? {
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
