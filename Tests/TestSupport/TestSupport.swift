import Foundation

/// One seed drives every random choice in a test (SplitMix64): a failure names its seed.
public struct SplitMix64 {
  public var state: UInt64
  public init(seed: UInt64) { state = seed }

  public mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }

  /// A number in 0..<n.
  public mutating func below(_ n: Int) -> Int { Int(next() % UInt64(n)) }
}

/// A fresh path `name` in a per-process folder `folder` under the temporary directory (any old file removed).
public func temporaryPath(_ folder: String, _ name: String) -> String {
  let dir = FileManager.default.temporaryDirectory.appendingPathComponent("\(folder)-\(getpid())")
  try? FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
  let path = dir.appendingPathComponent(name).path
  try? FileManager.default.removeItem(atPath: path)
  return path
}
