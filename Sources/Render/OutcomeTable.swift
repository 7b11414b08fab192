import EventStore
import JSON
import RunComparison

/// How `diff` prints the two outcomes: a table in words, or the trailers as JSON.
extension OutcomeComparison {
  /// The table: a row a part, each run's cell, and `← differs` where they differ.
  package func table(a: String, b: String) -> String {
    let rows = Part.allCases.map { part in
      let (x, y) = cells(part)
      return (label: Self.label(part), a: Self.text(part, x), b: Self.text(part, y), differs: x != y)
    }
    let w0 = 14
    let w1 = max(rows.map { $0.a.count }.max() ?? 0, a.count + 2, 10) + 2  // a + its "- "
    func pad(_ s: String, _ w: Int) -> String { s + String(repeating: " ", count: max(0, w - s.count)) }
    var lines = [pad("Outcome", w0) + pad("- " + a, w1) + "+ " + b]
    for row in rows { lines.append(pad(row.label, w0) + pad(row.a, w1) + row.b + (row.differs ? "   ← differs" : "")) }
    return lines.joined(separator: "\n")
  }

  /// The parts that differ, in words: (label, a, b).
  package var differingRows: [(String, String, String)] {
    differing.map { part in
      let (x, y) = cells(part)
      return (Self.label(part), Self.text(part, x), Self.text(part, y))
    }
  }

  /// Both outcomes as the trailers hold them, and which parts differ (docs/json.md).
  package var json: JSONValue {
    func side(_ ending: LogEnding?) -> JSONValue {
      switch ending {
      case let .complete(trailer):
        return .object([("complete", .bool(true)), ("events", .int(trailer.events)), ("outcome", trailer.outcome)])
      case let .cutOff(n): return .object([("complete", .bool(false)), ("cutOffAfter", .int(n))])
      case nil: return .null
      }
    }
    return .object([("a", side(a)), ("b", side(b)), ("differs", .array(differing.map { .string($0.rawValue) }))])
  }

  private static func label(_ part: Part) -> String {
    switch part {
    case .state: return "final state"
    case .terminations: return "terminations"
    case .expectations: return "expectations"
    case .stored: return "stored"
    case .error: return "script error"
    }
  }

  /// A cell in words, its control characters visible (stored values and errors come from scripts).
  private static func text(_ part: Part, _ cell: Cell) -> String { TerminalText.visible(words(part, cell)) }

  /// A cell in words (long stored values abbreviated).
  private static func words(_ part: Part, _ cell: Cell) -> String {
    switch cell {
    case let .cutOff(n): return "cut off after event \(n)"
    case .unknown: return "unknown"
    case let .value(v):
      switch part {
      case .state: return v.stringValue ?? "?"
      case .terminations:
        let items = (v.arrayValue ?? []).map { t in (t["reason"]?.stringValue ?? "?") + (t["code"]?.stringValue.map { " \($0)" } ?? "") }
        return items.isEmpty ? "none" : items.joined(separator: ", ")
      case .expectations: return "\(v["passed"]?.intValue ?? 0) passed, \(v["failed"]?.intValue ?? 0) failed"
      case .stored:
        let items = (v.objectValue ?? []).map { "\($0.0) = \(OutcomeText.abbreviated($0.1))" }
        return items.isEmpty ? "nothing" : items.joined(separator: ", ")
      case .error: return v.stringValue ?? "none"
      }
    }
  }
}

extension EventDiffer.Hunk {
  /// `{"kind":"hunk",…}` (docs/json.md).
  package var json: JSONValue {
    .object([("kind", .string("hunk")),
             ("a", .object([("start", .int(aStart)), ("count", .int(aCount))])),
             ("b", .object([("start", .int(bStart)), ("count", .int(bCount))])),
             ("lines", .array(lines.map { l in
               .object([("op", .string(Self.op(l.side))), ("event", (try? JSONParser.parse(l.body)) ?? .null)])
             }))] + (continued ? [("continued", .bool(true))] : []))
  }

  private static func op(_ side: EventDiffer.Side) -> String {
    switch side {
    case .same: return " "
    case .removed: return "-"
    case .added: return "+"
    }
  }
}
