import EventStore
import JSON
import Lifecycle
import Render
import Testing

/// The chrome-trace export's fast paths: events decoded a batch ahead, lines written as bytes
/// into two buffers handed to a writer thread. The bytes do not depend on where the lines are
/// cut into chunks, nor on decoding ahead: each is held to the plain way.
@Suite struct ChromeTraceTests {
  /// The trace of `events` with lines handed over every `flushBytes` bytes.
  private static func trace(_ log: String, _ clock: TraceClock, flushBytes: Int,
                            events: [(seq: Int64, event: Event)]) throws -> [UInt8] {
    let sink = TextSink()
    var exporter = ChromeTraceExporter(header: try LogEventStream(path: log).header, clock: clock, sink: sink, flushBytes: flushBytes)
    for e in events { exporter.add(seq: e.seq, t: e.event.t, e.event.body) }
    exporter.finish()
    return sink.bytes
  }

  /// As `lifesim export --format chrome-trace` writes it: decoded ahead, in 1 MiB chunks.
  private static func exported(_ log: String, _ clock: TraceClock) throws -> [UInt8] {
    let sink = TextSink()
    let stream = try LogEventStream(path: log)
    var exporter = ChromeTraceExporter(header: stream.header, clock: clock, sink: sink)
    _ = try DecodedBatches.forEach(stream) { seq, t, body in exporter.add(seq: seq, t: t, body) }
    exporter.finish()
    return sink.bytes
  }

  @Test func theBytesDoNotDependOnChunksOrDecodingAhead() throws {
    for log in BundledLogs.all {
      let events = try BundledLogs.events(log)
      for clock in TraceClock.allCases {
        let reference = try Self.trace(log, clock, flushBytes: 1 << 30, events: events)
        #expect(try Self.exported(log, clock) == reference, "\(log) \(clock)")
        for flushBytes in [1, 97] {
          #expect(try Self.trace(log, clock, flushBytes: flushBytes, events: events) == reference, "\(log) \(clock) \(flushBytes)")
        }
      }
    }
  }

  @Test func aTraceIsOneJSONObjectWithAnEventPerLine() throws {
    for log in BundledLogs.all.prefix(30) {
      let bytes = try Self.exported(log, .sequence)
      let parsed = try JSONParser.parseDocument(bytes)
      #expect(parsed.objectValue?.first { $0.0 == "traceEvents" }?.1.arrayValue?.isEmpty == false, "\(log)")
    }
  }
}
