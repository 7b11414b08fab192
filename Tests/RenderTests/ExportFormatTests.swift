import EventStore
import Foundation
import Render
import Testing

/// `ExportFormat`, the registry `lifesim export` reads its formats from, over a bundled log:
/// each single-log format writes what its exporter writes, and a log that cannot be opened is
/// refused before anything is written.
@Suite struct ExportFormatTests {
  private func export(_ format: ExportFormat, _ log: String, clock: TraceClock = .sequence) throws -> String {
    let sink = TextSink()
    try format.writer(for: log, clock: clock)(sink)
    return sink.text
  }

  @Test func jsonlIsTheLogsEventsWithoutTheirHash() throws {
    let log = try #require(BundledLogs.all.first)
    let stream = try LogEventStream(path: log)
    var lines: [String] = []
    while let e = try stream.next() { lines.append(String(decoding: e.body, as: UTF8.self)) }
    #expect(try export(.jsonl, log) == lines.map { $0 + "\n" }.joined())
    #expect(!lines.isEmpty && !lines[0].contains("\"h\""))
  }

  @Test func eachFormatWritesItsExportersBytes() throws {
    let log = try #require(BundledLogs.all.first)
    let html = TextSink()
    TimelineExport.write(try RunTable(reading: try LogReader(path: log)), log: log, to: html)
    #expect(try export(.html, log) == html.text)
    #expect(try export(.mermaid, log).hasPrefix("sequenceDiagram"))
    let sequence = try export(.chromeTrace, log), virtual = try export(.chromeTrace, log, clock: .virtual)
    #expect(sequence.hasPrefix("{") && virtual.hasPrefix("{") && sequence != virtual)
  }

  @Test func aLogThatCannotBeOpenedIsRefusedFirst() {
    #expect(throws: LogProblem.self) { _ = try ExportFormat.jsonl.writer(for: "/no/such.lifelog", clock: .sequence) }
    #expect(throws: LogProblem.self) { _ = try ExportFormat.html.writer(for: "/no/such.lifelog", clock: .sequence) }
    #expect(ExportFormat.allCases.map(\.rawValue) == ["chrome-trace", "mermaid", "jsonl", "html", "tables"])
  }
}
