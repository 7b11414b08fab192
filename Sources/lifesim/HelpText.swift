/// A command's discussion as ArgumentParser should wrap it: the lines of each paragraph of prose
/// joined into one, so that the help wraps at the terminal's width instead of at the source's;
/// indented lines (examples, lists), blank lines and a line that starts an entry
/// (`chrome-trace: …`) stay as they are.
func helpText(_ source: String) -> String {
  var out: [String] = []
  var joinable = false
  for line in source.split(separator: "\n", omittingEmptySubsequences: false) {
    let prose = !line.isEmpty && !line.hasPrefix(" ")
    if prose, joinable, !startsAnEntry(line), let last = out.popLast() {
      out.append(last + " " + line)
    } else {
      out.append(String(line))
    }
    joinable = prose
  }
  return out.joined(separator: "\n")
}

/// `chrome-trace: the Chrome…`: a lowercase word (letters and hyphens) and a colon.
private func startsAnEntry(_ line: Substring) -> Bool {
  guard let colon = line.firstIndex(of: ":"), colon > line.startIndex else { return false }
  return line[..<colon].allSatisfy { ("a"..."z").contains($0) || $0 == "-" }
    && line[line.index(after: colon)...].hasPrefix(" ")
}
