import JSON

/// `--json` output, one convention for every command (docs/json.md): JSON Lines on standard
/// output, events as the log's objects (without `h`), and one final `{"kind":"end",…}` object
/// carrying the command, its exit status and its outcome or verdict.
enum JSONLines {
  /// The command writing JSON Lines, once it has said so; nil: human output.
  nonisolated(unsafe) private(set) static var command: String?
  nonisolated(unsafe) private static var ended = false

  /// From here on, the command's output is JSON Lines.
  static func begin(_ command: String) { self.command = command }

  /// An event or a body of one: its canonical text.
  static func write(event body: [UInt8]) { Terminal.write(String(decoding: body, as: UTF8.self)) }

  /// Any line other than an event or the end.
  static func write(_ object: JSONValue) { Terminal.write(object.canonicalText) }

  /// The final line: `kind`, `command`, `status`, then `members`.
  static func end(status: Int32, _ members: [(String, JSONValue)]) {
    guard let command, !ended else { return }
    ended = true
    write(.object([("kind", .string("end")), ("command", .string(command)), ("status", .int(Int64(status)))] + members))
  }

  /// A command that stopped with trouble before its verdict still ends with one line, carrying
  /// the message it printed on standard error.
  static func endIfNeeded(status: Int32) {
    end(status: status, Terminal.lastError.map { [("error", .string($0))] } ?? [])
  }
}
