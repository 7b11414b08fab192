/// The one writer of Lua source from data (an app's text, a log's, a report's): any byte
/// sequence as a Lua 5.4 string literal that loads back to exactly those bytes, and any text as
/// the rest of a `--` comment that stays on its line. Whoever controls the text decides only
/// what the string holds or the comment shows, never what the code around it does.
public enum LuaStringLiteral {
  /// `bytes` between double quotes. `\\`, `\"`, `\n`, `\r` and `\t` are written by name; every
  /// other byte below 0x20, 0x7F, every byte that is not part of valid UTF-8, and the bytes of
  /// a C1 control or a line or paragraph separator (U+0080–U+009F, U+2028, U+2029) as `\ddd`,
  /// always three digits, so that a digit after it is never read as part of it. Valid UTF-8
  /// otherwise stays as it is.
  public static func quote<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> String {
    "\"" + escaped(Array(bytes), quoteAndBackslash: true) + "\""
  }

  /// `text`'s UTF-8 between double quotes (see `quote(_:)` for bytes).
  public static func quote(_ text: String) -> String { quote(Array(text.utf8)) }

  /// `text` made safe to follow `-- ` on one comment line: each character that could end the
  /// line (`\n`, `\r`) or hide in it (the other control characters, the line and paragraph
  /// separators, bytes that are not UTF-8) is written as its escape, as in `quote(_:)`; quotes
  /// and backslashes stay as they are, for reading.
  public static func comment(_ text: String) -> String { escaped(Array(text.utf8), quoteAndBackslash: false) }

  /// The bytes of a literal `quote(_:)` wrote at the start of `source`, and the number of bytes
  /// the literal takes (its quotes included); nil when `source` does not start with such a
  /// literal (another escape, or no closing quote on the line).
  public static func unquote<Source: Collection<UInt8>>(_ source: Source) -> (bytes: [UInt8], length: Int)? {
    let s = Array(source)
    guard s.first == quoteByte else { return nil }
    var out: [UInt8] = []
    var i = 1
    while i < s.count {
      let c = s[i]
      if c == quoteByte { return (out, i + 1) }
      if c == 0x0A || c == 0x0D { return nil }
      guard c == backslash else { out.append(c); i += 1; continue }
      guard i + 1 < s.count else { return nil }
      let e = s[i + 1]
      if let named = named.first(where: { $0.letter == e }) {
        out.append(named.byte); i += 2; continue
      }
      guard i + 3 < s.count, let value = decimal(s[(i + 1)...(i + 3)]) else { return nil }
      out.append(value); i += 4
    }
    return nil
  }

  private static let quoteByte = UInt8(ascii: "\""), backslash = UInt8(ascii: "\\")

  /// The escapes written by name: the byte and the letter after the backslash.
  private static let named: [(byte: UInt8, letter: UInt8)] = [
    (0x0A, UInt8(ascii: "n")), (0x0D, UInt8(ascii: "r")), (0x09, UInt8(ascii: "t")),
    (UInt8(ascii: "\\"), UInt8(ascii: "\\")), (UInt8(ascii: "\""), UInt8(ascii: "\"")),
  ]

  private static func escaped(_ bytes: [UInt8], quoteAndBackslash: Bool) -> String {
    var out: [UInt8] = []
    out.reserveCapacity(bytes.count + 2)
    var i = 0
    while i < bytes.count {
      let c = bytes[i]
      if c < 0x80 {
        if (c == quoteByte || c == backslash) && !quoteAndBackslash { out.append(c) } else { append(c, to: &out) }
        i += 1
        continue
      }
      var parser = Unicode.UTF8.ForwardParser()
      var rest = bytes[i...].makeIterator()
      switch parser.parseScalar(from: &rest) {
      case let .valid(encoded):
        let scalar = Unicode.UTF8.decode(encoded).value
        let hidden = (0x80...0x9F).contains(scalar) || scalar == 0x2028 || scalar == 0x2029
        for byte in encoded { if hidden { appendDecimal(byte, to: &out) } else { out.append(byte) } }
        i += encoded.count
      case let .error(length):
        for byte in bytes[i..<(i + length)] { appendDecimal(byte, to: &out) }
        i += length
      case .emptyInput:
        i = bytes.count
      }
    }
    return String(decoding: out, as: UTF8.self)
  }

  /// One ASCII byte: by name, as `\ddd` when it is a control character, else as it is.
  private static func append(_ c: UInt8, to out: inout [UInt8]) {
    if let escape = named.first(where: { $0.byte == c }) {
      out += [backslash, escape.letter]
    } else if c < 0x20 || c == 0x7F {
      appendDecimal(c, to: &out)
    } else {
      out.append(c)
    }
  }

  private static func appendDecimal(_ byte: UInt8, to out: inout [UInt8]) {
    out += [backslash, 0x30 + byte / 100, 0x30 + byte / 10 % 10, 0x30 + byte % 10]
  }

  /// Three decimal digits as a byte (at most 255), else nil.
  private static func decimal(_ digits: ArraySlice<UInt8>) -> UInt8? {
    var value = 0
    for d in digits {
      guard (0x30...0x39).contains(d) else { return nil }
      value = value * 10 + Int(d - 0x30)
    }
    return value <= 255 ? UInt8(value) : nil
  }
}
