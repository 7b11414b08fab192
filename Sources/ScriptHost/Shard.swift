/// `--shard K/N`: the K-th of N slices of numbered work (explore's runs, a suite's cases): the
/// items whose number, counted from 0, is K−1 modulo N. One definition for both commands, in
/// the module both build on.
public struct Shard: Equatable, Sendable {
  /// K, from 1.
  public let index: Int
  /// N.
  public let count: Int

  public init(index: Int, count: Int) { self.index = index; self.count = count }

  /// Reads `K/N`; nil unless it is two whole numbers with 1 ≤ K ≤ N.
  public init?(_ text: String) {
    let parts = text.split(separator: "/", omittingEmptySubsequences: false)
    guard parts.count == 2, let k = Int(parts[0]), let n = Int(parts[1]), n >= 1, k >= 1, k <= n else { return nil }
    index = k; count = n
  }

  /// Reads `I/N` numbered from 0, as Kubernetes numbers an Indexed Job's pods
  /// (`JOB_COMPLETION_INDEX`): the shard `I+1/N`; nil where `K/N` would be.
  public init?(zeroBased text: String) {
    let parts = text.split(separator: "/", omittingEmptySubsequences: false)
    guard parts.count == 2, let i = Int(parts[0]), i >= 0, i < Int.max else { return nil }
    self.init("\(i + 1)/\(parts[1])")
  }

  /// `2/4`.
  public var text: String { "\(index)/\(count)" }

  /// Whether the item numbered `item` (from 0) is this shard's.
  public func contains(_ item: Int) -> Bool { item % count == index - 1 }
}
