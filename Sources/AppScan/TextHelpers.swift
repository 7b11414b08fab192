import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

extension StringProtocol {
  /// The text without the blanks around it: tabs, the Unicode space separators (category Zs)
  /// and the zero-width space, the scalars Foundation's `CharacterSet.whitespaces` holds (its
  /// table predates U+200B's move out of Zs); newlines stay.
  var trimmingBlanks: String {
    let scalars = unicodeScalars
    let isBlank: (Unicode.Scalar) -> Bool = { $0 == "\t" || $0 == "\u{200B}" || $0.properties.generalCategory == .spaceSeparator }
    guard let first = scalars.firstIndex(where: { !isBlank($0) }), let last = scalars.lastIndex(where: { !isBlank($0) }) else { return "" }
    return String(String.UnicodeScalarView(scalars[first...last]))
  }
}

extension StringProtocol {
  /// The last place `text` occurs, searched from the end as Foundation's
  /// `range(of:options: .backwards)` searches: occurrences may overlap (`/a/a/` holds `/a/` twice).
  func lastRange(of text: String) -> Range<Index>? {
    guard !text.isEmpty else { return nil }
    var start = endIndex
    while start > startIndex {
      start = index(before: start)
      if self[start...].starts(with: text) { return start..<index(start, offsetBy: text.count) }
    }
    return nil
  }
}

extension Data {
  /// Whether `needle` occurs in the bytes: each place its first byte is found (`memchr`) is
  /// compared whole (`memcmp`). The standard library's generic search was a tenth of a scan.
  func containsBytes(_ needle: [UInt8]) -> Bool {
    guard let first = needle.first else { return true }
    return withUnsafeBytes { (haystack: UnsafeRawBufferPointer) -> Bool in
      guard let base = haystack.baseAddress, haystack.count >= needle.count else { return false }
      var offset = 0
      let last = haystack.count - needle.count
      while offset <= last, let hit = memchr(base + offset, Int32(first), last - offset + 1) {
        let at = base.distance(to: UnsafeRawPointer(hit))
        if needle.withUnsafeBytes({ memcmp(base + at, $0.baseAddress!, needle.count) }) == 0 { return true }
        offset = at + 1
      }
      return false
    }
  }
}
