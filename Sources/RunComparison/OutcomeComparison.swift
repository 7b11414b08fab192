import EventStore
import JSON

/// The outcome of two runs side by side, from their logs' trailers: the final state, the kills
/// (reason and code), the expectations, the stored data, and the script error that stopped a run.
public struct OutcomeComparison: Sendable {
  /// The parts compared, in the order `diff` shows them.
  public enum Part: String, CaseIterable, Sendable {
    case state, terminations, expectations, stored, error
  }

  /// One run's part: the value compared, or why the log has none.
  public enum Cell: Equatable, Sendable {
    /// `state`: the state's name; `terminations`: `[{"reason","code"}]` (code only where there
    /// is one); `expectations`: `{"passed","failed"}`; `stored`: the stored values;
    /// `error`: the message, or null.
    case value(JSONValue)
    /// The log has no trailer: the run stopped after this event.
    case cutOff(afterEvent: Int64)
    /// The log's ending is not known (it could not be read to its end).
    case unknown
  }

  /// Each log's ending (nil: unknown).
  public let a: LogEnding?, b: LogEnding?

  public init(a: LogEnding?, b: LogEnding?) {
    self.a = a
    self.b = b
  }

  /// Each run's cell for `part`.
  public func cells(_ part: Part) -> (a: Cell, b: Cell) { (Self.cell(part, a), Self.cell(part, b)) }

  /// The parts that differ, in order.
  public var differing: [Part] { Part.allCases.filter { cells($0).a != cells($0).b } }

  /// Whether every part agrees.
  public var same: Bool { differing.isEmpty }

  private static func cell(_ part: Part, _ ending: LogEnding?) -> Cell {
    switch ending {
    case nil: return .unknown
    case let .cutOff(n): return .cutOff(afterEvent: n)
    case let .complete(trailer): return .value(value(part, trailer.outcome))
    }
  }

  private static func value(_ part: Part, _ o: JSONValue) -> JSONValue {
    switch part {
    case .state: return o["state"] ?? .null
    case .terminations:
      return .array((o["terminations"]?.arrayValue ?? []).map { t in
        .object([("reason", t["reason"] ?? .null)] + (t["code"].map { [("code", $0)] } ?? []))
      })
    case .expectations:
      return .object([("passed", .int(o["expectations"]?["passed"]?.intValue ?? 0)),
                      ("failed", .int(o["expectations"]?["failed"]?.intValue ?? 0))])
    case .stored: return o["stored"] ?? .object([])
    case .error: return o["error"] ?? .null
    }
  }
}
