import ArgumentParser
import Suite

/// `--compare AXIS` reads its value with `ComparisonAxis(argument:)`.
extension ComparisonAxis: ExpressibleByArgument {
  /// What the usage error for a wrong value lists.
  package static var allValueStrings: [String] { ["profiles", "scenes", "sdk=A,B"] }
}
