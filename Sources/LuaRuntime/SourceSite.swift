/// A line of a script: the chunk's name as Lua reports it (`short_src`) and the line number.
///
/// Ordered by file, then line, so that of several problems the first one in a file is reported.
package struct SourceSite: Comparable, CustomStringConvertible {
  package let file: String
  package let line: Int

  package init(file: String, line: Int) { self.file = file; self.line = line }

  /// `file:line`, as Lua's own messages say it.
  package var description: String { "\(file):\(line)" }

  package static func < (a: SourceSite, b: SourceSite) -> Bool { (a.file, a.line) < (b.file, b.line) }
}
