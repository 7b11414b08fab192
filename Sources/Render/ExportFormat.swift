import EventStore
import Lifecycle
import LifecycleLog

/// The formats of `lifesim export`, and how each writes a log: the one list of what exists.
package enum ExportFormat: String, CaseIterable, Sendable {
  case chromeTrace = "chrome-trace", mermaid, jsonl, html, tables

  /// Opens `log` for a single-log format (every one but `tables`: `TablesExport` writes that)
  /// and returns what writes it to a sink. The timeline's table shows every member of each
  /// event, so `html` parses the log whole; the other formats read events in place. Throws
  /// when the log cannot be opened; the writer throws when it cannot be read to its end.
  package func writer(for log: String, clock: TraceClock) throws(LogProblem) -> (any ExportSink) throws -> Void {
    switch self {
    case .html:
      let reader = try RecordedLog.reader(log)
      return { sink in TimelineExport.write(try RunTable(reading: reader), log: log, to: sink) }
    case .tables:
      preconditionFailure("tables writes a folder of logs: TablesExport")
    case .jsonl, .chromeTrace, .mermaid:
      // The chrome trace folds events decoded where the log is checked (`DecodedBatches`).
      let following: (() -> any FoldPartFollower)? = self == .chromeTrace ? { DecodedBatches.follower() } : nil
      let stream = try RecordedLog.stream(log, following: following)
      return { sink in try write(stream, clock: clock, to: sink) }
    }
  }

  /// The formats that read events in place, from `stream` to `sink`.
  private func write(_ stream: LogEventStream, clock: TraceClock, to sink: any ExportSink) throws {
    switch self {
    case .jsonl:
      while let e = try stream.next() { sink.write(String(decoding: e.body, as: UTF8.self)) }
    case .chromeTrace:
      var exporter = ChromeTraceExporter(header: stream.header, clock: clock, sink: sink)
      do {
        _ = try DecodedBatches.forEach(stream) { seq, t, body in exporter.add(seq: seq, t: t, body) }
      } catch {
        exporter.flush()
        throw error
      }
      exporter.finish()
    case .mermaid:
      var exporter = MermaidExporter(sink: sink)
      while let e = try stream.next() { exporter.add(try Event(e)) }
      exporter.finish()
    case .html, .tables:
      preconditionFailure("\(rawValue) does not read events in place")
    }
  }
}
