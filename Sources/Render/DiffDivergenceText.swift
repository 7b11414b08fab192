import JSON
import Lifecycle
import RunComparison

/// How `diff` reports where two runs first part.
extension EventDiffer.Divergence {
  /// `--json`'s `firstDivergence`: each run's event number, the time, and each run's event.
  package var json: JSONValue {
    .object([("a", .int(aSeq)), ("b", .int(bSeq)), ("t", .int(t)),
             ("aEvent", a.flatMap { try? JSONParser.parse($0.body) } ?? .null),
             ("bEvent", b.flatMap { try? JSONParser.parse($0.body) } ?? .null)])
  }

  /// The lines: what each run did there, as its trace shows it, and which script line did it.
  package var text: [String] {
    let heading = "First divergence: event \(aSeq) of A, event \(bSeq) of B, at t = \(VirtualTime.format(t)) s."
    let sides = [("A", a), ("B", b)].map { side, line in
      var trace = TraceFormatter()
      let decoded = try? line.map { try $0.decoded() }
      let text = decoded.flatMap { $0 }.map { String(trace.line(seq: $0.seq, $0.event).drop { $0 == " " }) }
      let object = line.flatMap { try? JSONParser.parse($0.body) }
      return (side: side, text: text, object: object)
    }
    // Two lines that read the same: say which fields differ.
    let notes = sides[0].text != nil && sides[0].text == sides[1].text
      ? HunkRenderer.differingFields(sides[0].object?.objectValue ?? [], sides[1].object?.objectValue ?? []) : nil
    return [heading] + sides.enumerated().map { i, side in
      let source = side.object?["at"]?.stringValue.flatMap { side.text?.contains($0) == true ? nil : $0 }  // inputs show it already
      let note = HunkRenderer.bracketed(notes.map { i == 0 ? $0.0 : $0.1 })
      return "  \(side.side): " + (side.text ?? "(the run ends here)") + note + (source.map { "  (\($0))" } ?? "")
    }
  }
}
