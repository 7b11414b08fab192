import EventStore
import JSON
import Lifecycle

// The log's form of a restoration change.
extension RestorationChange {
  /// The transition names these events are logged under.
  static let names: Set<String> = ["restorationActivitySaved", "restorationActivityDeleted", "restorationArchiveWritten",
                                   "restorationArchiveDeleted"]

  func encodeFields(into w: inout CanonicalJSONWriter) {
    w.field("name", name)
    switch self {
    case let .activitySaved(activity, session):
      w.field("activity", activity)
      if let session { w.field("session", session) }
    case let .activityDeleted(why, session):
      w.field("why", why)
      if let session { w.field("session", session) }
    case let .archiveDeleted(why): w.field("why", why)
    case let .archiveWritten(archive): w.field("archive", archive.json)
    }
  }

  /// Reads the change a transition named `name` records, naming window `session` (read and
  /// checked with the event's other members); nil when its fields are not one.
  init?<Fields: EventFields>(name: String, fields e: Fields, session: Int?) {
    switch name {
    case "restorationActivitySaved":
      guard let activity = e["activity"] else { return nil }
      self = .activitySaved(activity, session: session)
    case "restorationActivityDeleted":
      guard let why = e["why"]?.stringValue else { return nil }
      self = .activityDeleted(why: why, session: session)
    case "restorationArchiveWritten":
      guard let archive = e["archive"].flatMap(RestorationArchive.init(json:)) else { return nil }
      self = .archiveWritten(archive)
    case "restorationArchiveDeleted":
      guard let why = e["why"]?.stringValue else { return nil }
      self = .archiveDeleted(why: why)
    default:
      return nil
    }
  }
}
