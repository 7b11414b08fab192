import AppScan
import ArgumentParser
import EventStore
import JSON
import Render
import ScriptHost

/// `lifesim scan --compare BEFORE AFTER`: what the migration changed (AppScan's MigrationReport).
struct ScanCompare {
  let paths: [String]
  let target: String?
  let exclude: [String]
  let format: Scan.Format
  /// `--check`: both mirrors run the battery and confirm each regression.
  let check: MigrationCheck?
  /// `--case`: only this case of the battery, on both sides.
  let caseName: String?

  func run() throws {
    if format == .json { JSONLines.begin("scan") }
    let compared: (report: MigrationReport, afterRoot: String)
    do { compared = try MigrationReport.comparing(paths, target: target, exclude: exclude, check: check, only: caseName) } catch {
      if format == .json { JSONLines.end(status: Status.trouble, [("error", .string(error.description))]) } else { Terminal.error(TerminalText.visible(error.description)) }
      throw ExitCode(Status.trouble)
    }
    let report = compared.report
    switch format {
    case .text: for line in report.textLines { Terminal.write(line) }
    case .json:
      for line in report.jsonLines { JSONLines.write(line) }
      JSONLines.end(status: report.status, report.endMembers)
    case .sarif:
      Terminal.write(report.sarif(toolVersion: lifesimVersion, afterRoot: compared.afterRoot).canonicalText)
    }
    if report.status != Status.ok { throw ExitCode(report.status) }
  }
}
