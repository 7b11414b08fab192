import ScriptHost
/// The explorer's random numbers: SplitMix64, so one seed gives the same runs on every
/// machine and with any number of threads (each run and lane seeds its own generator).
struct ExploreRandom {
  private var state: UInt64

  init(seed: Int64, stream: Int64) {
    state = UInt64(bitPattern: seed) &* 0x9E37_79B9_7F4A_7C15 ^ UInt64(bitPattern: stream) &* 0xD1B5_4A32_D192_ED03
    _ = next()
  }

  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }

  /// 0 ..< n (n > 0).
  mutating func below(_ n: Int) -> Int { Int(next() % UInt64(n)) }

  /// True with probability `percent` / 100.
  mutating func chance(_ percent: Int) -> Bool { below(100) < percent }

  mutating func pick<T>(_ items: [T]) -> T { items[below(items.count)] }
}
