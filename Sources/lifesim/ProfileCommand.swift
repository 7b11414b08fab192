import ArgumentParser
import JSON
import Lifecycle

struct ProfileCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "profile",
    abstract: "Print the profile a run would use: every knob with its Lua name, unit and value, and what changed from the previous release.",
    discussion: helpText("""
      The values are the defaults for the iOS version; a scenario's knobs = { … } overrides
      them by the same names. The previous release is compared with the same choice of scenes.

      Examples:
        lifesim profile --ios 13
        lifesim profile --ios 26 --no-scenes --json
        lifesim profile --ios 27 --sdk 27 --no-scenes
      """)
  )

  @Option(help: "The iOS release: 12 to 18, 26 or 27 (default 17).")
  var ios: Int = Profile.defaultIOS

  @OptionGroup var sdkOption: SDKOption

  @Flag(help: "The profile of an app without the UIScene life cycle (app delegate only).")
  var noScenes = false

  @Flag(help: "Print one JSON object instead of the table.")
  var json = false

  func validate() throws {
    if !Profile.releases.contains(ios) {
      throw ValidationError("--ios must be a released iOS version (\(Profile.releasesText)), not \(ios)")
    }
  }

  func run() throws {
    defer { Terminal.flush() }
    let report: ProfileReport
    do { report = try ProfileReport(ios: ios, scenes: noScenes ? false : nil, sdk: sdkOption.sdk) } catch {
      throw ValidationError(error.message)
    }
    if json {
      Terminal.write(Self.json(report).canonicalText)
    } else {
      Self.text(report).forEach(Terminal.write)
    }
  }

  static func text(_ r: ProfileReport) -> [String] {
    let nameWidth = r.rows.map(\.name.count).max() ?? 0, unitWidth = r.rows.map(\.unit.count).max() ?? 0
    func pad(_ s: String, _ width: Int) -> String { s + String(repeating: " ", count: width - s.count) }
    var lines = ["iOS \(r.ios), SDK \(r.sdk), \(r.scenes ? "with scenes" : "sceneless"): the profile a run uses unless a scenario's knobs override it",
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

  static func json(_ r: ProfileReport) -> JSONValue {
    var fields: [(String, JSONValue)] = [("ios", .int(Int64(r.ios))), ("sdk", .int(Int64(r.sdk))), ("scenes", .bool(r.scenes))]
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
