import EventStore

extension LogEnding {
  /// The script error that stopped the recorded run, as its trailer holds it.
  var scriptError: String? {
    switch self {
    case let .complete(trailer): return trailer.outcome["error"]?.stringValue
    case .cutOff: return nil
    }
  }
}
