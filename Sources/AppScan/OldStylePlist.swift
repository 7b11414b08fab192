/// A value of an old-style (OpenStep) property list, the format of `project.pbxproj`.
package indirect enum OldStyleValue: Sendable, Equatable {
  case string(String)
  case array([OldStyleValue])
  case dictionary([String: OldStyleValue])

  package var string: String? { if case let .string(text) = self { return text }; return nil }
  package var array: [OldStyleValue]? { if case let .array(items) = self { return items }; return nil }
  package var dictionary: [String: OldStyleValue]? { if case let .dictionary(members) = self { return members }; return nil }
  /// The strings of an array, skipping anything else.
  package var strings: [String] { array?.compactMap(\.string) ?? [] }
}

/// Reads an old-style property list in one pass over its bytes, without recursion (a hostile
/// file nested a million deep ends with an error, not a crashed stack), in time linear in its
/// size: `{ key = value; }`, `( a, b, )`, quoted and bare strings, `<hex data>` (kept as
/// text), and `/* */` and `//` comments.
package struct OldStylePlistReader {
  /// How deep dictionaries and arrays may nest (a project file nests about 5 deep).
  package static let maxDepth = 128

  private let bytes: [UInt8]
  private var index = 0
  private var line = 1

  /// The root value of `text`, or why it is not one, with the line.
  package static func read(_ text: String) -> Result<OldStyleValue, ScanTrouble> {
    var reader = OldStylePlistReader(bytes: Array(text.utf8))
    do throws(ScanTrouble) { return .success(try reader.document()) } catch { return .failure(error) }
  }

  private init(bytes: [UInt8]) { self.bytes = bytes }

  /// The open containers, innermost last: each kind, and the members gathered so far (kept in
  /// stacks of their own so that adding a member mutates in place, never copies).
  private enum Kind { case dictionary, array }
  private struct Open {
    var kinds: [Kind] = []
    var dictionaries: [[String: OldStyleValue]] = []
    var pendingKeys: [String?] = []
    var arrays: [[OldStyleValue]] = []
  }

  private mutating func document() throws(ScanTrouble) -> OldStyleValue {
    var open = Open()
    var finished: OldStyleValue?
    while finished == nil {
      skipSpace()
      guard index < bytes.count else { throw failure("the file ends inside a value") }
      if open.kinds.last == .dictionary, open.pendingKeys.last! == nil {
        // A dictionary waiting for its next key, or its closing brace.
        if bytes[index] == UInt8(ascii: "}") {
          index += 1
          open.kinds.removeLast()
          open.pendingKeys.removeLast()
          finished = try hand(.dictionary(open.dictionaries.removeLast()), to: &open)
        } else {
          let key = try scalar()
          try expect("=")
          open.pendingKeys[open.pendingKeys.count - 1] = key
        }
        continue
      }
      if open.kinds.last == .array, bytes[index] == UInt8(ascii: ")") {
        index += 1
        open.kinds.removeLast()
        finished = try hand(.array(open.arrays.removeLast()), to: &open)
        continue
      }
      switch bytes[index] {
      case UInt8(ascii: "{"):
        index += 1
        try push(.dictionary, &open)
        open.dictionaries.append([:])
        open.pendingKeys.append(nil)
      case UInt8(ascii: "("):
        index += 1
        try push(.array, &open)
        open.arrays.append([])
      default:
        finished = try hand(.string(try scalar()), to: &open)
      }
    }
    skipSpace()
    guard index == bytes.count else { throw failure("text after the end of the property list") }
    return finished!
  }

  private mutating func push(_ kind: Kind, _ open: inout Open) throws(ScanTrouble) {
    guard open.kinds.count < Self.maxDepth else { throw failure("nests deeper than \(Self.maxDepth) levels") }
    open.kinds.append(kind)
  }

  /// Hands `value` to the open container, reading the separator that follows; returns it when
  /// no container is open (it is the document's root).
  private mutating func hand(_ value: OldStyleValue, to open: inout Open) throws(ScanTrouble) -> OldStyleValue? {
    guard let kind = open.kinds.last else { return value }
    skipSpace()
    switch kind {
    case .dictionary:
      let key = open.pendingKeys[open.pendingKeys.count - 1]!
      open.dictionaries[open.dictionaries.count - 1][key] = value
      open.pendingKeys[open.pendingKeys.count - 1] = nil
      try expect(";")
    case .array:
      open.arrays[open.arrays.count - 1].append(value)
      if index < bytes.count, bytes[index] == UInt8(ascii: ",") { index += 1 } else if index >= bytes.count || bytes[index] != UInt8(ascii: ")") {
        throw failure("expected ',' or ')' in an array")
      }
    }
    return nil
  }

  /// A quoted string, a bare word, or `<hex data>` as its text.
  private mutating func scalar() throws(ScanTrouble) -> String {
    guard index < bytes.count else { throw failure("the file ends where a value was expected") }
    let first = bytes[index]
    if first == UInt8(ascii: "\"") { return try quoted() }
    if first == UInt8(ascii: "<") {
      guard let end = bytes[index...].firstIndex(of: UInt8(ascii: ">")) else { throw failure("data without its closing '>'") }
      defer { index = end + 1 }
      return String(decoding: bytes[index...end], as: UTF8.self)
    }
    let start = index
    while index < bytes.count, Self.isBare(bytes[index]) { index += 1 }
    guard index > start else { throw failure("unexpected character '\(Self.shown(first))'") }
    return String(decoding: bytes[start..<index], as: UTF8.self)
  }

  private mutating func quoted() throws(ScanTrouble) -> String {
    index += 1
    var text: [UInt8] = []
    while index < bytes.count {
      let byte = bytes[index]
      index += 1
      switch byte {
      case UInt8(ascii: "\""): return String(decoding: text, as: UTF8.self)
      case UInt8(ascii: "\\"):
        guard index < bytes.count else { break }
        let escaped = bytes[index]
        index += 1
        switch escaped {
        case UInt8(ascii: "n"): text.append(UInt8(ascii: "\n"))
        case UInt8(ascii: "t"): text.append(UInt8(ascii: "\t"))
        default: text.append(escaped)
        }
      case UInt8(ascii: "\n"): line += 1; text.append(byte)
      default: text.append(byte)
      }
    }
    throw failure("a quoted string without its closing quote")
  }

  /// Letters, digits and `_$+/:.-`, the characters of an unquoted string.
  private static func isBare(_ byte: UInt8) -> Bool {
    switch byte {
    case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"): return true
    case UInt8(ascii: "_"), UInt8(ascii: "$"), UInt8(ascii: "+"), UInt8(ascii: "/"), UInt8(ascii: ":"), UInt8(ascii: "."), UInt8(ascii: "-"): return true
    default: return byte >= 0x80
    }
  }

  private mutating func expect(_ character: Unicode.Scalar) throws(ScanTrouble) {
    skipSpace()
    guard index < bytes.count, bytes[index] == UInt8(ascii: character) else { throw failure("expected '\(character)'") }
    index += 1
  }

  /// White space and comments.
  private mutating func skipSpace() {
    while index < bytes.count {
      let byte = bytes[index]
      if byte == UInt8(ascii: "\n") { line += 1; index += 1 }
      else if byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") || byte == UInt8(ascii: "\r") { index += 1 }
      else if byte == UInt8(ascii: "/"), index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "*") {
        index += 2
        while index < bytes.count, !(bytes[index] == UInt8(ascii: "*") && index + 1 < bytes.count && bytes[index + 1] == UInt8(ascii: "/")) {
          if bytes[index] == UInt8(ascii: "\n") { line += 1 }
          index += 1
        }
        index = min(bytes.count, index + 2)
      } else if byte == UInt8(ascii: "/"), index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "/") {
        while index < bytes.count, bytes[index] != UInt8(ascii: "\n") { index += 1 }
      } else { return }
    }
  }

  private static func shown(_ byte: UInt8) -> String {
    (0x21...0x7e).contains(byte) ? String(UnicodeScalar(byte)) : "\\u{\(String(byte, radix: 16))}"
  }

  private func failure(_ what: String) -> ScanTrouble { ScanTrouble("line \(line): \(what)") }
}
