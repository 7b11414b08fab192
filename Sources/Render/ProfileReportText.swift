import EventStore
import JSON
import Lifecycle

/// How `lifesim profile` shows a release's profile.
extension ProfileReport {
  /// The table `lifesim profile` prints: every knob with its unit and value, then what changed
  /// from the previous release.
  package var lines: [String] {
    let r = self
    let nameWidth = r.rows.map(\.name.count).max() ?? 0, unitWidth = r.rows.map(\.unit.count).max() ?? 0
    func pad(_ s: String, _ width: Int) -> String { s + String(repeating: " ", count: width - s.count) }
    let on = r.device == .ipad ? ", on iPad" : ""
    var lines = ["iOS \(r.ios), SDK \(r.sdk), \(r.scenes ? "with scenes" : "sceneless")\(on): the profile a run uses unless a scenario's knobs override it",
                 "", pad("knob", nameWidth) + "  " + pad("unit", unitWidth) + "  value"]
    lines += r.rows.map { pad($0.name, nameWidth) + "  " + pad($0.unit, unitWidth) + "  " + $0.value }
    lines.append("")
    guard let previous = r.previousRelease else {
      lines.append("iOS \(r.ios) is the oldest release lifesim models: nothing to compare with")
      return lines
    }
    var changes = r.changes.map { "  \($0.name): \($0.previous ?? "") → \($0.value)" }
    if let scenes = r.previousScenes { changes.insert("  scenes: \(scenes) → \(r.scenes)", at: 0) }
    lines.append("changed from iOS \(previous):" + (changes.isEmpty ? " nothing" : ""))
    return lines + changes
  }

  /// `lifesim profile --json`: the knobs and the changes as one object.
  package var json: JSONValue {
    let r = self
    var fields: [(String, JSONValue)] = [("ios", .int(Int64(r.ios))), ("sdk", .int(Int64(r.sdk))), ("scenes", .bool(r.scenes))]
    if r.device == .ipad { fields.append(("device", .string(r.device.rawValue))) }
    fields.append(("knobs", .array(r.rows.map { .object([("name", .string($0.name)), ("unit", .string($0.unit)), ("value", $0.json)]) })))
    if let previous = r.previousRelease {
      var changes: [JSONValue] = r.previousScenes.map { [.object([("name", .string("scenes")), ("from", .bool($0)), ("to", .bool(r.scenes))])] } ?? []
      changes += r.changes.map { .object([("name", .string($0.name)), ("from", $0.previousJSON ?? .null), ("to", $0.json)]) }
      fields.append(("previous", .object([("ios", .int(Int64(previous))), ("changes", .array(changes))])))
    } else {
      fields.append(("previous", .null))
    }
    return .object(fields)
  }
}
