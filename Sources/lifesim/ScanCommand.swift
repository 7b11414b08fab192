import AppScan
import ArgumentParser
import Foundation
import EventStore
import JSON
import Render
import ScriptHost

struct Scan: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "scan",
    abstract: "Read a Swift app's delegates and Info.plist, and report its lifecycle risks.",
    discussion: helpText("""
      Finds *.swift, Info.plist (XML or binary) and Main.storyboard under the paths (skipping
      build folders, Pods, Carthage and .build), parses the Swift without type checking, and
      reports the app's lifecycle shape and the diagnostics of docs/scan.md, each with its
      file:line, its rule and the rule's source. Exit status: 0 no diagnostics, 1 diagnostics,
      2 trouble (a path missing, no Swift file found, a file that cannot be read).

      Example:
        lifesim scan MyApp/
        lifesim scan MyApp/ --format sarif > scan.sarif
      """)
  )

  enum Format: String, ExpressibleByArgument, CaseIterable { case text, json, sarif }

  @Argument(help: "Folders or files to scan.")
  var paths: [String]

  @Flag(help: "The report as JSON Lines (docs/json.md): an app line, one line per diagnostic, the end line.")
  var json = false

  @Option(help: "text, json (as --json) or sarif (SARIF 2.1.0, for code scanning).")
  var format: Format = .text

  @Option(name: .customLong("emit-app"), help: "Also write the Lua app that mirrors the Swift (app.lua) and its scenarios into this folder.")
  var emitApp: String?

  @Flag(help: "With --emit-app: overwrite files already there.")
  var force = false

  func run() throws {
    defer { Terminal.flush() }
    let format = json ? .json : format
    if format == .json { JSONLines.begin("scan") }
    let report: ScanReport
    do { report = try AppScanner.scan(paths) } catch {
      Terminal.error(error.description)
      throw ExitCode(Status.trouble)
    }
    // Before any report line: a folder it cannot write to is trouble, and the end line says so.
    let written = try emitApp.map { try emit(report, into: $0) } ?? []
    for path in written where format != .text { Terminal.errorLine("wrote \(path)") }
    for trouble in report.troubles where format != .text { Terminal.error("\(trouble.file): not read: \(trouble.reason)") }
    switch format {
    case .text:
      for line in report.textLines { Terminal.write(line) }
    case .json:
      for line in report.jsonLines { JSONLines.write(line) }
      JSONLines.end(status: report.status, report.endMembers)
    case .sarif:
      Terminal.write(report.sarif(toolVersion: lifesimVersion).canonicalText)
    }
    for path in written where format == .text { Terminal.write("wrote \(path)") }
    if report.status != Status.ok { throw ExitCode(report.status) }
  }

  private func emit(_ report: ScanReport, into directory: String) throws -> [String] {
    let trimmed = paths[0].hasSuffix("/") ? String(paths[0].dropLast()) : paths[0]
    let name = report.appDelegate.map { _ in (trimmed as NSString).lastPathComponent } ?? "App"
    switch ScanEmit.write(report, into: directory, appName: name, root: paths[0], force: force) {
    case let .failure(trouble):
      Terminal.error(trouble.description)
      throw ExitCode(Status.trouble)
    case let .success(written):
      return written
    }
  }
}
