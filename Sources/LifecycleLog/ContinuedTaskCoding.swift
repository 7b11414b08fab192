import EventStore
import JSON
import Lifecycle

// How the events of continued processing tasks are written to the log and read back: the
// continued request's members of a `BGTaskScheduler.submit` call, and `updateProgress`
// (docs/log-format.md). Other requests keep the bytes they always had.

extension ContinuedRequest {
  /// Writes `title`, `subtitle` and `strategy` after the request's other members.
  func encode(into w: inout CanonicalJSONWriter) {
    w.field("title", title); w.field("subtitle", subtitle); w.field("strategy", strategy.rawValue)
  }

  /// The continued members of a submit event of `kind` (nil for another kind).
  static func decoded<Fields: EventFields>(_ e: Fields, kind: BGTaskKind) throws(Event.DecodingError) -> ContinuedRequest? {
    guard kind == .continued else { return nil }
    guard let title = e.string("title"), let subtitle = e.string("subtitle") else {
      throw Event.DecodingError(seq: e.seq, reason: "a continued request needs \"title\" and \"subtitle\"")
    }
    guard let strategy = e.string("strategy").flatMap(ContinuedStrategy.init(rawValue:)) else {
      throw Event.DecodingError(seq: e.seq, reason: "a continued request's \"strategy\" must be \"queue\" or \"fail\"")
    }
    return ContinuedRequest(title: title, subtitle: subtitle, strategy: strategy)
  }
}

extension AppCall {
  /// `updateProgress`'s members.
  static func encodeProgress(identifier: String, done: Int64, total: Int64, into w: inout CanonicalJSONWriter) {
    w.field("identifier", identifier); w.field("done", done); w.field("total", total)
  }

  /// An `updateProgress` call read back: counts from 0 to 2⁵³ with done ≤ total, as lifesim writes them.
  static func decodedProgress<Fields: EventFields>(_ e: Fields) throws(Event.DecodingError) -> AppCall {
    guard let identifier = e.string("identifier"), let done = e.int("done"), let total = e.int("total"),
          total > 0, total <= progressCountMax, done >= 0, done <= total else {
      throw Event.DecodingError(seq: e.seq, reason: "updateProgress needs \"identifier\" and 0 ≤ \"done\" ≤ \"total\" ≤ 2^53, total > 0")
    }
    return .updateProgress(identifier: identifier, done: done, total: total)
  }

}
