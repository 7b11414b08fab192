import JSON
import Lifecycle

/// `replay --until`: the last event to replay, by number (`40`) or by virtual time (`12.5s`).
package enum ReplayLimit: Equatable {
  /// Up to and including event `seq`.
  case event(Int64)
  /// Up to and including the last event at or before this time, µs.
  case time(Int64)

  /// Above this, µs no longer fit the clock's Int64.
  private static let largestSeconds = 9e12

  /// The limit `text` names, or a message saying what `--until` takes.
  package static func parse(_ text: String) throws(ReplayLimitError) -> ReplayLimit {
    if text.hasSuffix("s") {
      guard let seconds = Double(text.dropLast()), seconds.isFinite, seconds >= 0, seconds < largestSeconds else {
        throw ReplayLimitError(text: text)
      }
      return .time(VirtualTime.microseconds(seconds: seconds))
    }
    guard let seq = Int64(text), seq >= 0 else { throw ReplayLimitError(text: text) }
    return .event(seq)
  }

  /// Whether an event lies past the limit (replay stops before it).
  package func excludes(seq: Int64, t: Int64) -> Bool {
    switch self {
    case let .event(last): return seq > last
    case let .time(last): return t > last
    }
  }

  /// Whether every event the limit asks for is at or before event `n`, so that a log cut off
  /// after `n` holds them all (a time limit cannot tell: more events may share `n`'s time).
  package func isWithin(lastEvent n: Int64) -> Bool {
    if case let .event(last) = self { return last <= n }
    return false
  }

  /// The end line's member saying where the replay stopped (docs/json.md).
  package var json: (String, JSONValue) {
    switch self {
    case let .event(seq): return ("until", .int(seq))
    case let .time(us): return ("until_us", .int(us))
    }
  }
}

/// A `--until` value that is neither an event number nor a time.
package struct ReplayLimitError: Error, CustomStringConvertible {
  package let text: String
  package var description: String {
    "--until takes an event number (0 or more) or a virtual time in seconds such as 12.5s, not \(text)"
  }
}
