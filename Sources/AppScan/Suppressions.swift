/// `// lifesim:ignore <code> — reason` (or `<!-- lifesim:ignore <code> — reason -->` in a
/// plist) on a diagnostic's line or the line above suppresses that diagnostic. One without a
/// reason still suppresses, and is a warning of its own; one that suppresses nothing is
/// reported as unused, so suppressions never outlive the code they excused.
package struct Suppression: Sendable, Equatable {
  package let place: SourcePlace
  package let code: String
  package let reason: String?

  static let marker = "lifesim:ignore"

  /// The suppressions in a file's text, by line.
  static func find(in text: String, file: String) -> [Suppression] {
    guard text.contains(marker) else { return [] }
    var found: [Suppression] = []
    for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
      guard let range = line.firstRange(of: marker) else { continue }
      let rest = line[range.upperBound...].drop { $0 == " " || $0 == "\t" }
      let code = rest.prefix { $0.isLetter || $0.isNumber || $0 == "_" }
      var reason = rest.dropFirst(code.count).trimmingBlanks
      if reason.hasSuffix("-->") { reason = String(reason.dropLast(3)).trimmingBlanks }
      while let first = reason.first, "—–-:".contains(first) { reason = String(reason.dropFirst()).trimmingBlanks }
      guard !code.isEmpty else { continue }
      found.append(Suppression(place: SourcePlace(file: file, line: index + 1), code: String(code), reason: reason.isEmpty ? nil : reason))
    }
    return found
  }

  /// Whether it suppresses `diagnostic`: the same code, on its line or the line above.
  func matches(_ diagnostic: ScanDiagnostic) -> Bool {
    diagnostic.code == code && diagnostic.place.file == place.file && (diagnostic.place.line == place.line || diagnostic.place.line == place.line + 1)
  }

  /// Removes what `suppressions` suppress from each app's diagnostics, and adds a warning for
  /// each suppression without a reason and each that suppressed nothing (in the first app
  /// whose files hold it). Returns how many diagnostics were suppressed.
  static func apply(_ suppressions: [Suppression], to apps: inout [ScanReport]) -> Int {
    guard !suppressions.isEmpty else { return 0 }
    var used = Set<Int>()
    var suppressed = 0
    let byFile = Dictionary(grouping: suppressions.indices, by: { suppressions[$0].place.file })
    for app in apps.indices {
      apps[app].diagnostics = apps[app].diagnostics.filter { diagnostic in
        let matching = (byFile[diagnostic.place.file] ?? []).filter { suppressions[$0].matches(diagnostic) }
        used.formUnion(matching)
        if !matching.isEmpty { suppressed += 1 }
        return matching.isEmpty
      }
    }
    let filesOfApps = apps.map { Set($0.files.swift + $0.files.infoPlists) }
    for (index, suppression) in suppressions.enumerated() {
      let owner = filesOfApps.firstIndex { $0.contains(suppression.place.file) } ?? 0
      var warnings: [ScanDiagnostic] = []
      if suppression.reason == nil {
        warnings.append(ScanDiagnostic(code: ScanRule.StaticCode.suppressionWithoutReason.rawValue, handler: nil, place: suppression.place,
                                       message: "lifesim:ignore \(suppression.code) gives no reason: say why, after the code"))
      }
      if !used.contains(index) {
        warnings.append(ScanDiagnostic(code: ScanRule.StaticCode.suppressionUnused.rawValue, handler: nil, place: suppression.place,
                                       message: "lifesim:ignore \(suppression.code) suppresses nothing on this line or the next: remove it"))
      }
      for var warning in warnings {
        warning.target = apps[owner].target
        apps[owner].diagnostics.append(warning)
      }
    }
    for app in apps.indices { apps[app].diagnostics.sort { $0.place < $1.place } }
    return suppressed
  }
}
