extension Array where Element == String {
  /// The strings with `separator` between them, as `joined(separator:)` gives them. Compiled for
  /// `[String]`: the standard library's `joined(separator:)` is reached through its generic entry
  /// point, whose first call in a process resolves the collection's associated types by their
  /// mangled names (about 200,000 instructions, paid by every short run that joins anything).
  public func joinedText(separator: String) -> String {
    var text = ""
    for (i, part) in enumerated() {
      if i > 0 { text += separator }
      text += part
    }
    return text
  }
}
