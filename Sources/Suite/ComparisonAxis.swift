import Lifecycle

/// `lifesim test --compare AXIS`: what two runs of each scenario differ in. `profiles` pairs each
/// profile with the next one run; `scenes` pairs a run without scenes with the same run with
/// scenes, on each iOS; `sdk=A,B` pairs a run built with SDK A with the same run built with B.
package enum ComparisonAxis: Equatable, Sendable {
  case profiles
  case scenes
  case sdk(from: Int, to: Int)

  /// The axis `--compare` names (`profiles`, `scenes`, `sdk=A,B` with two different releases);
  /// nil for anything else.
  package init?(argument: String) {
    switch argument {
    case "profiles": self = .profiles
    case "scenes": self = .scenes
    default:
      guard argument.hasPrefix("sdk=") else { return nil }
      let versions = argument.dropFirst(4).split(separator: ",", omittingEmptySubsequences: false).map { Int($0) }
      guard versions.count == 2, let a = versions[0], let b = versions[1],
            IOSRelease.versions.contains(a), IOSRelease.versions.contains(b), a != b else { return nil }
      self = .sdk(from: a, to: b)
    }
  }

  /// `profiles`, `scenes`, `sdk=26,27`: as the option spells it.
  package var text: String {
    switch self {
    case .profiles: return "profiles"
    case .scenes: return "scenes"
    case let .sdk(a, b): return "sdk=\(a),\(b)"
    }
  }

  /// The SDKs each case runs with: both of `sdk=A,B`'s, else the run's own (`[nil]`).
  package var sdkVariants: [Int?] {
    if case let .sdk(a, b) = self { return [a, b] }
    return [nil]
  }
}
