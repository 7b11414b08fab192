import JSON

/// What `lifesim profile` prints: the profile a run would use for one released iOS version
/// (with or without scenes), every knob with its Lua name, unit and value, and what changed
/// from the previous release. It reads only `Profile.knobs`, so it cannot drift from them;
/// docs/model.md's per-release table is `releaseTable()`, held equal by a test.
public struct ProfileReport: Sendable {
  /// One knob as the report shows it.
  public struct Row: Sendable, Equatable {
    /// The name a scenario's `knobs` table uses.
    public let name: String
    /// How a scenario writes it (`seconds`, `true or false`, `one of "a", "b"`).
    public let unit: String
    /// The value, in the unit a scenario writes (`30 s`, `true`, `"pageSheet"`).
    public let value: String
    /// The value in the previous release, when it differs.
    public let previous: String?
    /// `value` and `previous` as a scenario would write them (seconds for durations).
    public let json: JSONValue, previousJSON: JSONValue?
  }

  public let ios: Int
  public let scenes: Bool
  /// The SDK the app is built with.
  public let sdk: Int
  /// The device (`--device ipad`: several windows; the knobs are the same).
  public let device: Profile.Device
  /// The release before `ios` (nil for the oldest modelled).
  public let previousRelease: Int?
  /// Whether the previous release used scenes, when that differs.
  public let previousScenes: Bool?
  public let rows: [Row]

  /// The report for `ios` (a release) and an app built with `sdk` (nil: the
  /// version's default); `scenes` nil: the version's default. The previous release is compared
  /// with the same choice of scenes and SDK. An iPad needs iOS 13 and scenes.
  public init(ios: Int, scenes: Bool?, sdk: Int? = nil, device: Profile.Device = .iphone) throws(ScenarioError) {
    do throws(IOSRelease.Refusal) {
      _ = try IOSRelease(ios, "ios")
      if let sdk { _ = try IOSRelease(sdk, "sdk", as: .sdk) }
    } catch {
      throw ScenarioError(error.description)
    }
    var profile = Profile(ios: ios, scenes: scenes, sdk: sdk)
    profile.device = device
    if let problem = profile.deviceProblem { throw ScenarioError(problem) }
    let before = IOSRelease.versions.last { $0 < ios }.map { Profile(ios: $0, scenes: scenes == false ? false : nil, sdk: sdk) }
    self.ios = ios
    self.scenes = profile.scenes
    self.sdk = profile.sdk
    self.device = device
    previousRelease = before?.ios
    previousScenes = before.flatMap { $0.scenes == profile.scenes ? nil : $0.scenes }
    rows = Profile.knobs.map { knob in
      let value = knob.read(profile)
      let old = before.map { knob.read($0) }
      let changed = old.flatMap { $0 == value ? nil : $0 }
      return Row(name: knob.name, unit: knob.unitText, value: knob.valueText(value), previous: changed.map(knob.valueText),
                 json: knob.scenarioValue(value), previousJSON: changed.map(knob.scenarioValue))
    }
  }

  /// The changed rows.
  public var changes: [Row] { rows.filter { $0.previous != nil } }

  /// docs/model.md's table of defaults per release: a row per knob, a column per release.
  public static func releaseTable() -> [String] {
    let profiles = IOSRelease.versions.map { Profile(ios: $0) }
    let head = "| knob | " + IOSRelease.versions.map { "iOS \($0)" }.joined(separator: " | ") + " |"
    let rule = "|---|" + String(repeating: "---|", count: profiles.count)
    let scenes = "| scenes (default) | " + profiles.map { "\($0.scenes)" }.joined(separator: " | ") + " |"
    return [head, rule, scenes] + Profile.knobs.map { knob in
      "| `\(knob.name)` | " + profiles.map { knob.valueText(knob.read($0)) }.joined(separator: " | ") + " |"
    }
  }
}

extension KnobSpec {
  /// How a scenario writes the knob, for people.
  public var unitText: String {
    switch unit {
    case .flag: return "true or false"
    case let .choice(words): return "one of " + words.map { "\"\($0)\"" }.joined(separator: ", ")
    case .seconds: return "seconds"
    case let .count(range): return "whole number, \(range.lowerBound) to \(range.upperBound)"
    }
  }

  /// A value as the header records it, written as a scenario would (`30 s`, `"pageSheet"`).
  func valueText(_ recorded: JSONValue) -> String {
    switch unit {
    case .seconds:
      let us = recorded.intValue ?? 0
      let whole = us % VirtualTime.microsecondsPerSecond == 0
      return (whole ? String(us / VirtualTime.microsecondsPerSecond) : VirtualTime.format(us)) + " s"
    case .flag, .choice, .count: return recorded.canonicalText
    }
  }

  /// A value as the header records it, in the scenario's unit (seconds for durations).
  func scenarioValue(_ recorded: JSONValue) -> JSONValue {
    switch unit {
    case .seconds:
      let us = recorded.intValue ?? 0
      return us % VirtualTime.microsecondsPerSecond == 0 ? .int(us / VirtualTime.microsecondsPerSecond)
        : .double(Double(us) / Double(VirtualTime.microsecondsPerSecond))
    case .flag, .choice, .count: return recorded
    }
  }
}
