/// A path's components as text, as `NSString`'s path methods take them apart: trailing
/// slashes are ignored and a lone `/` is the root.
package enum PathText {
  /// The last component: `a/b.swift` → `b.swift`, `a/b/` → `b`, `/` → `/`, `` → ``.
  package static func lastComponent(_ path: String) -> String {
    let trimmed = withoutTrailingSlashes(path)
    guard trimmed != "/" else { return "/" }
    return String(trimmed.split(separator: "/", omittingEmptySubsequences: false).last ?? "")
  }

  /// Everything before the last component: `a/b` → `a`, `/a` → `/`, `a` → ``, `/` → `/`.
  package static func parent(_ path: String) -> String {
    let trimmed = withoutTrailingSlashes(path)
    guard trimmed != "/" else { return "/" }
    guard let slash = trimmed.lastIndex(of: "/") else { return "" }
    let before = withoutTrailingSlashes(String(trimmed[..<slash]))
    return before.isEmpty ? "/" : before
  }

  /// `path` without the slashes it ends with, unless it is only slashes (then `/`).
  private static func withoutTrailingSlashes(_ path: String) -> String {
    guard path.hasSuffix("/") else { return path }
    let kept = path.reversed().drop { $0 == "/" }
    return kept.isEmpty ? "/" : String(kept.reversed())
  }
}
