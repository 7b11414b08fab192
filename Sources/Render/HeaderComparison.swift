import EventStore
import JSON
import Lifecycle

/// What set two runs up differently, from their logs' headers: the lifesim version, the seed,
/// scenes, every profile value (iOS and knobs), and each embedded script (path and content).
/// `diff` shows these first: they explain the event differences that follow.
package struct HeaderComparison {
  package struct Difference {
    var field: String
    var a: JSONValue
    var b: JSONValue
  }

  package let differences: [Difference]

  package init(a: LogHeader, b: LogHeader) {
    var found: [Difference] = []
    func compare(_ field: String, _ x: JSONValue, _ y: JSONValue) {
      if x != y { found.append(Difference(field: field, a: x, b: y)) }
    }
    compare("lifesim", .string(a.lifesim), .string(b.lifesim))
    compare("seed", .int(a.seed), .int(b.seed))
    let profileA = a.profile.objectValue ?? [], profileB = b.profile.objectValue ?? []
    // The profile repeats `scenes` (a log whose profile lacks it still says so in the header).
    if !profileA.contains(where: { $0.0 == "scenes" }) { compare("scenes", .bool(a.scenes), .bool(b.scenes)) }
    // A value a header leaves out at its default (the SDK, a knob recorded only when set) is that default.
    func value(_ key: String, _ profile: [(String, JSONValue)], _ record: JSONValue) -> JSONValue {
      profile.first { $0.0 == key }?.1 ?? Profile.implicitValue(of: key, in: record) ?? .null
    }
    for key in Self.union(profileA.map(\.0), profileB.map(\.0)) {
      compare(key, value(key, profileA, a.profile), value(key, profileB, b.profile))
    }
    // The scenario and the app by role; modules by path (a module is the same module wherever it is required from).
    func scriptKey(_ s: EmbeddedScript) -> String { s.role == "scenario" || s.role == "app" ? s.role : "module \(s.path)" }
    let scriptsA = a.scripts.map { (scriptKey($0), $0) }, scriptsB = b.scripts.map { (scriptKey($0), $0) }
    for key in Self.union(scriptsA.map(\.0), scriptsB.map(\.0)) {
      compare(key, Self.describe(scriptsA.first { $0.0 == key }?.1), Self.describe(scriptsB.first { $0.0 == key }?.1))
    }
    differences = found
  }

  /// A script as `path (sha256 prefix)`, null when the run had none.
  private static func describe(_ script: EmbeddedScript?) -> JSONValue {
    script.map { .string("\($0.path) (\($0.sha256.prefix(12)))") } ?? .null
  }

  /// `a`'s keys, then those only `b` has.
  private static func union(_ a: [String], _ b: [String]) -> [String] {
    a + b.filter { !a.contains($0) }
  }

  /// The lines `diff` prints before the hunks; none when the headers agree.
  package var text: [String] {
    guard !differences.isEmpty else { return [] }
    let width = differences.map(\.field.count).max() ?? 0
    return ["The runs were set up differently:"] + differences.map { d in
      TerminalText.visible("  \(d.field)\(String(repeating: " ", count: width - d.field.count))  \(Self.plain(d.a)) → \(Self.plain(d.b))")
    }
  }

  /// JSON's `{"kind":"header",…}` line (docs/json.md).
  package var json: JSONValue {
    .object([("kind", .string("header")), ("differs", .array(differences.map { d in
      .object([("field", .string(d.field)), ("a", d.a), ("b", d.b)])
    }))])
  }

  private static func plain(_ value: JSONValue) -> String {
    if case .null = value { return "none" }
    return value.stringValue ?? value.canonicalText
  }
}
