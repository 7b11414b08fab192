/// A set of iOS versions as a person writes it: `12,15,17,26`, ranges `13-17`, `all`.
/// `lifesim test --ios` runs its profiles; `scenario { ios_range = "15-26" }` says where a
/// scenario applies.
public struct IOSVersionSet: Sendable, Equatable {
  /// The versions as written: a single version is a one-element range.
  public let ranges: [ClosedRange<Int>]
  /// The text it was parsed from.
  public let text: String

  /// Parses `text`; the error says what is wrong with it, without naming where it came from.
  public init(parsing text: String) throws(ScenarioError) {
    var ranges: [ClosedRange<Int>] = []
    for raw in text.split(separator: ",", omittingEmptySubsequences: false) {
      let item = raw.trimmingSpaces
      if item == "all" {
        ranges.append(IOSRelease.versions[0]...IOSRelease.latest.version)
        continue
      }
      let ends = item.split(separator: "-", omittingEmptySubsequences: false).map { Int($0.trimmingSpaces) }
      guard (1...2).contains(ends.count), let low = ends[0], let high = ends[ends.count - 1] else {
        throw ScenarioError("\"\(item)\" is not a release (\(IOSRelease.text)), a range such as 13-17, or all")
      }
      if ends.count == 1, !IOSRelease.versions.contains(low) {
        throw ScenarioError("\"\(item)\": iOS versions are \(IOSRelease.text)")
      }
      guard IOSRelease.headerVersions.contains(low), IOSRelease.headerVersions.contains(high) else {
        throw ScenarioError("\"\(item)\": iOS versions are \(IOSRelease.text)")
      }
      guard low <= high else { throw ScenarioError("\"\(item)\": the range is empty (\(low) > \(high))") }
      ranges.append(low...high)
    }
    self.ranges = ranges
    self.text = text
    if profiles.isEmpty { throw ScenarioError("\"\(text)\" names no iOS release (\(IOSRelease.text))") }
  }

  /// Whether `ios` is in the set.
  public func contains(_ ios: Int) -> Bool { ranges.contains { $0.contains(ios) } }

  /// The releases in the set, oldest first, each once.
  public var profiles: [Int] { IOSRelease.versions.filter(contains) }
}

private extension Substring {
  var trimmingSpaces: String {
    String(drop { $0 == " " }.reversed().drop { $0 == " " }.reversed())
  }
}
