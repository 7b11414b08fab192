import EventStore
import JSON
import Lifecycle
import LifecycleLog

/// Compares a re-run with the recorded log, event by event, streaming, on canonical bytes:
/// the recorded line (without `h`) must equal the re-run event's encoding exactly.
public final class ReplayComparison {
  /// The first event where the runs part.
  public struct Divergence: Sendable {
    /// The event's number, and the earlier of its two times (µs).
    public var seq: Int64
    public var t: Int64
    /// Each run's event there as its canonical text, or `(the recording ends here)` /
    /// `(this run ends here)` where that run had ended.
    public var recorded: String
    public var actual: String
    /// Up to five identical events before it, oldest first.
    public var before: [String]
    /// The script line (`file:line`) that produced the event, if any.
    public var source: String?

  }

  /// Everything a check changes, in one value: an event costs one exclusivity check, not one
  /// a property (a class's stored properties are checked at run time).
  private var checker: Checker

  /// `ignoreSource`: compare without the script line `at` (`--app`: line numbers differ between scripts).
  public init(recording: BackgroundLogScanner, ignoreSource: Bool) {
    checker = Checker(recording: recording, ignoreSource: ignoreSource)
  }

  public var divergence: Divergence? { checker.divergence }
  /// What is wrong with the recording, if reading it failed before the comparison ended.
  public var problem: LogProblem? { checker.problem }

  /// The recording's last event when it ends without a trailer and the comparison reached that
  /// end (nothing past the cut can be compared); nil when it diverged before, or is complete.
  public var cutOffAfter: Int64? {
    guard let n = checker.recording.ending?.cutOffAfter, (divergence?.seq ?? .max) > n else { return nil }
    return n
  }

  /// Compares one re-run event with the next recorded one, in place.
  public func check(seq: Int64, _ event: Event) { checker.check(seq: seq, event) }

  /// After the re-run: a recording with events left over departs there.
  public func finish() { checker.finish() }

  fileprivate static func text(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self) }

  fileprivate static func withBrace(_ body: UnsafeRawBufferPointer) -> [UInt8] { Array(body) + [UInt8(ascii: "}")] }

  /// `"at":"file:line"` of a canonical body (always its last member), if any.
  fileprivate static func source(_ body: [UInt8]) -> String? {
    body.withUnsafeBytes { raw in
      guard let start = CanonicalBody.sourceStart(raw, end: raw.count - 1) else { return nil }
      return (try? JSONParser.parse(Array(raw[(start + 6)..<(raw.count - 1)])))?.stringValue
    }
  }

  /// The comparison itself.
  private struct Checker: ~Copyable {
    let recording: BackgroundLogScanner
    /// `--app`: line numbers in `at` differ between scripts; compare without them.
    let ignoreSource: Bool
    private(set) var divergence: Divergence?
    /// What is wrong with the recording, if reading it failed before the comparison ended.
    private(set) var problem: LogProblem?
    /// The last five identical events (text only when a report needs them).
    private var recent = RecentBodies(size: 5)
    private var writer = CanonicalJSONWriter(capacity: 512)
    /// Writes each re-run event's opening from digits kept from the event before
    /// (`Event.canonicalBody(after:into:)`), and the `seq` it writes next.
    private var opening: EventOpening?
    private var openingSeq: Int64 = 0

    init(recording: BackgroundLogScanner, ignoreSource: Bool) {
      self.recording = recording
      self.ignoreSource = ignoreSource
    }

    /// The next recorded event's body without its closing brace; nil at the end or on damage.
    private mutating func nextRecorded() -> UnsafeRawBufferPointer? {
      guard problem == nil else { return nil }
      do { return try recording.next()?.bodyWithoutBrace } catch {
        problem = error
        return nil
      }
    }

    /// Writes `event`'s canonical body (`Event.canonicalBody`'s bytes) into `writer`.
    private mutating func encode(seq: Int64, _ event: Event) {
      guard seq >= 1, event.t >= 0 else { return event.canonicalBody(seq: seq, into: &writer) }
      if opening == nil || openingSeq != seq {
        opening = EventOpening(lastSeq: seq - 1, lastTime: event.t)
        openingSeq = seq
      }
      event.canonicalBody(after: &opening!, into: &writer)
      openingSeq += 1
    }

    /// Compares one re-run event with the next recorded one, in place.
    mutating func check(seq: Int64, _ event: Event) {
      guard divergence == nil else { return }
      encode(seq: seq, event)
      guard let recorded = nextRecorded() else {
        guard problem == nil else { return }
        let actual = writer.bytes
        divergence = Divergence(seq: seq, t: event.t, recorded: "(the recording ends here)", actual: ReplayComparison.text(actual),
                                before: recent.drain().map(ReplayComparison.text), source: ReplayComparison.source(actual))
        return
      }
      let same = writer.withBytes { actual in
        // The recorded body lacks only the closing brace the encoding ends with.
        let a = UnsafeRawBufferPointer(rebasing: actual[0..<(actual.count - 1)])
        if ignoreSource {
          let aEnd = CanonicalBody.sourceStart(a, end: a.count) ?? a.count
          let rEnd = CanonicalBody.sourceStart(recorded, end: recorded.count) ?? recorded.count
          return aEnd == rEnd && CanonicalBody.samePrefix(a, recorded, count: aEnd)
        }
        return a.count == recorded.count && CanonicalBody.samePrefix(a, recorded, count: a.count)
      }
      if !same {
        let recordedBody = ReplayComparison.withBrace(recorded), actual = writer.bytes
        // Damage is not a divergence.
        if let damage = LogProblem.damage(ofEvent: recordedBody) {
          problem = damage
          return
        }
        let recordedT = (try? JSONParser.parse(recordedBody))?["t"]?.intValue ?? event.t
        divergence = Divergence(seq: seq, t: min(recordedT, event.t), recorded: ReplayComparison.text(recordedBody), actual: ReplayComparison.text(actual),
                                before: recent.drain().map(ReplayComparison.text), source: ReplayComparison.source(actual) ?? ReplayComparison.source(recordedBody))
        return
      }
      writer.withBytes { recent.push($0, closingBrace: false) }
    }

    /// After the re-run: a recording with events left over departs there.
    mutating func finish() {
      guard divergence == nil, let extra = nextRecorded().map(ReplayComparison.withBrace) else { return }
      if let damage = LogProblem.damage(ofEvent: extra) {
        problem = damage
        return
      }
      let parsed = try? JSONParser.parse(extra)
      divergence = Divergence(seq: parsed?["seq"]?.intValue ?? 0, t: parsed?["t"]?.intValue ?? 0, recorded: ReplayComparison.text(extra),
                              actual: "(this run ends here)", before: recent.drain().map(ReplayComparison.text), source: ReplayComparison.source(extra))
    }
  }
}

