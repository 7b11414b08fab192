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
        ranges.append(Profile.releases[0]...Profile.releases[Profile.releases.count - 1])
        continue
      }
      let ends = item.split(separator: "-", omittingEmptySubsequences: false).map { Int($0.trimmingSpaces) }
      guard (1...2).contains(ends.count), let low = ends[0], let high = ends[ends.count - 1] else {
        throw ScenarioError("\"\(item)\" is not a release (\(Profile.releasesText)), a range such as 13-17, or all")
      }
      if ends.count == 1, !Profile.releases.contains(low) {
        throw ScenarioError("\"\(item)\": iOS versions are \(Profile.releasesText)")
      }
      guard Profile.iosRange.contains(low), Profile.iosRange.contains(high) else {
        throw ScenarioError("\"\(item)\": iOS versions are \(Profile.releasesText)")
      }
      guard low <= high else { throw ScenarioError("\"\(item)\": the range is empty (\(low) > \(high))") }
      ranges.append(low...high)
    }
    self.ranges = ranges
    self.text = text
    if profiles.isEmpty { throw ScenarioError("\"\(text)\" names no iOS release (\(Profile.releasesText))") }
  }

  /// Whether `ios` is in the set.
  public func contains(_ ios: Int) -> Bool { ranges.contains { $0.contains(ios) } }

  /// The releases in the set, oldest first, each once.
  public var profiles: [Int] { Profile.releases.filter(contains) }
}

private extension Substring {
  var trimmingSpaces: String {
    String(drop { $0 == " " }.reversed().drop { $0 == " " }.reversed())
  }
}
