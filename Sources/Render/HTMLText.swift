import EventStore

/// The one writer of text into lifesim's HTML pages (the timeline and the suite report): every
/// sink a page has — text nodes, attribute values, script data, style — is escaped here, and the
/// Content-Security-Policy allows the page's own inline script and style by their SHA-256 only.
/// Everything in a page may come from a hostile log or script; nothing in it may run.
package enum HTMLText {
  /// Text for a text node or a double- or single-quoted attribute value: `&`, `<`, `>`, `"` and
  /// `'` as character references; C0 controls other than tab, line feed and carriage return,
  /// DEL and C1 controls as U+FFFD (HTML has no reference for them).
  package static func escaped(_ text: String) -> String {
    guard text.unicodeScalars.contains(where: { reference($0) != nil }) else { return text }
    return replacing(text, reference)
  }

  /// What a scalar is written as in markup, if not as itself.
  private static func reference(_ scalar: Unicode.Scalar) -> String? {
    switch scalar {
    case "&": return "&amp;"
    case "<": return "&lt;"
    case ">": return "&gt;"
    case "\"": return "&quot;"
    case "'": return "&#39;"
    default:
      let v = scalar.value
      return (v < 0x20 && v != 0x09 && v != 0x0A && v != 0x0D) || (v >= 0x7F && v < 0xA0) ? "\u{FFFD}" : nil
    }
  }

  /// JSON text for a `<script type="application/json">` element: `<`, `>`, `&`, U+2028 and
  /// U+2029 as `\u003c`, `\u003e`, `\u0026`, `\u2028`, `\u2029`. Canonical JSON has these only
  /// inside strings, where the escape reads back as the same character, so `JSON.parse` gives the
  /// same value, and neither `</script` nor `<!--` can appear in the element.
  package static func scriptJSON(_ json: String) -> String {
    let utf8 = json.utf8
    guard utf8.contains(where: { $0 == UInt8(ascii: "<") || $0 == UInt8(ascii: ">") || $0 == UInt8(ascii: "&") || $0 == 0xE2 }) else {
      return json
    }
    return replacing(json) { scalar in
      switch scalar {
      case "<": return "\\u003c"
      case ">": return "\\u003e"
      case "&": return "\\u0026"
      case "\u{2028}": return "\\u2028"
      case "\u{2029}": return "\\u2029"
      default: return nil
      }
    }
  }

  /// `text` with every scalar for which `replacement` gives a text replaced by it.
  private static func replacing(_ text: String, _ replacement: (Unicode.Scalar) -> String?) -> String {
    var out = ""
    out.reserveCapacity(text.utf8.count + 32)
    for scalar in text.unicodeScalars {
      if let r = replacement(scalar) { out += r } else { out.unicodeScalars.append(scalar) }
    }
    return out
  }

  /// A data block: `<script type="application/json" id="ID">JSON</script>` (`json` escaped by
  /// `scriptJSON`; `id` is the page's own name for it).
  package static func dataBlock(id: String, json: String) -> String {
    dataBlockOpening(id: id) + scriptJSON(json) + "</script>"
  }

  /// The start of a data block written in parts (each escaped by `scriptJSON`), closed by `</script>`.
  package static func dataBlockOpening(id: String) -> String { "<script type=\"application/json\" id=\"\(escaped(id))\">" }

  /// CSS for a `<style>` element: `<` written as the CSS escape `\3c ` so that no `</style`
  /// can end it early.
  package static func style(_ css: String) -> String { css.replacing("<", with: "\\3c ") }

  /// The CSP source that allows exactly `text` as an inline element's content:
  /// `'sha256-BASE64'`, the base64 of the SHA-256 of its UTF-8 bytes.
  package static func hashSource(_ text: String) -> String {
    "'sha256-" + base64(HashChain.sha256(of: Array(text.utf8))) + "'"
  }

  private static let base64Digits = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

  /// Standard base64 with `=` padding.
  package static func base64(_ bytes: [UInt8]) -> String {
    var out: [UInt8] = []
    out.reserveCapacity((bytes.count + 2) / 3 * 4)
    for start in stride(from: 0, to: bytes.count, by: 3) {
      let chunk = bytes[start..<min(start + 3, bytes.count)]
      var word = 0
      for (k, byte) in chunk.enumerated() { word |= Int(byte) << (16 - 8 * k) }
      for k in 0..<4 {
        out.append(k <= chunk.count ? base64Digits[(word >> (18 - 6 * k)) & 63] : UInt8(ascii: "="))
      }
    }
    return String(decoding: out, as: UTF8.self)
  }

  /// The page's policy as a `<meta>` element: no request of any kind, no base, no form; the
  /// inline `style` and (if any) `script` allowed by their hashes, nothing else.
  package static func policy(style: String, script: String?) -> String {
    let scripts = script.map { "script-src \(hashSource($0))" } ?? "script-src 'none'"
    return "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; base-uri 'none'; form-action 'none'; "
      + "style-src \(hashSource(style)); \(scripts)\">"
  }
}
