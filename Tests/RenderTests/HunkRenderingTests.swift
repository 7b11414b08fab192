import EventStore
import Lifecycle
import Render
import RunComparison
import Testing

/// `diff`'s hunks through the caches (trace lines by event bytes, pair notes, whole-hunk
/// templates) read exactly as each line formatted and each note computed afresh.
@Suite struct HunkRenderingTests {
  /// Every hunk of `diff a b`, rendered by `renderer`, one text a hunk.
  private static func hunks(_ a: String, _ b: String, context: Int, ignoreTime: Bool, _ renderer: inout HunkRenderer) throws -> [[UInt8]] {
    var differ = EventDiffer(context: context, ignoreTime: ignoreTime)
    var texts: [[UInt8]] = []
    try differ.run(a: try LogScanner(path: a), b: try LogScanner(path: b)) { hunk in texts.append(try renderer.utf8(hunk)) }
    return texts
  }

  @Test func cachedHunksReadAsHunksRenderedAfresh() throws {
    var hunkCount = 0
    for (a, b) in BundledLogs.pairs {
      for (context, ignoreTime) in [(3, false), (0, true)] {
        var cached = HunkRenderer(a: a, b: b), plain = HunkRenderer(a: a, b: b, caching: false)
        let fast = try Self.hunks(a, b, context: context, ignoreTime: ignoreTime, &cached)
        let reference = try Self.hunks(a, b, context: context, ignoreTime: ignoreTime, &plain)
        #expect(fast == reference, "diff \(a) \(b) context \(context)")
        #expect(cached.timeShiftNote == plain.timeShiftNote)
        hunkCount += reference.count
      }
    }
    #expect(hunkCount > 100)
  }

  /// A log against itself run twice over (the second run's events hit the caches filled by the
  /// first): every trace line the cache gives is the plain formatter's, state included.
  @Test func traceLineCacheMatchesThePlainFormatter() throws {
    for log in BundledLogs.all {
      var cache = TraceLineCache()
      var cached = TraceFormatter(), plain = TraceFormatter()
      var bodies: [[UInt8]] = []
      let scanner = try LogScanner(path: log)
      while let e = try scanner.next() { bodies.append(Array(e.bodyWithoutBrace) + [UInt8(ascii: "}")]) }
      for body in bodies + bodies {
        let line = EventDiffer.Body(side: .same, body: body)
        let (text, _) = try cache.text(of: line, formatter: &cached)
        #expect(text == (try TraceLineCache.plainText(of: line, formatter: &plain)), "\(log)")
      }
    }
  }
}
