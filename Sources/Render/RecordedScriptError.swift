import EventStore

extension LogEnding {
  /// The script error that stopped the recorded run, as its trailer holds it.
  package var scriptError: String? {
    switch self {
    case let .complete(trailer): return trailer.outcome["error"]?.stringValue
    case .cutOff: return nil
    }
  }

  /// Why the recorded run, which failed on a fault no expectation named, ended early
  /// (`stopped at line N: …`), as its trailer holds it.
  package var stopped: String? {
    switch self {
    case let .complete(trailer): return trailer.outcome["stopped"]?.stringValue
    case .cutOff: return nil
    }
  }
}
