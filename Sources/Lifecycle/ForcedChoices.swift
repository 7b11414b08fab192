import JSON

/// The outcomes of an app's `choose(site)` calls that a run fixes (`--choose SITE=true|false`):
/// each site named here returns its value; any other draws from the run's seed. The header
/// records them (key `choose`, sites in byte order), so `replay --verify` runs the same branches.
public struct ForcedChoices: Equatable, Sendable {
  /// The most sites one run may force.
  public static let maxSites = 64
  /// The longest site, in UTF-8 bytes (`"AppDelegate.swift:57"` is 20).
  public static let maxSiteBytes = 200

  /// Each forced site and its value, sites in byte order.
  public private(set) var values: [(site: String, value: Bool)] = []

  public init() {}

  /// The forced value of `site`, or nil when the run draws it.
  public func value(of site: String) -> Bool? { values.first { $0.site == site }?.value }

  /// The forced value of `site` in the run's `launch`th process (1 for the first): the value
  /// forced for that launch alone (`SITE@N`), else the site's own, else nil.
  public func value(of site: String, launch: Int) -> Bool? { value(of: Self.site(site, launch: launch)) ?? value(of: site) }

  /// `SITE@N`: the key that forces `site` in the run's `launch`th process alone.
  public static func site(_ site: String, launch: Int) -> String { "\(site)@\(launch)" }

  /// The site a `SITE@N` key forces in one launch, or nil for a key that names no launch.
  public static func siteOfLaunchKey(_ key: String) -> String? {
    guard let at = key.lastIndex(of: "@"), key.index(after: at) < key.endIndex,
          key[key.index(after: at)...].allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
    return String(key[..<at])
  }

  /// Why a `SITE@N` key cannot be forced (its launch is 0 or written with a leading zero), or nil.
  static func launchProblem(_ key: String) -> String? {
    guard siteOfLaunchKey(key) != nil, let at = key.lastIndex(of: "@") else { return nil }
    let digits = key[key.index(after: at)...]
    return digits.first == "0" || digits.count > 9 ? "a choice's launch (SITE@N) counts from 1: \(digits) is not one" : nil
  }

  public var isEmpty: Bool { values.isEmpty }

  /// The words that force these choices on a command line: `--choose SITE=true` for each site.
  public var commandLineWords: [String] { values.flatMap { ["--choose", "\($0.site)=\($0.value)"] } }

  /// `SITE=false, …`: the choices as a case's name shows them.
  public var text: String { values.map { "\($0.site)=\($0.value)" }.joined(separator: ", ") }

  /// Forces `site` to `value`, over any earlier value for it.
  public mutating func force(_ site: String, _ value: Bool) throws(Profile.KnobError) {
    if let problem = Self.problem(site: site) ?? Self.launchProblem(site) { throw Profile.KnobError(description: problem) }
    if let index = values.firstIndex(where: { $0.site == site }) { values[index].value = value; return }
    guard values.count < Self.maxSites else { throw Profile.KnobError(description: "at most \(Self.maxSites) choices may be forced in one run") }
    let index = values.firstIndex { Array($0.site.utf8).lexicographicallyPrecedes(Array(site.utf8)) == false } ?? values.count
    values.insert((site, value), at: index)
  }

  /// These choices without `site`.
  public func removing(_ site: String) -> ForcedChoices {
    var rest = self
    rest.values.removeAll { $0.site == site }
    return rest
  }

  /// Every site of `other` forced to its value over this one's: all of `other`'s, then this
  /// one's other sites while the limit allows (the later layer is never the one cut). A site
  /// `other` forces in every launch also overrides this one's `SITE@N` for it.
  public func merging(_ other: ForcedChoices) -> ForcedChoices {
    var merged = other
    for (site, value) in values where other.value(of: site) == nil {
      if let base = Self.siteOfLaunchKey(site), other.value(of: base) != nil { continue }
      try? merged.force(site, value)
    }
    return merged
  }

  /// Why `site` cannot name a choice (empty, too long, a control character), or nil.
  public static func problem(site: String) -> String? {
    if site.isEmpty { return "a choice's site must not be empty" }
    if site.utf8.count > maxSiteBytes { return "a choice's site is at most \(maxSiteBytes) bytes" }
    if site.unicodeScalars.contains(where: { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) }) {
      return "a choice's site must not hold a control character"
    }
    return nil
  }

  /// `--choose SITE=true|false`: the site is everything before the last `=`.
  public mutating func force(parsing text: String) throws(Profile.KnobError) {
    guard let equals = text.lastIndex(of: "="), ["true", "false"].contains(text[text.index(after: equals)...]) else {
      throw Profile.KnobError(description: "--choose \(text): expected SITE=true or SITE=false, e.g. --choose AppDelegate.swift:57=false")
    }
    do { try force(String(text[..<equals]), text[text.index(after: equals)...] == "true") } catch {
      throw Profile.KnobError(description: "--choose \(text): \(error.description)")
    }
  }

  public static func == (a: ForcedChoices, b: ForcedChoices) -> Bool {
    a.values.elementsEqual(b.values) { $0.site == $1.site && $0.value == $1.value }
  }
}

extension Profile {
  /// The header's `choose` member: absent when no choice is forced, so other logs keep their bytes.
  var forcedChoiceFields: [(String, JSONValue)] {
    forcedChoices.isEmpty ? [] : [("choose", .object(forcedChoices.values.map { ($0.site, .bool($0.value)) }))]
  }

  /// Reads the header's `choose` member, each site and value checked.
  mutating func readForcedChoices(_ json: JSONValue) throws(Profile.KnobError) {
    guard let value = json["choose"] else { return }
    guard case let .object(members) = value, members.count <= ForcedChoices.maxSites else {
      throw Profile.KnobError(description: "profile: choose must be an object of at most \(ForcedChoices.maxSites) sites, each true or false")
    }
    var choices = ForcedChoices()
    for (site, flag) in members {
      guard let flag = flag.boolValue else { throw Profile.KnobError(description: "profile: choose: each site must be true or false") }
      do { try choices.force(site, flag) } catch { throw Profile.KnobError(description: "profile: choose: \(error.description)") }
    }
    forcedChoices = choices
  }
}
