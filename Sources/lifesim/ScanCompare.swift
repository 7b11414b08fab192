import AppScan
import ArgumentParser
import EventStore
import Foundation
import JSON
import Render
import ScriptHost

/// `lifesim scan --compare BEFORE AFTER`: scans both trees (a `git:REV` read into a temporary
/// folder) and reports what the migration changed (AppScan's MigrationReport).
struct ScanCompare {
  let paths: [String]
  let target: String?
  let exclude: [String]
  let format: Scan.Format

  func run() throws {
    if format == .json { JSONLines.begin("scan") }
    var trees: [GitRevisionTree] = []
    defer { trees.forEach { $0.remove() } }
    let report: MigrationReport
    var afterRoot = paths[1]
    do throws(ScanTrouble) {
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
      afterRoot = paths[1].hasPrefix("git:") ? FileManager.default.currentDirectoryPath : sides[1].root
      report = MigrationReport(before: sides[0].result, beforeRoot: sides[0].root, after: sides[1].result, afterRoot: sides[1].root)
    } catch {
      if format == .json { JSONLines.end(status: Status.trouble, [("error", .string(error.description))]) } else { Terminal.error(TerminalText.visible(error.description)) }
      throw ExitCode(Status.trouble)
    }
    switch format {
    case .text: for line in report.textLines { Terminal.write(line) }
    case .json:
      for line in report.jsonLines { JSONLines.write(line) }
      JSONLines.end(status: report.status, report.endMembers)
    case .sarif:
      Terminal.write(report.sarif(toolVersion: lifesimVersion, afterRoot: ScanCompare.absolute(afterRoot)).canonicalText)
    }
    if report.status != Status.ok { throw ExitCode(report.status) }
  }

  private static func absolute(_ path: String) -> String {
    path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
  }
}
