import EventStore
import Lifecycle
import LifecycleLog

/// What one run's log holds that a comparison counts: each callback delivered and each
/// diagnostic noted (a `note` with a `code`), in the order each first appears.
public struct RunTally: Sendable {
  /// Each callback UIKit delivered, by key (`viewDidLoad`).
  public private(set) var callbacks = Counts()
  /// Each diagnostic, by code (`handler_never_called`).
  public private(set) var diagnostics = Counts()

  /// Names with how often each occurred, in the order of first occurrence.
  public struct Counts: Sendable {
    public private(set) var names: [String] = []
    public private(set) var count: [String: Int] = [:]

    mutating func add(_ name: String) {
      if count[name] == nil { names.append(name) }
      count[name, default: 0] += 1
    }

    /// The names that occur more often here than in `other`, with how many more, in this order.
    public func more(than other: Counts) -> [(String, Int)] {
      names.compactMap { name in
        let extra = (count[name] ?? 0) - (other.count[name] ?? 0)
        return extra > 0 ? (name, extra) : nil
      }
    }
  }

  /// Reads the log at `path` to its end; throws when it cannot be read or an event decoded.
  public init(reading path: String) throws {
    let reader = try RecordedLog.reader(path)
    while let line = try reader.next() {
      guard case let .event(logEvent) = line else { continue }
      if logEvent.kind == .note, let code = logEvent["code"]?.stringValue {
        diagnostics.add(code)
      } else if logEvent.kind == .callback, case let .callbackDelivered(callback, _, _, _, _) = try Event(logEvent).body {
        callbacks.add(callback.key)
      }
    }
  }
}
