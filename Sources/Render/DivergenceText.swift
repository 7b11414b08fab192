import EventStore
import JSON
import Lifecycle
import RunComparison

/// How `replay --verify` and `replay --app` print where a re-run parted from its recording.
extension ReplayComparison.Divergence {
  /// The lines, saying "Departs" (`--app`) or "Diverged".
  package func text(departs: Bool) -> String {
    var lines = ["\(departs ? "Departs" : "Diverged") at event \(seq) (t = \(VirtualTime.format(t)) s):",
                 "  recorded:  \(recorded)",
                 "  this run:  \(actual)"]
    if let source { lines.append("  produced by: \(source)") }
    if !before.isEmpty {
      lines.append("The events before it (identical in both):")
      lines += before.map { "  \($0)" }
    }
    // The events' JSON text may hold DEL and C1 characters as they are.
    return lines.map { TerminalText.visible($0) }.joined(separator: "\n")
  }

  /// Events as objects; null where a run had ended.
  package var json: JSONValue {
    .object([("seq", .int(seq)), ("t", .int(t)), ("recorded", Self.object(recorded)),
             ("actual", Self.object(actual)), ("source", source.map { .string($0) } ?? .null),
             ("before", .array(before.map(Self.object)))])
  }

  /// An event's canonical text as an object (null if it is not JSON, which a log's line always is).
  private static func object(_ text: String) -> JSONValue { (try? JSONParser.parse(text)) ?? .null }
}
