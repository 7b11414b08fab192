import Render

extension SuiteHTMLReport {
  /// The report's scenario × profile table: a row per scenario file, a column per iOS version
  /// (and sceneless variant) the suite ran, and in each cell the status of every case there,
  /// linked to its timeline (a failing case whose log was kept) or to its row of the case list.
  struct ProfileMatrix {
    private struct Profile: Hashable, Comparable {
      let ios: Int
      let scenes: Bool
      static func < (a: Profile, b: Profile) -> Bool { (a.ios, a.scenes ? 0 : 1) < (b.ios, b.scenes ? 0 : 1) }
      var title: String { "iOS \(ios)" + (scenes ? "" : ", no scenes") }
    }

    private let results: [CaseResult]
    private let timelines: [Int: String]

    init(_ results: [CaseResult], timelines: [Int: String]) {
      self.results = results
      self.timelines = timelines
    }

    /// The scenario's name: the case's name without its ` [iOS N…]`.
    private static func scenario(_ r: CaseResult) -> String {
      guard r.name.hasSuffix("]"), let open = r.name.lastIndex(of: "["), open > r.name.startIndex,
            r.name[r.name.index(before: open)] == " " else { return r.name }
      return String(r.name[..<r.name.index(before: open)])
    }

    /// Worst first: what a cell's colour says of all its cases.
    private static let severity: [CaseResult.Status] = [.error, .failed, .skipped, .passed]

    private func cell(_ cases: [CaseResult]) -> String {
      guard let worst = Self.severity.first(where: { s in cases.contains { $0.status == s } }) else { return "<td></td>" }
      let links = cases.map { r in
        let target = timelines[r.index] ?? "#case-\(r.index + 1)"
        return "<a href=\"\(HTMLText.escaped(target))\">\(r.status.rawValue)</a>"
      }
      return "<td class=\"\(worst.rawValue)\">" + links.joined(separator: " ") + "</td>"
    }

    var html: String {
      let profiles = Set(results.map { Profile(ios: $0.ios, scenes: $0.scenes) }).sorted()
      var files: [String] = []
      var cases: [String: [CaseResult]] = [:]
      for r in results {
        if cases[r.file] == nil { files.append(r.file) }
        cases[r.file, default: []].append(r)
      }
      var rows = ""
      for file in files {
        let here = cases[file] ?? []
        rows += "<tr><th title=\"\(HTMLText.escaped(file))\">\(HTMLText.escaped(here.first.map(Self.scenario) ?? file))</th>"
        for profile in profiles { rows += cell(here.filter { Profile(ios: $0.ios, scenes: $0.scenes) == profile }) }
        rows += "</tr>\n"
      }
      return "<table id=\"matrix\"><thead><tr><th>scenario</th>" + profiles.map { "<th>\($0.title)</th>" }.joined()
        + "</tr></thead>\n<tbody>\n" + rows + "</tbody></table>\n"
    }
  }
}
