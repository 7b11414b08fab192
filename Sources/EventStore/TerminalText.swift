/// Text for a terminal, from anything an app, a scenario or a log supplies: every control
/// character (C0, DEL and C1: ESC, CR, BEL, backspace, CSI U+009B …) is shown as `\u{1B}` (its
/// code point in hex), so that no such text can retitle the terminal, move the cursor or erase a
/// line printed above it (a ✘ turned ✔). JSON output needs none of this: its encoder escapes them.
public enum TerminalText {
  /// `text` with its control characters made visible as `\u{HEX}`. `keepingLayout`: line feeds and
  /// tabs stay (a multi-line message such as a Lua traceback); otherwise they are shown too, so that
  /// text meant for one line (a trace line) stays on one line.
  public static func visible(_ text: String, keepingLayout: Bool = false) -> String {
    guard text.utf8.contains(where: { isControlByte($0) }) else { return text }
    var out = ""
    out.reserveCapacity(text.utf8.count + 16)
    for scalar in text.unicodeScalars {
      if isControl(scalar), !(keepingLayout && (scalar == "\n" || scalar == "\t")) {
        out += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
      } else {
        out.unicodeScalars.append(scalar)
      }
    }
    return out
  }

  /// C0, DEL and C1 (U+0080 to U+009F).
  private static func isControl(_ scalar: Unicode.Scalar) -> Bool {
    scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
  }

  /// A byte that starts or is a control character in UTF-8: C0, DEL, or 0xC2 (the lead byte of
  /// U+0080 to U+00BF, which C1 is among). A quick test before any work.
  private static func isControlByte(_ byte: UInt8) -> Bool { byte < 0x20 || byte == 0x7F || byte == 0xC2 }
}
