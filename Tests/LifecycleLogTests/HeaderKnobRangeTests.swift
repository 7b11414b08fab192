import EventStore
import JSON
import Testing
@testable import Lifecycle
import LifecycleLog

/// A header's knobs are checked against the ranges a scenario may set: a crafted header (its chain
/// re-hashed) with a knob at Int64.max overflowed the model's arithmetic (SIGILL).
@Suite struct HeaderKnobRangeTests {
  /// Why `RecordedRun` refuses the header (the reason after `line 1: header: `), or nil.
  private func problem(_ header: LogHeader) -> String? {
    do { _ = try RecordedRun(header: header); return nil } catch {
      guard case let .damaged(1, reason) = error, reason.hasPrefix("header: ") else { return "not a header damage: \(error)" }
      return String(reason.dropFirst("header: ".count))
    }
  }

  /// iOS 17's header with one member set to `value` (added when the header leaves the knob out at its default).
  private func header(_ key: String, _ value: Int64) -> LogHeader {
    let fields = Profile(ios: 17).json.objectValue!
    let profile = fields.contains { $0.0 == key } ? fields.map { $0.0 == key ? (key, JSONValue.int(value)) : $0 } : fields + [(key, .int(value))]
    return LogHeader(lifesim: "0.3.0", lua: "Lua 5.4", profile: .object(profile), scenes: true, seed: 1, scripts: [])
  }

  @Test("every number knob at Int64.min, -1, 0, Int64.max and just outside its range is refused with its range; its bounds are accepted")
  func everyKnobSwept() {
    let numbers = Profile.knobs.compactMap { knob in knob.recordRange.map { (knob.recordKey, $0) } }
    #expect(numbers.count == 17)
    for (key, range) in numbers {
      let values = [Int64.min, -1, 0, Int64.max, range.lowerBound - 1, range.upperBound + 1, range.lowerBound, range.upperBound]
      for value in values {
        let expected = range.contains(value) ? nil : "profile: knob \(key) is \(value), outside its range \(range.lowerBound)…\(range.upperBound)"
        #expect(problem(header(key, value)) == expected, "\(key) = \(value)")
      }
    }
  }

  @Test("the ranges are those a scenario may set: durations 0 to a year in µs, counts as the knob table says")
  func rangesAreTheScenarios() {
    let ranges = Dictionary(uniqueKeysWithValues: Profile.knobs.compactMap { k in k.recordRange.map { (k.recordKey, $0) } })
    #expect(ranges["didEnterBackgroundBudget_us"] == 0...31_536_000_000_000)
    #expect(ranges["instructionLimit"] == 1_000...1_000_000_000_000)
    #expect(ranges["memoryLimitBytes"] == 1_048_576...17_179_869_184)
    #expect(ranges["restoreInteractionMinIOS"] == 13...26)
  }

  @Test("a header whose scenes is not its profile's is refused")
  func scenesAgree() {
    var mixed = header("ios", 17)
    mixed.scenes = false
    #expect(problem(mixed) == "scenes is false but the profile's is true")
    // Scenes on iOS 12, which has none: no scenario can ask for it, so no lifesim wrote it.
    let twelve = Profile(ios: 12).json.objectValue!.map { $0.0 == "scenes" ? ("scenes", JSONValue.bool(true)) : $0 }
    let early = LogHeader(lifesim: "0.4.0", lua: "Lua 5.4", profile: .object(twelve), scenes: true, seed: 1, scripts: [])
    #expect(problem(early) == "profile: scenes is true on iOS 12, which has none")
  }

  @Test("an iOS version without a profile is refused with the versions there are")
  func iosVersion() {
    for value in [Int64.min, -1, 0, 11, 28, Int64.max] {
      #expect(problem(header("ios", value)) == "profile: ios is \(value), outside its range 12…27")
    }
    #expect(problem(LogHeader(lifesim: "0.4.0", lua: "Lua 5.4", profile: Profile(ios: 12).json, scenes: false, seed: 1, scripts: [])) == nil)
    #expect(problem(header("ios", 26)) == nil)
    #expect(problem(header("ios", 27)) == nil)
  }
}
