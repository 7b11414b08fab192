import Lifecycle

/// A set of iOS versions as a person writes it: `12,15,17,26`, ranges `13-17`, `all`.
/// `--ios` runs its profiles; `scenario { ios_range = "15-26" }` says where a scenario applies.
public struct IOSVersionSet: Sendable, Equatable {
  /// The profiles `all` names, oldest first: the iOS versions Apple shipped from 12 on (after 18 came 26).
  public static let allProfiles = [12, 13, 14, 15, 16, 17, 18, 26]

  /// The versions as written: single versions are one-element ranges.
  public let ranges: [ClosedRange<Int>]

  /// Parses `text`; the error says what is wrong with it, without naming where it came from.
  public init(parsing text: String) throws(SuiteError) {
    var ranges: [ClosedRange<Int>] = []
    let items = text.split(separator: ",", omittingEmptySubsequences: false)
    for raw in items {
      let item = raw.trimmingSpaces
      if item == "all" {
        ranges.append(Self.allProfiles[0]...Self.allProfiles[Self.allProfiles.count - 1])
        continue
      }
      let ends = item.split(separator: "-", omittingEmptySubsequences: false).map { Int($0.trimmingSpaces) }
      guard (1...2).contains(ends.count), let low = ends[0], let high = ends[ends.count - 1] else {
        throw SuiteError("\"\(item)\" is not an iOS version (12 to 26), a range such as 13-17, or all")
      }
      guard Profile.iosRange.contains(low), Profile.iosRange.contains(high) else {
        throw SuiteError("\"\(item)\": iOS versions are from 12 to 26")
      }
      guard low <= high else { throw SuiteError("\"\(item)\": the range is empty (\(low) > \(high))") }
      ranges.append(low...high)
    }
    self.ranges = ranges
    if profiles.isEmpty { throw SuiteError("\"\(text)\" names no iOS profile (the profiles: 12 to 18, and 26)") }
  }

  /// Whether `ios` is in the set.
  public func contains(_ ios: Int) -> Bool { ranges.contains { $0.contains(ios) } }

  /// The profiles to run, oldest first, each once: a single version as written, a range's shipped versions.
  public var profiles: [Int] {
    var found = Set<Int>()
    for range in ranges {
      if range.count == 1 { found.insert(range.lowerBound) }
      for ios in Self.allProfiles where range.contains(ios) { found.insert(ios) }
    }
    return found.sorted()
  }
}

extension Substring {
  var trimmingSpaces: String {
    String(drop { $0 == " " }.reversed().drop { $0 == " " }.reversed())
  }
}
