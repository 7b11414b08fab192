import EventStore
import ScriptHost
import JSON

/// Reading a `report.json` back, for `explore merge`. The file is hostile until checked: every
/// member must have the type and range the writer gives it, and a finding's `scenario` must be
/// a name the writer makes (`finding-N.lua`), so that nothing read can point outside its folder.
extension ExploreReport {
  /// The largest report read (the writer's are a few hundred KiB).
  public static let bytesMax = 16 << 20

  /// Reads a report; the error says what is wrong (the caller names the file).
  public init(json: JSONValue) throws(ScriptError) {
    guard json.objectValue != nil else { throw ScriptError("not a report: expected a JSON object") }
    runs = try Self.count(json["runs"], "runs"); events = try Self.count(json["events"], "events")
    virtualUs = try Self.count(json["virtual_us"], "virtual_us")
    guard let seed = json["seed"]?.intValue else { throw ScriptError("seed must be a whole number") }
    self.seed = seed
    try Self.checkSeconds(json["seconds"])
    guard let shard = json["shard"]?.stringValue, shard == "merged" || Shard(shard)?.splitsExploreLanes == true else {
      throw ScriptError("shard must be \"merged\" or K/N with N dividing 16")
    }
    self.shard = shard
    let coverage = json["coverage"]
    reached = try Self.strings(coverage?["reached"], "coverage.reached")
    neverReached = try Self.strings(coverage?["never_reached"], "coverage.never_reached")
    callbacks = try Self.strings(coverage?["callbacks"], "coverage.callbacks")
    guard let list = json["findings"]?.arrayValue else { throw ScriptError("findings must be a list") }
    var entries: [Entry] = []
    for (i, f) in list.enumerated() { entries.append(try Entry(json: f, what: "findings[\(i)]")) }
    findings = entries
  }

  /// A count: a whole number, 0 or more.
  static func count(_ value: JSONValue?, _ what: String) throws(ScriptError) -> Int64 {
    guard let n = value?.intValue, n >= 0 else { throw ScriptError("\(what) must be a whole number, 0 or more") }
    return n
  }

  /// A list of strings, nothing else.
  private static func strings(_ value: JSONValue?, _ what: String) throws(ScriptError) -> [String] {
    guard let list = value?.arrayValue else { throw ScriptError("\(what) must be a list of strings") }
    var out: [String] = []
    for item in list {
      guard let s = item.stringValue else { throw ScriptError("\(what) must be a list of strings") }
      out.append(s)
    }
    return out
  }

  /// `seconds` is a number; reports written before it was one hold a decimal string.
  private static func checkSeconds(_ value: JSONValue?) throws(ScriptError) {
    switch value {
    case .int?, .double?: return
    case let .string(text)? where Double(text) != nil: return
    default: throw ScriptError("seconds must be a number")
    }
  }
}

extension ExploreReport.Entry {
  /// One finding of a report; `what` names it in the error (`findings[2]`).
  init(json: JSONValue, what: String) throws(ScriptError) {
    guard let signature = json["signature"]?.stringValue, let reason = json["reason"]?.stringValue else {
      throw ScriptError("\(what) must have a signature and a reason (strings)")
    }
    guard let scenario = json["scenario"]?.stringValue, Self.isFindingName(scenario) else {
      throw ScriptError("\(what).scenario must be a name explore writes (finding-N.lua), not a path")
    }
    guard let reproduces = json["reproduces"]?.boolValue else { throw ScriptError("\(what).reproduces must be true or false") }
    self.init(signature: signature, reason: reason, verbs: try ExploreReport.count(json["verbs"], "\(what).verbs"),
              scenario: scenario, run: try ExploreReport.count(json["run"], "\(what).run"), reproduces: reproduces)
  }

  /// `finding-N.lua`, N a number from 1 without leading zeros: the only names explore writes.
  static func isFindingName(_ name: String) -> Bool {
    guard name.hasPrefix("finding-"), name.hasSuffix(".lua") else { return false }
    let number = name.utf8.dropFirst("finding-".count).dropLast(".lua".count)
    return !number.isEmpty && number.count <= 18 && number.first != UInt8(ascii: "0")
      && number.allSatisfy { (0x30...0x39).contains($0) }
  }
}
