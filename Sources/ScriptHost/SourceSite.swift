/// A line of a script: the chunk's name as Lua reports it (`short_src`) and the line number.
///
/// Ordered by file, then line, so that of several problems the first one in a file is reported.
struct SourceSite: Comparable, CustomStringConvertible {
  let file: String
  let line: Int

  /// `file:line`, as Lua's own messages say it.
  var description: String { "\(file):\(line)" }

  static func < (a: SourceSite, b: SourceSite) -> Bool { (a.file, a.line) < (b.file, b.line) }
}
