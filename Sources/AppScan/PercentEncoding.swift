/// Percent-encoding of paths in URIs (RFC 3986), as SARIF's `artifactLocation.uri` holds them.
enum PercentEncoding {
  /// The bytes a URI path keeps as they are: letters and digits, `-._~`, and `!$&'()*+,=:@/`
  /// (a path's characters without `;`, which some readers take as a parameter).
  private static let kept: [Bool] = {
    var kept = [Bool](repeating: false, count: 128)
    for byte in Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~!$&'()*+,=:@/".utf8) { kept[Int(byte)] = true }
    return kept
  }()

  /// `path` with every other byte of its UTF-8 written `%XX` (uppercase hex).
  static func encodePath(_ path: String) -> String {
    let hex = Array("0123456789ABCDEF".utf8)
    var out: [UInt8] = []
    out.reserveCapacity(path.utf8.count)
    for byte in path.utf8 {
      if byte < 128, kept[Int(byte)] { out.append(byte); continue }
      out += [UInt8(ascii: "%"), hex[Int(byte >> 4)], hex[Int(byte & 0xF)]]
    }
    return String(decoding: out, as: UTF8.self)
  }

  /// `text` with each `%XX` turned back into its byte; nil when a `%` is not followed by two
  /// hex digits or the bytes are not UTF-8.
  static func decode(_ text: String) -> String? {
    let bytes = Array(text.utf8)
    var out: [UInt8] = []
    out.reserveCapacity(bytes.count)
    var i = 0
    while i < bytes.count {
      guard bytes[i] == UInt8(ascii: "%") else { out.append(bytes[i]); i += 1; continue }
      guard i + 2 < bytes.count, let high = hexValue(bytes[i + 1]), let low = hexValue(bytes[i + 2]) else { return nil }
      out.append(high << 4 | low)
      i += 3
    }
    return String(validating: out, as: UTF8.self)
  }

  private static func hexValue(_ byte: UInt8) -> UInt8? {
    switch byte {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
    case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
    case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
    default: nil
    }
  }
}
