import FoundationEssentials

extension MigrationReport {
  /// `scan --compare BEFORE AFTER`: scans both trees, each a folder or `git:REV` (that revision
  /// of the repository holding the current folder, read into a temporary folder removed before
  /// this returns), and pairs their reports. `afterRoot`: the after tree as SARIF's locations
  /// are relative to, absolute (the current folder for a revision).
  /// With `check`, both mirrors run the battery (only the case `only` names, when given) while
  /// the trees are there.
  package static func comparing(_ paths: [String], target: String?, exclude: [String], check: MigrationCheck? = nil,
                                only: String? = nil) throws(ScanTrouble) -> (report: MigrationReport, afterRoot: String) {
    var trees: [GitRevisionTree] = []
    defer { trees.forEach { $0.remove() } }
    var sides: [(result: ScanResult, root: String)] = []
    for path in paths {
      var root = path
      if path.hasPrefix("git:") {
        let tree = try GitRevisionTree.read(String(path.dropFirst(4)), from: FileManager.default.currentDirectoryPath)
        trees.append(tree)
        root = tree.root
      }
      sides.append((try AppScanner.scan([root], target: target, exclude: exclude), root))
    }
    let afterRoot = paths[1].hasPrefix("git:") ? FileManager.default.currentDirectoryPath : sides[1].root
    let options = (target.map { ["--target", $0] } ?? []) + exclude.flatMap { ["--exclude", $0] }
    let report = try MigrationReport(before: sides[0].result, beforeRoot: sides[0].root, after: sides[1].result, afterRoot: sides[1].root,
                                     check: check.map { ($0, only, (paths[0], paths[1], options)) })
    return (report, afterRoot.hasPrefix("/") ? afterRoot : FileManager.default.currentDirectoryPath + "/" + afterRoot)
  }
}
